"""Undo commands of the Annotate workspace beyond the shared single-span ones
(mtworkbench.gui.commands): several spans as one step, for "annotate every
occurrence", adjudication and importing a file."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from PySide6.QtGui import QUndoCommand

from mtworkbench.core.annotation import add_spans
from mtworkbench.core.model import EntitySpan, ModelError, Project


def check_new_spans(project: Project, spans: Sequence[EntitySpan], removing: Sequence[EntitySpan] = ()) -> None:
    """Raise ModelError unless ``spans`` can all be added once ``removing`` is gone.

    Checks each span like ``Project.check_span`` does, against the project
    minus ``removing`` and against the other new spans, so a command whose
    redo would fail never reaches the undo stack.
    """
    gone = {s.id for s in removing}
    ids: set[str] = set()
    for span in spans:
        if span.id in ids:
            raise ModelError(f"duplicate entity span id {span.id!r}")
        ids.add(span.id)
    by_place: dict[tuple[str, str, str], list[EntitySpan]] = {}
    for span in spans:
        by_place.setdefault((span.reference, span.segment, span.annotator), []).append(span)
    for (reference, segment, annotator), group in by_place.items():
        kept = [s for s in project.spans_for(reference, segment, annotator) if s.id not in gone]
        for span in group:
            # check_span against the project without the overlapping spans that go away
            _check_alone(project, span, kept, gone)
        ordered = sorted(group, key=lambda s: s.start)
        for left, right in pairwise(ordered):
            if right.start < left.end:
                raise ModelError(f"segment {segment!r}: new spans {left.start}-{left.end} and {right.start}-{right.end} overlap")


def _check_alone(project: Project, span: EntitySpan, kept: list[EntitySpan], gone: set[str]) -> None:
    if span.id not in gone:
        try:
            project.span(span.id)
        except ModelError:
            pass
        else:
            raise ModelError(f"duplicate entity span id {span.id!r}")
    text = project.reference(span.reference).texts.get(span.segment)
    if text is None:
        raise ModelError(f"reference {span.reference!r} has no text for segment {span.segment!r}")
    if not (0 <= span.start < span.end <= len(text)):
        raise ModelError(f"span {span.start}-{span.end} is outside the text of segment {span.segment!r}")
    if span.type not in project.entity_type_names:
        raise ModelError(f"unknown entity type {span.type!r}")
    if not span.annotator:
        raise ModelError("an entity span needs an annotator")
    for other in kept:
        if span.start < other.end and other.start < span.end:
            raise ModelError(
                f"span {span.start}-{span.end} overlaps the {other.type} entity {other.start}-{other.end} "
                f"({text[other.start:other.end]!r})"
            )


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
    ) -> None:
        super().__init__(text)
        self.project = project
        self.removed = list(removed)
        self.added = list(added)
        self.new_texts = dict(new_texts or {})
        self._skip_redo = applied

    def redo(self) -> None:
        if self._skip_redo:
            self._skip_redo = False
            return
        for (reference, segment), value in self.new_texts.items():
            self.project.set_reference_text(reference, segment, value)
        for span in self.removed:
            self.project.remove_span(span.id)
        add_spans(self.project, self.added)

    def undo(self) -> None:
        for span in reversed(self.added):
            self.project.remove_span(span.id)
        add_spans(self.project, self.removed)
        for reference, segment in self.new_texts:
            # The reference had no text here before.
            self.project.clear_reference_text(reference, segment)


class AddSpansCommand(ReplaceSpansCommand):
    """Add several spans as one undo step (e.g. every occurrence of a string)."""

    def __init__(self, project: Project, spans: Sequence[EntitySpan], text: str) -> None:
        super().__init__(project, [], spans, text)
