"""Undoable edits of the Judge workspace.

Each command calls inverse pairs from the core: ``set_judge_queue`` (which
returns the old state), ``apply_judgment``/``revert_judgment`` and
``JudgeSession.go_to``. The queue position moves with a rating so that undo
shows the item whose rating it took back.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QUndoCommand

from mtworkbench.core.judging import apply_judgment, revert_judgment
from mtworkbench.core.model import Judgment, Project


class StartQueueCommand(QUndoCommand):
    """Store a freshly built queue for ``judge`` (replacing any older one)."""

    def __init__(self, project: Project, judge: str, state: dict[str, Any]) -> None:
        super().__init__(f"Start judging queue for {judge}")
        self.project, self.judge, self.state = project, judge, state
        self.old: dict[str, Any] | None = None

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
        if state is not None and 0 <= position <= len(state["items"]):
            state["position"] = position
            state["items"][self.index]["judgment"] = self.judgment.id

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
        self.old = bool(project.judge_queues[judge][name])

    def _set(self, value: bool) -> None:
        state = self.project.judge_queues[self.judge]
        state[self.name] = value
        # Re-storing the same state emits 'judge_queue_changed', so views follow.
        self.project.set_judge_queue(self.judge, state)

    def redo(self) -> None:
        self._set(self.value)

    def undo(self) -> None:
        self._set(self.old)
