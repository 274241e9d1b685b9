"""Import segment-level human scores (DA z-scores, MQM, 1-5 ratings) as a pseudo-judge.

The GUI face of ``mtworkbench judgments import-scores``: a dialog builds the
import plan with the core's ``plan_score_lines`` / ``plan_mqm_tsv`` (which
check everything first), and ``ImportScoresCommand`` applies it through the
core's inverse pair ``apply_import`` / ``revert_import``, so one undo takes the
whole import back.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QUndoCommand
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import ModelError, Project
from mtworkbench.gui import dialogs
from mtworkbench.io.formats import SCORE_FORMATS
from mtworkbench.io.judgments.judgments import (
    JudgmentImport,
    apply_import,
    plan_mqm_tsv,
    plan_score_lines,
    revert_import,
)
from mtworkbench.io.scores.score_table import plan_all_systems, read_system_scores

SCALES = ("da-z", "da", "mqm", "adequacy", "fluency")
ALL_SYSTEMS = "*all*"


class ImportScoresCommand(QUndoCommand):
    def __init__(self, project: Project, plan: JudgmentImport, source: str) -> None:
        super().__init__(f"Import {len(plan.judgments)} human scores from {Path(source).name}")
        self.project, self.plan = project, plan

    def redo(self) -> None:
        apply_import(self.project, self.plan)

    def undo(self) -> None:
        revert_import(self.project, self.plan)


class ImportScoresDialog(QDialog):
    def __init__(self, project: Project, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.project = project
        self.plan: JudgmentImport | None = None
        self.setWindowTitle("Import human scores")
        self.resize(560, 260)
        self.path = QLineEdit()
        self.path.setObjectName("scores-path")
        browse = QPushButton("&Browse…")
        browse.clicked.connect(self._browse)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path, 1)
        path_row.addWidget(browse)
        self.format = QComboBox()
        self.format.setObjectName("scores-format")
        for fmt in SCORE_FORMATS:
            self.format.addItem(fmt.label, fmt.name)
        self.system = QComboBox()
        self.system.setObjectName("scores-system")
        self.skipped: list[str] = []
        self.skipped_rows = 0
        self.format.currentIndexChanged.connect(self._fill_systems)
        self._fill_systems()
        self.judge = QLineEdit("da")
        self.judge.setObjectName("scores-judge")
        self.scale = QComboBox()
        self.scale.setObjectName("scores-scale")
        self.scale.setEditable(True)
        self.scale.addItems(SCALES)
        form = QFormLayout()
        form.addRow("Scores file", path_row)
        form.addRow("Format", self.format)
        form.addRow("System rated", self.system)
        form.addRow("Pseudo-judge", self.judge)
        form.addRow("Scale", self.scale)
        note = QLabel("Scores keep their own scale (a DA z-score stays a z-score); "
                      "adequacy and fluency must be integers 1–5. Unrated lines may be empty or NA.")
        note.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self._defaults = {"judge": self.judge.text(), "scale": self.scale.currentText()}
        self.format.currentIndexChanged.connect(self._format_chosen)

    def _format_chosen(self, *_args) -> None:
        """An MQM table holds MQM scores: its pseudo-judge and scale say so, unless the
        user typed their own (a name the user chose is never overwritten)."""
        mqm = self.format.currentData() == "mqm-tsv"
        judge, scale = ("mqm", "mqm") if mqm else ("da", "da-z")
        if self.judge.text().strip() in ("da", "mqm", self._defaults["judge"]):
            self.judge.setText(judge)
        if self.scale.currentText().strip() in SCALES:
            self.scale.setCurrentText(scale)
        self._defaults = {"judge": judge, "scale": scale}

    def summary(self) -> str:
        """What the import leaves out and why, for the status line ("" when nothing)."""
        if not self.skipped:
            return ""
        return (f"skipped {self.skipped_rows:,} rows of systems not in the project: "
                f"{', '.join(self.skipped)}")

    def _fill_systems(self, *_args) -> None:
        """A file with a system column covers every system at once (the default then)."""
        current = self.system.currentData()
        self.system.clear()
        if self.format.currentData() == "mqm-tsv":
            self.system.addItem("All systems in the file", ALL_SYSTEMS)
        for system in self.project.systems:
            self.system.addItem(system.id, system.id)
        index = self.system.findData(current) if self.format.currentData() != "mqm-tsv" else 0
        self.system.setCurrentIndex(max(index, 0))

    def _browse(self) -> None:
        filters = f"{SCORE_FORMATS.file_filters()};;All files (*)"
        name, _ = QFileDialog.getOpenFileName(self, "Choose a scores file", "", filters)
        if name:
            self.path.setText(name)

    def build_plan(self) -> JudgmentImport:
        path = self.path.text().strip()
        if not path:
            raise DataError("choose the file with the scores")
        system = self.system.currentData()
        judge = self.judge.text().strip()
        scale = self.scale.currentText().strip()
        if system == ALL_SYSTEMS:
            result = plan_all_systems(self.project, judge, path, scale or "mqm")
            self.skipped = result.skipped
            # Rows with a score (the import counts scored rows too; empty and NA ones say nothing).
            table = read_system_scores(path)
            self.skipped_rows = sum(1 for name in result.skipped for v in table[name].values() if v is not None)
            return result.plan
        if self.format.currentData() == "mqm-tsv":
            return plan_mqm_tsv(self.project, judge, system, path, scale=scale or "mqm")
        return plan_score_lines(self.project, judge, system, path, scale)

    def accept(self) -> None:
        try:
            self.plan = self.build_plan()
        except (DataError, ModelError, OSError) as exc:
            dialogs.error(self, "Cannot import these scores", str(exc))
            return
        super().accept()


def ask_import_plan(parent: QWidget | None, project: Project) -> tuple[JudgmentImport, str, str] | None:
    """The checked plan, its source file and what was left out (see ``summary``), or
    None when cancelled (tests monkeypatch this)."""
    dialog = ImportScoresDialog(project, parent)
    if dialog.exec() == QDialog.DialogCode.Accepted and dialog.plan is not None:
        return dialog.plan, dialog.path.text().strip(), dialog.summary()
    return None
