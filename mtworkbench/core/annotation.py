"""Pure logic behind the entity annotation editor (no Qt).

The editor turns key presses into calls here and applies what comes back with
the project's inverse-pair mutators (``add_span``/``remove_span``), so every
change stays undoable:

- :func:`snap_to_words` widens a selection to whole words;
- :func:`find_in_reference` finds a string; :func:`document_entities` lists a
  document's entities for the side panel;
- :func:`plan_every_occurrence` finds a string in every segment and builds the
  non-overlapping spans for "annotate every occurrence" (one undo step);
- :func:`next_unannotated_segment` and :func:`step_segment` move through segments;
- :func:`compare_annotators` gives exact-span F1 (overall and per type) and
  Cohen's kappa over the language's units between two annotators of one
  reference, on the segments both worked on; :func:`default_annotator_pair`
  picks two layers to compare;
- adjudication into a third layer lives in :mod:`mtworkbench.core.adjudication`.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from mtworkbench.core.language import language_profile
from mtworkbench.core.model import EntitySpan, ModelError, Project
from mtworkbench.core.segmenter import word_spans
from mtworkbench.core.text import TOKEN_RE, WORD_RE


def _is_word_char(ch: str) -> bool:
    # Any combining mark belongs to its word: Arabic harakat, Hebrew points and
    # Devanagari vowel signs as well as Latin accents in NFD.
    return bool(WORD_RE.fullmatch(ch)) or unicodedata.category(ch).startswith("M")


def _segmenter(language: str | None) -> str:
    """The word segmenter of a language written without spaces (zh: characters,
    ja/ko: MeCab words, as the metrics tokenise), or "none"."""
    profile = language_profile(language)
    return "none" if profile is None else profile.word_tokenizer


# --- selections -------------------------------------------------------------------
def _is_punctuation(ch: str) -> bool:
    return unicodedata.category(ch).startswith("P")


def _trim_punctuation(text: str, start: int, end: int) -> tuple[int, int]:
    """Leave out punctuation (and the spaces it uncovers) at both edges of ``[start, end)``,
    unless nothing else is selected. A final full stop stays where the rest holds
    another (an abbreviation: "U.S.")."""
    a, b = start, end
    while True:
        before = (a, b)
        while a < b and (_is_punctuation(text[a]) or text[a].isspace()):
            a += 1
        while b > a and (text[b - 1].isspace() or (_is_punctuation(text[b - 1])
                                                    and not (text[b - 1] == "." and "." in text[a:b - 1]))):
            b -= 1
        if (a, b) == before:
            break
    return (a, b) if a < b else (start, end)


def word_stops(text: str, language: str | None = None) -> list[int]:
    """Where word-wise caret movement stops in ``text``: the start of every word and
    punctuation mark as selection snapping sees them (a Chinese character, a Japanese
    MeCab word, a word of a spaced language), and the end of the text."""
    segmenter = _segmenter(language)
    spans = word_spans(text, segmenter) if segmenter != "none" else [m.span() for m in TOKEN_RE.finditer(text)]
    return sorted({a for a, _ in spans} | {len(text)})


def snap_to_words(
    text: str, start: int, end: int, language: str | None = None, trim_punctuation: bool = False
) -> tuple[int, int] | None:
    """Widen ``[start, end)`` so no word is cut, and trim whitespace at both ends.

    A selection that starts or ends inside a word is extended to that word's
    edge (selecting "ari" in "Paris" gives "Paris"); punctuation is kept as
    selected. Returns None when nothing but whitespace is selected. Accepts the
    two ends in either order (a selection made leftwards).

    ``trim_punctuation``: punctuation at either edge is left out (a selection of
    nothing but punctuation is kept): for selections not made character by character.

    ``language``: for languages written without spaces the words are the
    metrics' tokens (a Chinese character, a Japanese MeCab word), so selecting
    习近平 in a sentence keeps exactly those three characters.
    """
    if start > end:
        start, end = end, start
    start, end = max(0, start), min(len(text), end)
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start >= end:
        return None
    if trim_punctuation:  # quote marks or a comma caught by a drag are not the entity's
        start, end = _trim_punctuation(text, start, end)
    segmenter = _segmenter(language)
    if segmenter != "none":
        for a, b in word_spans(text, segmenter):
            if a < start < b:
                start = a
            if a < end < b:
                end = b
        return start, end
    while start > 0 and _is_word_char(text[start - 1]) and _is_word_char(text[start]):
        start -= 1
    while end < len(text) and _is_word_char(text[end]) and _is_word_char(text[end - 1]):
        end += 1
    return start, end


def find_occurrences(
    text: str,
    needle: str,
    whole_words: bool = True,
    case_sensitive: bool = True,
    language: str | None = None,
) -> list[tuple[int, int]]:
    """Non-overlapping ``[start, end)`` of ``needle`` in ``text``, left to right.

    With ``whole_words`` a match may not continue a word on either side
    ("Paris" is not found in "Parisian"); for a language written without spaces,
    a match must begin and end at the metrics' word boundaries (every character
    in Chinese, MeCab's words in Japanese).
    """
    if not needle:
        return []
    pattern = re.escape(needle)
    segmenter = _segmenter(language)
    if whole_words and segmenter != "none":
        flags = 0 if case_sensitive else re.IGNORECASE
        spans = word_spans(text, segmenter)
        starts, ends = {a for a, _ in spans}, {b for _, b in spans}
        return [
            m.span() for m in re.finditer(pattern, text, flags) if m.start() in starts and m.end() in ends
        ]
    flags = 0 if case_sensitive else re.IGNORECASE
    if not whole_words:
        return [m.span() for m in re.finditer(pattern, text, flags)]
    # A match may not continue a word on either side (marks count as word characters).
    check_start, check_end = _is_word_char(needle[0]), _is_word_char(needle[-1])
    out: list[tuple[int, int]] = []
    pos = 0
    finder = re.compile(pattern, flags)
    while (m := finder.search(text, pos)) is not None:
        a, b = m.span()
        if (check_start and a > 0 and _is_word_char(text[a - 1])) or (
            check_end and b < len(text) and _is_word_char(text[b])
        ):
            pos = a + 1  # not a whole word here; a later overlapping one may be
            continue
        out.append((a, b))
        pos = b
    return out


def find_in_reference(
    project: Project,
    reference_id: str,
    needle: str,
    whole_words: bool = True,
    case_sensitive: bool = True,
    segment_ids: Sequence[str] | None = None,
) -> list[tuple[str, int, int]]:
    """(segment id, start, end) of every occurrence, segments in document order."""
    texts = project.reference(reference_id).texts
    language = project.target_language or None
    hits: list[tuple[str, int, int]] = []
    for sid in segment_ids if segment_ids is not None else project.segment_ids:
        text = texts.get(sid)
        if text:
            hits.extend(
                (sid, a, b)
                for a, b in find_occurrences(text, needle, whole_words, case_sensitive, language)
            )
    return hits


@dataclass(frozen=True)
class EntityListItem:
    """A row of the editor's side list: the span and the text it covers."""

    span: EntitySpan
    text: str


