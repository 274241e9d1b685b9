"""Span layers, relation layers and relations (no Qt).

A project has span layers: "entities" (the MUC-7 types, on references) and any
others, each with its types (name, key, colour), the kind of text it sits on
(``reference``, ``source`` or ``output``) and whether its spans may nest (one
inside another, same range included) or overlap (cross without nesting). A
relation layer lists relation types; a :class:`Relation` links two spans,
directed from ``source`` to ``target`` ("translation-of" from a source entity to a
reference entity, "part-of" from a word to a phrase).

The checks here are pure functions over spans; ``core.model.Project`` calls them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from mtworkbench.core.records import (
    DEFAULT_RELATION_TYPES,
    ENTITIES,
    LAYER_TARGETS,
    RELATIONS,
    EntitySpan,
    EntityTypeStyle,
    ModelError,
    Relation,
    RelationLayer,
    SpanLayer,
    default_relation_layers,
    default_span_layers,
)


# --- looking layers up ----------------------------------------------------------------
def span_layer(settings: Any, name: str) -> SpanLayer:
    for layer in settings.span_layers:
        if layer.name == name:
            return layer
    names = ", ".join(layer.name for layer in settings.span_layers)
    raise ModelError(f"unknown span layer {name!r}; expected one of {names}")


def relation_layer(settings: Any, name: str) -> RelationLayer:
    for layer in settings.relation_layers:
        if layer.name == name:
            return layer
    names = ", ".join(layer.name for layer in settings.relation_layers) or "none"
    raise ModelError(f"unknown relation layer {name!r}; expected one of {names}")


def layer_types(settings: Any, name: str) -> list[EntityTypeStyle]:
    """The types of span layer ``name`` (the entities layer: ``settings.entity_types``)."""
    layer = span_layer(settings, name)
    return settings.entity_types if layer.name == ENTITIES else layer.types


def check_layer_definition(layer: SpanLayer) -> None:
    if not layer.name or any(ch.isspace() for ch in layer.name):
        raise ModelError(f"a layer name must be non-empty without spaces, found {layer.name!r}")
    if layer.on not in LAYER_TARGETS:
        raise ModelError(f"layer {layer.name!r}: 'on' must be one of {', '.join(LAYER_TARGETS)}, found {layer.on!r}")
    if layer.overlap and not layer.nesting:
        raise ModelError(f"layer {layer.name!r}: a layer whose spans may overlap must allow nesting too")


# --- span geometry ---------------------------------------------------------------------
def check_fragments(span: EntitySpan) -> None:
    """A discontinuous span's fragments: two or more, sorted, disjoint, non-empty, and
    ``start``/``end`` their outer ends."""
    if not span.fragments:
        return
    if len(span.fragments) < 2:
        raise ModelError(f"span {span.id!r}: a discontinuous span needs two fragments or more")
    previous_end = -1
    for a, b in span.fragments:
        if not a < b:
            raise ModelError(f"span {span.id!r}: fragment {a}-{b} is empty")
        if a <= previous_end:
            raise ModelError(f"span {span.id!r}: fragment {a}-{b} is out of order or touches the one before")
        previous_end = b
    if (span.start, span.end) != (span.fragments[0][0], span.fragments[-1][1]):
        raise ModelError(f"span {span.id!r}: start-end {span.start}-{span.end} must enclose its fragments exactly")


def contains(outer: EntitySpan, inner: EntitySpan) -> bool:
    """Whether ``inner`` lies within ``outer``'s extent."""
    return outer.start <= inner.start and inner.end <= outer.end


def intersects(a: EntitySpan, b: EntitySpan) -> bool:
    return a.start < b.end and b.start < a.end


def check_placement(span: EntitySpan, others: Iterable[EntitySpan], layer: SpanLayer, text: str) -> None:
    """Raise ModelError if ``span`` may not sit beside ``others`` (same layer, text and
    annotator) under the layer's nesting and overlap rules. The same range and type
    twice is always refused."""
    for other in others:
        if not intersects(span, other):
            continue
        if other.parts == span.parts and other.type == span.type:
            raise ModelError(
                f"the {other.type} span {other.start}-{other.end} ({text[other.start:other.end]!r}) is already there"
            )
        nested = contains(span, other) or contains(other, span)
        if not layer.nesting or (not nested and not layer.overlap):
            how = "nests with" if nested else "overlaps"
            raise ModelError(
                f"span {span.start}-{span.end} {how} the {other.type} entity "
                f"{other.start}-{other.end} ({text[other.start:other.end]!r}); layer {layer.name!r} does not allow it"
            )


def placement_clashes(span: EntitySpan, others: Iterable[EntitySpan], layer: SpanLayer, text: str) -> list[EntitySpan]:
    """The spans of ``others`` that ``span`` may not sit beside (:func:`check_placement`)."""
    out = []
    for other in others:
        try:
            check_placement(span, [other], layer, text)
        except ModelError:
            out.append(other)
    return out


def outermost(spans: Sequence[EntitySpan]) -> list[EntitySpan]:
    """The spans no other span contains (of two with the same range, the first);
    crossing spans are both kept."""
    ordered = sorted(spans, key=lambda s: (s.start, -s.end))
    kept: list[EntitySpan] = []
    for s in ordered:
        if not any(contains(k, s) for k in kept):
            kept.append(s)
    return kept


def span_depths(spans: Sequence[EntitySpan]) -> dict[str, int]:
    """A drawing row for each span (0 nearest the text): a span sits one row below the
    deepest span it intersects among those drawn before it, longer spans first, so
    nested and crossing spans each get a line of their own (as brat stacks them)."""
    ordered = sorted(spans, key=lambda s: (-(s.end - s.start), s.start, s.id))
    rows: dict[str, int] = {}
    placed: list[EntitySpan] = []
    for s in ordered:
        taken = {rows[p.id] for p in placed if intersects(p, s)}
        row = 0
        while row in taken:
            row += 1
        rows[s.id] = row
        placed.append(s)
    # Inner spans drawn nearer the text read better: flip so the outermost is lowest.
    top = max(rows.values(), default=0)
    return {k: top - v for k, v in rows.items()}


def spans_at(spans: Sequence[EntitySpan], position: int) -> list[EntitySpan]:
    """The spans covering ``position`` (or ending right at it), innermost first."""
    hits = [s for s in spans if any(a <= position <= b for a, b in s.parts)]
    return sorted(hits, key=lambda s: (s.end - s.start, s.start, s.id))


def grapheme_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` widened to whole user-perceived characters: a letter keeps its
    combining marks (Arabic harakat, Devanagari vowel signs, a decomposed accent), an
    emoji sequence stays whole."""
    import regex

    bounds = [0] + [m.end() for m in regex.finditer(r"\X", text)]
    a = max((b for b in bounds if b <= start), default=0)
    z = min((b for b in bounds if b >= end), default=len(text))
    return a, z


__all__ = [
    "DEFAULT_RELATION_TYPES", "ENTITIES", "LAYER_TARGETS", "RELATIONS", "Relation", "RelationLayer", "SpanLayer",
    "check_fragments", "grapheme_bounds", "placement_clashes", "check_layer_definition", "check_placement", "contains", "default_relation_layers",
    "default_span_layers", "intersects", "layer_types", "outermost", "relation_layer", "span_depths", "span_layer",
    "spans_at",
]
