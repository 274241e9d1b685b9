"""The open project as the GUI sees it: one object every workspace shares.

``ProjectSession`` owns the current ``Project``, its file path and the one
``QUndoStack``; it relays the project's plain-Python change events as Qt
signals, and it carries the current segment so that all views follow the
navigator.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from mtworkbench.core.model import Project, ProjectEvent


class ProjectSession(QObject):
    project_replaced = Signal(object)
    """A different project was opened or created; payload: the new ``Project``."""

    project_changed = Signal(object)
    """The open project changed; payload: the ``ProjectEvent`` describing it."""

    current_segment_changed = Signal(str)
    """The segment the views show changed; payload: its id ('' when none)."""

    path_changed = Signal(object)
    """The file the project is saved to changed; payload: ``Path`` or None."""

    open_in_judge_requested = Signal(str, str)
    """A view asks to show (system id, segment id) in the Judge workspace."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.project = Project()
        self.path: Path | None = None
        self.current_segment: str = ""
        self.project.subscribe(self._relay)

    def _relay(self, event: ProjectEvent) -> None:
        self.project_changed.emit(event)

    def replace_project(self, project: Project, path: Path | None, select_first: bool = True) -> None:
        """Show ``project``; its first segment becomes current now, or, unless ``select_first``,
        when the caller calls ``select_first_segment`` (a later event-loop turn)."""
        self.project.unsubscribe(self._relay)
        self.project = project
        self.project.subscribe(self._relay)
        self.undo_stack.clear()
        self.set_path(path)
        self.project_replaced.emit(project)
        self.current_segment = ""
        if select_first:
            self.select_first_segment()

    def select_first_segment(self) -> None:
        """The project's first segment becomes current (when none is)."""
        if not self.current_segment and self.project.segments:
            self.set_current_segment(self.project.segments[0].id)  # not every id listed to take one

    def set_path(self, path: Path | None) -> None:
        self.path = path
        if path is not None:
            from mtworkbench.scoring.store import attach

            attach(self.project, path)  # its scores persist beside the bundle from now on
        self.path_changed.emit(path)

    def set_current_segment(self, segment_id: str) -> None:
        if segment_id != self.current_segment:
            self.current_segment = segment_id
            self.current_segment_changed.emit(segment_id)

    def push(self, command: QUndoCommand) -> None:
        """Apply an edit through the undo stack (never mutate the project directly)."""
        self.undo_stack.push(command)

    @property
    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()
