"""A campaign as JSON: the bundle's additive ``campaign`` object, written and read back.

Reading checks every field against the loaded project and names the JSON path of
the first problem (``core.json_reader``).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from mtworkbench.core.campaign_records import BY_KINDS, Campaign, CampaignItem, Conflict, MergeRecord
from mtworkbench.core.json_reader import JsonReader
from mtworkbench.core.model import Project

CAMPAIGN_REQUIRED = frozenset({"id", "by", "protocol", "seed", "overlap", "people", "items"})
CAMPAIGN_OPTIONAL = frozenset({"package", "base", "merges", "conflicts", "done", "bad_rate"})
WORK_KINDS = frozenset({"spans", "judgments"})
MERGE_LISTS = ("spans", "judgments", "removed_spans", "removed_judgments")


def campaign_to_json(campaign: Campaign) -> dict[str, Any]:
    return {
        "id": campaign.id,
        "by": campaign.by,
        "protocol": campaign.protocol,
        "seed": campaign.seed,
        "overlap": campaign.overlap,
        "people": list(campaign.people),
        "package": campaign.package,
        "items": [{"id": it.id, "segment": it.segment, "reference": it.reference, "system": it.system,
                   "people": list(it.people)} for it in campaign.items],
        "base": {"spans": dict(campaign.base.get("spans", {})),
                 "judgments": dict(campaign.base.get("judgments", {}))},
        "merges": [asdict(m) for m in campaign.merges],
        "conflicts": [asdict(c) for c in campaign.conflicts],
        **({"done": {p: list(ids) for p, ids in campaign.done.items()}} if campaign.done else {}),
        **({"bad_rate": campaign.bad_rate} if campaign.bad_rate else {}),
    }


def campaign_from_json(value: Any, project: Project, file: str | None = None) -> Campaign:
    """Validate the bundle's ``campaign`` object against the loaded project."""
    r = JsonReader(file)
    path = "$.campaign"
    data = r.keys(value, path, CAMPAIGN_REQUIRED, CAMPAIGN_OPTIONAL)
    by = r.choice(data["by"], f"{path}.by", BY_KINDS)
    seed = r.int(data["seed"], f"{path}.seed")
    overlap = r.share(data["overlap"], f"{path}.overlap")
    bad_rate = r.share(data.get("bad_rate", 0.0), f"{path}.bad_rate")
    people = r.ident_list(data["people"], f"{path}.people")
    if not people or len(set(people)) != len(people):
        r.fail("expected one or more distinct names", f"{path}.people")
    package = r.optional_ident(data.get("package"), f"{path}.package")
    if package is not None and package not in people:
        r.fail(f"package person {package!r} is not one of the people", f"{path}.package")
    items = _read_items(r, data["items"], f"{path}.items", by, people, package, project)
    return Campaign(r.ident(data["id"], f"{path}.id"), by, r.ident(data["protocol"], f"{path}.protocol"), seed,
                    float(overlap), people, items, package,
                    _read_base(r, data.get("base", {"spans": {}, "judgments": {}}), f"{path}.base"),
                    _read_merges(r, data.get("merges", []), f"{path}.merges"),
                    _read_conflicts(r, data.get("conflicts", []), f"{path}.conflicts"),
                    _read_done(r, data.get("done", {}), f"{path}.done", items),
                    bad_rate=float(bad_rate))


