"""The project's spans by layer and its relations between spans (mixed into ``Project``).

Kept apart from ``core.model`` so each module stays small; it uses the project's
span index and its event list only.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mtworkbench.core.layers import (
    ENTITIES,
    Relation,
    check_fragments,
    check_placement,
    layer_types,
    relation_layer,
    span_layer,
)
from mtworkbench.core.records import EntitySpan, ModelError, check_span_in_text


class LayeredSpans:
    """Layer-aware span checks and the relation store of a project."""

    _relations: dict[str, Relation]
    # The event class a relation change emits (``core.events.RelationChanged``, set by the
    # project: the events module builds on the model, so this module does not import it).
    relation_event: Any

    def span_text(self: Any, span: EntitySpan) -> str | None:
        """The text a span marks, by its layer's kind of text (None: no text there)."""
        layer = span_layer(self.settings, span.layer)
        if layer.on == "source":
            if span.reference:
                raise ModelError(f"layer {layer.name!r} sits on sources: its spans name no reference or system")
            return self.segment(span.segment).source
        if layer.on == "output":
            return self.system(span.reference).texts.get(span.segment)
        return self.reference(span.reference).texts.get(span.segment)

    def check_layered_span(self: Any, span: EntitySpan) -> str:
        """The layer checks of a span (its layer, fragments, type, place among the
        annotator's spans of that layer); returns the text it marks."""
        layer = span_layer(self.settings, span.layer)
        self.segment(span.segment)
        text = self.span_text(span)
        names = [t.name for t in layer_types(self.settings, layer.name)]
        text = check_span_in_text(span, text, names)
        check_fragments(span)
        if span.fragments and span.fragments[-1][1] > len(text):
            raise ModelError(f"span {span.id!r}: a fragment is outside the text (0-{len(text)})")
        others = [s for s in self.spans_for(span.reference, span.segment, span.annotator) if s.layer == span.layer]
        check_placement(span, others, layer, text)
        return text

    # --- relations ------------------------------------------------------------------
    @property
    def relations(self) -> list[Relation]:
        return sorted(self._relations.values(), key=lambda r: (r.layer, r.source, r.target, r.id))

    def relation(self, relation_id: str) -> Relation:
        try:
            return self._relations[relation_id]
        except KeyError:
            raise ModelError(f"unknown relation {relation_id!r}") from None

    def relations_of(self, span_id: str) -> list[Relation]:
        """The relations that start or end at a span (no sort: removing a span asks this)."""
        return [r for r in self._relations.values() if span_id in (r.source, r.target)]

    def check_relation(self: Any, relation: Relation) -> None:
        if not relation.id:
            raise ModelError("a relation needs a non-empty id")
        if relation.id in self._relations or relation.id in self._spans:
            raise ModelError(f"duplicate id {relation.id!r}")
        layer = relation_layer(self.settings, relation.layer)
        if relation.type not in [t.name for t in layer.types]:
            names = ", ".join(t.name for t in layer.types)
            raise ModelError(f"unknown relation type {relation.type!r}; expected one of {names}")
        if not relation.annotator:
            raise ModelError("a relation needs an annotator")
        for end in (relation.source, relation.target):
            span = self.span(end)
            if layer.connects and span.layer not in layer.connects:
                raise ModelError(f"relation layer {layer.name!r} links spans of {', '.join(layer.connects)}; span "
                                 f"{end!r} is on layer {span.layer!r}")
        if relation.source == relation.target:
            raise ModelError("a relation links two different spans")
        ends = {(relation.source, relation.target)}
        if not layer.directed:  # either way round is the same link
            ends.add((relation.target, relation.source))
        for r in self._relations.values():
            if (r.layer, r.type, r.annotator) == (relation.layer, relation.type, relation.annotator) \
                    and (r.source, r.target) in ends:
                arrow = "->" if layer.directed else "-"
                raise ModelError(f"the {relation.type} relation {relation.source} {arrow} {relation.target} is already there")

    def add_relation(self: Any, relation: Relation) -> None:
        self.check_relation(relation)
        self._relations[relation.id] = relation
        self._emit(self.relation_event(relation))

    def remove_relation(self: Any, relation_id: str) -> Relation:
        relation = self.relation(relation_id)
        del self._relations[relation_id]
        self._emit(self.relation_event(relation))
        return relation

    def set_relation_type(self: Any, relation_id: str, relation_type: str) -> str:
        """Retype a relation; returns the old type (its own inverse)."""
        old = self.relation(relation_id)
        layer = relation_layer(self.settings, old.layer)
        if relation_type not in [t.name for t in layer.types]:
            raise ModelError(f"unknown relation type {relation_type!r}")
        self._relations[relation_id] = replace(old, type=relation_type)
        self._emit(self.relation_event(self._relations[relation_id]))
        return old.type

    def layer_spans(self: Any, layer: str = ENTITIES) -> list[EntitySpan]:
        return [s for s in self.spans if s.layer == layer]


__all__ = ["LayeredSpans"]
