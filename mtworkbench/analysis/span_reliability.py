"""Agreement of any number of span annotators: Krippendorff's alpha and Gwet's AC1 on token labels.

Each annotator layer gives every unit of a reference segment a label: the type of the entity
covering it, or "O" outside entities (``token_labels``: the language's units, so a Chinese
clause is many characters and a Japanese one MeCab words). A unit is an item, each layer a
rater, and the coefficients come from ``multi_rater`` (nominal alpha and AC1), so any number of
layers can be compared and a layer that did not work on a segment is missing there, not
disagreeing with everyone: Krippendorff's alpha is made for missing data.

Which segments a layer worked on: with every segment asked for, all of them; in an annotation
campaign, the segments it gave that person; else the run from the layer's first to its last
annotated segment (inside it, a segment left empty is a decision that nothing is an entity).

Reported overall, per type (one against the rest: is this unit inside an entity of the type or
not, so a type's alpha does not depend on how the other types were told apart) and per
document; each with a 95% percentile bootstrap interval over units. Units of one segment are
not independent, so the interval is narrower than one over segments would be; it is meant to
show how far a value rests on few units, not as a test.

Where entities nest or overlap, a unit takes the label of the entity starting first (the
outermost), as NEE reads a layer by default.

Beside it, for exactly two layers, Krippendorff's alpha for unitizing (``unitizing_alpha``):
the continuum is the characters of the segments both layers worked on, end to end, and each
entity (each fragment of a discontinuous one) a unit of its type, so boundaries count to the
character and nested spans of different types are all compared. It is not computed for more
than two layers (its definition misbehaves there) nor where one layer has two overlapping
entities of one type; ``unitizing_note`` then says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mtworkbench.analysis.multi_rater import DEFAULT_BOOTSTRAP, AgreementStat, agreement_stats, ratings_table
from mtworkbench.analysis.unitizing_alpha import UnitizingAlpha, unitizing_alpha
from mtworkbench.core.annotation import agreement_unit, token_labels
from mtworkbench.core.jobs import CancelCheck, check_cancel
from mtworkbench.core.model import EntitySpan, Project

SPAN_STATS = ("alpha:nominal", "ac1")
OUTSIDE = "O"


@dataclass(frozen=True)
class SpanReliability:
    """Token-label agreement of several annotator layers on one reference."""

    reference: str
    annotators: tuple[str, ...]
    unit: str
    n_units: int
    segments: tuple[str, ...]
    spans: dict[str, int]  # per layer, its entities on the segments compared
    overall: tuple[AgreementStat, ...]
    by_type: dict[str, tuple[AgreementStat, ...]] = field(default_factory=dict)
    by_document: dict[str, tuple[AgreementStat, ...]] = field(default_factory=dict)
    unitizing: UnitizingAlpha | None = None
    unitizing_note: str = ""  # why there is no unitizing alpha

    def to_json(self) -> dict:
        def stats(group: Sequence[AgreementStat]) -> dict:
            return {s.stat: s.to_json() for s in group}

        return {
            "reference": self.reference, "annotators": list(self.annotators), "unit": self.unit,
            "units": self.n_units, "segments": len(self.segments), "entities": dict(self.spans),
            "overall": stats(self.overall),
            "by_type": {t: stats(g) for t, g in self.by_type.items()},
            "by_document": {d: stats(g) for d, g in self.by_document.items()},
            "unitizing_alpha": self.unitizing.to_json() if self.unitizing else None,
            "unitizing_note": self.unitizing_note,
        }


def layer_segments(project: Project, reference_id: str, annotator: str, order: Sequence[str]) -> list[str]:
    """The segments (of ``order``) the layer worked on; see the module's docstring."""
    campaign = getattr(project, "campaign", None)
    if campaign is not None and campaign.by == "annotator" and annotator in campaign.people:
        given = {it.segment for it in campaign.items if it.reference == reference_id and annotator in it.people}
        return [sid for sid in order if sid in given]
    position = {sid: i for i, sid in enumerate(order)}
    done = [position[s.segment] for s in project.spans
            if s.reference == reference_id and s.annotator == annotator and s.segment in position]
    return list(order[min(done):max(done) + 1]) if done else []


@dataclass(frozen=True)
class SpanInputs:
    """What the coefficients read, taken from the project at once (cheap), so that the
    computation (slow: bootstrap intervals) can run on a worker while the project changes."""

    reference: str
    annotators: tuple[str, ...]
    language: str | None
    segments: tuple[str, ...]
    texts: dict[str, str]
    worked: dict[str, frozenset[str]]
    spans: dict[str, dict[str, tuple[EntitySpan, ...]]]  # layer -> segment -> spans
    document_of: dict[str, str]


