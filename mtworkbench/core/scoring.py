"""Turning a project into the ``ScoringInput`` a metric consumes."""

from __future__ import annotations

from collections.abc import Sequence

from mtworkbench.core.model import Project
from mtworkbench.core.scoring_input import EntityMention, ScoringInput


def scoring_input(
    project: Project,
    system_id: str,
    reference_ids: Sequence[str] | None = None,
    annotator: str | None = None,
    segment_ids: Sequence[str] | None = None,
) -> ScoringInput:
    """The system's outputs against the project's references (all by default).

    Entity mentions come from ``annotator`` (every annotator when None; a
    project normally has one layer per reference, or an adjudicated one).
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
    entities = [
        [
            [
                EntityMention(s.start, s.end, s.type)
                for s in project.spans_for(ref.id, sid, annotator)
            ]
            for sid in seg_ids
        ]
        for ref in refs
    ]
    return ScoringInput(
        hypotheses=[system.texts[sid] for sid in seg_ids],
        references=[[ref.texts.get(sid) for sid in seg_ids] for ref in refs],
        sources=sources,
        documents=[project.document_of(sid) for sid in seg_ids],
        paragraphs=[project.paragraph_of(sid) for sid in seg_ids],
        entities=entities,
        target_language=project.target_language or None,
    )
