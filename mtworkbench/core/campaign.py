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
merged as quality control, apart from the person's ratings of the same items.

No Qt and no files here: ``mtworkbench.io.bundle.packages`` reads and writes them.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Set as AbstractSet
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, UTC
from typing import Any, Literal, NoReturn, overload

from mtworkbench.core.errors import BundleError, DataError
from mtworkbench.core.model import (
    Document,
    EntitySpan,
    Judgment,
    ModelError,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)
from mtworkbench.core.queue_state import BAD_PROTOCOLS, QUEUE_FORMAT, QUEUE_PROTOCOLS, JudgeQueue, QueueEntry

BY_KINDS = ("annotator", "judge")
ANNOTATION_PROTOCOL = "entities"
DEFAULT_JUDGE_PROTOCOL = "ldc"


class CampaignError(DataError):
    """A split or merge cannot be done as asked; the message says why."""


# --- values -------------------------------------------------------------------------------
@dataclass(frozen=True)
class CampaignItem:
    """One unit of work. ``system`` is None for annotation items; ``reference`` is None
    for a judge item of a segment no reference translates."""

    id: str
    segment: str
    reference: str | None
    system: str | None
    people: tuple[str, ...]


@dataclass
class MergeRecord:
    """Provenance of one merged package: who, when, which file, what it brought."""

    package: str
    person: str
    sha256: str
    merged_at: str
    spans: list[str] = field(default_factory=list)
    judgments: list[str] = field(default_factory=list)
    removed_spans: list[str] = field(default_factory=list)
    removed_judgments: list[str] = field(default_factory=list)
    conflicts: int = 0
    # kind -> package id -> [project id, digest]: what this merge made of the package's work.
    sources: dict[str, dict[str, list[str]]] = field(default_factory=dict)


@dataclass
class Conflict:
    """Work that could not be applied: the package's version, and the project's kept one."""

    kind: str  # "span" or "judgment"
    package: str
    person: str
    reason: str
    theirs: dict[str, Any] | None
    kept: dict[str, Any] | None


@dataclass
class Campaign:
    id: str
    by: str
    protocol: str
    seed: int
    overlap: float
    people: list[str]
    items: list[CampaignItem]
    package: str | None = None  # the person this package is for; None in the team's project
    base: dict[str, dict[str, str]] = field(default_factory=lambda: {"spans": {}, "judgments": {}})
    merges: list[MergeRecord] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    # person -> item ids they marked done with nothing to add (a segment without entities).
    done: dict[str, list[str]] = field(default_factory=dict)
    bad_rate: float = 0.0  # BAD items in each judge's queue, as a share of their items (DA, ESA)

    def items_of(self, person: str) -> list[CampaignItem]:
        return [item for item in self.items if person in item.people]


@dataclass(frozen=True)
class PersonProgress:
    """Items done / assigned for one person and protocol; ``shared`` items have 2+ people."""

    person: str
    protocol: str
    done: int
    assigned: int
    shared: int

    @property
    def fraction(self) -> float:
        return self.done / self.assigned if self.assigned else 1.0


@dataclass
class MergeReport:
    """What one package brought; ``already_merged`` when its exact content was merged before."""

    package: str
    person: str
    already_merged: bool = False
    added_spans: int = 0
    changed_spans: int = 0
    removed_spans: int = 0
    added_judgments: int = 0
    changed_judgments: int = 0
    removed_judgments: int = 0
    done_marks: int = 0
    conflicts: list[Conflict] = field(default_factory=list)

    @property
    def changes(self) -> int:
        return (self.added_spans + self.changed_spans + self.removed_spans + self.added_judgments
                + self.changed_judgments + self.removed_judgments + self.done_marks)


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


