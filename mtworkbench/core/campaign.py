"""Work packages for teams: split a project among people, merge their work back.

A *campaign* hands out *items* - reference segments to annotate (``by="annotator"``)
or (system, segment, reference) triples to judge (``by="judge"``) - to people.
``plan_campaign`` draws the assignment from a seed (the same project, people, overlap
and seed always give the same campaign, id included); a share of the items
(``overlap``) goes to two people, so their work on those items measures agreement.

``make_package`` builds one person's package: a project holding only that person's
segments, texts and own earlier work, plus the campaign (``project.campaign``) with
``package`` naming the person and ``base`` fingerprinting the spans and judgments it
started with. ``merge_package`` brings a package's spans and judgments back into the
campaign's project as a three-way merge against that base: new work is added, work
edited or deleted in the package is applied where the project still has the base
version, and anything that clashes (the same item changed in two places) is kept in
the project as it was and listed in ``campaign.conflicts`` with the package's version,
so no work is lost. Each merge is recorded (who, when, which package, which ids, and what
each of the package's items became in the project), and a package already merged (same
content hash) changes nothing; a package sent again after more work merges against what its
person handed in last, so their own edits apply as edits.

A judge package's queue has the campaign's protocol (LDC, DA, ESA, MQM) and, when the
campaign asks for them (``bad_rate``, DA and ESA), BAD items hidden among its items
(``core.judging.with_bad_items``); their judgments come back with ``qc="bad"`` and are
merged as quality control, apart from the person's ratings of the same items. An ESA or MQM
package queue carries the model's error spans the team project's queues pre-mark (ESA-AI) on
its items, so its judgments come back saying what became of each.

No Qt and no files here: ``mtworkbench.io.bundle.packages`` reads and writes them.
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from datetime import UTC, datetime
from typing import Any

from mtworkbench.core.campaign_merge import JUDGMENTS, SPANS, merge_work
from mtworkbench.core.campaign_plan import plan_campaign, seeded_rng, seeded_shuffle, texts_fingerprint
from mtworkbench.core.campaign_records import (
    ANNOTATION_PROTOCOL,
    BY_KINDS,
    DEFAULT_JUDGE_PROTOCOL,
    Campaign,
    CampaignError,
    CampaignItem,
    Conflict,
    MergeRecord,
    MergeReport,
    PersonProgress,
    content_key,
    digest,
    protocol_of,
)
from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.core.queue_drawing import with_bad_items
from mtworkbench.core.queue_state import QUEUE_FORMAT, QUEUE_PROTOCOLS, SUGGESTION_PROTOCOLS, JudgeQueue, QueueEntry
from mtworkbench.core.suggested_spans import SuggestedSpan


# --- planning ---------------------------------------------------------------------------------
def parse_overlap(text: str) -> float:
    """``10%``, ``0.1`` or ``10`` (a number above 1 is read as a percentage) -> 0.1."""
    return parse_share(text, "overlap")


def parse_share(text: str, name: str) -> float:
    """A share given as ``10%``, ``0.1`` or ``10`` -> 0.1; errors name the option ``name``."""
    raw = text.strip()
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        raise CampaignError(f"{name} must be a share like 10% or 0.1, not {text!r}") from None
    if not raw.endswith("%") and 1 < value <= 100:
        value /= 100
    if not 0 <= value <= 1:
        raise CampaignError(f"{name} must be between 0% and 100%, not {text!r}")
    return value


def parse_people(text: str) -> list[str]:
    people = [p.strip() for p in text.split(",")]
    if not text.strip() or any(not p for p in people):
        raise CampaignError(f"people must be names separated by commas, not {text!r}")
    return people


def make_package(project: Project, campaign: Campaign, person: str) -> Project:
    """One person's package: their segments, the texts they need and their own earlier work."""
    if person not in campaign.people:
        raise CampaignError(f"{person!r} is not one of the campaign's people")
    mine = campaign.items_of(person)
    segments = {item.segment for item in mine}
    documents = []
    for doc in project.documents:
        paragraphs = [Paragraph(par.id, [Segment(s.id, s.source) for s in par.segments if s.id in segments])
                      for par in doc.paragraphs]
        paragraphs = [p for p in paragraphs if p.segments]
        if paragraphs:
            documents.append(Document(doc.id, paragraphs, dict(doc.attributes)))
    name = f"{project.name} — {person}" if project.name else person
    package = Project(documents, source_language=project.source_language,
                      target_language=project.target_language, name=name)
    package.settings = replace(project.settings, metrics=list(project.settings.metrics),
                               entity_types=[replace(t) for t in project.settings.entity_types])
    base: dict[str, dict[str, str]] = {"spans": {}, "judgments": {}}
    if campaign.by == "annotator":
        pairs = {(item.reference, item.segment) for item in mine}
        for ref in project.references:
            package.add_reference(Reference(ref.id, ref.translator,
                                            {s: t for s, t in ref.texts.items() if (ref.id, s) in pairs}))
        for span in project.spans:
            if (span.reference, span.segment) in pairs and span.annotator == person:
                package.add_span(span)
                base["spans"][span.id] = digest(span)
    else:
        for ref in project.references:
            package.add_reference(Reference(ref.id, ref.translator,
                                            {s: t for s, t in ref.texts.items() if s in segments}))
        wanted_systems = {item.system for item in mine}
        for sys_ in project.systems:
            if sys_.id in wanted_systems:
                package.add_system(System(sys_.id, sys_.kind, {s: t for s, t in sys_.texts.items() if s in segments}))
        package.add_judge(person)
        pairs = {(item.system, item.segment) for item in mine}
        for j in project.judgments:
            if j.judge == person and (j.system, j.segment) in pairs:
                package.add_judgment(j)
                base["judgments"][j.id] = digest(j)
        package.set_judge_queue(person, _with_team_suggestions(project, _queue_state(package, campaign, mine, person)))
    if package.settings.baseline is not None and not package.has_system(package.settings.baseline):
        package.settings.baseline = None
    package.campaign = replace(campaign, package=person, base=base, merges=[], conflicts=[],
                               done={person: list(campaign.done[person])} if campaign.done.get(person) else {})
    return package