def document_entities(
    project: Project, reference_id: str, document_id: str, annotator: str | None = None
) -> list[EntityListItem]:
    """The entities of one document on a reference, in reading order."""
    texts = project.reference(reference_id).texts
    items: list[EntityListItem] = []
    for seg in project.segments_of_document(document_id):
        text = texts.get(seg.id, "")
        items.extend(
            EntityListItem(s, text[s.start : s.end]) for s in project.spans_for(reference_id, seg.id, annotator)
        )
    return items


@dataclass
class OccurrencePlan:
    """Spans to add for "annotate every occurrence", and the matches left out."""

    spans: list[EntitySpan]
    # (segment id, start, end, why) of occurrences that would overlap a span.
    skipped: list[tuple[str, int, int, str]] = field(default_factory=list)


def plan_every_occurrence(
    project: Project,
    reference_id: str,
    needle: str,
    entity_type: str,
    annotator: str,
    whole_words: bool = True,
    case_sensitive: bool = True,
    segment_ids: Sequence[str] | None = None,
) -> OccurrencePlan:
    """New spans (not yet added) for every occurrence of ``needle`` in the reference.

    Occurrences already annotated with exactly that span and type are neither
    added nor reported; ones that overlap another of the annotator's spans are
    skipped and reported. Apply the plan with :func:`add_spans` (one undo step).
    """
    if entity_type not in project.entity_type_names:
        raise ModelError(f"unknown entity type {entity_type!r}")
    if not annotator:
        raise ModelError("an entity span needs an annotator")
    ref = project.reference(reference_id)
    plan = OccurrencePlan([])
    taken_ids: set[str] = set()
    layer = _layer(project, reference_id, annotator)
    for sid in segment_ids if segment_ids is not None else project.segment_ids:
        text = ref.texts.get(sid)
        if not text:
            continue
        existing = layer.get(sid, [])
        for start, end in find_occurrences(
            text, needle, whole_words, case_sensitive, project.target_language or None
        ):
            same = [s for s in existing if s.start == start and s.end == end]
            if same and same[0].type == entity_type:
                continue
            clash = next((s for s in existing if s.start < end and start < s.end), None)
            if clash is not None:
                plan.skipped.append((sid, start, end, f"overlaps the {clash.type} entity {clash.start}-{clash.end}"))
                continue
            span_id = project.new_id("e")
            while span_id in taken_ids:
                span_id = project.new_id("e")
            taken_ids.add(span_id)
            plan.spans.append(EntitySpan(span_id, reference_id, sid, start, end, entity_type, annotator))
    return plan


