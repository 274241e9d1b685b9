"""Merge this session's project with the version another writer saved (Qt-free).

For the "changed on disk" choice *merge*: the result starts from the disk
version and takes this session's changes. With ``base`` (the project as it
was loaded) the merge is three-way: an item changed or deleted on one side
only takes that side; an item changed differently on both sides is a
conflict, listed, and keeps the disk version. Without ``base`` nothing can be
known to be deleted, so items of both sides are kept and differing items are
conflicts. Judgments, entity spans, systems, references, documents (by id),
judges and judge queues merge item by item; any other field (settings, name,
languages, learned model) as a whole.

The merged dict is loaded through the bundle loader, so the result is a valid
project or a ``DataError`` saying what does not fit together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mtworkbench.core.model import Project
from mtworkbench.io.bundle.bundle import project_from_dict, project_to_dict
from mtworkbench.io.bundle.recovery import KEYED_LISTS

_MISSING = object()


@dataclass
class MergeResult:
    project: Project
    conflicts: list[str] = field(default_factory=list)  # one line each; the disk version was kept
    taken_from_mine: int = 0  # items (or fields) this session contributed


def merge_projects(disk: Project, mine: Project, base: Project | None = None) -> MergeResult:
    d, m = project_to_dict(disk), project_to_dict(mine)
    b = None if base is None else project_to_dict(base)
    merged = dict(d)
    conflicts: list[str] = []
    taken = 0

    for key, noun in KEYED_LISTS.items():
        entries, n, c = _merge_keyed(d.get(key, []), m.get(key, []), None if b is None else b.get(key, []), noun)
        merged[key] = entries
        taken += n
        conflicts += c

    judges = list(d.get("judges", []))
    removed_by_me = set() if b is None else set(b.get("judges", [])) - set(m.get("judges", []))
    for judge in m.get("judges", []):
        if judge not in judges and (b is None or judge not in b.get("judges", [])):
            judges.append(judge)
            taken += 1
    still_used = {j["judge"] for j in merged.get("judgments", [])}
    judges = [j for j in judges if j not in removed_by_me or j in still_used]
    merged["judges"] = judges

    queues = dict(d.get("judge_queues", {}))
    bq = {} if b is None else b.get("judge_queues", {})
    for judge, queue in m.get("judge_queues", {}).items():
        value, n, c = _merge_value(queues.get(judge, _MISSING), queue, bq.get(judge, _MISSING) if b else _MISSING,
                                   f"queue of judge {judge!r}")
        if value is not _MISSING:
            queues[judge] = value
        taken += n
        conflicts += c
    merged["judge_queues"] = {j: q for j, q in queues.items() if j in judges}

    skip = set(KEYED_LISTS) | {"judges", "judge_queues", "format", "format_version"}
    for key in sorted(set(d) | set(m)):
        if key in skip:
            continue
        value, n, c = _merge_value(d.get(key, _MISSING), m.get(key, _MISSING),
                                   _MISSING if b is None else b.get(key, _MISSING), f"field {key!r}")
        if value is _MISSING:
            merged.pop(key, None)
        else:
            merged[key] = value
        taken += n
        conflicts += c
    return MergeResult(project_from_dict(merged, file="(merge)"), conflicts, taken)


def _merge_value(disk: Any, mine: Any, base: Any, what: str) -> tuple[Any, int, list[str]]:
    if disk == mine:
        return disk, 0, []
    if base is not _MISSING or disk is _MISSING or mine is _MISSING:
        if disk == base:
            return mine, 1, []
        if mine == base:
            return disk, 0, []
    if disk is _MISSING:
        return mine, 1, []  # added here, unknown there (no base)
    return disk, 0, [f"{what}: changed both here and on disk; kept the version on disk"]


def _merge_keyed(disk: list[dict], mine: list[dict], base: list[dict] | None, noun: str) -> tuple[list[dict], int, list[str]]:
    d = {e["id"]: e for e in disk}
    m = {e["id"]: e for e in mine}
    bb = None if base is None else {e["id"]: e for e in base}
    out = []
    taken = 0
    conflicts: list[str] = []
    for item_id, entry in d.items():
        if item_id in m:
            value, n, c = _merge_value(entry, m[item_id], _MISSING if bb is None else bb.get(item_id, _MISSING),
                                       f"{noun} {item_id!r}")
            out.append(value)
            taken += n
            conflicts += c
        elif bb is not None and item_id in bb:  # deleted here
            if entry == bb[item_id]:
                taken += 1  # the deletion is this session's change
                continue
            out.append(entry)
            conflicts.append(f"{noun} {item_id!r}: deleted here but changed on disk; kept the version on disk")
        else:
            out.append(entry)  # added on disk
    for item_id, entry in m.items():
        if item_id in d:
            continue
        if bb is not None and item_id in bb:  # deleted on disk
            if entry != bb[item_id]:
                conflicts.append(f"{noun} {item_id!r}: changed here but deleted on disk; left deleted")
            continue
        out.append(entry)  # added here
        taken += 1
    return out, taken, conflicts
