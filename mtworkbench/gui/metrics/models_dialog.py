"""Metrics > Models…: the neural-metric checkpoints registered on this machine.

Lists each registered checkpoint (name, kind read from the checkpoint, fingerprint,
folder, licence when known); Add registers a folder through ``add_model``, the code
``mtworkbench models add`` runs (settings read as plain data, weights as weights only,
the encoder's or tokenizer's files looked up), in a background thread because a
large checkpoint's fingerprint reads gigabytes; Remove forgets an entry (the files
stay). Without torch and transformers it says what to install; listing still works.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.scoring_input import MetricError
from mtworkbench.gui.worker import JobWorker
from mtworkbench.metrics.neural.checkpoint_info import describe, neural_extra_missing
from mtworkbench.metrics.neural.models import NAME_PATTERN, RegisteredModel, load_registry, remove_model

COLUMNS = ("Name", "Kind", "Licence", "Fingerprint", "Folder")  # the long folder last


def suggested_name(folder: str) -> str:
    """A registry name from a folder's name (a Hugging Face snapshot folder: its repository's)."""
    path = Path(folder)
    parts = [p for p in path.parts if p.startswith("models--")]
    base = parts[-1].split("--")[-1] if parts else path.name
    name = "".join(c if c.isalnum() or c in "._+-" else "-" for c in base).strip("-._+")
    return name if NAME_PATTERN.match(name) else "model"


class ModelsDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Neural metric models")
        self.resize(900, 420)
        self.notice = QLabel()
        self.notice.setObjectName("models-extra-notice")
        self.notice.setTextFormat(Qt.TextFormat.PlainText)
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("background:#FFF4CE; padding:6px;")
        missing = neural_extra_missing()
        self.notice.setText(missing)
        self.notice.setVisible(bool(missing))
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("models-table")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().hide()
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("models-name")
        self.name_edit.setPlaceholderText("name (default: the folder's name)")
        self.add_button = QPushButton("&Add folder…")
        self.add_button.setObjectName("models-add")
        self.remove_button = QPushButton("&Remove")
        self.remove_button.setObjectName("models-remove")
        self.message = QLabel()
        self.message.setObjectName("models-message")
        self.message.setTextFormat(Qt.TextFormat.PlainText)  # quotes paths and file contents
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row = QHBoxLayout()
        row.addWidget(QLabel("Name"))
        row.addWidget(self.name_edit, 1)
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.notice)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        self.worker: JobWorker | None = None
        self.add_button.clicked.connect(self.add_clicked)
        self.remove_button.clicked.connect(self.remove_selected)
        self.reload()

    # --- the list -------------------------------------------------------------------------
    def reload(self) -> None:
        try:
            models = list(load_registry().values())
        except MetricError as exc:
            self.show_problem(str(exc))
            models = []
        self.table.setRowCount(len(models))
        for r, m in enumerate(models):
            kind, licence = self._about(m)
            for c, text in enumerate((m.name, kind, licence, f"sha256:{m.sha256[:16]}", m.path)):
                item = QTableWidgetItem(text)  # plain text: a folder name is data
                item.setToolTip(m.sha256 if c == 3 else text)
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        self.remove_button.setEnabled(bool(models))

    @staticmethod
    def _about(m: RegisteredModel) -> tuple[str, str]:
        try:
            info = describe(m.path, m.name)
        except (MetricError, OSError, ValueError) as exc:
            return f"{m.kind}: cannot read ({exc})", ""
        return info.detail, info.licence or "unknown: see the model card"

    def text_at(self, row: int, column: int) -> str:
        item = self.table.item(row, column)
        return "" if item is None else item.text()

    def names(self) -> list[str]:
        return [self.text_at(r, 0) for r in range(self.table.rowCount())]

    def cell(self, name: str, column: str) -> str:
        return self.text_at(self.names().index(name), COLUMNS.index(column))

    # --- adding and removing -------------------------------------------------------------------
    def ask_folder(self) -> str:
        return QFileDialog.getExistingDirectory(self, "Checkpoint folder (hparams.yaml, or a MetricX model folder)")

    def add_clicked(self) -> None:
        folder = self.ask_folder()
        if folder:
            self.add_folder(folder, self.name_edit.text().strip() or suggested_name(folder))

    def add_folder(self, folder: str, name: str) -> None:
        """Register ``folder`` as ``name`` in the background (fingerprinting reads every byte)."""
        if self.worker is not None:
            return
        from mtworkbench.metrics.neural.models import add_model

        def job(_progress, _cancel, _deliver):
            return add_model(name, folder)

        self.message.setStyleSheet("")
        self.message.setText(f"Checking {folder} …")
        self.add_button.setEnabled(False)
        worker = JobWorker(job)
        worker.succeeded.connect(self._added)
        worker.failed.connect(self.show_problem)
        worker.finished.connect(self._worker_done)
        self.worker = worker
        worker.start()

    def _added(self, entry: RegisteredModel) -> None:
        self.reload()
        self.name_edit.clear()
        self.message.setStyleSheet("color:#1E6B1E")
        self.message.setText(f"Added {entry.name}: use it as {entry.kind}:model={entry.name}")
        row = self.names().index(entry.name)
        self.table.selectRow(row)

    def show_problem(self, text: str) -> None:
        self.message.setStyleSheet("color:#B3261E")
        self.message.setText(text)

    def _worker_done(self) -> None:
        self.worker = None
        self.add_button.setEnabled(True)

    def remove_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            self.show_problem("Select a model to remove.")
            return
        name = self.text_at(rows[0].row(), 0)
        try:
            remove_model(name)
        except MetricError as exc:
            self.show_problem(str(exc))
            return
        self.reload()
        self.message.setStyleSheet("")
        self.message.setText(f"Removed {name} from the registry (its files are kept).")

    def done(self, result: int) -> None:
        if self.worker is not None:
            self.worker.wait()  # a registration in flight finishes writing the registry first
        super().done(result)


def open_models(parent: QWidget | None) -> ModelsDialog:
    dialog = ModelsDialog(parent)
    dialog.open()
    return dialog
