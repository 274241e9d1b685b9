"""The references of a new project, each with a name the user can edit.

Names start as the file's stem (``ref-A`` for ``ref-A.de``); empty names fall
back to the importer's ``ref1``, ``ref2``, ... as on the command line
(``--ref NAME=FILE``). ``addItem``/``item``/``count`` speak of the files, as the
list this table replaced did.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QAbstractItemView,
    QHeaderView,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
)

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Project, Reference

NAME, FILE = 0, 1


class ReferenceTable(QTableWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(0, 2, parent)
        self.setObjectName("new-references")
        self.setHorizontalHeaderLabels(["Name", "File"])
        self.verticalHeader().setVisible(False)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.horizontalHeader()
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(FILE, QHeaderView.ResizeMode.Stretch)
        self.setColumnWidth(NAME, 140)
        self.setToolTip("Double-click a name to change it (the reference's id in the project)")

    def addItem(self, path: str) -> None:  # noqa: N802 - the list's name
        row = self.rowCount()
        self.insertRow(row)
        self.setItem(row, NAME, QTableWidgetItem(Path(path).stem))
        file_item = QTableWidgetItem(path)
        file_item.setToolTip(path)
        file_item.setFlags(file_item.flags() & ~file_item.flags().ItemIsEditable)
        self.setItem(row, FILE, file_item)

    def addItems(self, paths) -> None:  # noqa: N802 - the list's name
        for path in paths:
            self.addItem(path)

    def count(self) -> int:
        return self.rowCount()

    def item(self, row: int, column: int = FILE) -> QTableWidgetItem | None:
        return super().item(row, column)

    def _text(self, row: int, column: int) -> str:
        item = super().item(row, column)
        return item.text().strip() if item is not None else ""

    def paths(self) -> list[str]:
        return [self._text(r, FILE) for r in range(self.rowCount())]

    def names(self) -> list[str]:
        # A name still being typed counts: Enter in it may accept the dialog at once.
        if self.state() == QAbstractItemView.State.EditingState:
            for editor in self.viewport().findChildren(QLineEdit):
                if editor.isVisible():
                    self.commitData(editor)
                    self.closeEditor(editor, QAbstractItemDelegate.EndEditHint.NoHint)
        return [self._text(r, NAME) for r in range(self.rowCount())]


def apply_reference_names(project: Project, names: list[str]) -> None:
    """Rename the imported references (one per file, in order) to ``names``."""
    if not any(names):
        return
    if len(project.references) != len(names):
        raise DataError("references can be named for plain and SGML files (one reference per file); "
                        "leave the names empty for this format")
    old = list(project.references)
    named = [n or ref.id for n, ref in zip(names, old)]
    twice = sorted({n for n in named if named.count(n) > 1})
    if twice:
        raise DataError(f"reference name {', '.join(twice)} is given twice: each reference needs its own name")
    clash = sorted(set(named) & {s.id for s in project.systems})
    if clash:
        raise DataError(f"reference name {', '.join(clash)} is also a system's id")
    for ref in old:
        project.remove_reference(ref.id)
    for k, (name, ref) in enumerate(zip(named, old)):
        project.add_reference(Reference(name, ref.translator, ref.texts), index=k)
