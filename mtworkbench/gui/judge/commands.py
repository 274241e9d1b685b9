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


class QueueItemCommand(QUndoCommand):
    """Store what queue item ``index`` produced (``_apply``/``_revert``), record its id
    ``recorded`` in the queue and move the queue from ``before`` to ``after``.

    The position is set before the judgments change, so views refreshing on
    the judgment events already see the new position.
    """

    def __init__(self, text: str, project: Project, judge: str, recorded: str, index: int, before: int,
                 after: int) -> None:
        super().__init__(text)
        self.project, self.judge, self.recorded = project, judge, recorded
        self.index, self.before, self.after = index, before, after

    def _move_to(self, position: int) -> None:
        state = self.project.judge_queues.get(self.judge)
        if state is not None and 0 <= position <= len(state.items):
            self.project.move_judge_queue(self.judge, position)
            self.project.record_queue_judgment(self.judge, self.index, self.recorded)

    def _apply(self) -> None:
        raise NotImplementedError

    def _revert(self) -> None:
        raise NotImplementedError

    def redo(self) -> None:
        self._move_to(self.after)
        self._apply()

    def undo(self) -> None:
        self._move_to(self.before)
        self._revert()


class RateItemCommand(QueueItemCommand):
    """Add (or, for an item rated before, replace) the judgment of queue item
    ``index`` and move the queue from ``before`` to ``after``."""

    def __init__(
        self, project: Project, judge: str, judgment: Judgment, index: int, before: int, after: int, replacing: bool
    ) -> None:
        super().__init__("Change rating" if replacing else "Rate item", project, judge, judgment.id, index, before,
                         after)
        self.judgment = judgment
        self.replaced: Judgment | None = None

    def _apply(self) -> None:
        self.replaced = apply_judgment(self.project, self.judgment)

    def _revert(self) -> None:
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
