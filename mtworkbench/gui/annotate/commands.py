"""Undo commands of the Annotate workspace beyond the shared single-span ones
(mtworkbench.gui.commands): several spans as one step, for "annotate every
occurrence", adjudication and importing a file."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QUndoCommand

from mtworkbench.core.annotation import add_spans
from mtworkbench.core.layer_schema import LayerSchema, apply_schema
from mtworkbench.core.layers import Relation, check_placement, layer_types, span_layer
from mtworkbench.core.model import EntitySpan, ModelError, Project


def check_new_spans(project: Project, spans: Sequence[EntitySpan], removing: Sequence[EntitySpan] = ()) -> None:
    """Raise ModelError unless ``spans`` can all be added once ``removing`` is gone.

    Checks each span like ``Project.check_span`` does (its layer's nesting and
    overlap rules included), against the project minus ``removing`` and against
    the other new spans, so a command whose redo would fail never reaches the undo stack.
    """
    gone = {s.id for s in removing}
    ids: set[str] = set()
    for span in spans:
        if span.id in ids:
            raise ModelError(f"duplicate entity span id {span.id!r}")
        ids.add(span.id)
        if span.id not in gone:
            try:
                project.span(span.id)
            except ModelError:
                pass
            else:
                raise ModelError(f"duplicate entity span id {span.id!r}")
    earlier: list[EntitySpan] = []
    for span in spans:
        text = project.span_text(span)
        if text is None:
            raise ModelError(f"reference {span.reference!r} has no text for segment {span.segment!r}")
        if not (0 <= span.start < span.end <= len(text)):
            raise ModelError(f"span {span.start}-{span.end} is outside the text of segment {span.segment!r}")
        if span.type not in [t.name for t in layer_types(project.settings, span.layer)]:
            raise ModelError(f"unknown entity type {span.type!r}")
        if not span.annotator:
            raise ModelError("an entity span needs an annotator")
        kept = [s for s in project.spans_for(span.reference, span.segment, span.annotator)
                if s.id not in gone and s.layer == span.layer]
        rivals = kept + [e for e in earlier if (e.reference, e.segment, e.annotator, e.layer) ==
                         (span.reference, span.segment, span.annotator, span.layer)]
        check_placement(span, rivals, span_layer(project.settings, span.layer), text)
        earlier.append(span)


class AddRelationCommand(QUndoCommand):
    def __init__(self, project: Project, relation: Relation) -> None:
        super().__init__(f"Link {relation.type}")
        self.project, self.relation = project, relation

    def redo(self) -> None:
        self.project.add_relation(self.relation)

    def undo(self) -> None:
        self.project.remove_relation(self.relation.id)


class RemoveSpanWithRelationsCommand(QUndoCommand):
    """Remove a span and the relations that start or end at it, as one step."""

    def __init__(self, project: Project, span_id: str) -> None:
        self.project = project
        self.span = project.span(span_id)
        self.relations = project.relations_of(span_id)
        super().__init__(f"Remove {self.span.type}")

    def redo(self) -> None:
        for relation in self.relations:
            self.project.remove_relation(relation.id)
        self.project.remove_span(self.span.id)

    def undo(self) -> None:
        self.project.add_span(self.span)
        for relation in self.relations:
            self.project.add_relation(relation)


class ReplaceSpansCommand(QUndoCommand):
    """Remove some spans and add others as one undo step.

    With ``applied=True`` the change has already been made (an import did it
    through the io facade): the first redo does nothing. ``new_texts`` are
    reference texts the change set where the reference had none (an import
    can do that); undo takes them away again after the spans.
    """

    def __init__(
        self,
        project: Project,
        removed: Sequence[EntitySpan],
        added: Sequence[EntitySpan],
        text: str,
        applied: bool = False,
        new_texts: dict[tuple[str, str], str] | None = None,
        removed_relations: Sequence[Relation] = (),
        added_relations: Sequence[Relation] = (),
    ) -> None:
        super().__init__(text)
        self.project = project
        self.removed = list(removed)
        self.added = list(added)
        # Relations go before their spans and come back after them.
        self.removed_relations = list(removed_relations)
        self.added_relations = list(added_relations)
        self.new_texts = dict(new_texts or {})
        self._skip_redo = applied

    def redo(self) -> None:
        if self._skip_redo:
            self._skip_redo = False
            return
        for (reference, segment), value in self.new_texts.items():
            self.project.set_reference_text(reference, segment, value)
        for relation in self.removed_relations:
            self.project.remove_relation(relation.id)
        for span in self.removed:
            self.project.remove_span(span.id)
        add_spans(self.project, self.added)
        for relation in self.added_relations:
            self.project.add_relation(relation)

    def undo(self) -> None:
        for relation in reversed(self.added_relations):
            self.project.remove_relation(relation.id)
        for span in reversed(self.added):
            self.project.remove_span(span.id)
        add_spans(self.project, self.removed)
        for relation in self.removed_relations:
            self.project.add_relation(relation)
        for reference, segment in self.new_texts:
            # The reference had no text here before.
            self.project.clear_reference_text(reference, segment)


class AddSpansCommand(ReplaceSpansCommand):
    """Add several spans as one undo step (e.g. every occurrence of a string)."""

    def __init__(self, project: Project, spans: Sequence[EntitySpan], text: str) -> None:
        super().__init__(project, [], spans, text)


class SetLayerSchemaCommand(QUndoCommand):
    """The layers and types as the schema dialog left them, as one undo step."""

    def __init__(self, project: Project, schema: LayerSchema, text: str = "Change layers and types") -> None:
        super().__init__(text)
        self.project, self.new = project, schema
        self.old: LayerSchema | None = None

    def redo(self) -> None:
        self.old = apply_schema(self.project, self.new)

    def undo(self) -> None:
        if self.old is not None:
            apply_schema(self.project, self.old)
