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
from mtworkbench.core.model import ModelError, Project
from mtworkbench.core.wording import plural
from mtworkbench.gui.plain import message_box, show_message
from mtworkbench.gui.reference_names import ReferenceTable, apply_reference_names
from mtworkbench.io.bundle.recovery import RecoveryOffer


def error(parent: QWidget | None, title: str, message: str) -> None:
    # Plain text: the message may quote a file name or an id that looks like markup.
    show_message(parent, QMessageBox.Icon.Critical, title, message)


def ask_recover(parent: QWidget | None, offer: RecoveryOffer) -> bool:
    """Offer a recovery copy, saying what restoring it would change."""
    name = offer.bundle.name if offer.bundle is not None else "an untitled project"
    changes = offer.diff.summary() or ["no difference in judgments, spans or texts"]
    where = (" (the project file itself is missing)" if offer.bundle_missing else "")
    text = (
        f"mtworkbench found unsaved work for {name} from a session that did not close normally{where}.\n\n"
        "Restoring it would bring back:\n" + "\n".join(f"  • {line}" for line in changes[:12])
        + "\n\nRestore it? (No discards the recovery copy.)"
    )
    answer = show_message(parent, QMessageBox.Icon.Question, "Recover unsaved work?", text,
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                          QMessageBox.StandardButton.Yes)
    return answer == QMessageBox.StandardButton.Yes


def ask_target_language(parent: QWidget | None, current: str) -> tuple[str, bool]:
    """The project's target language code (e.g. de, zh, ja); (code, accepted)."""
    from PySide6.QtWidgets import QInputDialog

    return QInputDialog.getText(
        parent,
        "Target language",
        "Language code of the translations and references (e.g. de, zh, ja).\n"
        "It picks each metric's defaults (tokenizer, METEOR's language settings),\n"
        "word snapping in Annotate and the Judge labels. Metric options you set win.",
        text=current,
    )


def ask_changed_on_disk(parent: QWidget | None, path: Path, summary: list[str]) -> str:
    """The bundle changed on disk since it was loaded, and we are saving: 'reload', 'save_as', 'merge' or 'cancel'."""
    changes = "\n".join(f"  • {line}" for line in summary[:12]) or "  • (its content differs)"
    box = message_box(
        parent, QMessageBox.Icon.Warning, "Project changed on disk",
        f"{path.name} was changed by another program or command since you opened it:\n{changes}\n\n"
        "Saving now would overwrite those changes. What do you want to do?",
        QMessageBox.StandardButton.Cancel)
    merge = box.addButton("Merge both", QMessageBox.ButtonRole.AcceptRole)
    save_as = box.addButton("Save As…", QMessageBox.ButtonRole.ActionRole)
    reload = box.addButton("Reload (lose my edits)", QMessageBox.ButtonRole.DestructiveRole)
    box.setDefaultButton(merge)
    box.exec()
    return {id(merge): "merge", id(save_as): "save_as", id(reload): "reload"}.get(id(box.clickedButton()), "cancel")


def confirm_lose_edits(parent: QWidget | None, path: Path) -> bool:
    answer = show_message(
        parent, QMessageBox.Icon.Warning, "Reload and lose your edits?",
        f"Reloading {path.name} discards every unsaved edit of this session. This cannot be undone.",
        QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel)
    return answer == QMessageBox.StandardButton.Discard


def ask_reload_changed(parent: QWidget | None, path: Path, modified: bool, deleted: bool) -> bool:
    """The open bundle changed on disk (noticed by the watcher): reload it?"""
    if deleted:
        text = (f"{path.name} was deleted or moved by another program. Your work is still open here; "
                "save it to write the file again.")
        show_message(parent, QMessageBox.Icon.Warning, "Project file removed", text)
        return False
    text = f"{path.name} was changed by another program or command."
    if modified:
        text += "\n\nReloading discards your unsaved edits. Keep working to merge the changes when you save."
    answer = show_message(parent, QMessageBox.Icon.Question, "Project changed on disk", text + "\n\nReload it?",
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                          QMessageBox.StandardButton.No if modified else QMessageBox.StandardButton.Yes)
    return answer == QMessageBox.StandardButton.Yes


def ask_open_elsewhere(parent: QWidget | None, path: Path, holder: str) -> str:
    """The bundle is open in another instance: 'read_only', 'open' or 'cancel'."""
    box = message_box(
        parent, QMessageBox.Icon.Warning, "Project already open",
        f"{path.name} is open in another mtworkbench window: {holder}.\n\n"
        "Open it read-only (Save goes to another file), or open it anyway (saves are checked for "
        "changes made by the other window)?",
        QMessageBox.StandardButton.Cancel)
    read_only = box.addButton("Open read-only", QMessageBox.ButtonRole.AcceptRole)
    anyway = box.addButton("Open anyway", QMessageBox.ButtonRole.DestructiveRole)
    box.setDefaultButton(read_only)
    box.exec()
    return {id(read_only): "read_only", id(anyway): "open"}.get(id(box.clickedButton()), "cancel")


def show_merge_result(parent: QWidget | None, path: Path, conflicts: list[str], taken: int) -> None:
    text = f"Merged your {plural(taken, 'change')} into {path.name} as it is on disk."
    if conflicts:
        text += (f"\n\n{plural(len(conflicts), 'conflict')}: the version on disk was kept for each:\n"
                 + "\n".join(f"  • {c}" for c in conflicts[:20])
                 + ("\n  …" if len(conflicts) > 20 else ""))
    show_message(parent, QMessageBox.Icon.Information, "Merged", text)


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
        self.references = ReferenceTable()
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

    def _pick_many(self, target: QListWidget | ReferenceTable) -> None:
        names, _ = QFileDialog.getOpenFileNames(self, "Choose files")
        target.addItems(names)

    def build_project(self) -> Project:
        from mtworkbench.io.corpora.corpus import import_corpus

        systems = []
        for i in range(self.systems.count()):
            path = self.systems.item(i).text()
            systems.append((Path(path).stem or f"system{i + 1}", path))
        project = import_corpus(
            self.format.currentText(),
            source=self.source.text(),
            references=self.references.paths(),
            systems=systems,
            source_language=self.src_lang.text().strip(),
            target_language=self.tgt_lang.text().strip(),
        )
        apply_reference_names(project, self.references.names())
        return project

    def accept(self) -> None:
        try:
            self.project = self.build_project()
        except (DataError, ModelError, OSError) as exc:
            error(self, "Cannot build the project", str(exc))
            return
        super().accept()


def new_project_from_files(parent: QWidget | None) -> Project | None:
    dialog = NewProjectDialog(parent)
    if dialog.exec() == QDialog.DialogCode.Accepted:
        return dialog.project
    return None