def span_inputs(project: Project, reference_id: str, annotators: Sequence[str], all_segments: bool = False,
                language: str | None = None) -> SpanInputs:
    layers = tuple(dict.fromkeys(annotators))
    if len(layers) < 2:
        raise ValueError("agreement needs two or more annotator layers")
    ref = project.reference(reference_id)
    language = language if language is not None else (project.target_language or None)
    order = [sid for sid in project.segment_ids if sid in ref.texts]
    worked = {a: frozenset(order) if all_segments else frozenset(layer_segments(project, reference_id, a, order))
              for a in layers}
    by_layer: dict[str, dict[str, list[EntitySpan]]] = {a: {} for a in layers}
    for s in project.spans:
        if s.reference == reference_id and s.annotator in by_layer:
            by_layer[s.annotator].setdefault(s.segment, []).append(s)
    segments = tuple(sid for sid in order if any(sid in worked[a] for a in layers))
    return SpanInputs(
        reference_id, layers, language, segments, {sid: ref.texts[sid] for sid in segments}, worked,
        {a: {sid: tuple(spans) for sid, spans in by_seg.items()} for a, by_seg in by_layer.items()},
        {sid: project.document_of(sid) if project.documents else "" for sid in segments})


def span_reliability(project: Project, reference_id: str, annotators: Sequence[str],
                     all_segments: bool = False, language: str | None = None,
                     bootstrap: int = DEFAULT_BOOTSTRAP, seed: int = 12345,
                     cancelled: CancelCheck | None = None) -> SpanReliability:
    """Alpha and AC1 of the layers' unit labels overall, per type and per document."""
    return reliability_of(span_inputs(project, reference_id, annotators, all_segments, language),
                          bootstrap, seed, cancelled)


def reliability_of(inputs: SpanInputs, bootstrap: int = DEFAULT_BOOTSTRAP, seed: int = 12345,
                   cancelled: CancelCheck | None = None) -> SpanReliability:
    rows: list[tuple[str, str, str]] = []
    types: set[str] = set()
    for sid in inputs.segments:
        check_cancel(cancelled)
        text = inputs.texts[sid]
        for annotator in inputs.annotators:
            if sid not in inputs.worked[annotator]:
                continue
            spans = inputs.spans[annotator].get(sid, ())
            types.update(s.type for s in spans)
            for k, label in enumerate(token_labels(text, spans, inputs.language)):
                rows.append((annotator, f"{sid}\t{k}", label))
    n_units = len({item for _, item, _ in rows})
    overall = _stats(rows, bootstrap, seed)
    by_type = {}
    for t in sorted(types):
        check_cancel(cancelled)
        by_type[t] = _stats([(a, i, t if v == t else "other") for a, i, v in rows], bootstrap, seed)
    by_document = {}
    documents = list(dict.fromkeys(inputs.document_of[sid] for sid in inputs.segments))
    if len(documents) > 1:
        grouped: dict[str, list[tuple[str, str, str]]] = {doc: [] for doc in documents}
        for r in rows:
            grouped[inputs.document_of[r[1].rsplit("\t", 1)[0]]].append(r)
        for doc in documents:
            check_cancel(cancelled)
            by_document[doc] = _stats(grouped[doc], bootstrap, seed)
    counts = {a: sum(len(inputs.spans[a].get(sid, ())) for sid in inputs.segments if sid in inputs.worked[a])
              for a in inputs.annotators}
    unitizing, note = unitizing_of(inputs)
    return SpanReliability(inputs.reference, inputs.annotators, agreement_unit(inputs.language), n_units,
                           inputs.segments, counts, overall, by_type, by_document, unitizing, note)


def unitizing_of(inputs: SpanInputs) -> tuple[UnitizingAlpha | None, str]:
    """Unitizing alpha of two layers on the characters of the segments both worked on."""
    if len(inputs.annotators) != 2:
        return None, (f"unitizing alpha compares two layers at a time, not {len(inputs.annotators)} "
                      "(Krippendorff's 2004 definition misbehaves with more)")
    units: dict[str, list[tuple[int, int, str]]] = {a: [] for a in inputs.annotators}
    offset = 0
    for sid in inputs.segments:
        if not all(sid in inputs.worked[a] for a in inputs.annotators):
            continue
        for annotator in inputs.annotators:
            pieces = sorted((a, b, s.type) for s in inputs.spans[annotator].get(sid, ()) for a, b in s.parts)
            for i, (a1, b1, t1) in enumerate(pieces):
                clash = next(((a2, b2) for a2, b2, t2 in pieces[i + 1:] if t2 == t1 and a2 < b1), None)
                if clash:
                    return None, (f"unitizing alpha not computed: {annotator} has two overlapping {t1} entities in "
                                  f"segment {sid} ({a1}-{b1} and {clash[0]}-{clash[1]}); the coefficient needs "
                                  "one layer's entities of a type apart")
            units[annotator] += [(offset + a, offset + b, t) for a, b, t in pieces]
        offset += len(inputs.texts[sid])
    if offset == 0:
        return None, "unitizing alpha: no segment with text that both layers worked on"
    try:
        return unitizing_alpha(units, 0, offset), ""
    except ValueError as exc:
        return None, str(exc)


def _stats(rows: list[tuple[str, str, str]], bootstrap: int, seed: int) -> tuple[AgreementStat, ...]:
    if not rows:
        return ()  # no unit to compare: no coefficient rather than a made-up one
    return tuple(agreement_stats(ratings_table(rows), SPAN_STATS, bootstrap, seed))