def _layer(project: Project, reference_id: str, annotator: str) -> dict[str, list[EntitySpan]]:
    """One annotator's spans on a reference by segment, in one pass over the project."""
    by_segment: dict[str, list[EntitySpan]] = {}
    for s in project.spans:
        if s.reference == reference_id and s.annotator == annotator:
            by_segment.setdefault(s.segment, []).append(s)
    return by_segment


def add_spans(project: Project, spans: Sequence[EntitySpan]) -> None:
    """Add all spans or none: on a refused span the ones added are taken back."""
    added: list[str] = []
    try:
        for span in spans:
            project.add_span(span)
            added.append(span.id)
    except ModelError:
        for span_id in reversed(added):
            project.remove_span(span_id)
        raise


# --- moving through segments --------------------------------------------------------
def _annotatable(project: Project, reference_id: str) -> list[str]:
    texts = project.reference(reference_id).texts
    return [sid for sid in project.segment_ids if texts.get(sid, "").strip()]


def step_segment(project: Project, reference_id: str, current: str | None, delta: int) -> str | None:
    """The segment ``delta`` steps away among those the reference has text for (clamped)."""
    order = _annotatable(project, reference_id)
    if not order:
        return None
    if current is None or current not in order:
        return order[0] if delta >= 0 else order[-1]
    i = min(max(order.index(current) + delta, 0), len(order) - 1)
    return order[i]


def next_unannotated_segment(
    project: Project,
    reference_id: str,
    annotator: str,
    current: str | None = None,
    backwards: bool = False,
    wrap: bool = True,
) -> str | None:
    """The next segment (after ``current``) with reference text and no span by ``annotator``."""
    order = _annotatable(project, reference_id)
    if backwards:
        order.reverse()
    done = {s.segment for s in project.spans if s.reference == reference_id and s.annotator == annotator}
    start = order.index(current) + 1 if current in order else 0
    candidates = order[start:] + (order[:start] if wrap else [])
    return next((sid for sid in candidates if sid not in done and sid != current), None)


# --- two annotators ------------------------------------------------------------------
@dataclass
class TypeAgreement:
    type: str
    count_a: int
    count_b: int
    matched: int

    @property
    def f1(self) -> float:
        n = self.count_a + self.count_b
        return 2 * self.matched / n if n else math.nan


