"""Questions and messages the main window asks, in one place so tests can
answer them (monkeypatch these functions) and no modal box blocks a test."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Project


def error(parent: QWidget | None, title: str, message: str) -> None:
    QMessageBox.critical(parent, title, message)


def ask_recover(parent: QWidget | None, path: Path, recovery: Path) -> bool:
    answer = QMessageBox.question(
        parent,
        "Recover unsaved work?",
        f"mtworkbench found unsaved work for {path.name} from a session that did not close "
        f"normally ({recovery.name}).\n\nRecover it? (No discards the recovery copy.)",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.Yes,
    )
    return answer == QMessageBox.StandardButton.Yes


def ask_save_changes(parent: QWidget | None) -> str:
    """'save', 'discard' or 'cancel'."""
    answer = QMessageBox.warning(
        parent,
        "Unsaved changes",
        "The project has unsaved changes. Save them?",
        QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Save,
    )
    return {
        QMessageBox.StandardButton.Save: "save",
        QMessageBox.StandardButton.Discard: "discard",
    }.get(answer, "cancel")


class NewProjectDialog(QDialog):
    """Pick the corpus files of a new project: source, references, systems."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from mtworkbench.io.formats import CORPUS_FORMATS

        self.setWindowTitle("New project from files")
        self.resize(640, 420)
        self.format = QComboBox()
        self.format.addItems(CORPUS_FORMATS.readable())
        self.source = QLineEdit()
        browse = QPushButton("Browse…")
        browse.clicked.connect(lambda: self._pick_into(self.source))
        source_row = QHBoxLayout()
        source_row.addWidget(self.source)
        source_row.addWidget(browse)
        self.references = QListWidget()
        self.systems = QListWidget()
        add_ref = QPushButton("Add reference files…")
        add_ref.clicked.connect(lambda: self._pick_many(self.references))
        add_sys = QPushButton("Add system files…")
        add_sys.clicked.connect(lambda: self._pick_many(self.systems))
        self.src_lang = QLineEdit()
        self.src_lang.setPlaceholderText("e.g. et")
        self.tgt_lang = QLineEdit()
        self.tgt_lang.setPlaceholderText("e.g. en")
        form = QFormLayout()
        form.addRow("Format", self.format)
        form.addRow("Source file", source_row)
        form.addRow("References", self.references)
        form.addRow("", add_ref)
        form.addRow("System outputs", self.systems)
        form.addRow("", add_sys)
        form.addRow("Source language", self.src_lang)
        form.addRow("Target language", self.tgt_lang)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.project: Project | None = None

    def _pick_into(self, line: QLineEdit) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Choose a file")
        if name:
            line.setText(name)

    def _pick_many(self, target: QListWidget) -> None:
        names, _ = QFileDialog.getOpenFileNames(self, "Choose files")
        target.addItems(names)

    def build_project(self) -> Project:
        from mtworkbench.io.corpus import import_corpus

        systems = []
        for i in range(self.systems.count()):
            path = self.systems.item(i).text()
            systems.append((Path(path).stem or f"system{i + 1}", path))
        return import_corpus(
            self.format.currentText(),
            source=self.source.text(),
            references=[self.references.item(i).text() for i in range(self.references.count())],
            systems=systems,
            source_language=self.src_lang.text().strip(),
            target_language=self.tgt_lang.text().strip(),
        )

    def accept(self) -> None:
        try:
            self.project = self.build_project()
        except (DataError, OSError) as exc:
            error(self, "Cannot build the project", str(exc))
            return
        super().accept()


def new_project_from_files(parent: QWidget | None) -> Project | None:
    dialog = NewProjectDialog(parent)
    if dialog.exec() == QDialog.DialogCode.Accepted:
        return dialog.project
    return None
