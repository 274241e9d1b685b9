"""Merging one kind of a package's work (entity spans or judgments) into the team's project.

``core.campaign.merge_package`` checks the package and keeps the merge's record; the
three-way merge of each kind of work against the package's base is here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from mtworkbench.core.campaign_records import MergeRecord, MergeReport, content_key, digest, protocol_of
from mtworkbench.core.layers import placement_clashes, span_layer
from mtworkbench.core.model import EntitySpan, Judgment, ModelError, Project
from mtworkbench.core.typology_edits import add_missing_categories


def free_id(project: Project, wanted: str, person: str) -> str:
    def taken(ident: str) -> bool:
        return ident in project._spans or ident in project._judgments  # one id space, as new_id

    if not taken(wanted):
        return wanted
    candidate, k = f"{wanted}-{person}", 2
    while taken(candidate):
        candidate, k = f"{wanted}-{person}-{k}", k + 1
    return candidate


def _clashes(project: Project, item: EntitySpan) -> list[EntitySpan]:
    """The annotator's spans of the item's layer that its layer's nesting and overlap
    rules forbid beside it (a flat layer: any overlap)."""
    try:
        layer = span_layer(project.settings, item.layer)
        text = project.span_text(item) or ""
    except ModelError:
        return []  # adding it reports what is wrong
    same = [s for s in project.spans_for(item.reference, item.segment, item.annotator) if s.layer == item.layer]
    return placement_clashes(item, same, layer, text)


@dataclass(frozen=True)
class WorkKind:
    """How one kind of work (spans or judgments) is read and changed in a project."""

    name: str
    noun: str
    items: Any  # project -> list
    get: Any  # (project, id) -> item | None
    add: Any
    remove: Any


SPANS = WorkKind("spans", "span", lambda p: p.spans, lambda p, i: p._spans.get(i),
               lambda p, x: p.add_span(x), lambda p, i: p.remove_span(i))
JUDGMENTS = WorkKind("judgments", "judgment", lambda p: p.judgments, lambda p, i: p._judgments.get(i),
                   lambda p, x: p.add_judgment(x), lambda p, i: p.remove_judgment(i))


def merge_work(kind: WorkKind, project: Project, package: Project, base: dict[str, tuple[str, str]], person: str,
               report: MergeReport, record: MergeRecord, conflict: Callable[[str, str, Any, Any], None]) -> None:
    """Bring one kind of a package's work into ``project`` against ``base`` (package id ->
    (project id, digest) of what the person last handed in): additions, edits and deletions
    are applied, clashes go to ``conflict(kind, reason, theirs, kept)``."""
    # content -> project ids; an id is "claimed" once it stands for one item of this package, so
    # two equal items in one package stay two, while equal work from elsewhere is not doubled.
    present: dict[str, list[str]] = {}
    for x in kind.items(project):
        present.setdefault(content_key(x), []).append(x.id)
    claimed = {project_id for project_id, _ in base.values()}
    theirs = kind.items(package)
    package_ids = {x.id for x in theirs}
    sources = record.sources.setdefault(kind.name, {})
    removed = record.removed_spans if kind is SPANS else record.removed_judgments
    for package_id, (project_id, was) in base.items():
        if package_id in package_ids:
            continue
        current = kind.get(project, project_id)  # deleted in the package
        if current is None:
            continue
        if digest(current) == was:
            kind.remove(project, project_id)
            removed.append(project_id)
            setattr(report, f"removed_{kind.name}", getattr(report, f"removed_{kind.name}") + 1)
        else:
            conflict(kind.noun, "deleted in the package but changed in the project", None, current)
    # This person's own earlier work is not "elsewhere": a repeat rating or a re-sent package is no clash.
    own = {project_id for project_id, _ in base.values()}
    elsewhere: dict[tuple, Judgment] = {}
    if kind is JUDGMENTS:
        for j in project.judgments:
            if j.id not in own:
                elsewhere.setdefault(judgment_key(j), j)
    for item in theirs:
        key = content_key(item)
        if item.id in base and digest(item) == base[item.id][1]:
            continue  # unchanged since the project last had it
        if item.id in base:
            current = kind.get(project, base[item.id][0])
            if current is not None and content_key(current) == key:
                continue  # the project has this very change already
        else:
            same = [i for i in present.get(key, []) if i not in claimed]
            if same:
                claimed.add(same[0])
                sources[item.id] = [same[0], digest(item)]
                continue
        if kind is SPANS and item.type not in project.entity_type_names:
            style = next(t for t in package.settings.entity_types if t.name == item.type)
            project.set_setting("entity_types", [*project.settings.entity_types, replace(style)])
        if kind is JUDGMENTS and item.judge not in project.judges:
            project.add_judge(item.judge)
        if kind is JUDGMENTS and item.errors:  # a rater's MQM category the project lacks is added, not lost
            add_missing_categories(project, [item])
        if item.id in base:  # an edit of work the project has from this person
            project_id, was = base[item.id]
            current = kind.get(project, project_id)
            if current is None or digest(current) != was:
                conflict(kind.noun, "changed in the package and in the project", item, current)
                continue
            changed = replace(item, id=project_id)
            kind.remove(project, project_id)
            try:
                kind.add(project, changed)
            except ModelError as exc:
                kind.add(project, current)
                conflict(kind.noun, str(exc), item, current)
                continue
            getattr(record, kind.name).append(project_id)
            sources[item.id] = [project_id, digest(changed)]
            setattr(report, f"changed_{kind.name}", getattr(report, f"changed_{kind.name}") + 1)
            continue
        if kind is SPANS:
            clash = _clashes(project, item)
            if clash:
                span = clash[0]
                conflict("span", f"overlaps the {span.type} span {span.start}-{span.end} of the same "
                                 "annotator already in the project", item, span)
                continue
        else:
            other = elsewhere.get(judgment_key(item))
            if other is not None:
                conflict("judgment", f"judge {item.judge!r} rated this item differently elsewhere "
                                     f"(judgment {other.id!r} kept)", item, other)
                continue
        new = replace(item, id=free_id(project, item.id, person))
        try:
            kind.add(project, new)
        except ModelError as exc:
            conflict(kind.noun, str(exc), item, None)
            continue
        getattr(record, kind.name).append(new.id)
        sources[item.id] = [new.id, digest(new)]
        setattr(report, f"added_{kind.name}", getattr(report, f"added_{kind.name}") + 1)
        claimed.add(new.id)
        present.setdefault(key, []).append(new.id)


def judgment_key(j: Judgment) -> tuple:
    # A BAD item's judgment (quality control) is not another rating of the item itself.
    return (j.judge, j.system, j.segment, j.reference, protocol_of(j), j.qc)
