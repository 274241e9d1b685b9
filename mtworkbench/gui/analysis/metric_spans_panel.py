"""Analysis > Metric span agreement: a span-marking metric (xCOMET) against each MQM/ESA rater.

The metric is chosen among the project's COMET specs (or typed); Compute scores it
where the cache lacks scores, in the background with progress and Cancel, then
compares its spans with each rater's as two raters are compared: exact-span and
character F1, severity agreement and kappa, score correlation.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.model import Project
from mtworkbench.gui.worker import JobWorker
from mtworkbench.metrics.spec import parse_spec
from mtworkbench.scoring.metric_spans import MetricSpanReport

COLUMNS = ("Protocol", "Rater", "Items", "Spans (metric/rater)", "Exact F1", "Char F1", "Severity agr.",
           "Severity κ", "Pearson", "Spearman")


def _fmt(value: float | None) -> str:
    return "–" if value is None or value != value else f"{value:.3f}"


class MetricSpanPanel(QWidget):
    def __init__(self, session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("metric-span-agreement")
        self.session = session
        self.spec_box = QComboBox()
        self.spec_box.setObjectName("metric-span-spec")
        self.spec_box.setEditable(True)
        self.spec_box.setMinimumWidth(320)
        line = self.spec_box.lineEdit()
        if line is not None:
            line.setPlaceholderText("comet:model=NAME (an xCOMET checkpoint)")
        self.compute_button = QPushButton("Com&pare spans")
        self.compute_button.setObjectName("metric-span-compute")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("metric-span-cancel")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(200)
        self.progress.hide()
        self.message = QLabel("Choose a span-marking metric and compare its error spans with the raters'.")
        self.message.setObjectName("metric-span-message")
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("metric-span-table")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Metric"))
        bar.addWidget(self.spec_box, 1)
        for w in (self.compute_button, self.cancel_button, self.progress):
            bar.addWidget(w)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.message)
        layout.addWidget(self.table, 1)
        self.worker: JobWorker | None = None
        self.report: MetricSpanReport | None = None
        self.compute_button.clicked.connect(self.compute)
        self.cancel_button.clicked.connect(self.cancel)
        session.project_replaced.connect(self._project_replaced)
        self._project_replaced(session.project)

    @property
    def project(self) -> Project:
        return self.session.project

    def _project_replaced(self, project: Project) -> None:
        if self.worker is not None:
            self.worker.cancel()
        self.fill_choices()
        self.table.setRowCount(0)
        self.report = None

    def fill_choices(self) -> None:
        current = self.spec_box.currentText()
        self.spec_box.clear()
        self.spec_box.addItems([s for s in self.project.settings.metrics if parse_spec(s)[0] == "comet"])
        if current:
            self.spec_box.setCurrentText(current)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self.spec_box.currentText():
            self.fill_choices()

    def compute(self) -> None:
        spec = self.spec_box.currentText().strip()
        if not spec:
            self.message.setText("Choose a metric: comet:model=NAME with an xCOMET checkpoint "
                                 "(Metrics > Models… registers one).")
            return
        if self.worker is not None:
            return
        from mtworkbench.scoring.cache import cache_for
        from mtworkbench.scoring.metric_spans import metric_span_report

        project = self.project
        cache = cache_for(project)

        def job(progress, cancel, _deliver):
            return metric_span_report(project, spec, cache=cache, progress=progress, cancel=cancel)

        worker = JobWorker(job, project=project, cache=cache)
        worker.progress_changed.connect(self._progress)
        worker.succeeded.connect(self.show_report)
        worker.failed.connect(self.message.setText)
        worker.cancelled.connect(lambda: self.message.setText("Cancelled."))
        worker.finished.connect(self._finished)
        self.worker = worker
        self.message.setText(f"Scoring and comparing {spec}…")
        self.progress.setRange(0, 0)
        self.progress.show()
        self.cancel_button.setEnabled(True)
        self.compute_button.setEnabled(False)
        worker.start()

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()

    def _progress(self, done: int, total: int) -> None:
        if total > 0:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * done / total))

    def _finished(self) -> None:
        worker, self.worker = self.worker, None
        if worker is not None:
            worker.deleteLater()
        self.progress.hide()
        self.cancel_button.setEnabled(False)
        self.compute_button.setEnabled(True)

    def show_report(self, report: MetricSpanReport) -> None:
        if self.worker is not None and self.worker.project is not self.project:
            return  # the project was replaced meanwhile
        self.report = report
        rows = report.rows
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            cells = (row.protocol.upper(), row.judges[1], str(row.n_items), f"{row.spans[0]}/{row.spans[1]}",
                     _fmt(row.exact_f1), _fmt(row.overlap_f1), _fmt(row.severity_agreement), _fmt(row.severity_kappa),
                     _fmt(row.pearson), _fmt(row.spearman))
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)  # rater names are data: plain text
                if c >= 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        note = "" if rows else " No MQM/ESA rater marked spans on the items it scored."
        self.message.setText(f"{report.spec}: {report.n_spans} error spans over {report.n_systems} systems, each "
                             f"rater compared with them as two raters are.{note}")
