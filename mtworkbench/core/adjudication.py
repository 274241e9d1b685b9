"""Adjudication: copying spans two annotators agree on (or the adjudicator's choices) into a third layer."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from mtworkbench.core.annotation import AnnotatorComparison
from mtworkbench.core.layers import check_placement, span_layer
from mtworkbench.core.model import EntitySpan, ModelError, Project


def agreed_spans(comparison: AnnotatorComparison) -> list[EntitySpan]:
    """a's copy of every span both annotators marked identically."""
    return [a for a, _ in comparison.agreed]


def copy_to_layer(project: Project, spans: Iterable[EntitySpan], target: str) -> list[EntitySpan]:
    """Copies of ``spans`` for annotator ``target``, with fresh ids (not yet added).

    A copy keeps its span layer and fragments. Spans ``target`` already has exactly
    (same place and type) are left out. A copy sits beside ``target``'s spans of its
    layer, and the other copies, as that layer's nesting and overlap rules allow: a
    nesting layer takes an inner span inside an outer one, an overlapping layer takes
    crossing spans, and a flat layer refuses both with a ModelError naming the two.
    Add the result with :func:`add_spans`.
    """
    if not target:
        raise ModelError("the adjudication layer needs an annotator name")
    copies: list[EntitySpan] = []
    ids: set[str] = set()
    for span in spans:
        layer = span_layer(project.settings, span.layer)
        existing = [s for s in project.spans_for(span.reference, span.segment, target) if s.layer == span.layer]
        if any(e.parts == span.parts and e.type == span.type for e in existing):
            continue
        rivals = existing + [
            c for c in copies if (c.reference, c.segment, c.layer) == (span.reference, span.segment, span.layer)
        ]
        if any(c.parts == span.parts and c.type == span.type for c in rivals):
            continue  # the same span twice among the input: one copy
        text = project.span_text(span) or ""
        try:
            check_placement(span, rivals, layer, text)
        except ModelError as exc:
            raise ModelError(f"segment {span.segment!r}: {span.type} {span.start}-{span.end}: {exc} "
                             f"(adjudicated layer {target!r})") from None
        new_id = project.new_id("e")
        while new_id in ids:
            new_id = project.new_id("e")
        ids.add(new_id)
        copies.append(replace(span, id=new_id, annotator=target))
    return copies
