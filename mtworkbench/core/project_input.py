"""Turning a project into the ``ScoringInput`` a metric consumes."""

from __future__ import annotations

from collections.abc import Sequence

from mtworkbench.core.model import Project
from mtworkbench.core.scoring_input import EntityMention, ScoringInput

ADJUDICATED_LAYER = "adjudicated"


def default_entity_layer(project: Project) -> str | None:
    """The annotator layer entity metrics use unless told otherwise.

    The adjudicated layer when there is one; else the layer with the most
    spans (ties: the first by name). Layers are never pooled: pooling would
    count an entity two annotators typed differently twice.
    """
    counts: dict[str, int] = {}
    for span in project.spans:
        counts[span.annotator] = counts.get(span.annotator, 0) + 1
    if not counts:
        return None
    if ADJUDICATED_LAYER in counts:
        return ADJUDICATED_LAYER
    return sorted(counts, key=lambda name: (-counts[name], name))[0]


def scoring_input(
    project: Project,
    system_id: str,
    reference_ids: Sequence[str] | None = None,
    annotator: str | None = None,
    segment_ids: Sequence[str] | None = None,
) -> ScoringInput:
    """The system's outputs against the project's references (all by default).

    Entity mentions come from ``annotator`` (by default
    :func:`default_entity_layer`); every layer is also passed by name in
    ``entity_layers`` for a metric option that picks another.
    ``segment_ids`` reads only those segments, in that order (a detail view's
    one segment costs one segment's work, not the project's).
    """
    system = project.system(system_id)
    refs = [project.reference(r) for r in reference_ids] if reference_ids else project.references
    if segment_ids is None:
        seg_ids = project.segment_ids
        sources = [s.source for s in project.segments]
    else:
        seg_ids = list(segment_ids)
        sources = [project.segment(sid).source for sid in seg_ids]
    def layer(name: str | None) -> list[list[list[EntityMention]]]:
        return [
            [[EntityMention(s.start, s.end, s.type) for s in project.spans_for(ref.id, sid, name)] for sid in seg_ids]
            for ref in refs
        ]

    chosen = annotator if annotator is not None else default_entity_layer(project)
    layers = {name: layer(name) for name in project.annotators}
    entities = layers.get(chosen) if chosen is not None else None
    if entities is None:
        entities = layer(chosen) if chosen is not None else [[[] for _ in seg_ids] for _ in refs]
    return ScoringInput(
        hypotheses=[system.texts[sid] for sid in seg_ids],
        references=[[ref.texts.get(sid) for sid in seg_ids] for ref in refs],
        sources=sources,
        documents=[project.document_of(sid) for sid in seg_ids],
        paragraphs=[project.paragraph_of(sid) for sid in seg_ids],
        entities=entities,
        entity_layer=chosen,
        entity_layers=layers,
        target_language=project.target_language or None,
    )
