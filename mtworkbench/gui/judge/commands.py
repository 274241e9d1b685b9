"""Undoable edits of the Judge workspace.

Each command calls inverse pairs from the core: ``set_judge_queue`` (which
returns the old state), a submitted item's ``QueueEdit`` (``redo``/``undo``) and
``set_queue_option``. The queue position moves with a rating so that undo shows the
item whose rating it took back.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from mtworkbench.core.judge_session import QueueEdit, RatingEdit
from mtworkbench.core.model import Project
from mtworkbench.core.queue_state import JudgeQueue


class StartQueueCommand(QUndoCommand):
    """Store a freshly built queue for ``judge`` (replacing any older one)."""

    def __init__(self, project: Project, judge: str, state: JudgeQueue) -> None:
        super().__init__(f"Start judging queue for {judge}")
        self.project, self.judge, self.state = project, judge, state
        self.old: JudgeQueue | None = None

    def redo(self) -> None:
        self.old = self.project.set_judge_queue(self.judge, self.state)

    def undo(self) -> None:
        self.project.set_judge_queue(self.judge, self.old)


class QueueItemCommand(QUndoCommand):
    """Submitting one queue item (``core.judge_session.QueueEdit``): redo does the whole
    edit (note what the item produced in the queue, move the queue on, store the work),
    undo reverses it exactly."""

    def __init__(self, text: str, edit: QueueEdit) -> None:
        super().__init__(text)
        self.edit = edit

    def redo(self) -> None:
        self.edit.redo()

    def undo(self) -> None:
        self.edit.undo()


class RateItemCommand(QueueItemCommand):
    """Add (or, for an item rated before, replace) the judgment of a queue item and move the queue on."""

    def __init__(self, edit: RatingEdit) -> None:
        super().__init__("Change rating" if edit.replacing else "Rate item", edit)


class SetQueueOptionCommand(QUndoCommand):
    """Turn 'show_source' or 'highlight_overlap' of a judge's queue on or off."""

    def __init__(self, project: Project, judge: str, name: str, value: bool) -> None:
        super().__init__(f"{'Show' if value else 'Hide'} {'source' if name == 'show_source' else 'word overlap'}")
        self.project, self.judge, self.name, self.value = project, judge, name, bool(value)
        self.old = bool(getattr(project.judge_queues[judge], name))

    def _set(self, value: bool) -> None:
        self.project.set_queue_option(self.judge, self.name, value)

    def redo(self) -> None:
        self._set(self.value)

    def undo(self) -> None:
        self._set(self.old)