@dataclass
class AnnotatorComparison:
    """Agreement of annotators ``a`` and ``b`` on one reference.

    Exact-span F1 needs the same start, end and type (2|A∩B| / (|A|+|B|));
    ``untyped_f1`` ignores the type. ``kappa`` is Cohen's kappa over tokens of
    the compared segments, each labelled with the type of the entity covering
    it or "O"; identical labellings count as 1.0 even where kappa's formula is
    0/0, and no tokens at all give NaN.
    """

    reference: str
    annotator_a: str
    annotator_b: str
    segments: list[str]
    count_a: int
    count_b: int
    matched: int
    untyped_matched: int
    by_type: dict[str, TypeAgreement]
    kappa: float
    n_tokens: int  # units kappa counted, in ``unit``
    only_a: list[EntitySpan]
    only_b: list[EntitySpan]
    agreed: list[tuple[EntitySpan, EntitySpan]]
    # What a token is: the language's units, as selection snapping uses them
    # ("characters" for Chinese, "MeCab words" for Japanese and Korean, else "words").
    unit: str = "words"
    # Segments the reference has text for; ``segments`` are those compared.
    n_reference_segments: int = 0
    # How ``segments`` were chosen: "both annotated" (the default) or "given".
    scope: str = "given"

    @property
    def precision(self) -> float:
        """Share of b's spans that a has too (a taken as the key)."""
        return self.matched / self.count_b if self.count_b else math.nan

    @property
    def recall(self) -> float:
        return self.matched / self.count_a if self.count_a else math.nan

    @property
    def f1(self) -> float:
        n = self.count_a + self.count_b
        return 2 * self.matched / n if n else math.nan

    @property
    def untyped_f1(self) -> float:
        n = self.count_a + self.count_b
        return 2 * self.untyped_matched / n if n else math.nan

    def disagreements(self) -> list[tuple[str, EntitySpan | None, EntitySpan | None]]:
        """(segment, a's span or None, b's span or None) for every span without an exact twin.

        Spans of a and b that overlap are paired, so a view can offer
        "take a's" or "take b's" for each conflict.
        """
        rest_b = list(self.only_b)
        out: list[tuple[str, EntitySpan | None, EntitySpan | None]] = []
        for sa in self.only_a:
            partner = next(
                (sb for sb in rest_b if sb.segment == sa.segment and sb.start < sa.end and sa.start < sb.end), None
            )
            if partner is not None:
                rest_b.remove(partner)
            out.append((sa.segment, sa, partner))
        out.extend((sb.segment, None, sb) for sb in rest_b)
        order = {sid: i for i, sid in enumerate(self.segments)}
        out.sort(key=lambda d: (order.get(d[0], -1), (d[1] or d[2]).start))  # type: ignore[union-attr]
        return out


_UNIT_NAMES = {"none": "words", "zh": "characters"}


def agreement_unit(language: str | None) -> str:
    """What agreement counts as one token in ``language``: the units selection
    snapping uses (:func:`snap_to_words`): Chinese characters, Japanese and Korean
    MeCab words, elsewhere words and punctuation marks."""
    segmenter = _segmenter(language)
    return _UNIT_NAMES.get(segmenter, "MeCab words" if segmenter.endswith("mecab") else f"{segmenter} words")


def unit_spans(text: str, language: str | None = None) -> list[tuple[int, int]]:
    """``[start, end)`` of each unit of ``text`` (:func:`agreement_unit`)."""
    segmenter = _segmenter(language)
    if segmenter == "none":
        return [m.span() for m in TOKEN_RE.finditer(text)]
    return word_spans(text, segmenter)


def token_labels(text: str, spans: Iterable[EntitySpan], language: str | None = None) -> list[str]:
    """The type of the entity covering each unit of ``text`` ("O" outside entities);
    units are the language's (:func:`unit_spans`): a Han clause is many characters."""
    spans = sorted(spans, key=lambda s: s.start)
    labels = []
    for start, end in unit_spans(text, language):
        label = "O"
        for s in spans:
            if s.start < end and start < s.end:
                label = s.type
                break
        labels.append(label)
    return labels


def both_annotated_segments(project: Project, reference_id: str, annotator_a: str, annotator_b: str) -> list[str]:
    """The segments of the reference that both annotators worked on.

    An annotator's work runs from the first to the last segment where they
    marked an entity (segments in between that they left empty count: no
    entity there is a decision too); the result is where both runs overlap.
    Comparing beyond it would count an annotator who stopped early as
    disagreeing on every segment they never saw.
    """
    order = [sid for sid in project.segment_ids if sid in project.reference(reference_id).texts]
    position = {sid: i for i, sid in enumerate(order)}
    runs = []
    for annotator in (annotator_a, annotator_b):
        done = [position[s] for s in _layer(project, reference_id, annotator) if s in position]
        if not done:
            return []
        runs.append((min(done), max(done)))
    first, last = max(r[0] for r in runs), min(r[1] for r in runs)
    return order[first:last + 1]


