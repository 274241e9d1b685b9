"""File questions for importing and exporting annotations, in one place so
tests can answer them (monkeypatch these functions)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from mtworkbench.gui.plain import show_message
from mtworkbench.io.formats import ANNOTATION_FORMATS


def _format_of(selected_filter: str) -> str:
    return ANNOTATION_FORMATS.from_filter(selected_filter)


def ask_import_path(parent: QWidget | None, folder: str) -> tuple[Path, str] | None:
    """(file, format) to import, or None when cancelled."""
    name, chosen = QFileDialog.getOpenFileName(parent, "Import annotations", folder, ANNOTATION_FORMATS.file_filters())
    return (Path(name), _format_of(chosen)) if name else None


def ask_export_path(parent: QWidget | None, folder: str) -> tuple[Path, str] | None:
    name, chosen = QFileDialog.getSaveFileName(parent, "Export annotations", folder, ANNOTATION_FORMATS.file_filters())
    if not name:
        return None
    fmt = _format_of(chosen)
    path = Path(name)
    if not path.suffix:
        path = path.with_suffix(ANNOTATION_FORMATS.get(fmt).suffixes[0])
    return path, fmt


def ask_replace_existing(parent: QWidget | None, annotator: str, count: int) -> bool:
    answer = show_message(
        parent,
        QMessageBox.Icon.Question,
        "Replace annotations?",
        f"{annotator} already has {count} entities on this reference. Replace them with the file's? "
        "(Edit > Undo brings them back.)",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.No,
    )
    return answer == QMessageBox.StandardButton.Yes
