"""The undoable edit of relative ranking: store (or change) one item's ranking and move the queue."""

from __future__ import annotations

from mtworkbench.core.model import Judgment, Project
from mtworkbench.core.ranking import Ranking, apply_ranking, revert_ranking
from mtworkbench.gui.judge.commands import QueueItemCommand


class RankItemCommand(QueueItemCommand):
    """Add (or, for an item ranked before, replace) the ranking of queue item ``index``
    and move the queue from ``before`` to ``after``; undo takes both back (the
    position moves first, as for ``RateItemCommand``)."""

    def __init__(self, project: Project, judge: str, ranking: Ranking, index: int, before: int, after: int,
                 replacing: bool) -> None:
        super().__init__("Change ranking" if replacing else "Rank item", project, judge, ranking.id, index, before,
                         after)
        self.ranking = ranking
        self.replaced: list[Judgment] = []

    def _apply(self) -> None:
        self.replaced = apply_ranking(self.project, self.ranking)

    def _revert(self) -> None:
        revert_ranking(self.project, self.ranking, self.replaced)
