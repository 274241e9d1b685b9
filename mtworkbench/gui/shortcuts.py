"""Help > Keyboard shortcuts: every shortcut and access key the window offers.

Menu and workspace actions are read from the live window (so the list is never
out of date); the keys a workspace handles itself (type keys, rating keys) are
listed from the same constants those workspaces use.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

# Keys a workspace reads itself (not QActions), as its hint lines describe them.
WORKSPACE_KEYS: tuple[tuple[str, str, str], ...] = (
    ("Annotate", "Shift+arrows", "select text (snapped to whole words)"),
    ("Annotate", "type key (P, O, L, D, T, M, C …)", "tag the selection, or retype the clicked entity"),
    ("Annotate", "Delete", "remove the clicked entity"),
    ("Judge", "1–5", "rate adequacy, then fluency"),
    ("Judge", "Enter", "submit and go to the next item in queue order"),
    ("Judge", "Backspace / Left", "previous item"),
    ("Judge", "Right", "skip to the next item"),
    ("Judge", "Tab", "to the comment field (Esc returns to the rating keys)"),
    ("Judge, ranking", "Up / Down, Tab / Shift+Tab", "focus another translation"),
    ("Judge, ranking", "1–5", "rank the focused translation (1 best; ties allowed); 0 or Delete clears"),
    ("Judge, ranking", "Enter", "submit once every translation has a rank"),
    ("Judge, ranking", "C", "to the comment field (Esc returns to the ranking keys)"),
    ("Metrics", "+ / − / arrows / 0", "GTM grid: zoom, pan, fit"),
    ("Every table", "arrows; Tab / Shift+Tab", "move between cells; leave the table"),
)


def _mnemonic(text: str) -> str:
    i = text.find("&")
    while i >= 0 and i + 1 < len(text) and text[i + 1] == "&":
        i = text.find("&", i + 2)
    return f"Alt+{text[i + 1].upper()}" if 0 <= i < len(text) - 1 else ""


class ShortcutsDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.resize(640, 560)
        self.table = QTableWidget(0, 3)
        self.table.setObjectName("shortcuts-table")
        self.table.setHorizontalHeaderLabels(["Where", "Keys", "What"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)

    def rows(self, window) -> list[tuple[str, str, str]]:
        rows: list[tuple[str, str, str]] = []
        seen: set[tuple[str, str]] = set()
        for action in window.findChildren(QAction):
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            text = action.text().replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…")
            if not keys or not text or (text, keys) in seen:
                continue
            seen.add((text, keys))
            owner = action.parent()
            where = getattr(owner, "title", "") if owner is not window else "Menus"
            rows.append((str(where or "Menus"), keys, text))
        for i in range(window.tabs.count()):
            workspace = window.tabs.widget(i)
            for button in workspace.findChildren(QAbstractButton):
                key = _mnemonic(button.text())
                if key:
                    rows.append((window.tabs.tabText(i), key, button.text().replace("&", "")))
        rows += list(WORKSPACE_KEYS)
        return rows

    def fill(self, window) -> None:
        rows = self.rows(window)
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                item = QTableWidgetItem(value)
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
