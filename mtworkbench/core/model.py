"""The project model: plain Python objects, no Qt.

Documents hold paragraphs, paragraphs hold segments (source sentences). Each
reference translation and each system output has one text per segment. Entity
spans annotate reference texts; judgments rate a system's segment against one
reference.

Every change goes through a ``Project`` method that keeps ids consistent (no
dangling references) and has an inverse, so an undo command is two calls:
``add_span``/``remove_span``, ``set_span_type`` (returns the old type),
``add_judgment``/``remove_judgment``, ``remove_system`` returns a record that
``restore_system`` puts back, and so on. After each change the project tells
its listeners what happened (a ``ProjectEvent`` subclass from ``core.events``)
so views can refresh.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from mtworkbench.core import events as ev
from mtworkbench.core.errors import DataError
from mtworkbench.core.events import ProjectEvent
from mtworkbench.core.mqm_typology import GOOGLE_TYPOLOGY, Typology
from mtworkbench.core.queue_state import DISPLAY_OPTIONS, MQM_MAX_ERRORS, JudgeQueue

MUC7_TYPES: tuple[str, ...] = (
    "PERSON",
    "ORGANIZATION",
    "LOCATION",
    "DATE",
    "TIME",
    "MONEY",
    "PERCENT",
)
SYSTEM_KINDS = ("machine", "human")
RATING_RANGE = (1, 5)
RANK_RANGE = (1, 5)  # relative ranking: 1 best .. 5 worst, ties allowed (Appraise, WMT 2013-2016)


class ModelError(DataError):
    """A change would make the project inconsistent (unknown id, duplicate, range)."""


@dataclass
class Segment:
    id: str
    source: str


@dataclass
class Paragraph:
    id: str
    segments: list[Segment] = field(default_factory=list)


@dataclass
class Document:
    id: str
    paragraphs: list[Paragraph] = field(default_factory=list)
    # Free attributes from the corpus file (e.g. SGML/XML origlang, genre).
    attributes: dict[str, str] = field(default_factory=dict)


@dataclass
class Reference:
    """A human reference translation; ``texts`` maps segment id -> text.

    A segment missing from ``texts`` has no reference from this translator
    (variable number of references per segment).
    """

    id: str
    translator: str = ""
    texts: dict[str, str] = field(default_factory=dict)


@dataclass
class System:
    """A candidate translation of every segment, by a machine or a human."""

    id: str
    kind: str = "machine"
    texts: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class EntitySpan:
    """A named entity in a reference text: characters ``[start, end)``."""

    id: str
    reference: str
    segment: str
    start: int
    end: int
    type: str
    annotator: str


PROTOCOLS: tuple[str, ...] = ("ldc", "da", "esa", "mqm", "rank", "scalar")
"""How a judgment was made: LDC adequacy/fluency 1-5; DA 0-100 slider; ESA error spans
then a 0-100 score; MQM error spans with category and severity (the score follows
from the spans and the weights); relative ranking (``score`` = rank, 1 best); and
``scalar``, a segment score imported on a named scale with no protocol of its own."""

SPAN_PROTOCOLS = ("mqm", "esa")


def protocol_for_scale(scale: str | None) -> str:
    """The protocol a numeric score on ``scale`` belongs to (bundles of version 1 and
    pseudo-judge imports name only a scale: ``mqm``, ``da-z``, ``esa``, ``rank``...)."""
    name = (scale or "").strip().lower()
    for protocol in ("mqm", "esa", "da", "rank"):
        if name.startswith(protocol):
            return protocol
    return "scalar"


@dataclass(frozen=True)
class ErrorSpan:
    """One error a rater marked (MQM, ESA).

    ``start``/``end`` are character offsets ``[start, end)`` into the translation
    the rater was shown; both None for an error with no place in it (an omission).
    An error marked in the source instead (MQM source-side spans) has
    ``source_start``/``source_end`` into the segment's source. One end None and
    the other set: only that end was marked (the span reaches the text's edge). ``severity`` keeps
    the spelling of the data (``Major``, ``minor``...); ``category`` is empty for ESA.
    """

    start: int | None
    end: int | None
    severity: str
    category: str = ""
    comment: str = ""
    source_start: int | None = None
    source_end: int | None = None


@dataclass(frozen=True)
class Judgment:
    """One human rating of a system's segment, made against one reference.

    LDC adequacy and fluency are 1-5. Scores on other scales (direct
    assessment z-scores, MQM) are kept in ``score`` with ``scale`` naming it.
    ``protocol`` says how the rating was made (see ``PROTOCOLS``); left empty it
    is inferred: ``ldc`` for adequacy/fluency, else from the scale. MQM and ESA
    judgments carry their ``errors``; an MQM judgment without errors means "rated,
    no errors". ``qc`` is ``"bad"`` for a DA quality-control item (a degraded copy),
    whose shown text is ``text``; ``text`` is None when the rater saw the system's output.
    ``ranking`` is, for a relative-ranking judgment (protocol ``rank``, ``score`` = the
    rank), the id shared by the judgments of the systems ranked together on one screen
    (``core.ranking`` groups them); empty otherwise.
    """

    id: str
    judge: str
    system: str
    segment: str
    reference: str | None = None
    adequacy: int | None = None
    fluency: int | None = None
    score: float | None = None
    scale: str | None = None
    timestamp: str = ""
    seconds: float = 0.0
    comment: str = ""
    protocol: str = ""
    errors: tuple[ErrorSpan, ...] = ()
    qc: str = ""
    text: str | None = None
    ranking: str = ""

    def __post_init__(self) -> None:
        if not self.protocol:
            inferred = "ldc" if self.adequacy is not None or self.fluency is not None or self.score is None \
                else protocol_for_scale(self.scale)
            object.__setattr__(self, "protocol", inferred)
        if not isinstance(self.errors, tuple):
            object.__setattr__(self, "errors", tuple(self.errors))


QC_KINDS = ("", "bad")


def _check_ranked(j: Judgment) -> None:
    """A judgment of a relative ranking: protocol ``rank`` and a whole rank in ``RANK_RANGE``."""
    lo, hi = RANK_RANGE
    if j.protocol != "rank":
        raise ModelError(f"judgment {j.id!r} belongs to ranking {j.ranking!r} but its protocol is {j.protocol!r}, not 'rank'")
    if j.score is None or not lo <= j.score <= hi or j.score != int(j.score):
        raise ModelError(f"rank must be a whole number from {lo} to {hi}, not {j.score!r}")
    if j.errors or j.qc:
        raise ModelError(f"a ranking judgment carries no error spans and no quality-control role ({j.id!r})")


@dataclass
class EntityTypeStyle:
    """How the annotation editor shows and keys an entity type."""

    name: str
    key: str
    color: str


DEFAULT_ENTITY_TYPES: tuple[EntityTypeStyle, ...] = (
    EntityTypeStyle("PERSON", "P", "#e6194b"),
    EntityTypeStyle("ORGANIZATION", "O", "#4363d8"),
    EntityTypeStyle("LOCATION", "L", "#3cb44b"),
    EntityTypeStyle("DATE", "D", "#f58231"),
    EntityTypeStyle("TIME", "T", "#911eb4"),
    EntityTypeStyle("MONEY", "M", "#9a6324"),
    EntityTypeStyle("PERCENT", "C", "#469990"),
)

DEFAULT_METRICS: tuple[str, ...] = ("bleu", "chrf", "ter", "nist", "gtm", "meteor")


@dataclass
class Settings:
    metrics: list[str] = field(default_factory=lambda: list(DEFAULT_METRICS))
    baseline: str | None = None
    entity_types: list[EntityTypeStyle] = field(
        default_factory=lambda: [replace(t) for t in DEFAULT_ENTITY_TYPES]
    )
    # The MQM categories raters pick from, and the default most errors a segment
    # for new MQM queues (each queue keeps its own limit once built).
    mqm_typology: Typology = GOOGLE_TYPOLOGY
    mqm_max_errors: int = MQM_MAX_ERRORS


@dataclass
class SystemRemoval:
    """Everything ``remove_system`` took away, so ``restore_system`` can put it back."""

    system: System
    index: int
    judgments: list[Judgment]


@dataclass
class ReferenceRemoval:
    reference: Reference
    index: int
    spans: list[EntitySpan]
    judgments: list[Judgment]


class Project:
    """The whole evaluation project. Mutate only through its methods."""

    def __init__(
        self,
        documents: list[Document] | None = None,
        references: list[Reference] | None = None,
        systems: list[System] | None = None,
        source_language: str = "",
        target_language: str = "",
        name: str = "",
    ) -> None:
        self.name = name
        self.source_language = source_language
        self.target_language = target_language
        self.documents: list[Document] = documents or []
        self.references: list[Reference] = []
        self.systems: list[System] = []
        # id -> object, so that looking a system or reference up does not scan the list
        # (loading 100,000 systems would otherwise be quadratic); only add/remove change them.
        self._system_by_id: dict[str, System] = {}
        self._reference_by_id: dict[str, Reference] = {}
        self.judges: list[str] = []
        self.settings = Settings()
        self._spans: dict[str, EntitySpan] = {}
        # (reference, segment) -> span ids, so per-segment lookups do not scan every span.
        self._span_index: dict[tuple[str, str], set[str]] = {}
        self._judgments: dict[str, Judgment] = {}
        # Per-judge work queues (changed only through the queue mutators below) and
        # the learned metric's trained parameters (the JSON object metrics.learned reads).
        self.judge_queues: dict[str, JudgeQueue] = {}
        self.learned_model: dict[str, Any] | None = None
        # Metric scores computed elsewhere (io.external_scores owns the JSON shape).
        self.external_scores: dict[str, dict[str, Any]] = {}
        # A team campaign's assignment and merge history (core.campaign.Campaign), or None.
        self.campaign: Any = None
        # The file beside the bundle that keeps computed scores (io.bundle validates the
        # name, scoring.store reads and writes it); "" until a bundle names one. Its bundle's
        # file name: saved under another name, the project names that bundle's own file.
        self.score_file = ""
        self.score_file_bundle = ""
        self._listeners: list[Callable[[ProjectEvent], None]] = []
        self._ids = itertools.count(1)
        self._reindex()
        for ref in references or []:
            self.add_reference(ref)
        for system in systems or []:
            self.add_system(system)

    # --- listeners ------------------------------------------------------------
    def subscribe(self, listener: Callable[[ProjectEvent], None]) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[ProjectEvent], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _emit(self, event: ProjectEvent) -> None:
        for listener in list(self._listeners):
            listener(event)

    # --- structure ------------------------------------------------------------
    def _reindex(self) -> None:
        self._segments: list[Segment] = []
        self._segment_index: dict[str, int] = {}
        self._segment_doc: list[str] = []
        self._segment_par: list[str] = []
        seen_docs: set[str] = set()
        seen_pars: set[str] = set()
        for doc in self.documents:
            if doc.id in seen_docs:
                raise ModelError(f"duplicate document id {doc.id!r}")
            seen_docs.add(doc.id)
            for par in doc.paragraphs:
                if par.id in seen_pars:
                    raise ModelError(f"duplicate paragraph id {par.id!r}")
                seen_pars.add(par.id)
                for seg in par.segments:
                    if seg.id in self._segment_index:
                        raise ModelError(f"duplicate segment id {seg.id!r}")
                    self._segment_index[seg.id] = len(self._segments)
                    self._segments.append(seg)
                    self._segment_doc.append(doc.id)
                    self._segment_par.append(par.id)

    @property
    def segments(self) -> list[Segment]:
        """All segments in document order."""
        return self._segments

    @property
    def segment_ids(self) -> list[str]:
        return [s.id for s in self._segments]

    def segment(self, segment_id: str) -> Segment:
        try:
            return self._segments[self._segment_index[segment_id]]
        except KeyError:
            raise ModelError(f"unknown segment {segment_id!r}") from None

    def segment_position(self, segment_id: str) -> int:
        try:
            return self._segment_index[segment_id]
        except KeyError:
            raise ModelError(f"unknown segment {segment_id!r}") from None

    def has_segment(self, segment_id: str) -> bool:
        return segment_id in self._segment_index

    def document_of(self, segment_id: str) -> str:
        return self._segment_doc[self.segment_position(segment_id)]

    def paragraph_of(self, segment_id: str) -> str:
        return self._segment_par[self.segment_position(segment_id)]

    def document(self, document_id: str) -> Document:
        for doc in self.documents:
            if doc.id == document_id:
                return doc
        raise ModelError(f"unknown document {document_id!r}")

    def segments_of_document(self, document_id: str) -> list[Segment]:
        return [s for p in self.document(document_id).paragraphs for s in p.segments]

    def set_segment_source(self, segment_id: str, text: str) -> str:
        """Replace a segment's source text; returns the old text (its own inverse)."""
        seg = self.segment(segment_id)
        old, seg.source = seg.source, text
        self._emit(ev.SegmentChanged(seg))
        return old

    # --- references -------------------------------------------------------------
    def reference(self, reference_id: str) -> Reference:
        ref = self._reference_by_id.get(reference_id)
        if ref is None:
            raise ModelError(f"unknown reference {reference_id!r}")
        return ref

    def has_reference(self, reference_id: str) -> bool:
        return reference_id in self._reference_by_id

    def add_reference(self, ref: Reference, index: int | None = None) -> None:
        if not ref.id:
            raise ModelError("a reference needs a non-empty id")
        if self.has_reference(ref.id):
            raise ModelError(f"duplicate reference id {ref.id!r}")
        self._check_texts(f"reference {ref.id!r}", ref.texts, complete=False)
        self.references.insert(len(self.references) if index is None else index, ref)
        self._reference_by_id[ref.id] = ref
        self._emit(ev.ReferenceAdded(ref))

    def remove_reference(self, reference_id: str) -> ReferenceRemoval:
        ref = self.reference(reference_id)
        index = self.references.index(ref)
        spans = [s for s in self._spans.values() if s.reference == reference_id]
        judgments = [j for j in self._judgments.values() if j.reference == reference_id]
        for s in spans:
            self._drop_span(s)
        for j in judgments:
            del self._judgments[j.id]
        self.references.remove(ref)
        del self._reference_by_id[ref.id]
        self._emit(ev.ReferenceRemoved(ref))
        return ReferenceRemoval(ref, index, spans, judgments)

    def restore_reference(self, removal: ReferenceRemoval) -> None:
        self.add_reference(removal.reference, removal.index)
        for s in removal.spans:
            self._store_span(s)
        for j in removal.judgments:
            self._judgments[j.id] = j
        self._emit(ev.AnnotationsReset())

    def reference_text(self, reference_id: str, segment_id: str) -> str | None:
        return self.reference(reference_id).texts.get(segment_id)

    def check_reference_text(self, reference_id: str, segment_id: str, text: str) -> None:
        """Raise ModelError if the text cannot replace the current one.

        A text that would cut through an annotated entity is refused: the
        entity's characters must stay exactly where they are.
        """
        ref = self.reference(reference_id)
        self.segment(segment_id)
        old = ref.texts.get(segment_id) or ""
        for s in self.spans_for(reference_id, segment_id):
            if s.end > len(text) or text[s.start : s.end] != old[s.start : s.end]:
                raise ModelError(
                    f"the new text would move or cut the {s.type} entity "
                    f"{old[s.start:s.end]!r} at {s.start}-{s.end}; remove that entity first"
                )

    def set_reference_text(self, reference_id: str, segment_id: str, text: str) -> str | None:
        """Replace a reference text; returns the old one (None when there was none)."""
        self.check_reference_text(reference_id, segment_id, text)
        ref = self.reference(reference_id)
        old = ref.texts.get(segment_id)
        ref.texts[segment_id] = text
        self._emit(ev.ReferenceChanged(reference_id, segment_id))
        return old

    def clear_reference_text(self, reference_id: str, segment_id: str) -> str | None:
        """Remove a reference's text for a segment (the inverse of setting a first text).

        Refused while entities are annotated in it; returns the removed text.
        """
        ref = self.reference(reference_id)
        if self.spans_for(reference_id, segment_id):
            raise ModelError(f"reference {reference_id!r} has entities in segment {segment_id!r}; remove them first")
        old = ref.texts.pop(segment_id, None)
        self._emit(ev.ReferenceChanged(reference_id, segment_id))
        return old

    # --- systems -----------------------------------------------------------------
    def system(self, system_id: str) -> System:
        system = self._system_by_id.get(system_id)
        if system is None:
            raise ModelError(f"unknown system {system_id!r}")
        return system

    def has_system(self, system_id: str) -> bool:
        return system_id in self._system_by_id

    def add_system(self, system: System, index: int | None = None) -> None:
        if not system.id:
            raise ModelError("a system needs a non-empty id")
        if self.has_system(system.id):
            raise ModelError(f"duplicate system id {system.id!r}")
        if system.kind not in SYSTEM_KINDS:
            raise ModelError(f"system {system.id!r}: kind must be machine or human, not {system.kind!r}")
        self._check_texts(f"system {system.id!r}", system.texts, complete=True)
        self.systems.insert(len(self.systems) if index is None else index, system)
        self._system_by_id[system.id] = system
        self._emit(ev.SystemAdded(system))

    def remove_system(self, system_id: str) -> SystemRemoval:
        system = self.system(system_id)
        index = self.systems.index(system)
        judgments = [j for j in self._judgments.values() if j.system == system_id]
        for j in judgments:
            del self._judgments[j.id]
        self.systems.remove(system)
        del self._system_by_id[system.id]
        if self.settings.baseline == system_id:
            self.settings.baseline = None
        self._emit(ev.SystemRemoved(system))
        return SystemRemoval(system, index, judgments)

    def restore_system(self, removal: SystemRemoval) -> None:
        self.add_system(removal.system, removal.index)
        for j in removal.judgments:
            self._judgments[j.id] = j
        self._emit(ev.JudgmentsReset())

    def system_text(self, system_id: str, segment_id: str) -> str:
        return self.system(system_id).texts[segment_id]

    def set_system_text(self, system_id: str, segment_id: str, text: str) -> str:
        system = self.system(system_id)
        self.segment(segment_id)
        old = system.texts[segment_id]
        system.texts[segment_id] = text
        self._emit(ev.SystemChanged(system_id, segment_id))
        return old

    def _check_texts(self, owner: str, texts: dict[str, str], complete: bool) -> None:
        unknown = [k for k in texts if k not in self._segment_index]
        if unknown:
            raise ModelError(f"{owner} has text for unknown segment {unknown[0]!r}")
        if complete and len(texts) != len(self._segments):
            missing = next(s.id for s in self._segments if s.id not in texts)
            raise ModelError(f"{owner} has no text for segment {missing!r}")
        for k, v in texts.items():
            if not isinstance(v, str):
                raise ModelError(f"{owner}: text of segment {k!r} must be a string")

    # --- entity spans -------------------------------------------------------------
    def new_id(self, prefix: str) -> str:
        """A fresh id not used by any span or judgment."""
        while True:
            candidate = f"{prefix}{next(self._ids)}"
            if candidate not in self._spans and candidate not in self._judgments:
                return candidate

    @property
    def spans(self) -> list[EntitySpan]:
        return sorted(
            self._spans.values(),
            key=lambda s: (s.reference, self._segment_index.get(s.segment, -1), s.start, s.annotator),
        )

    def span(self, span_id: str) -> EntitySpan:
        try:
            return self._spans[span_id]
        except KeyError:
            raise ModelError(f"unknown entity span {span_id!r}") from None

    def spans_for(
        self, reference_id: str, segment_id: str, annotator: str | None = None
    ) -> list[EntitySpan]:
        found = [
            self._spans[span_id]
            for span_id in self._span_index.get((reference_id, segment_id), ())
            if annotator is None or self._spans[span_id].annotator == annotator
        ]
        return sorted(found, key=lambda s: (s.start, s.end))

    @property
    def span_count(self) -> int:
        return len(self._spans)

    @property
    def judgment_count(self) -> int:
        return len(self._judgments)

    @property
    def annotators(self) -> list[str]:
        return sorted({s.annotator for s in self._spans.values()})

    def check_span(self, span: EntitySpan) -> None:
        """Raise ModelError if the span cannot be added as it is."""
        if not span.id:
            raise ModelError("an entity span needs a non-empty id")
        if span.id in self._spans:
            raise ModelError(f"duplicate entity span id {span.id!r}")
        text = self.reference(span.reference).texts.get(span.segment)
        self.segment(span.segment)
        if text is None:
            raise ModelError(
                f"reference {span.reference!r} has no text for segment {span.segment!r}"
            )
        if not (0 <= span.start < span.end <= len(text)):
            raise ModelError(
                f"span {span.start}-{span.end} is outside the text of segment "
                f"{span.segment!r} (0-{len(text)})"
            )
        if span.type not in self.entity_type_names:
            raise ModelError(
                f"unknown entity type {span.type!r}; expected one of {', '.join(self.entity_type_names)}"
            )
        if not span.annotator:
            raise ModelError("an entity span needs an annotator")
        for other in self.spans_for(span.reference, span.segment, span.annotator):
            if span.start < other.end and other.start < span.end:
                raise ModelError(
                    f"span {span.start}-{span.end} overlaps the {other.type} entity "
                    f"{other.start}-{other.end} ({text[other.start:other.end]!r})"
                )

    def add_span(self, span: EntitySpan) -> None:
        self.check_span(span)
        self._store_span(span)
        self._emit(ev.SpanAdded(span))

    def remove_span(self, span_id: str) -> EntitySpan:
        span = self.span(span_id)
        self._drop_span(span)
        self._emit(ev.SpanRemoved(span))
        return span

    def _store_span(self, span: EntitySpan) -> None:
        self._spans[span.id] = span
        self._span_index.setdefault((span.reference, span.segment), set()).add(span.id)

    def _drop_span(self, span: EntitySpan) -> None:
        del self._spans[span.id]
        self._span_index[(span.reference, span.segment)].discard(span.id)

    def set_span_type(self, span_id: str, entity_type: str) -> str:
        """Retype a span; returns the old type (its own inverse)."""
        span = self.span(span_id)
        if entity_type not in self.entity_type_names:
            raise ModelError(f"unknown entity type {entity_type!r}")
        self._spans[span_id] = replace(span, type=entity_type)  # same id and place: index unchanged
        self._emit(ev.SpanChanged(self._spans[span_id]))
        return span.type

    @property
    def entity_type_names(self) -> list[str]:
        return [t.name for t in self.settings.entity_types]

    # --- judges and judgments ------------------------------------------------------
    def add_judge(self, judge: str) -> None:
        judge = judge.strip()
        if not judge:
            raise ModelError("a judge needs a non-empty name")
        if judge in self.judges:
            raise ModelError(f"judge {judge!r} exists already")
        self.judges.append(judge)
        self._emit(ev.JudgeAdded(judge))

    def remove_judge(self, judge: str) -> None:
        if judge not in self.judges:
            raise ModelError(f"unknown judge {judge!r}")
        if any(j.judge == judge for j in self._judgments.values()):
            raise ModelError(f"judge {judge!r} has judgments; remove them first")
        self.judges.remove(judge)
        self.judge_queues.pop(judge, None)
        self._emit(ev.JudgeRemoved(judge))

    def set_judge_queue(self, judge: str, state: JudgeQueue | None) -> JudgeQueue | None:
        """Store (or with None, drop) a judge's work queue; returns the old state (its inverse)."""
        if judge not in self.judges:
            raise ModelError(f"unknown judge {judge!r}")
        old = self.judge_queues.get(judge)
        if state is None:
            self.judge_queues.pop(judge, None)
        else:
            self.judge_queues[judge] = state
        self._emit(ev.JudgeQueueChanged(judge))
        return old

    def _queue(self, judge: str) -> JudgeQueue:
        try:
            return self.judge_queues[judge]
        except KeyError:
            raise ModelError(f"judge {judge!r} has no queue yet; start one first") from None

    def move_judge_queue(self, judge: str, position: int) -> int:
        """Move a judge's queue to item ``position`` (== its length: finished); returns the old one."""
        queue = self._queue(judge)
        if not 0 <= position <= len(queue.items):
            raise ModelError(f"item {position} is outside the queue (0-{len(queue.items)})")
        old, queue.position = queue.position, position
        if old != position:
            self._emit(ev.JudgeQueueMoved(judge))
        return old

    def record_queue_judgment(self, judge: str, index: int, judgment_id: str | None) -> str | None:
        """Note which judgment queue item ``index`` produced; returns the id noted before."""
        queue = self._queue(judge)
        if not 0 <= index < len(queue.items):
            raise ModelError(f"item {index} is outside the queue (0-{len(queue.items) - 1})")
        entry = queue.items[index]
        old, entry.judgment = entry.judgment, judgment_id
        if old != judgment_id:
            self._emit(ev.JudgeQueueMoved(judge))
        return old

    def set_queue_option(self, judge: str, name: str, value: bool) -> bool:
        """Turn a display option (``DISPLAY_OPTIONS``) of a judge's queue on or off; returns the old value."""
        if name not in DISPLAY_OPTIONS:
            raise ModelError(f"unknown option {name!r}; expected one of {', '.join(DISPLAY_OPTIONS)}")
        queue = self._queue(judge)
        old = bool(getattr(queue, name))
        setattr(queue, name, bool(value))
        self._emit(ev.JudgeQueueChanged(judge))
        return old

    @property
    def judgments(self) -> list[Judgment]:
        return list(self._judgments.values())

    def judgment(self, judgment_id: str) -> Judgment:
        try:
            return self._judgments[judgment_id]
        except KeyError:
            raise ModelError(f"unknown judgment {judgment_id!r}") from None

    def check_judgment(self, j: Judgment, replacing: str | None = None) -> None:
        if not j.id:
            raise ModelError("a judgment needs a non-empty id")
        if j.id in self._judgments and j.id != replacing:
            raise ModelError(f"duplicate judgment id {j.id!r}")
        if j.judge not in self.judges:
            raise ModelError(f"unknown judge {j.judge!r}")
        self.system(j.system)
        self.segment(j.segment)
        if j.reference is not None:
            self.reference(j.reference)
        lo, hi = RATING_RANGE
        for name in ("adequacy", "fluency"):
            value = getattr(j, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi
            ):
                raise ModelError(f"{name} must be an integer from {lo} to {hi}, not {value!r}")
        if j.protocol not in PROTOCOLS:
            raise ModelError(f"unknown protocol {j.protocol!r}; expected one of {', '.join(PROTOCOLS)}")
        if j.protocol != "mqm" and j.adequacy is None and j.fluency is None and j.score is None:
            raise ModelError("a judgment needs adequacy, fluency or a score")
        if j.score is not None and not j.scale:
            raise ModelError("a numeric score needs its scale named")
        if j.seconds < 0:
            raise ModelError(f"seconds must not be negative, not {j.seconds!r}")
        if j.qc not in QC_KINDS:
            raise ModelError(f"qc must be empty or 'bad', not {j.qc!r}")
        if j.errors:
            self._check_errors(j)
        if j.ranking:
            _check_ranked(j)

    def _check_errors(self, j: Judgment) -> None:
        """Every error span lies inside the text it marks (the shown translation or the source)."""
        if j.protocol not in SPAN_PROTOCOLS:
            raise ModelError(f"a {j.protocol} judgment cannot carry error spans (only {', '.join(SPAN_PROTOCOLS)})")
        shown = j.text if j.text is not None else self.system(j.system).texts.get(j.segment, "")
        source = self.segment(j.segment).source
        for k, e in enumerate(j.errors):
            if not e.severity and j.protocol != "mqm":  # Google's MQM files have a few without
                raise ModelError(f"error {k + 1} of judgment {j.id!r} needs a severity")
            for lo, hi, text, where in ((e.start, e.end, shown, "translation"),
                                        (e.source_start, e.source_end, source, "source")):
                # One end None: the data marked only the other end (Google's files have a few
                # lone "<v>"); the span reaches the text's end or start.
                lo_, hi_ = (0 if lo is None else lo), (len(text) if hi is None else hi)
                if (lo is not None or hi is not None) and not (0 <= lo_ <= hi_ <= len(text)):
                    raise ModelError(
                        f"error {k + 1} of judgment {j.id!r}: span {lo}-{hi} is outside the {where} "
                        f"of segment {j.segment!r} (0-{len(text)})"
                    )

    def add_judgment(self, j: Judgment) -> None:
        self.check_judgment(j)
        self._judgments[j.id] = j
        self._emit(ev.JudgmentAdded(j))

    def remove_judgment(self, judgment_id: str) -> Judgment:
        j = self.judgment(judgment_id)
        del self._judgments[judgment_id]
        self._emit(ev.JudgmentRemoved(j))
        return j

    def replace_judgment(self, j: Judgment) -> Judgment:
        """Replace the judgment with the same id; returns the old one (its inverse)."""
        old = self.judgment(j.id)
        self.check_judgment(j, replacing=j.id)
        self._judgments[j.id] = j
        self._emit(ev.JudgmentChanged(j))
        return old

    # --- the learned metric's model ------------------------------------------------
    def set_learned_model(self, model: dict[str, Any] | None) -> dict[str, Any] | None:
        """Store (or with None, drop) the learned metric's trained parameters; returns the old ones.

        The parameters are the JSON object of ``metrics.learned.LearnedModel.to_json``.
        """
        if model is not None and not isinstance(model, dict):
            raise ModelError(f"a learned model must be a JSON object, not {type(model).__name__}")
        old, self.learned_model = self.learned_model, model
        self._emit(ev.LearnedModelChanged())
        return old

    def set_judgment_errors(self, judgment_id: str, errors: tuple[ErrorSpan, ...]) -> tuple[ErrorSpan, ...]:
        """Replace a judgment's error spans; returns the old ones (its own inverse)."""
        old = self.judgment(judgment_id)
        self.replace_judgment(replace(old, errors=tuple(errors)))
        return old.errors

    # --- settings ---------------------------------------------------------------
    def set_setting(self, name: str, value: Any) -> Any:
        """Change one field of ``settings``; returns the old value (its inverse)."""
        if not hasattr(self.settings, name):
            raise ModelError(f"unknown setting {name!r}")
        if name == "baseline" and value is not None:
            self.system(value)
        if name == "mqm_typology" and not isinstance(value, Typology):
            raise ModelError(f"an MQM typology must be a Typology, not {type(value).__name__}")
        if name == "mqm_max_errors" and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise ModelError(f"the most MQM errors a segment must be a positive integer, not {value!r}")
        old = getattr(self.settings, name)
        setattr(self.settings, name, value)
        self._emit(ev.SettingsChanged(name))
        return old

    def set_target_language(self, code: str) -> str:
        """Change the target language, whose defaults drive tokenizers, METEOR,
        word snapping and labels; returns the old code (its inverse)."""
        old = self.target_language
        self.target_language = code.strip()
        self._emit(ev.TargetLanguageChanged(self.target_language))
        return old

    # --- views for metrics ------------------------------------------------------------
    def iter_reference_texts(self, segment_id: str) -> Iterator[tuple[str, str]]:
        for ref in self.references:
            text = ref.texts.get(segment_id)
            if text is not None:
                yield ref.id, text
