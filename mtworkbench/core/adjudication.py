"""Adjudication: copying spans two annotators agree on (or the adjudicator's choices) into a third layer."""

from __future__ import annotations

from collections.abc import Iterable

from mtworkbench.core.annotation import AnnotatorComparison
from mtworkbench.core.model import EntitySpan, ModelError, Project


def agreed_spans(comparison: AnnotatorComparison) -> list[EntitySpan]:
    """a's copy of every span both annotators marked identically."""
    return [a for a, _ in comparison.agreed]


def copy_to_layer(project: Project, spans: Iterable[EntitySpan], target: str) -> list[EntitySpan]:
    """Copies of ``spans`` for annotator ``target``, with fresh ids (not yet added).

    Spans ``target`` already has exactly (same place and type) are left out;
    a copy that would overlap another of ``target``'s spans, or another copy,
    is refused with a ModelError naming both. Add the result with :func:`add_spans`.
    """
    if not target:
        raise ModelError("the adjudication layer needs an annotator name")
    copies: list[EntitySpan] = []
    ids: set[str] = set()
    for span in spans:
        existing = project.spans_for(span.reference, span.segment, target)
        if any(e.start == span.start and e.end == span.end and e.type == span.type for e in existing):
            continue
        rivals = existing + [c for c in copies if c.reference == span.reference and c.segment == span.segment]
        for other in rivals:
            if span.start < other.end and other.start < span.end:
                raise ModelError(
                    f"segment {span.segment!r}: {span.type} {span.start}-{span.end} overlaps "
                    f"{other.type} {other.start}-{other.end} in layer {target!r}"
                )
        new_id = project.new_id("e")
        while new_id in ids:
            new_id = project.new_id("e")
        ids.add(new_id)
        copies.append(
            EntitySpan(new_id, span.reference, span.segment, span.start, span.end, span.type, target)
        )
    return copies
