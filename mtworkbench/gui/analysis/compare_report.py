"""Compare two systems (compare-mt analyses) from the Analysis workspace.

A small dialog picks systems A and B and the metrics; the analyses run on a
background worker (the same code as ``mtworkbench analyze``), and the
self-contained HTML report is written where the user chose and opened in the
system's browser. The workspace's status line says where the report went, and
says so plainly when no browser could be opened (``QDesktopServices.openUrl``
returns False on a machine without one), so the file is never lost.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.model import Project
from mtworkbench.gui import dialogs
from mtworkbench.gui.worker import JobWorker


def default_metrics(project: Project) -> list[str]:
    return list(dict.fromkeys(["bleu", "chrf", *project.settings.metrics]))


class CompareSystemsDialog(QDialog):
    def __init__(self, project: Project, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Compare two systems")
        ids = [s.id for s in project.systems]
        self.system_a = QComboBox()
        self.system_a.setObjectName("compare-system-a")
        self.system_b = QComboBox()
        self.system_b.setObjectName("compare-system-b")
        self.system_a.addItems(ids)
        self.system_b.addItems(ids)
        if len(ids) > 1:
            self.system_b.setCurrentIndex(1)
        self.metrics = QLineEdit("; ".join(default_metrics(project)))
        self.metrics.setObjectName("compare-metrics")
        self.message = QLabel()
        self.message.setStyleSheet("color: #b3261e")
        form = QFormLayout()
        form.addRow("System A", self.system_a)
        form.addRow("System B", self.system_b)
        form.addRow("Metrics (separated by ';')", self.metrics)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Buckets by reference length and word frequency, the n-grams each system\n"
                                "matches more often and the sentences that differ most, as an HTML report."))
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)

    def chosen_metrics(self) -> list[str]:
        return [m.strip() for m in self.metrics.text().split(";") if m.strip()]

    def accept(self) -> None:
        if self.system_a.currentText() == self.system_b.currentText():
            self.message.setText("Choose two different systems.")
            return
        if not self.chosen_metrics():
            self.message.setText("Give at least one metric.")
            return
        super().accept()


def build_report(project: Project, system_a: str, system_b: str, metrics: list[str], path: str | Path,
                 progress=None, cancel=None) -> str:
    """Score, analyse and write the HTML report (runs on the worker thread)."""
    from mtworkbench.analysis.compare_html import render_html
    from mtworkbench.analysis.compare_systems import compare_systems
    from mtworkbench.core.output import write_output
    from mtworkbench.scoring.project_scores import score_project

    scored = score_project(project, metrics, [system_a, system_b], progress=progress, cancel=cancel)
    write_output(path, render_html(compare_systems(project, system_a, system_b, scored)))
    return str(path)


def open_report(path: str, say: Callable[[str], None]) -> bool:
    """Open the written report in the browser and tell the user where it is."""
    opened = QDesktopServices.openUrl(QUrl.fromLocalFile(path))
    if opened:
        say(f"Wrote the comparison report to {path} and opened it in the browser.")
    else:
        say(f"Wrote the comparison report to {path}. No browser could be opened: open that file yourself.")
    return bool(opened)


def compare_systems_interactively(parent: QWidget, project: Project,
                                  say: Callable[[str], None] = lambda _text: None) -> JobWorker | None:
    """Ask for the systems and the file, then build the report in the background;
    ``say`` shows a line of plain text (where the report goes, whether it opened)."""
    if len(project.systems) < 2:
        dialogs.error(parent, "Cannot compare systems", "The project needs at least two systems.")
        return None
    dialog = CompareSystemsDialog(project, parent)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    a, b, metrics = dialog.system_a.currentText(), dialog.system_b.currentText(), dialog.chosen_metrics()
    path, _ = QFileDialog.getSaveFileName(parent, "Save the comparison report", f"{a}-vs-{b}.html",
                                          "HTML (*.html)")
    if not path:
        return None
    worker = JobWorker(lambda progress, cancel, deliver: build_report(project, a, b, metrics, path, progress, cancel),
                       project=project)
    worker.succeeded.connect(lambda out: open_report(out, say))
    def failed(message: str) -> None:
        say(f"The comparison report was not written: {message}")
        dialogs.error(parent, "Cannot compare the systems", message)

    worker.failed.connect(failed)
    say(f"Comparing {a} with {b}; writing the report to {path}…")
    worker.start()
    return worker
