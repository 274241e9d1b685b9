"""The undoable edit of relative ranking: store (or change) one item's ranking and move the queue."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from mtworkbench.core.model import Judgment, Project
from mtworkbench.core.ranking import Ranking, apply_ranking, revert_ranking


class RankItemCommand(QUndoCommand):
    """Add (or, for an item ranked before, replace) the ranking of queue item ``index``
    and move the queue from ``before`` to ``after``; undo takes both back.

    The position moves first, so views refreshing on the judgment events already
    see the new position (as ``RateItemCommand``).
    """

    def __init__(self, project: Project, judge: str, ranking: Ranking, index: int, before: int, after: int,
                 replacing: bool) -> None:
        super().__init__("Change ranking" if replacing else "Rank item")
        self.project, self.judge, self.ranking = project, judge, ranking
        self.index, self.before, self.after = index, before, after
        self.replaced: list[Judgment] = []

    def _move_to(self, position: int) -> None:
        state = self.project.judge_queues.get(self.judge)
        if state is not None and 0 <= position <= len(state.items):
            self.project.move_judge_queue(self.judge, position)
            self.project.record_queue_judgment(self.judge, self.index, self.ranking.id)

    def redo(self) -> None:
        self._move_to(self.after)
        self.replaced = apply_ranking(self.project, self.ranking)

    def undo(self) -> None:
        self._move_to(self.before)
        revert_ranking(self.project, self.ranking, self.replaced)