def _queue_state(package: Project, campaign: Campaign, mine: list[CampaignItem], person: str) -> JudgeQueue:
    """The judge's queue (``core.queue_state``): their items in a seeded order, no repeats, in
    the campaign's protocol (LDC for one no queue serves), with its BAD items."""
    items = [QueueEntry(it.system, it.segment, it.reference) for it in mine if it.system is not None]
    seeded_shuffle(seeded_rng("campaign-queue", campaign.seed, person), items)
    if campaign.bad_rate:
        items = with_bad_items(package, items, campaign.bad_rate,
                               f"campaign-bad\0{campaign.seed}\0{person}", _BAD_GAP)
    return JudgeQueue(
        format=QUEUE_FORMAT, seed=campaign.seed, repeat_share=0.0, min_repeat_gap=_BAD_GAP,
        reference_mode="per-document", reference=None,
        systems=sorted({it.system for it in mine if it.system}), documents=None,
        show_source=False, highlight_overlap=False, items=items, position=0,
        protocol=campaign.protocol if campaign.protocol in QUEUE_PROTOCOLS else "ldc",
        bad_rate=campaign.bad_rate,
    )


def _with_team_suggestions(project: Project, state: JudgeQueue) -> JudgeQueue:
    """``state`` with the model's error spans the team project's queues pre-mark (ESA-AI) on
    the same system and segment, each span keeping its model name and fingerprint, so a judge
    working from a package sees what a judge on the team project sees and the package's
    judgments come back with what became of each span. Items no team queue covers suggest
    nothing (None, not "the model found no error"); BAD items never do (the model never saw
    their text). Only ESA and MQM queues carry suggestions."""
    if state.protocol not in SUGGESTION_PROTOCOLS:
        return state
    by_source: dict[str, dict[tuple[str, str], list[SuggestedSpan]]] = {}
    for queue in project.judge_queues.values():
        if not queue.suggestions:
            continue
        found = by_source.setdefault(queue.suggestions, {})
        for entry in queue.items:
            if entry.suggested is not None and not entry.qc:
                found.setdefault((entry.system, entry.segment), list(entry.suggested))
    if not by_source:
        return state
    if len(by_source) > 1:
        raise CampaignError(f"the project's queues pre-mark the error spans of {len(by_source)} models "
                            f"({', '.join(sorted(by_source))}); a package carries one model's spans")
    [(source, spans)] = by_source.items()
    items = [replace(e, suggested=None if e.qc else spans.get((e.system, e.segment))) for e in state.items]
    if all(e.suggested is None for e in items):
        return state
    return replace(state, items=items, suggestions=source)


_BAD_GAP = 5  # a BAD item comes at least this many items after its original (where the queue allows)


