"""Edit the project's entity types: name, key and colour of each.

The dialog only builds a new list; the workspace saves it through
SetSettingCommand("entity_types", ...) so the change is undoable. A type that
spans use cannot be renamed or removed (those spans would lose their type).
"""

from __future__ import annotations

from collections.abc import Collection

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QColorDialog,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.model import EntityTypeStyle
from mtworkbench.gui.plain import esc


def validate_types(styles: list[EntityTypeStyle], old: list[EntityTypeStyle], used: Collection[str]) -> str | None:
    """What is wrong with the new list (None when it can be saved)."""
    if not styles:
        return "keep at least one entity type"
    names: set[str] = set()
    keys: set[str] = set()
    for style in styles:
        if not style.name or any(ch.isspace() for ch in style.name):
            return f"type name {style.name!r}: a name is needed, without spaces"
        if style.name in names:
            return f"type {style.name!r} appears twice"
        names.add(style.name)
        if len(style.key) != 1 or not style.key.isalnum():
            return f"type {style.name}: the key must be one letter or digit, not {style.key!r}"
        if style.key in keys:
            return f"key {style.key} is used by two types"
        keys.add(style.key)
        if not QColor.isValidColorName(style.color):
            return f"type {style.name}: {style.color!r} is not a colour"
    lost = sorted(set(used) - names)
    if lost:
        return f"entities of type {', '.join(lost)} exist: retype or remove them before removing or renaming the type"
    return None


class EntityTypesDialog(QDialog):
    def __init__(self, styles: list[EntityTypeStyle], used: Collection[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Entity types")
        self.resize(460, 380)
        self.old = styles
        self.used = set(used)
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["Type", "Key", "Colour"])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.cellDoubleClicked.connect(self._cell_double_clicked)
        for style in styles:
            self._append(style)
        add = QPushButton("Add type")
        add.clicked.connect(self._add)
        remove = QPushButton("Remove type")
        remove.clicked.connect(self._remove)
        colour = QPushButton("Colour…")
        colour.clicked.connect(self._pick_colour)
        row = QHBoxLayout()
        for button in (add, remove, colour):
            row.addWidget(button)
        row.addStretch(1)
        self.message = QLabel("Double-click a colour to change it. Keys are single letters or digits.")
        self.message.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addLayout(row)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        self.result_styles: list[EntityTypeStyle] | None = None

    def _append(self, style: EntityTypeStyle) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        self.table.setItem(row, 0, QTableWidgetItem(style.name))
        self.table.setItem(row, 1, QTableWidgetItem(style.key))
        self._set_colour(row, style.color)

    def _set_colour(self, row: int, color: str) -> None:
        item = QTableWidgetItem(color)
        item.setBackground(QColor(color) if QColor.isValidColorName(color) else QColor("white"))
        self.table.setItem(row, 2, item)

    def _add(self) -> None:
        self._append(EntityTypeStyle("NEW", "", "#a9a9a9"))
        self.table.setCurrentCell(self.table.rowCount() - 1, 0)

    def _remove(self) -> None:
        row = self.table.currentRow()
        if row >= 0:
            self.table.removeRow(row)

    def _cell_double_clicked(self, row: int, column: int) -> None:
        if column == 2:
            self._pick_colour()

    def _pick_colour(self) -> None:
        row = self.table.currentRow()
        if row < 0:
            return
        cell = self.table.item(row, 2)
        color = QColorDialog.getColor(QColor(cell.text() if cell else ""), self, "Entity colour")
        if color.isValid():
            self._set_colour(row, color.name())

    def styles(self) -> list[EntityTypeStyle]:
        out = []
        for row in range(self.table.rowCount()):
            cells = [(item.text() if (item := self.table.item(row, c)) else "").strip() for c in range(3)]
            out.append(EntityTypeStyle(cells[0], cells[1].upper(), cells[2]))
        return out

    def accept(self) -> None:
        styles = self.styles()
        problem = validate_types(styles, self.old, self.used)
        if problem:
            self.message.setText(f"<span style='color:#b00020'>{esc(problem)}</span>")
            self.message.setTextFormat(Qt.TextFormat.RichText)
            return
        self.result_styles = styles
        super().accept()