def ranked_layers(project: Project, reference_id: str | None = None, last: str | None = None) -> list[str]:
    """Every annotator layer, most spans first (on the reference when one is given;
    ties by name); ``last`` (an adjudication layer: the outcome, not one of the
    two compared) goes to the end."""
    counts = dict.fromkeys(project.annotators, 0)
    for span in project.spans:
        if reference_id is None or span.reference == reference_id:
            counts[span.annotator] = counts.get(span.annotator, 0) + 1
    return sorted(counts, key=lambda name: (name == last, -counts[name], name))


def default_annotator_pair(project: Project, reference_id: str | None = None,
                           last: str | None = None) -> tuple[str, str] | None:
    """Two different layers to compare: the first two of :func:`ranked_layers`,
    or None with fewer than two layers."""
    ranked = ranked_layers(project, reference_id, last)
    return (ranked[0], ranked[1]) if len(ranked) >= 2 else None


def compare_annotators(
    project: Project,
    reference_id: str,
    annotator_a: str,
    annotator_b: str,
    segment_ids: Sequence[str] | None = None,
    language: str | None = None,
) -> AnnotatorComparison:
    """Exact-span F1 (overall, untyped, per type) and kappa of two annotators over the
    language's units (``language``: the project's target language by default).

    By default the segments both annotators worked on are compared
    (:func:`both_annotated_segments`); inside them a segment both left empty
    is agreement. ``segment_ids`` compares those segments instead.
    """
    from sklearn.metrics import cohen_kappa_score

    ref = project.reference(reference_id)
    language = language if language is not None else (project.target_language or None)
    if segment_ids is not None:
        segments, scope = list(segment_ids), "given"
    else:
        segments, scope = both_annotated_segments(project, reference_id, annotator_a, annotator_b), "both annotated"
    labels_a: list[str] = []
    labels_b: list[str] = []
    only_a: list[EntitySpan] = []
    only_b: list[EntitySpan] = []
    agreed: list[tuple[EntitySpan, EntitySpan]] = []
    untyped = 0
    by_type: dict[str, TypeAgreement] = {}
    count_a = count_b = 0
    layer_a = _layer(project, reference_id, annotator_a)
    layer_b = _layer(project, reference_id, annotator_b)
    for sid in segments:
        text = ref.texts.get(sid)
        if text is None:
            continue
        spans_a = layer_a.get(sid, [])
        spans_b = layer_b.get(sid, [])
        count_a += len(spans_a)
        count_b += len(spans_b)
        b_by_key = {(s.start, s.end, s.type): s for s in spans_b}
        b_by_range = {(s.start, s.end) for s in spans_b}
        for s in spans_a:
            by_type.setdefault(s.type, TypeAgreement(s.type, 0, 0, 0)).count_a += 1
            twin = b_by_key.pop((s.start, s.end, s.type), None)
            if twin is not None:
                agreed.append((s, twin))
                by_type[s.type].matched += 1
            else:
                only_a.append(s)
            untyped += (s.start, s.end) in b_by_range
        for s in spans_b:
            by_type.setdefault(s.type, TypeAgreement(s.type, 0, 0, 0)).count_b += 1
        only_b.extend(b_by_key.values())
        labels_a += token_labels(text, spans_a, language)
        labels_b += token_labels(text, spans_b, language)
    position = {sid: i for i, sid in enumerate(segments)}
    if not labels_a:
        kappa = math.nan
    elif labels_a == labels_b:
        kappa = 1.0  # perfect agreement, even where kappa's formula would be 0/0
    else:
        kappa = float(cohen_kappa_score(labels_a, labels_b))
    return AnnotatorComparison(
        reference=reference_id,
        annotator_a=annotator_a,
        annotator_b=annotator_b,
        segments=segments,
        count_a=count_a,
        count_b=count_b,
        matched=len(agreed),
        untyped_matched=untyped,
        by_type=dict(sorted(by_type.items())),
        kappa=kappa,
        n_tokens=len(labels_a),
        only_a=sorted(only_a, key=lambda s: (position[s.segment], s.start)),
        only_b=sorted(only_b, key=lambda s: (position[s.segment], s.start)),
        agreed=agreed,
        unit=agreement_unit(language),
        n_reference_segments=sum(1 for sid in project.segment_ids if sid in ref.texts),
        scope=scope,
    )