# --- merging --------------------------------------------------------------------------------------
def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def check_package_texts(project: Project, package: Project, label: str) -> None:
    """Refuse a package whose source, reference or system texts differ from the project's,
    naming the first differing segment (in the package's order)."""
    for ref in package.references:
        if not project.has_reference(ref.id):
            raise CampaignError(f"{label}: reference {ref.id!r} is not in the project")
    for sys_ in package.systems:
        if not project.has_system(sys_.id):
            raise CampaignError(f"{label}: system {sys_.id!r} is not in the project")
    for seg in package.segments:
        if not project.has_segment(seg.id):
            raise CampaignError(f"{label}: segment {seg.id!r} is not in the project")
        if project.segment(seg.id).source != seg.source:
            raise CampaignError(f"{label}: the source text of segment {seg.id!r} differs from the project's")
        for ref in package.references:
            if seg.id in ref.texts and project.reference(ref.id).texts.get(seg.id) != ref.texts[seg.id]:
                raise CampaignError(
                    f"{label}: the text of reference {ref.id!r} in segment {seg.id!r} differs from the project's")
        for sys_ in package.systems:
            if project.system(sys_.id).texts.get(seg.id) != sys_.texts.get(seg.id):
                raise CampaignError(
                    f"{label}: the text of system {sys_.id!r} in segment {seg.id!r} differs from the project's")


def merge_package(project: Project, package: Project, label: str, sha256: str,
                  now: str | None = None) -> MergeReport:
    """Merge one package into ``project`` (changed in place); see the module docstring."""
    from mtworkbench.core.campaign_trust import check_own_work, plan_of

    theirs = getattr(package, "campaign", None)
    if theirs is None:
        raise CampaignError(f"{label}: not a work package (it has no campaign)")
    if theirs.package is None:
        raise CampaignError(f"{label}: a campaign's merged project, not one person's package")
    ours = getattr(project, "campaign", None)
    adopting = ours is None  # a project split without being changed takes its campaign's plan
    if ours is None:
        # The plan is the team project's, never a package's: drawn again from this project and the
        # campaign's settings, so a package whose items were edited cannot become the plan.
        ours = replace(plan_of(project, theirs, label), base={"spans": {}, "judgments": {}})
    elif ours.package is not None:
        raise CampaignError("the project to merge into is itself a package; merge into the team's project")
    elif ours.id != theirs.id:
        raise CampaignError(f"{label}: belongs to campaign {theirs.id}, not to this project's campaign {ours.id}")
    elif ours.items != theirs.items or ours.people != theirs.people:
        raise CampaignError(f"{label}: its item assignment differs from campaign {ours.id}'s (was it edited?)")
    check_package_texts(project, package, label)
    if adopting:
        project.campaign = ours
    person = theirs.package
    check_own_work(ours, package, label, person)
    report = MergeReport(label, person)
    if any(m.sha256 == sha256 for m in ours.merges):
        report.already_merged = True
        return report
    record = MergeRecord(label.replace("\\", "/").rsplit("/", 1)[-1], person, sha256, now or utc_now())

    def conflict(kind: str, reason: str, mine: Any, kept: Any) -> None:
        # As JSON has them (a discontinuous span's fragments are lists there), so a saved
        # and reloaded conflict is the same conflict.
        c = Conflict(kind, record.package, person, reason,
                     None if mine is None else json.loads(json.dumps(asdict(mine))),
                     None if kept is None else json.loads(json.dumps(asdict(kept))))
        report.conflicts.append(c)
        if not any((o.kind, o.person, o.reason, o.theirs, o.kept) == (c.kind, c.person, c.reason, c.theirs, c.kept)
                   for o in ours.conflicts):
            ours.conflicts.append(c)

    for kind in ("spans", "judgments"):
        merge_work(SPANS if kind == "spans" else JUDGMENTS, project, package,
                    _effective_base(theirs, ours, person, kind), person, report, record, conflict)
    # The package is its person's word on which of their items they marked done.
    marks = [i for i in theirs.done.get(person, []) if any(it.id == i for it in ours.items_of(person))]
    if marks != ours.done.get(person, []):
        report.done_marks = len(set(marks) ^ set(ours.done.get(person, [])))
        if marks:
            ours.done[person] = marks
        else:
            ours.done.pop(person, None)
    record.conflicts = len(report.conflicts)
    ours.merges.append(record)
    return report


def _effective_base(theirs: Campaign, ours: Campaign, person: str, kind: str) -> dict[str, tuple[str, str]]:
    """Package id -> (project id, digest) of the work this package's person last handed in:
    what the package started with, updated by every earlier merge of the same person's work,
    so a package sent again after more work merges as edits, not as conflicts."""
    base = {ident: (ident, was) for ident, was in theirs.base.get(kind, {}).items()}
    for m in ours.merges:
        if m.person == person:
            for package_id, (project_id, was) in m.sources.get(kind, {}).items():
                base[package_id] = (project_id, was)
            for project_id in (m.removed_spans if kind == "spans" else m.removed_judgments):
                base = {k: v for k, v in base.items() if v[0] != project_id}
    return base


