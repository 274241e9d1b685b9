"""Undoable edits. Each command's ``redo`` and ``undo`` call a pair of the
project's inverse mutators; nothing else changes the project from the GUI.

A command that fails in its first ``redo`` raises ``ModelError`` from
``ProjectSession.push``'s caller's point of view: check with the project's
``check_*`` methods before pushing, so the stack never holds a failed edit.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QUndoCommand

from mtworkbench.core.model import EntitySpan, Project


class SetTextCommand(QUndoCommand):
    """Replace one text: ``kind`` is 'source', 'reference' or 'system'."""

    def __init__(self, project: Project, kind: str, owner: str, segment: str, text: str) -> None:
        super().__init__(f"Edit {kind} text of segment {segment}")
        self.project, self.kind, self.owner, self.segment = project, kind, owner, segment
        self.new_text = text
        self.old_text: str | None = None

    def _set(self, text: str) -> str | None:
        if self.kind == "source":
            return self.project.set_segment_source(self.segment, text)
        if self.kind == "reference":
            return self.project.set_reference_text(self.owner, self.segment, text)
        return self.project.set_system_text(self.owner, self.segment, text)

    def redo(self) -> None:
        self.old_text = self._set(self.new_text)

    def undo(self) -> None:
        if self.kind == "reference" and self.old_text is None:
            # The reference had no text for this segment before.
            self.project.clear_reference_text(self.owner, self.segment)
        else:
            self._set(self.old_text or "")


class AddSpanCommand(QUndoCommand):
    def __init__(self, project: Project, span: EntitySpan, text: str | None = None) -> None:
        super().__init__(text or f"Tag {span.type}")
        self.project, self.span = project, span

    def redo(self) -> None:
        self.project.add_span(self.span)

    def undo(self) -> None:
        self.project.remove_span(self.span.id)


class RemoveSpanCommand(QUndoCommand):
    def __init__(self, project: Project, span_id: str) -> None:
        self.project = project
        self.span = project.span(span_id)
        super().__init__(f"Remove {self.span.type}")

    def redo(self) -> None:
        self.project.remove_span(self.span.id)

    def undo(self) -> None:
        self.project.add_span(self.span)


class SetSpanTypeCommand(QUndoCommand):
    def __init__(self, project: Project, span_id: str, entity_type: str) -> None:
        super().__init__(f"Retype entity as {entity_type}")
        self.project, self.span_id, self.new_type = project, span_id, entity_type
        self.old_type = project.span(span_id).type

    def redo(self) -> None:
        self.project.set_span_type(self.span_id, self.new_type)

    def undo(self) -> None:
        self.project.set_span_type(self.span_id, self.old_type)


class AddJudgeCommand(QUndoCommand):
    def __init__(self, project: Project, judge: str) -> None:
        super().__init__(f"Add judge {judge}")
        self.project, self.judge = project, judge

    def redo(self) -> None:
        self.project.add_judge(self.judge)

    def undo(self) -> None:
        self.project.remove_judge(self.judge)


class SetSettingCommand(QUndoCommand):
    def __init__(self, project: Project, name: str, value: Any) -> None:
        super().__init__(f"Change {name.replace('_', ' ')}")
        self.project, self.name, self.new = project, name, value
        self.old: Any = None

    def redo(self) -> None:
        self.old = self.project.set_setting(self.name, self.new)

    def undo(self) -> None:
        self.project.set_setting(self.name, self.old)