def _rng(*parts: object) -> random.Random:
    # random() alone is stable across Python versions (shuffle/randrange are not promised).
    digest = hashlib.sha256("\0".join(str(p) for p in parts).encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _shuffle(rng: random.Random, values: list[Any]) -> None:
    for i in range(len(values) - 1, 0, -1):
        j = min(int(rng.random() * (i + 1)), i)
        values[i], values[j] = values[j], values[i]


def texts_fingerprint(project: Project) -> str:
    """A hash of every source, reference and system text (what a package must not change)."""
    h = hashlib.sha256()
    for seg in project.segments:
        h.update(f"S\0{seg.id}\0{seg.source}\0".encode())
    for ref in project.references:
        for sid, text in sorted(ref.texts.items()):
            h.update(f"R\0{ref.id}\0{sid}\0{text}\0".encode())
    for sys_ in project.systems:
        for sid, text in sorted(sys_.texts.items()):
            h.update(f"Y\0{sys_.id}\0{sid}\0{text}\0".encode())
    return h.hexdigest()


def _units(project: Project, by: str, seed: int) -> list[tuple[str, str | None, str | None]]:
    """(segment, reference, system) of every possible item, in document order."""
    units: list[tuple[str, str | None, str | None]] = []
    if by == "annotator":
        for seg in project.segments:
            for ref in project.references:
                if seg.id in ref.texts:
                    units.append((seg.id, ref.id, None))
        if not units:
            raise CampaignError("nothing to annotate: the project has no reference texts")
        return units
    if not project.systems:
        raise CampaignError("nothing to judge: the project has no systems")
    # One reference per document (as a seed-000 judge saw it), drawn from the seed.
    refs = [r.id for r in project.references]
    rng = _rng("campaign-reference", seed)
    start = {doc.id: (min(int(rng.random() * len(refs)), len(refs) - 1) if refs else 0)
             for doc in project.documents}
    for seg in project.segments:
        first = start[project.document_of(seg.id)]
        chosen = next((refs[(first + k) % len(refs)] for k in range(len(refs))
                       if seg.id in project.reference(refs[(first + k) % len(refs)]).texts), None)
        for sys_ in project.systems:
            units.append((seg.id, chosen, sys_.id))
    return units


def plan_campaign(project: Project, by: str, people: list[str], overlap: float = 0.0, seed: int = 0,
                  protocol: str | None = None, bad_rate: float = 0.0) -> Campaign:
    """Assign every item to one person, and ``overlap`` of them to two; ``bad_rate``
    adds BAD items to each judge's queue (DA, ESA)."""
    if by not in BY_KINDS:
        raise CampaignError(f"split by must be one of {', '.join(BY_KINDS)}, not {by!r}")
    if not people:
        raise CampaignError("name at least one person")
    if len(set(people)) != len(people):
        dup = next(p for p in people if people.count(p) > 1)
        raise CampaignError(f"person {dup!r} is named twice")
    if not 0 <= overlap <= 1:
        raise CampaignError(f"overlap must be between 0 and 1, not {overlap!r}")
    if overlap > 0 and len(people) < 2:
        raise CampaignError("overlap needs at least two people")
    if by == "annotator":
        protocol = ANNOTATION_PROTOCOL
    elif not protocol:
        protocol = DEFAULT_JUDGE_PROTOCOL
    else:
        from mtworkbench.core import model

        known = getattr(model, "PROTOCOLS", None)  # the judging protocols the model knows, where it names them
        if known and protocol not in known:
            raise CampaignError(f"unknown protocol {protocol!r}; expected one of {', '.join(known)}")
    if isinstance(bad_rate, bool) or not isinstance(bad_rate, (int, float)) or not 0 <= bad_rate <= 1:
        raise CampaignError(f"the BAD rate must be between 0 and 1, not {bad_rate!r}")
    if bad_rate and protocol not in BAD_PROTOCOLS:
        raise CampaignError(f"BAD items are for judging campaigns in {' or '.join(BAD_PROTOCOLS)}, "
                            f"not {protocol}")
    units = _units(project, by, seed)
    order = list(range(len(units)))
    _shuffle(_rng("campaign-order", seed, by, ",".join(people)), order)
    n_shared = min(len(units), int(round(overlap * len(units))))
    assigned: dict[int, tuple[str, ...]] = {}
    n = len(people)
    for k, index in enumerate(order[:n_shared]):
        # Pairs walk round the people, so every neighbouring pair shares items.
        pair = {people[k % n], people[(k + 1) % n]}
        assigned[index] = tuple(p for p in people if p in pair)
    for k, index in enumerate(order[n_shared:]):
        assigned[index] = (people[(k + n_shared) % n],)
    items = [CampaignItem(f"i{k + 1}", seg, ref, sys_, assigned[k]) for k, (seg, ref, sys_) in enumerate(units)]
    # A campaign without BAD items keeps the id earlier versions gave it.
    ident = hashlib.sha256(
        json.dumps([texts_fingerprint(project), by, protocol, people, overlap, seed,
                    *([bad_rate] if bad_rate else [])]).encode()
    ).hexdigest()[:16]
    return Campaign(f"c-{ident}", by, protocol, seed, overlap, list(people), items, bad_rate=float(bad_rate))


# --- packages -------------------------------------------------------------------------------------
def content_key(thing: EntitySpan | Judgment) -> str:
    """Everything but the id, canonically: two equal keys are the same piece of work."""
    data = asdict(thing)
    data.pop("id")
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def digest(thing: EntitySpan | Judgment) -> str:
    return hashlib.sha256(content_key(thing).encode("utf-8")).hexdigest()[:16]


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
        package.set_judge_queue(person, _queue_state(package, campaign, mine, person))
    if package.settings.baseline is not None and not package.has_system(package.settings.baseline):
        package.settings.baseline = None
    package.campaign = replace(campaign, package=person, base=base, merges=[], conflicts=[],
                               done={person: list(campaign.done[person])} if campaign.done.get(person) else {})
    return package


def _queue_state(package: Project, campaign: Campaign, mine: list[CampaignItem], person: str) -> JudgeQueue:
    """The judge's queue (``core.queue_state``): their items in a seeded order, no repeats, in
    the campaign's protocol (LDC for one no queue serves), with its BAD items."""
    from mtworkbench.core.judging import with_bad_items

    items = [QueueEntry(it.system, it.segment, it.reference) for it in mine if it.system is not None]
    _shuffle(_rng("campaign-queue", campaign.seed, person), items)
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


def _free_id(project: Project, wanted: str, person: str) -> str:
    def taken(ident: str) -> bool:
        return ident in project._spans or ident in project._judgments  # one id space, as new_id

    if not taken(wanted):
        return wanted
    candidate, k = f"{wanted}-{person}", 2
    while taken(candidate):
        candidate, k = f"{wanted}-{person}-{k}", k + 1
    return candidate


def _overlaps(a: EntitySpan, b: EntitySpan) -> bool:
    return a.start < b.end and b.start < a.end


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
        c = Conflict(kind, record.package, person, reason,
                     None if mine is None else asdict(mine), None if kept is None else asdict(kept))
        report.conflicts.append(c)
        if not any((o.kind, o.person, o.reason, o.theirs, o.kept) == (c.kind, c.person, c.reason, c.theirs, c.kept)
                   for o in ours.conflicts):
            ours.conflicts.append(c)

    for kind in ("spans", "judgments"):
        _merge_kind(_SPANS if kind == "spans" else _JUDGMENTS, project, package,
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


@dataclass(frozen=True)
class _Kind:
    """How one kind of work (spans or judgments) is read and changed in a project."""

    name: str
    noun: str
    items: Any  # project -> list
    get: Any  # (project, id) -> item | None
    add: Any
    remove: Any


_SPANS = _Kind("spans", "span", lambda p: p.spans, lambda p, i: p._spans.get(i),
               lambda p, x: p.add_span(x), lambda p, i: p.remove_span(i))
_JUDGMENTS = _Kind("judgments", "judgment", lambda p: p.judgments, lambda p, i: p._judgments.get(i),
                   lambda p, x: p.add_judgment(x), lambda p, i: p.remove_judgment(i))


def _merge_kind(kind: _Kind, project, package, base, person, report, record, conflict) -> None:
    # content -> project ids; an id is "claimed" once it stands for one item of this package, so
    # two equal items in one package stay two, while equal work from elsewhere is not doubled.
    present: dict[str, list[str]] = {}
    for x in kind.items(project):
        present.setdefault(content_key(x), []).append(x.id)
    claimed = {project_id for project_id, _ in base.values()}
    theirs = kind.items(package)
    package_ids = {x.id for x in theirs}
    sources = record.sources.setdefault(kind.name, {})
    removed = record.removed_spans if kind is _SPANS else record.removed_judgments
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
    if kind is _JUDGMENTS:
        for j in project.judgments:
            if j.id not in own:
                elsewhere.setdefault(_judgment_key(j), j)
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
        if kind is _SPANS and item.type not in project.entity_type_names:
            style = next(t for t in package.settings.entity_types if t.name == item.type)
            project.set_setting("entity_types", [*project.settings.entity_types, replace(style)])
        if kind is _JUDGMENTS and item.judge not in project.judges:
            project.add_judge(item.judge)
        if kind is _JUDGMENTS and item.errors:  # a rater's MQM category the project lacks is added, not lost
            from mtworkbench.core.typology_edits import add_missing_categories

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
        if kind is _SPANS:
            clash = [s for s in project.spans_for(item.reference, item.segment, item.annotator)
                     if _overlaps(s, item)]
            if clash:
                other = clash[0]
                conflict("span", f"overlaps the {other.type} span {other.start}-{other.end} of the same "
                                 "annotator already in the project", item, other)
                continue
        else:
            other = elsewhere.get(_judgment_key(item))
            if other is not None:
                conflict("judgment", f"judge {item.judge!r} rated this item differently elsewhere "
                                     f"(judgment {other.id!r} kept)", item, other)
                continue
        new = replace(item, id=_free_id(project, item.id, person))
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


def _judgment_key(j: Judgment) -> tuple:
    # A BAD item's judgment (quality control) is not another rating of the item itself.
    return (j.judge, j.system, j.segment, j.reference, protocol_of(j), j.qc)


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
def protocol_of(j: Judgment) -> str:
    """The judgment's protocol (the field where the model has one, else from its values)."""
    protocol = getattr(j, "protocol", "")
    if protocol:
        return protocol
    if j.adequacy is not None or j.fluency is not None:
        return "ldc"
    return (j.scale or "score").lower()


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


# --- JSON (the bundle's additive "campaign" key) ---------------------------------------------------
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
    path = "$.campaign"

    def fail(message: str, where: str) -> NoReturn:
        raise BundleError(message, where, file)

    def obj(v: Any, where: str, required: set[str], optional: AbstractSet[str] = frozenset()) -> dict[str, Any]:
        if not isinstance(v, dict):
            fail("expected an object", where)
        for key in sorted(required - set(v)):
            fail(f"missing field {key!r}", where)
        for key in sorted(set(v) - required - set(optional)):
            fail(f"unknown field {key!r}", f"{where}.{key}")
        return v

    @overload
    def text(v: Any, where: str, optional: Literal[False] = False) -> str: ...
    @overload
    def text(v: Any, where: str, optional: bool) -> str | None: ...

    def text(v: Any, where: str, optional: bool = False) -> str | None:
        if v is None and optional:
            return None
        if not isinstance(v, str) or not v.strip():
            fail("expected a non-empty string" + (" or null" if optional else ""), where)
        return v

    def strings(v: Any, where: str) -> list[str]:
        if not isinstance(v, list):
            fail("expected a list", where)
        return [text(x, f"{where}[{i}]") for i, x in enumerate(v)]

    data = obj(value, path, {"id", "by", "protocol", "seed", "overlap", "people", "items"},
               {"package", "base", "merges", "conflicts", "done", "bad_rate"})
    by = text(data["by"], f"{path}.by")
    if by not in BY_KINDS:
        fail(f"expected one of {', '.join(BY_KINDS)}, found {by!r}", f"{path}.by")
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        fail("expected an integer", f"{path}.seed")
    overlap = data["overlap"]
    if isinstance(overlap, bool) or not isinstance(overlap, (int, float)) or not 0 <= overlap <= 1:
        fail("expected a number from 0 to 1", f"{path}.overlap")
    bad_rate = data.get("bad_rate", 0.0)
    if isinstance(bad_rate, bool) or not isinstance(bad_rate, (int, float)) or not 0 <= bad_rate <= 1:
        fail("expected a number from 0 to 1", f"{path}.bad_rate")
    people = strings(data["people"], f"{path}.people")
    if not people or len(set(people)) != len(people):
        fail("expected one or more distinct names", f"{path}.people")
    package = text(data.get("package"), f"{path}.package", optional=True)
    if package is not None and package not in people:
        fail(f"package person {package!r} is not one of the people", f"{path}.package")
    if not isinstance(data["items"], list):
        fail("expected a list", f"{path}.items")
    items: list[CampaignItem] = []
    seen: set[str] = set()
    for i, raw in enumerate(data["items"]):
        ip = f"{path}.items[{i}]"
        obj(raw, ip, {"id", "segment", "reference", "system", "people"})
        ident = text(raw["id"], f"{ip}.id")
        if ident in seen:
            fail(f"duplicate item id {ident!r}", f"{ip}.id")
        seen.add(ident)
        item = CampaignItem(ident, text(raw["segment"], f"{ip}.segment"),
                            text(raw["reference"], f"{ip}.reference", optional=True),
                            text(raw["system"], f"{ip}.system", optional=True),
                            tuple(strings(raw["people"], f"{ip}.people")))
        if not item.people or any(p not in people for p in item.people):
            fail("expected one or more of the campaign's people", f"{ip}.people")
        if (by == "annotator") != (item.system is None) or (by == "annotator" and item.reference is None):
            fail(f"an item of a {by} campaign needs " + ("a reference and no system" if by == "annotator"
                                                          else "a system"), ip)
        # Every item of the team's project, and every item of a package's own person, must exist.
        if package is None or package in item.people:
            if not project.has_segment(item.segment):
                fail(f"unknown segment {item.segment!r}", f"{ip}.segment")
            if item.reference is not None and not project.has_reference(item.reference):
                fail(f"unknown reference {item.reference!r}", f"{ip}.reference")
            if item.system is not None and not project.has_system(item.system):
                fail(f"unknown system {item.system!r}", f"{ip}.system")
        items.append(item)
    base_raw = obj(data.get("base", {"spans": {}, "judgments": {}}), f"{path}.base", set(), {"spans", "judgments"})
    base: dict[str, dict[str, str]] = {}
    for kind in ("spans", "judgments"):
        entries = base_raw.get(kind, {})
        if not isinstance(entries, dict):
            fail("expected an object", f"{path}.base.{kind}")
        for k, v in entries.items():
            text(v, f"{path}.base.{kind}.{k}")
        base[kind] = dict(entries)
    merges = []
    for i, raw in enumerate(data.get("merges", []) if isinstance(data.get("merges", []), list) else fail(
            "expected a list", f"{path}.merges") or []):
        mp = f"{path}.merges[{i}]"
        obj(raw, mp, {"package", "person", "sha256", "merged_at"},
            {"spans", "judgments", "removed_spans", "removed_judgments", "conflicts", "sources"})
        sources = obj(raw.get("sources", {}), f"{mp}.sources", set(), {"spans", "judgments"})
        for kind, entries in sources.items():
            if not isinstance(entries, dict):
                fail("expected an object", f"{mp}.sources.{kind}")
            for k, v in entries.items():
                if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, str) for x in v)):
                    fail("expected [project id, digest]", f"{mp}.sources.{kind}.{k}")
        conflicts = raw.get("conflicts", 0)
        if isinstance(conflicts, bool) or not isinstance(conflicts, int):
            fail("expected an integer", f"{mp}.conflicts")
        merges.append(MergeRecord(
            text(raw["package"], f"{mp}.package"), text(raw["person"], f"{mp}.person"),
            text(raw["sha256"], f"{mp}.sha256"), text(raw["merged_at"], f"{mp}.merged_at"),
            **{k: strings(raw.get(k, []), f"{mp}.{k}") for k in ("spans", "judgments", "removed_spans",
                                                                "removed_judgments")},
            conflicts=conflicts, sources={k: {i: list(v) for i, v in e.items()} for k, e in sources.items()}))
    conflicts_out = []
    raw_conflicts = data.get("conflicts", [])
    if not isinstance(raw_conflicts, list):
        fail("expected a list", f"{path}.conflicts")
    for i, raw in enumerate(raw_conflicts):
        cp = f"{path}.conflicts[{i}]"
        obj(raw, cp, {"kind", "package", "person", "reason", "theirs", "kept"})
        for k in ("theirs", "kept"):
            if raw[k] is not None and not isinstance(raw[k], dict):
                fail("expected an object or null", f"{cp}.{k}")
        conflicts_out.append(Conflict(text(raw["kind"], f"{cp}.kind"), text(raw["package"], f"{cp}.package"),
                                      text(raw["person"], f"{cp}.person"), text(raw["reason"], f"{cp}.reason"),
                                      raw["theirs"], raw["kept"]))
    done_raw = data.get("done", {})
    if not isinstance(done_raw, dict):
        fail("expected an object", f"{path}.done")
    item_people = {it.id: it.people for it in items}
    done: dict[str, list[str]] = {}
    for person, ids in done_raw.items():
        for k, ident in enumerate(strings(ids, f"{path}.done.{person}")):
            if person not in item_people.get(ident, ()):
                fail(f"item {ident!r} is not assigned to {person!r}", f"{path}.done.{person}[{k}]")
        done[person] = list(ids)
    return Campaign(text(data["id"], f"{path}.id"), by, text(data["protocol"], f"{path}.protocol"), seed,
                    float(overlap), people, items, package, base, merges, conflicts_out, done,
                    bad_rate=float(bad_rate))
