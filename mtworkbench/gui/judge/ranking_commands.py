"""The undoable edit of relative ranking: store (or change) one item's ranking and move the queue."""

from __future__ import annotations

from mtworkbench.core.ranking import RankingEdit
from mtworkbench.gui.judge.commands import QueueItemCommand


class RankItemCommand(QueueItemCommand):
    """Add (or, for an item ranked before, replace) the ranking of a queue item and move
    the queue on; undo takes both back (the position moves first, as for ``RateItemCommand``)."""

    def __init__(self, edit: RankingEdit) -> None:
        super().__init__("Change ranking" if edit.replacing else "Rank item", edit)
