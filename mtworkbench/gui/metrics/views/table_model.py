"""A read-only table model over a plain list of rows (the views' small tables)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont


class RowsModel(QAbstractTableModel):
    """Rows of values under fixed headers; numbers are right-aligned, bold rows stay bold."""

    def __init__(self, headers: Sequence[str], parent=None) -> None:
        super().__init__(parent)
        self.headers = list(headers)
        self.rows: list[tuple[Any, ...]] = []
        self.bold_rows: set[int] = set()

    def set_rows(self, rows: Sequence[tuple[Any, ...]], bold_rows: set[int] | None = None) -> None:
        self.beginResetModel()
        self.rows = [tuple(r) for r in rows]
        self.bold_rows = set(bold_rows or ())
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.headers[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        value = self.rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            if isinstance(value, float):
                return f"{value:.3f}"
            return value if isinstance(value, str) else str(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and not isinstance(value, str):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and index.row() in self.bold_rows:
            font = QFont()
            font.setBold(True)
            return font
        return None
