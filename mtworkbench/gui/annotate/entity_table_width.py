"""The entity list wide enough for the names it lists, as far as the editor can spare.

The list's text column stretches, so the side pane's width decides whether
"Irakli Okruashvili" reads whole or as "Irakli …". When the list is filled, or
grows, the pane widens to the widest entity text of the document, up to a share of
the window that leaves the editor most of it. It never narrows on its own, and once
the user has dragged the splitter their layout is theirs.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QSplitter, QTableView

from mtworkbench.gui.annotate.entity_list import EntityListModel

SIDE_SHARE = 0.42  # the most of the splitter's width the list may take by itself
CELL_PADDING = 12  # a cell's margins on both sides, as the default delegate draws them
ICON_ROOM = 24  # the type's colour swatch and its gap


def type_column_width(table: QTableView, type_names: list[str]) -> int:
    """Room for the widest type name beside its swatch."""
    metrics = table.fontMetrics()
    widest = max((metrics.horizontalAdvance(name) for name in type_names), default=40)
    return widest + ICON_ROOM + CELL_PADDING


class EntityTableWidth(QObject):
    """Widens ``splitter``'s second pane (holding ``table``) to show ``model``'s texts whole."""

    def __init__(self, splitter: QSplitter, table: QTableView, model: EntityListModel) -> None:
        super().__init__(splitter)
        self.splitter, self.table, self.model = splitter, table, model
        self.user_sized = False
        splitter.splitterMoved.connect(self._moved_by_user)
        model.modelReset.connect(self.fit)
        model.rowsInserted.connect(self.fit)
        splitter.installEventFilter(self)

    def _moved_by_user(self, *_args) -> None:
        self.user_sized = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            self.fit()
        return False

    def needed(self) -> int:
        """The side pane's width with every text of the list whole."""
        metrics = self.table.fontMetrics()
        widest = max((metrics.horizontalAdvance(item.text) for item in self.model.items), default=0)
        scrollbar = self.table.verticalScrollBar().sizeHint().width()
        return (self.table.columnWidth(0) + self.table.columnWidth(1) + widest + CELL_PADDING
                + scrollbar + 2 * self.table.frameWidth())

    def fit(self, *_args) -> None:
        if self.user_sized or self.splitter.count() < 2:
            return
        sizes = self.splitter.sizes()
        total = sum(sizes)
        if total <= 0:
            return  # not laid out yet: the first resize fits it
        side = min(self.needed(), int(total * SIDE_SHARE))
        if side > sizes[1]:
            self.splitter.setSizes([total - side, side])
