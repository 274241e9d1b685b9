"""Undoable edits of the Judge workspace.

Each command calls inverse pairs from the core: ``set_judge_queue`` (which
returns the old state), ``apply_judgment``/``revert_judgment``,
``move_judge_queue``/``record_queue_judgment`` and ``set_queue_option``. The queue position moves with a rating so that undo
shows the item whose rating it took back.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from mtworkbench.core.judging import apply_judgment, revert_judgment
from mtworkbench.core.model import Judgment, Project
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


class RateItemCommand(QUndoCommand):
    """Add (or, for an item rated before, replace) the judgment of queue item
    ``index`` and move the queue from ``before`` to ``after``.

    The position is set before the judgment changes, so views refreshing on
    the judgment event already see the new position.
    """

    def __init__(
        self, project: Project, judge: str, judgment: Judgment, index: int, before: int, after: int, replacing: bool
    ) -> None:
        super().__init__("Change rating" if replacing else "Rate item")
        self.project, self.judge, self.judgment = project, judge, judgment
        self.index, self.before, self.after = index, before, after
        self.replaced: Judgment | None = None

    def _move_to(self, position: int) -> None:
        state = self.project.judge_queues.get(self.judge)
        if state is not None and 0 <= position <= len(state.items):
            self.project.move_judge_queue(self.judge, position)
            self.project.record_queue_judgment(self.judge, self.index, self.judgment.id)

    def redo(self) -> None:
        self._move_to(self.after)
        self.replaced = apply_judgment(self.project, self.judgment)

    def undo(self) -> None:
        self._move_to(self.before)
        revert_judgment(self.project, self.judgment, self.replaced)


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