def _read_items(r: JsonReader, value: Any, path: str, by: str, people: list[str], package: str | None,
                project: Project) -> list[CampaignItem]:
    items: list[CampaignItem] = []
    seen: set[str] = set()
    for i, raw in enumerate(r.list(value, path)):
        ip = f"{path}[{i}]"
        r.keys(raw, ip, {"id", "segment", "reference", "system", "people"})
        ident = r.ident(raw["id"], f"{ip}.id")
        if ident in seen:
            r.fail(f"duplicate item id {ident!r}", f"{ip}.id")
        seen.add(ident)
        item = CampaignItem(ident, r.ident(raw["segment"], f"{ip}.segment"),
                            r.optional_ident(raw["reference"], f"{ip}.reference"),
                            r.optional_ident(raw["system"], f"{ip}.system"),
                            tuple(r.ident_list(raw["people"], f"{ip}.people")))
        if not item.people or any(p not in people for p in item.people):
            r.fail("expected one or more of the campaign's people", f"{ip}.people")
        if (by == "annotator") != (item.system is None) or (by == "annotator" and item.reference is None):
            r.fail(f"an item of a {by} campaign needs "
                   + ("a reference and no system" if by == "annotator" else "a system"), ip)
        # Every item of the team's project, and every item of a package's own person, must exist.
        if package is None or package in item.people:
            r.ref_to(item.segment, f"{ip}.segment", project.has_segment, "segment")
            if item.reference is not None:
                r.ref_to(item.reference, f"{ip}.reference", project.has_reference, "reference")
            if item.system is not None:
                r.ref_to(item.system, f"{ip}.system", project.has_system, "system")
        items.append(item)
    return items


def _read_base(r: JsonReader, value: Any, path: str) -> dict[str, dict[str, str]]:
    base_raw = r.keys(value, path, set(), WORK_KINDS)
    base: dict[str, dict[str, str]] = {}
    for kind in ("spans", "judgments"):
        entries = r.obj(base_raw.get(kind, {}), f"{path}.{kind}")
        for k, v in entries.items():
            r.ident(v, f"{path}.{kind}.{k}")
        base[kind] = dict(entries)
    return base


def _read_merges(r: JsonReader, value: Any, path: str) -> list[MergeRecord]:
    merges = []
    for i, raw in enumerate(r.list(value, path)):
        mp = f"{path}[{i}]"
        r.keys(raw, mp, {"package", "person", "sha256", "merged_at"}, {*MERGE_LISTS, "conflicts", "sources"})
        sources = r.keys(raw.get("sources", {}), f"{mp}.sources", set(), WORK_KINDS)
        for kind, entries in sources.items():
            for k, v in r.obj(entries, f"{mp}.sources.{kind}").items():
                if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, str) for x in v)):
                    r.fail("expected [project id, digest]", f"{mp}.sources.{kind}.{k}")
        merges.append(MergeRecord(
            r.ident(raw["package"], f"{mp}.package"), r.ident(raw["person"], f"{mp}.person"),
            r.ident(raw["sha256"], f"{mp}.sha256"), r.ident(raw["merged_at"], f"{mp}.merged_at"),
            **{k: r.ident_list(raw.get(k, []), f"{mp}.{k}") for k in MERGE_LISTS},
            conflicts=r.int(raw.get("conflicts", 0), f"{mp}.conflicts"),
            sources={k: {i: list(v) for i, v in e.items()} for k, e in sources.items()}))
    return merges


def _read_conflicts(r: JsonReader, value: Any, path: str) -> list[Conflict]:
    conflicts = []
    for i, raw in enumerate(r.list(value, path)):
        cp = f"{path}[{i}]"
        r.keys(raw, cp, {"kind", "package", "person", "reason", "theirs", "kept"})
        for k in ("theirs", "kept"):
            if raw[k] is not None:
                r.obj(raw[k], f"{cp}.{k}")
        conflicts.append(Conflict(r.ident(raw["kind"], f"{cp}.kind"), r.ident(raw["package"], f"{cp}.package"),
                                  r.ident(raw["person"], f"{cp}.person"), r.ident(raw["reason"], f"{cp}.reason"),
                                  raw["theirs"], raw["kept"]))
    return conflicts


def _read_done(r: JsonReader, value: Any, path: str, items: list[CampaignItem]) -> dict[str, list[str]]:
    item_people = {it.id: it.people for it in items}
    done: dict[str, list[str]] = {}
    for person, ids in r.obj(value, path).items():
        for k, ident in enumerate(r.ident_list(ids, f"{path}.{person}")):
            if person not in item_people.get(ident, ()):
                r.fail(f"item {ident!r} is not assigned to {person!r}", f"{path}.{person}[{k}]")
        done[person] = list(ids)
    return done


__all__ = ["campaign_from_json", "campaign_to_json"]
