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
from dataclasses import replace
from typing import Any

from mtworkbench.core import events as ev
from mtworkbench.core.events import ProjectEvent
from mtworkbench.core.layers import Relation, layer_types
from mtworkbench.core.mqm_typology import Typology
from mtworkbench.core.queue_state import DISPLAY_OPTIONS, JudgeQueue
from mtworkbench.core.records import (
    DEFAULT_ENTITY_TYPES,
    DEFAULT_METRICS,
    MUC7_TYPES,
    PROTOCOLS,
    QC_KINDS,
    RANK_RANGE,
    RATING_RANGE,
    SPAN_PROTOCOLS,
    SYSTEM_KINDS,
    Document,
    EntitySpan,
    EntityTypeStyle,
    ErrorSpan,
    Judgment,
    ModelError,
    Paragraph,
    Reference,
    ReferenceRemoval,
    Segment,
    Settings,
    System,
    SystemRemoval,
    check_error_spans,
    check_judgment_values,
    check_span_in_text,
    protocol_for_scale,
)
from mtworkbench.core.relation_store import LayeredSpans
from mtworkbench.core.segment_positions import segment_positions


class Project(LayeredSpans):
    """The whole evaluation project. Mutate only through its methods."""

    relation_event = ev.RelationChanged

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
        self._relations: dict[str, Relation] = {}
        # (reference, segment) -> span ids, so per-segment lookups do not scan every span.
        self._span_index: dict[tuple[str, str], set[str]] = {}
        self._judgments: dict[str, Judgment] = {}
        # Per-judge work queues (changed only by the queue mutators) and the learned metric's parameters.
        self.judge_queues: dict[str, JudgeQueue] = {}
        self.learned_model: dict[str, Any] | None = None
        # Metric scores computed elsewhere (io.external_scores owns the JSON shape).
        self.external_scores: dict[str, dict[str, Any]] = {}
        # A team campaign's assignment and merge history (core.campaign.Campaign), or None.
        self.campaign: Any = None
        self.suggestion_decisions: list[Any] = []  # core.suggestions.SuggestionDecision, as made
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
    def _reindex(self) -> None:  # comprehensions (a big project opens fast); a repeated id: named below
        pars = [(doc.id, par) for doc in self.documents for par in doc.paragraphs]
        self._segments = [seg for _, par in pars for seg in par.segments]
        self._segment_index = segment_positions(self._segments)  # in steps: see there
        self._segment_doc = [doc_id for doc_id, par in pars for _ in par.segments]
        self._segment_par = [par.id for _, par in pars for _ in par.segments]
        ids = len(self._segment_index) + len({p.id for _, p in pars}) + len({d.id for d in self.documents})
        if ids < len(self._segments) + len(pars) + len(self.documents):
            self._reindex_naming_duplicates()

    def _reindex_naming_duplicates(self) -> None:
        seen: set[tuple[str, str]] = set()  # in document order: each document, its paragraphs, their segments
        for kind, ident in (item for doc in self.documents for item in [("document", doc.id)] + [
                x for par in doc.paragraphs for x in [("paragraph", par.id)] + [("segment", s.id) for s in par.segments]]):
            if (kind, ident) in seen:
                raise ModelError(f"duplicate {kind} id {ident!r}")
            seen.add((kind, ident))

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

    def add_reference(self, ref: Reference, index: int | None = None, in_segment_order: bool = False) -> None:
        if not ref.id:
            raise ModelError("a reference needs a non-empty id")
        if self.has_reference(ref.id):
            raise ModelError(f"duplicate reference id {ref.id!r}")
        if not in_segment_order:  # as for add_system
            self._check_texts(f"reference {ref.id!r}", ref.texts, complete=False)
        self.references.insert(len(self.references) if index is None else index, ref)
        self._reference_by_id[ref.id] = ref
        self._emit(ev.ReferenceAdded(ref))

    def remove_reference(self, reference_id: str) -> ReferenceRemoval:
        ref = self.reference(reference_id)
        index = self.references.index(ref)
        spans = [s for s in self._spans.values() if s.reference == reference_id]
        judgments = [j for j in self._judgments.values() if j.reference == reference_id]
        ids = {s.id for s in spans}
        relations = [r for r in self._relations.values() if r.source in ids or r.target in ids]
        for r in relations:
            del self._relations[r.id]
        for s in spans:
            self._drop_span(s)
        for j in judgments:
            del self._judgments[j.id]
        self.references.remove(ref)
        del self._reference_by_id[ref.id]
        self._emit(ev.ReferenceRemoved(ref))
        return ReferenceRemoval(ref, index, spans, judgments, relations)

    def restore_reference(self, removal: ReferenceRemoval) -> None:
        self.add_reference(removal.reference, removal.index)
        for s in removal.spans:
            self._store_span(s)
        for j in removal.judgments:
            self._judgments[j.id] = j
        self._relations.update((r.id, r) for r in removal.relations)
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

    def add_system(self, system: System, index: int | None = None, in_segment_order: bool = False) -> None:
        if not system.id:
            raise ModelError("a system needs a non-empty id")
        if self.has_system(system.id):
            raise ModelError(f"duplicate system id {system.id!r}")
        if system.kind not in SYSTEM_KINDS:
            raise ModelError(f"system {system.id!r}: kind must be machine or human, not {system.kind!r}")
        if not in_segment_order:  # else the caller checked: strings for every segment id, in order
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
        if not texts.keys() <= self._segment_index.keys():  # a set operation in C: a big project loads fast
            unknown = next(k for k in texts if k not in self._segment_index)
            raise ModelError(f"{owner} has text for unknown segment {unknown!r}")
        if complete and len(texts) != len(self._segments):
            missing = next(s.id for s in self._segments if s.id not in texts)
            raise ModelError(f"{owner} has no text for segment {missing!r}")
        for k, v in texts.items() if not set(map(type, texts.values())) <= {str} else ():
            if not isinstance(v, str):
                raise ModelError(f"{owner}: text of segment {k!r} must be a string")

    # --- entity spans -------------------------------------------------------------
    def new_id(self, prefix: str) -> str:
        """A fresh id not used by any span or judgment."""
        while True:
            candidate = f"{prefix}{next(self._ids)}"
            if candidate not in self._spans and candidate not in self._judgments and candidate not in self._relations:
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
        """Raise ModelError if the span cannot be added as it is (``LayeredSpans`` checks
        its layer, type, fragments and place)."""
        if not span.id:
            raise ModelError("an entity span needs a non-empty id")
        if span.id in self._spans or span.id in self._relations:
            raise ModelError(f"duplicate entity span id {span.id!r}")
        self.check_layered_span(span)

    def add_span(self, span: EntitySpan) -> None:
        self.check_span(span)
        self._store_span(span)
        self._emit(ev.SpanAdded(span))

    def remove_span(self, span_id: str) -> EntitySpan:
        """Remove a span no relation uses (remove those first: the editor's delete does)."""
        span = self.span(span_id)
        if linked := self.relations_of(span_id):
            raise ModelError(f"span {span_id!r} is linked by relation {linked[0].id!r}; remove its relations first")
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
        if entity_type not in [t.name for t in layer_types(self.settings, span.layer)]:
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
        check_judgment_values(j)
        if j.errors:
            shown = j.text if j.text is not None else self.system(j.system).texts.get(j.segment, "")
            check_error_spans(j, shown, self.segment(j.segment).source)

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


# The model's public names: the project and the values it holds (core.records).
__all__ = [
    "DEFAULT_ENTITY_TYPES", "DEFAULT_METRICS", "Document", "EntitySpan", "EntityTypeStyle", "ErrorSpan",
    "Judgment", "MUC7_TYPES", "ModelError", "PROTOCOLS", "Paragraph", "Project", "ProjectEvent", "QC_KINDS",
    "RANK_RANGE", "RATING_RANGE", "Reference", "ReferenceRemoval", "SPAN_PROTOCOLS", "SYSTEM_KINDS", "Segment",
    "Settings", "System", "SystemRemoval", "check_error_spans", "check_judgment_values", "check_span_in_text",
    "protocol_for_scale",
]
