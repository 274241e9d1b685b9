"""Turning a project into the ``ScoringInput`` a metric consumes."""

from __future__ import annotations

from collections.abc import Sequence

from mtworkbench.core.model import Project, Reference
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
        if span.layer != "entities":
            continue
        counts[span.annotator] = counts.get(span.annotator, 0) + 1
    if not counts:
        return None
    if ADJUDICATED_LAYER in counts:
        return ADJUDICATED_LAYER
    return sorted(counts, key=lambda name: (-counts[name], name))[0]


def self_reference(project: Project, system_id: str) -> str | None:
    """The reference that this system's outputs are, or None.

    Importers name a reference that is also scored as a system after the
    reference (mt-metrics-eval's ``refA`` in ``system-outputs``, the MQM files'
    ``ref-A``), so a system and a reference of one id are one translation; so are
    a human system and a reference with the same text on every segment.
    Scoring it against a reference set holding itself would give it a perfect
    score, which WMT avoids by scoring ``BLEU-refA`` against the other references.
    """
    if project.has_reference(system_id):
        return system_id
    # A human translation entered under another name (the demo's ``human-ref2``) is the same
    # translation when its text equals a reference's on every segment.
    system = project.system(system_id)
    if system.kind == "human" and system.texts:
        for reference in project.references:
            if reference.texts == system.texts:
                return reference.id
    return None


def scoring_reference_ids(project: Project, system_id: str) -> list[str]:
    """The references a system is scored against by default: every reference but
    the system itself (:func:`self_reference`); empty when it is the only one."""
    own = self_reference(project, system_id)
    return [r.id for r in project.references if r.id != own]


def unscored_reason(project: Project, system_id: str) -> str | None:
    """Why reference-based metrics cannot score this system, or None when they can."""
    own = self_reference(project, system_id)
    if own is None or scoring_reference_ids(project, system_id):
        return None
    return (f"{system_id} is the reference {own!r}, the project's only reference: reference-based "
            "metrics do not score a reference against itself")


def scoring_input(
    project: Project,
    system_id: str,
    reference_ids: Sequence[str] | None = None,
    annotator: str | None = None,
    segment_ids: Sequence[str] | None = None,
) -> ScoringInput:
    """The system's outputs against the project's references (by default all but the
    system itself, :func:`scoring_reference_ids`).

    A system that is the only reference gets one stream with no reference text,
    so that metrics that need references refuse it and imported scores still read.

    Entity mentions come from ``annotator`` (by default
    :func:`default_entity_layer`); every layer is also passed by name in
    ``entity_layers`` for a metric option that picks another.
    ``segment_ids`` reads only those segments, in that order (a detail view's
    one segment costs one segment's work, not the project's).
    """
    system = project.system(system_id)
    if reference_ids:
        refs: list[Reference | None] = [project.reference(r) for r in reference_ids]
    else:
        refs = [project.reference(r) for r in scoring_reference_ids(project, system_id)]
        if not refs and unscored_reason(project, system_id):
            refs = [None]
    if segment_ids is None:
        seg_ids = project.segment_ids
        sources = [s.source for s in project.segments]
    else:
        seg_ids = list(segment_ids)
        sources = [project.segment(sid).source for sid in seg_ids]
    def layer(name: str | None, span_layer: str = "entities") -> list[list[list[EntityMention]]]:
        return [
            [[EntityMention(s.start, s.end, s.type, s.fragments) for s in project.spans_for(ref.id, sid, name)
              if s.layer == span_layer]
             if ref is not None else [] for sid in seg_ids]
            for ref in refs
        ]

    chosen = annotator if annotator is not None else default_entity_layer(project)
    names = {s.layer: set() for s in project.spans}  # type: dict[str, set[str]]
    for s in project.spans:
        names[s.layer].add(s.annotator)
    layers = {name: layer(name) for name in sorted(names.get("entities", ()))}
    others = {
        lay.name: {name: layer(name, lay.name) for name in sorted(names.get(lay.name, ()))}
        for lay in project.settings.span_layers if lay.name != "entities" and lay.on == "reference"
    }
    entities = layers.get(chosen) if chosen is not None else None
    if entities is None:
        entities = layer(chosen) if chosen is not None else [[[] for _ in seg_ids] for _ in refs]
    return ScoringInput(
        hypotheses=[system.texts[sid] for sid in seg_ids],
        references=[[ref.texts.get(sid) if ref is not None else None for sid in seg_ids] for ref in refs],
        sources=sources,
        documents=[project.document_of(sid) for sid in seg_ids],
        paragraphs=[project.paragraph_of(sid) for sid in seg_ids],
        entities=entities,
        entity_layer=chosen,
        entity_layers=layers,
        span_layers=others,
        target_language=project.target_language or None,
    )