def shared_segments(project: Project, reference: str, a: str, b: str) -> list[str] | None:
    """The segments of ``reference`` an annotation campaign gave to both ``a`` and ``b`` (their
    overlap, where agreement means something), in document order; None when the project has
    no such campaign or either is not one of its people (then every segment counts)."""
    campaign = getattr(project, "campaign", None)
    if campaign is None or campaign.by != "annotator" or a not in campaign.people or b not in campaign.people:
        return None
    both = {it.segment for it in campaign.items if it.reference == reference and a in it.people and b in it.people}
    return [sid for sid in project.segment_ids if sid in both]


# --- progress -------------------------------------------------------------------------------------
def set_item_done(project: Project, person: str, item_id: str, done: bool) -> bool:
    """Mark (or unmark) one of ``person``'s items done although it holds no work (e.g. a
    segment without entities); returns the old state, so the call is its own inverse."""
    campaign = getattr(project, "campaign", None)
    if campaign is None:
        raise CampaignError("the project is not part of a campaign")
    item = next((it for it in campaign.items if it.id == item_id), None)
    if item is None or person not in item.people:
        raise CampaignError(f"item {item_id!r} is not assigned to {person!r}")
    marks = campaign.done.setdefault(person, [])
    old = item_id in marks
    if done and not old:
        order = {it.id: k for k, it in enumerate(campaign.items)}
        marks.append(item_id)
        marks.sort(key=order.get)
    elif old and not done:
        marks.remove(item_id)
    if not marks:
        campaign.done.pop(person, None)
    return old


def item_has_work(project: Project, item: CampaignItem, person: str) -> bool:
    """The person's spans (annotation) or judgments (judging) exist for the item."""
    if item.system is None:
        assert item.reference is not None, "annotation items always name a reference (checked on load)"
        return bool(project.spans_for(item.reference, item.segment, person))
    return any(j.judge == person and j.system == item.system and j.segment == item.segment and not j.qc
               for j in project.judgments)


def campaign_progress(project: Project) -> list[PersonProgress]:
    """Per person and protocol: items done / assigned. A package counts its own person only.

    An annotation item is done once its person marked an entity in it; a judge item once
    its person's judgment of that system and segment exists (per protocol); either, too,
    once its person marked it done with nothing to add (``set_item_done``).
    """
    campaign = getattr(project, "campaign", None)
    if campaign is None:
        raise CampaignError("the project is not part of a campaign (split it into packages first)")
    people = [campaign.package] if campaign.package else campaign.people
    rows: list[PersonProgress] = []
    if campaign.by == "annotator":
        marked = {(s.annotator, s.reference, s.segment) for s in project.spans}
        for person in people:
            mine = campaign.items_of(person)
            ticked = set(campaign.done.get(person, ()))
            done = sum((person, it.reference, it.segment) in marked or it.id in ticked for it in mine)
            rows.append(PersonProgress(person, campaign.protocol, done, len(mine),
                                       sum(len(it.people) > 1 for it in mine)))
        return rows
    rated: dict[tuple[str, str, str], set[str]] = {}
    for j in project.judgments:
        if not j.qc:  # rating a BAD copy of an item is not rating the item
            rated.setdefault((j.judge, j.system, j.segment), set()).add(protocol_of(j))
    for person in people:
        mine = campaign.items_of(person)
        shared = sum(len(it.people) > 1 for it in mine)
        protocols = {campaign.protocol}
        for it in mine:
            protocols |= rated.get((person, it.system, it.segment), set())
        ticked = set(campaign.done.get(person, ()))
        for protocol in [campaign.protocol, *sorted(protocols - {campaign.protocol})]:
            done = sum(protocol in rated.get((person, it.system, it.segment), ())
                       or (protocol == campaign.protocol and it.id in ticked) for it in mine)
            rows.append(PersonProgress(person, protocol, done, len(mine), shared))
    return rows


__all__ = [
    "ANNOTATION_PROTOCOL",
    "BY_KINDS",
    "DEFAULT_JUDGE_PROTOCOL",
    "Campaign",
    "CampaignError",
    "CampaignItem",
    "Conflict",
    "MergeRecord",
    "MergeReport",
    "PersonProgress",
    "campaign_progress",
    "check_package_texts",
    "content_key",
    "digest",
    "item_has_work",
    "make_package",
    "merge_package",
    "parse_overlap",
    "parse_people",
    "parse_share",
    "plan_campaign",
    "protocol_of",
    "set_item_done",
    "shared_segments",
    "texts_fingerprint",
    "utc_now",
]
