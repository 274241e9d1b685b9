"""NEE, the Named Entity translation Evaluator (Reeder et al. 2001; Papineni et al.
2002, "Corpus-based Comprehensive and Diagnostic MT Evaluation").

For each unit (segment, paragraph or document) the unique entities annotated in
the reference are looked up in the system output of the same unit; an entity is
found when its normalised token sequence occurs in the normalised output. The
score is found / total, micro-averaged over units, as Papineni et al. define it.

Choices made here (the paper leaves them open):

- **Entity tokens** are the normalised tokens of the whole reference text that
  overlap the entity's span, so a span cut inside a word takes the whole word
  and a reference scored against itself finds every entity.
- **Unique entities** are unique pairs (type, normalised token sequence) within
  a unit, so the per-type totals add up to the overall total. An entity that
  covers no token (whitespace only) is not counted.
- **Matching** looks inside each segment of the unit, never across a segment
  boundary, so every match has a place in one output segment.
- **Statistics**: each unit's (found, total) is written on the row of the
  unit's first segment (in input order); the other rows of the unit are zero.
  Summing rows therefore gives micro found/total over units, for any subset
  that keeps units whole (documents in bootstrap by document). Per-segment
  scores give every segment the score of its unit (NaN where the unit has no
  entity), so a segment view shows what the unit scored.
- **Several references**: entities of one reference stream are scored. By
  default (``reference=first``) that is the first stream with any entity
  mention in the input; ``reference=K`` picks stream K (1-based). Segments the
  chosen stream has no text for contribute nothing. Human-human agreement is
  this metric with a human translation (a System of kind human) as the output.
- **Number words**: see :mod:`mtworkbench.metrics.nee_text`. Known for en, de,
  fr, es, it, pt and nl; ``lang=all`` (default) uses all of them, any other
  language code (or ``none``) uses none, and ``lang=auto`` takes the input's
  ``target_language`` attribute when it has one (else all).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from mtworkbench.core.jobs import CancelCheck, ProgressCallback
from mtworkbench.core.scoring_input import EntityMention
from mtworkbench.core.wording import plural
from mtworkbench.metrics.base import (
    Metric,
    MetricError,
    MetricSpecError,
    Option,
    ScoringInput,
    parse_bool,
)
from mtworkbench.metrics.nee_text import (
    NUMBER_LANGUAGES,
    Normalisation,
    Token,
    normalise_tokens,
)
from mtworkbench.metrics.signature import Signature

UNITS = ("segment", "paragraph", "document")


@dataclass(frozen=True)
class TextPosition:
    """Characters ``[start, end)`` of segment ``segment`` (index into the input)."""

    segment: int
    start: int
    end: int


@dataclass
class EntityOutcome:
    """One unique entity of a unit: where the reference has it, where the output has it."""

    type: str
    text: str  # surface form of its first mention in the reference
    tokens: tuple[str, ...]  # the normalised token sequence that was looked up
    reference_positions: list[TextPosition]  # every mention in the reference
    output_positions: list[TextPosition] = field(default_factory=list)  # every match

    @property
    def found(self) -> bool:
        return bool(self.output_positions)


@dataclass
class NEEExplanation:
    """Why a unit scored what it did: each unique entity found (green) or missed (red)."""

    unit: str
    segments: list[int]  # input indices of the unit's segments, in order
    reference: int  # 0-based reference stream whose entities were scored
    entities: list[EntityOutcome]

    @property
    def found(self) -> int:
        return sum(e.found for e in self.entities)

    @property
    def total(self) -> int:
        return len(self.entities)

    @property
    def score(self) -> float:
        return self.found / self.total if self.total else float("nan")

    def by_type(self) -> dict[str, dict[str, int]]:
        return _count_by_type(self.entities)

    def for_segment(self, segment: int) -> tuple[list[TextPosition], list[TextPosition], list[TextPosition]]:
        """(found in reference, missed in reference, found in output) positions in one segment."""
        found_ref = [p for e in self.entities if e.found for p in e.reference_positions if p.segment == segment]
        missed_ref = [p for e in self.entities if not e.found for p in e.reference_positions if p.segment == segment]
        out = [p for e in self.entities for p in e.output_positions if p.segment == segment]
        return found_ref, missed_ref, out


@dataclass(frozen=True)
class _NeeReferences:
    """NEE's prepared references: the scored stream and each unit's unique entities."""

    stream: int
    norm: Normalisation
    units: list[tuple[str, list[int], list[EntityOutcome]]]  # (unit id, segments, entities)


def _count_by_type(entities: list[EntityOutcome]) -> dict[str, dict[str, int]]:
    counts: dict[str, dict[str, int]] = {}
    for e in entities:
        c = counts.setdefault(e.type, {"found": 0, "total": 0})
        c["total"] += 1
        c["found"] += int(e.found)
    return dict(sorted(counts.items()))


def _parse_reference(raw: str) -> str | int:
    if raw.strip().lower() == "first":
        return "first"
    value = int(raw)
    if value < 1:
        raise ValueError("expected 'first' or a reference number from 1")
    return value


def _parse_lang(raw: str) -> str:
    """A language code (``de``, ``de_DE``, ``pt-BR``), ``all``, ``auto`` or ``none``.

    Any code is accepted: a language without known number words (e.g. ``pl``)
    still gets diacritics, case and possessives, and digits stay digits.
    """
    code = raw.strip().lower()
    if code not in ("all", "auto", "none") and not re.fullmatch(r"[a-z]{2,3}([-_][a-z0-9]{2,8})?", code):
        raise ValueError(
            f"expected a language code (number words are known for {', '.join(NUMBER_LANGUAGES)}), all, auto or none"
        )
    return code


class NEE(Metric):
    """Named-entity translation score: found unique entities / unique entities."""

    name: ClassVar[str] = "nee"
    scale: ClassVar[str] = "0-1"
    reads: ClassVar[tuple[str, ...]] = (
        "hypotheses", "references", "target_language", "entities", "documents", "paragraphs",
    )
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("unit", str, "paragraph", "scoring unit", choices=UNITS),
        Option("diacritics", parse_bool, True, "strip diacritics (à -> a)"),
        Option("case", parse_bool, True, "lowercase"),
        Option("numbers", parse_bool, True, "spelled-out numbers below 100 equal digits"),
        Option("possessives", parse_bool, True, "remove possessive 's and s'"),
        Option("lang", _parse_lang, "all", "language of the number words (en, de, fr, es, it, pt, nl; all; none; auto = the input's target language)"),
        Option("reference", _parse_reference, "first", "reference stream whose entities count: first annotated, or 1..k"),
        Option("tokenize", str, "none", "word segmenter for languages without spaces (zh, ja-mecab, ko-mecab)", choices=("none", "zh", "ja-mecab", "ko-mecab")),
        Option("unicode", str, "none", "nfkc: fold full-width digits and letters first (zh, ja, ko)", choices=("none", "nfkc")),
        Option("layer", str, "auto", "annotator layer whose entities count: auto = the adjudicated layer, else the largest; "
               "the name of a span layer on references reads that span layer instead (as spans=NAME)"),
        Option("spans", str, "entities", "span layer whose entities count (a layer on references)"),
        Option("nested", str, "outermost", "outermost: only spans no other span contains; all: every span",
               choices=("outermost", "all")),
    )
    signature_keys: ClassVar[dict[str, str]] = {
        "diacritics": "diac",
        "possessives": "poss",
        "numbers": "num",
        "reference": "ref",
        "tokenize": "tok",
    }

    def language_fields(self) -> list[tuple[str, Any]]:
        # the ``lang`` option (set from the target language) already says it
        return [] if self.options["lang"] == self.language else super().language_fields()

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._cache: tuple[ScoringInput, list[NEEExplanation]] | None = None

    @property
    def stat_names(self) -> tuple[str, ...]:
        return ("found", "total")

    # --- the evaluation, kept whole so scores, extras and explanations agree ----
    def _normalisation(self, data: ScoringInput) -> Normalisation:
        lang = self.options["lang"]
        if lang == "auto":
            lang = getattr(data, "target_language", None) or "all"
        return Normalisation(
            diacritics=self.options["diacritics"],
            case=self.options["case"],
            numbers=self.options["numbers"],
            possessives=self.options["possessives"],
            lang=lang,
            segmenter=self.options["tokenize"],
            nfkc=self.options["unicode"] == "nfkc",
        )

    def signature_fields(self) -> list[tuple[str, Any]]:
        # The span-layer options appear only when set, so signatures of plain entity
        # annotations read as before.
        defaults = {"spans": "entities", "nested": "outermost"}
        return [(k, v) for k, v in super().signature_fields() if defaults.get(k) != v]

    def _span_layer(self, data: ScoringInput) -> str:
        """The span layer read: ``spans``, or ``layer`` when it names a span layer, not an annotator."""
        choice = self.options["layer"]
        span_layers = data.span_layers or {}
        if choice != "auto" and choice not in (data.entity_layers or {}) and choice in span_layers:
            return choice
        return self.options["spans"]

    def layer_name(self, data: ScoringInput) -> str | None:
        """The annotator layer scored (None when the input names no layers)."""
        choice = self.options["layer"]
        if choice == "auto" or choice == self._span_layer(data):
            if self._span_layer(data) != "entities":
                by_annotator = (data.span_layers or {}).get(self._span_layer(data), {})
                return _largest(by_annotator)
            return data.entity_layer
        return choice

    def signature_for(self, data: ScoringInput) -> str:
        fields = [(k, self.layer_name(data) or "none") if k == "layer" else (k, v) for k, v in self.signature_fields()]
        return Signature(self.name, data.n_references, tuple(self.language_fields() + fields)).format()

    def entities(self, data: ScoringInput) -> Sequence[Sequence[Sequence[EntityMention]]] | None:
        """The entity mentions of the chosen layer, one list per reference stream; with
        ``nested=outermost`` a span inside another span of the layer is left out."""
        streams = self._layer_entities(data)
        if streams is None or self.options["nested"] == "all":
            return streams
        return [[_outermost(seg) for seg in stream] for stream in streams]

    def _layer_entities(self, data: ScoringInput) -> Sequence[Sequence[Sequence[EntityMention]]] | None:
        span_layer = self._span_layer(data)
        choice = self.options["layer"]
        if span_layer != "entities":
            by_annotator = (data.span_layers or {}).get(span_layer)
            if by_annotator is None:
                known = ", ".join(sorted(data.span_layers or {})) or "none"
                raise MetricError(f"nee: spans={span_layer} but the references have no such span layer; "
                                  f"span layers: entities, {known}")
            annotator = self.layer_name(data)
            if annotator is None or annotator not in by_annotator:
                raise MetricError(f"nee: span layer {span_layer} has no annotator {annotator}; annotators: "
                                  + (", ".join(sorted(by_annotator)) or "none"))
            return by_annotator[annotator]
        if choice == "auto":
            return data.entities
        layers = data.entity_layers or {}
        if choice not in layers:
            known = ", ".join(sorted(layers)) or "none"
            raise MetricError(f"nee: option layer={choice} but there is no such annotator layer; layers: {known}")
        return layers[choice]

    def reference_stream(self, data: ScoringInput) -> int:
        """The 0-based reference stream whose entities are scored."""
        entities = self.entities(data)
        if entities is None:
            raise MetricError(
                "nee needs entity annotations of a reference (annotate a reference, "
                "or give --ref-format muc)"
            )
        choice = self.options["reference"]
        if choice == "first":
            for k, stream in enumerate(entities):
                if any(stream):
                    return k
            raise MetricError("nee: no reference has any entity annotated")
        if choice > data.n_references:
            raise MetricSpecError(
                f"nee: option reference={choice} but there are {plural(data.n_references, 'reference')}"
            )
        if not any(entities[choice - 1]):
            raise MetricError(f"nee: reference {choice} has no entity annotated")
        return choice - 1

    def unit_ids(self, data: ScoringInput) -> list[str]:
        """The unit each segment belongs to (each segment is its own unit without grouping)."""
        unit = self.options["unit"]
        groups = {"paragraph": data.paragraphs, "document": data.documents}.get(unit)
        if groups is None:
            return [f"segment {i + 1}" for i in range(data.n_segments)]
        return [str(g) for g in groups]

    # --- references: the unique entities of each unit, cached across systems ---
    def reference_key(self, data: ScoringInput) -> Any:
        # Besides the texts and options: the annotations, the units and the language.
        layer = self.entities(data)
        entities = None if layer is None else tuple(
            tuple(tuple(seg) for seg in stream) for stream in layer
        )
        return super().reference_key(data), entities, tuple(self.unit_ids(data)), data.target_language

    def prepare_references(self, data: ScoringInput) -> _NeeReferences:
        k = self.reference_stream(data)
        norm = self._normalisation(data)
        units = [
            (unit_id, members, self._unit_entities(data, k, norm, members))
            for unit_id, members in self.units(data).items()
        ]
        return _NeeReferences(k, norm, units)

    def _unit_entities(
        self, data: ScoringInput, k: int, norm: Normalisation, members: list[int]
    ) -> list[EntityOutcome]:
        """The unique entities of reference ``k`` in a unit (output positions left empty)."""
        refs, ents = data.references[k], self.entities(data)[k]  # type: ignore[index]
        outcomes: dict[tuple[str, tuple[str, ...]], EntityOutcome] = {}
        for i in members:
            text = refs[i]
            if text is None or not ents[i]:
                continue
            ref_tokens = normalise_tokens(text, norm)
            for m in ents[i]:
                if not (0 <= m.start < m.end <= len(text)):
                    raise MetricError(
                        f"nee: entity {m.start}-{m.end} lies outside reference {k + 1} "
                        f"of segment {i + 1} ({len(text)} characters)"
                    )
                # The entity's tokens are the reference's own tokens under its
                # span: a span cut inside a word takes the whole word, and
                # possessives and number words are read in their context.
                parts = m.fragments or ((m.start, m.end),)
                toks = tuple(t.text for t in ref_tokens if any(t.start < b and a < t.end for a, b in parts))
                if not toks:
                    continue
                pos = TextPosition(i, m.start, m.end)
                key = (m.type, toks)
                if key in outcomes:
                    outcomes[key].reference_positions.append(pos)
                else:
                    outcomes[key] = EntityOutcome(m.type, " ".join(text[a:b] for a, b in parts), toks, [pos])
        return list(outcomes.values())

    # --- the evaluation, kept whole so scores, extras and explanations agree ----
    def explain_all(
        self,
        data: ScoringInput,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> list[NEEExplanation]:
        """One explanation per unit, units in order of their first segment.

        Remembered for the last input (by identity), so that the statistics,
        segment scores and extras of one ``score`` call evaluate it once.
        """
        if self._cache is not None and self._cache[0] is data:
            return self._cache[1]
        prepared = self.references(data)
        units = prepared.units
        result = []
        for u in self.segments(len(units), progress, cancel, every=1):
            unit_id, members, entities = units[u]
            result.append(self._explain_unit(data, prepared.stream, prepared.norm, unit_id, members, entities))
        self._cache = (data, result)
        return result

    def units(self, data: ScoringInput) -> dict[str, list[int]]:
        """Unit id -> indices of its segments, units in order of their first segment."""
        units: dict[str, list[int]] = defaultdict(list)
        for i, u in enumerate(self.unit_ids(data)):
            units[u].append(i)
        return dict(units)

    def _explain_unit(
        self,
        data: ScoringInput,
        k: int,
        norm: Normalisation,
        unit_id: str,
        members: list[int],
        entities: list[EntityOutcome],
    ) -> NEEExplanation:
        """A unit's entities (fresh copies of the prepared ones) found in the output."""
        refs = data.references[k]
        outcomes = [
            EntityOutcome(e.type, e.text, e.tokens, list(e.reference_positions)) for e in entities
        ]
        if outcomes:
            for i in members:
                if refs[i] is None:
                    continue
                hyp_tokens = normalise_tokens(data.hypotheses[i], norm)
                for outcome in outcomes:
                    outcome.output_positions.extend(_occurrences(outcome.tokens, hyp_tokens, i))
        return NEEExplanation(unit_id, members, k, outcomes)

    def explain(self, data: ScoringInput, segment: int, ref: int | None = None) -> NEEExplanation:
        """The unit holding segment ``segment``, against the entities of reference
        stream ``ref`` (default: the one the option ``reference`` chooses).

        Only that unit is evaluated unless the whole input was scored already.
        """
        if not 0 <= segment < data.n_segments:
            raise MetricError(f"nee: no segment {segment!r} in the input")
        return self._explain(data, self.unit_ids(data)[segment], ref)

    def explain_unit(self, data: ScoringInput, unit: str, ref: int | None = None) -> NEEExplanation:
        """The unit with id ``unit`` (e.g. a paragraph id)."""
        return self._explain(data, unit, ref)

    def _explain(self, data: ScoringInput, unit_id: str, ref: int | None) -> NEEExplanation:
        k = self.reference_stream(data) if ref is None else self._check_stream(data, ref)
        if ref is None and self._cache is not None and self._cache[0] is data:
            for ex in self._cache[1]:
                if ex.unit == unit_id:
                    return ex
            raise MetricError(f"nee: no unit {unit_id!r} in the input")
        members = [i for i, u in enumerate(self.unit_ids(data)) if u == unit_id]
        if not members:
            raise MetricError(f"nee: no unit {unit_id!r} in the input")
        norm = self._normalisation(data)
        entities = self._unit_entities(data, k, norm, members)
        return self._explain_unit(data, k, norm, unit_id, members, entities)

    def _check_stream(self, data: ScoringInput, ref: int) -> int:
        if self.entities(data) is None:
            self.reference_stream(data)  # raises the message about missing annotations
        if not 0 <= ref < data.n_references:
            raise MetricError(f"nee: reference {ref} is out of range (0..{data.n_references - 1})")
        return ref

    # --- Metric interface ---------------------------------------------------------
    def segment_statistics(
        self,
        data: ScoringInput,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> np.ndarray:
        stats = np.zeros((data.n_segments, 2), dtype=np.float64)
        for ex in self.explain_all(data, progress, cancel):
            stats[ex.segments[0]] = (ex.found, ex.total)
        return stats

    def aggregate(self, totals: np.ndarray) -> np.ndarray | float:
        totals = np.asarray(totals, dtype=np.float64)
        found, total = totals[..., 0], totals[..., 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            score = np.where(total > 0, found / np.where(total > 0, total, 1), np.nan)
        return float(score) if score.ndim == 0 else score

    def segment_scores(self, data: ScoringInput, stats: np.ndarray) -> np.ndarray:
        scores = np.full(data.n_segments, np.nan)
        for ex in self.explain_all(data):
            scores[ex.segments] = ex.score
        return scores

    def extras(self, data: ScoringInput, stats: np.ndarray) -> dict[str, Any]:
        by_type: dict[str, dict[str, int]] = {}
        for ex in self.explain_all(data):
            for t, c in ex.by_type().items():
                acc = by_type.setdefault(t, {"found": 0, "total": 0})
                acc["found"] += c["found"]
                acc["total"] += c["total"]
        return {
            "by_type": dict(sorted(by_type.items())),
            "reference": self.reference_stream(data) + 1,
            "layer": self.layer_name(data),
        }


def _occurrences(needle: tuple[str, ...], tokens: list[Token], segment: int) -> list[TextPosition]:
    n = len(needle)
    first = needle[0]
    out = []
    for j in range(len(tokens) - n + 1):
        if tokens[j].text == first and all(tokens[j + q].text == needle[q] for q in range(1, n)):
            out.append(TextPosition(segment, tokens[j].start, tokens[j + n - 1].end))
    return out


def _outermost(mentions: Sequence[EntityMention]) -> list[EntityMention]:
    """The mentions no other mention contains. An entity is counted once as a whole:
    the words of "Peking University" found in a translation count for the ORG, not
    again for the place nested in it."""
    kept: list[EntityMention] = []
    for m in sorted(mentions, key=lambda m: (m.start, -m.end)):
        if not any(k.start <= m.start and m.end <= k.end for k in kept):
            kept.append(m)
    return kept


def _largest(by_annotator: Mapping[str, Sequence[Sequence[Sequence[EntityMention]]]]) -> str | None:
    counts = {name: sum(len(seg) for stream in streams for seg in stream) for name, streams in by_annotator.items()}
    return sorted(counts, key=lambda name: (-counts[name], name))[0] if counts else None
