"""Compare annotators, all layers at once: Krippendorff's alpha and Gwet's AC1 on unit labels.

The pairwise view (F1, Cohen's kappa, adjudication) compares two layers; this panel takes any
number of them (ticked in a list) and shows alpha and AC1 overall, per type and per document,
with 95% bootstrap intervals. The inputs are taken from the project on the GUI thread and the
coefficients computed on a worker (``analysis.span_reliability``), so typing never waits.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.gui.session import ProjectSession
from mtworkbench.gui.worker import JobWorker

if TYPE_CHECKING:  # the statistics (numpy) are imported when the comparison is first computed
    from mtworkbench.analysis.multi_rater import AgreementStat
    from mtworkbench.analysis.span_reliability import SpanReliability

COLUMNS = ["Scope", "α", "95% CI", "AC1", "95% CI"]


def _fmt(stat: AgreementStat | None) -> tuple[str, str]:
    if stat is None or math.isnan(stat.value):
        return "–", "–"
    ci = "–" if stat.low is None or stat.high is None else f"[{stat.low:.3f}, {stat.high:.3f}]"
    return f"{stat.value:.3f}", ci


class LayersAgreement(QWidget):
    """Tick two or more layers; see alpha and AC1 overall, per type and per document."""

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compare-layers")
        self.session = session
        self.reference = ""
        self.result: SpanReliability | None = None
        self.worker: JobWorker | None = None
        self.layers = QListWidget()
        self.layers.setObjectName("compare-layers-list")
        self.layers.setToolTip("Tick the layers to compare (Space ticks the current one)")
        self.layers.setMaximumHeight(4 * self.layers.fontMetrics().height() + 8)
        self.layers.itemChanged.connect(self.schedule)
        self.summary = QLabel()
        self.summary.setObjectName("compare-layers-summary")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)  # layer names come from the bundle
        self.summary.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("compare-layers-table")
        self.table.setTabKeyNavigation(False)
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        title = QLabel("<b>All ticked layers</b>: Krippendorff’s α and Gwet’s AC1 per unit")
        layout.addWidget(title)
        layout.addWidget(self.layers)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.refresh)

    def fill(self, names: list[str], ticked: list[str]) -> None:
        """The project's layers; those the user ticked stay ticked, else ``ticked`` (the pair compared)."""
        kept = self.ticked()
        if [self.layers.item(k).text() for k in range(self.layers.count())] == names and kept:
            return
        chosen = [n for n in kept if n in names] or ticked
        self.layers.blockSignals(True)
        self.layers.clear()
        for name in names:
            item = QListWidgetItem(name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if name in chosen else Qt.CheckState.Unchecked)
            self.layers.addItem(item)
        self.layers.blockSignals(False)

    def ticked(self) -> list[str]:
        return [self.layers.item(k).text() for k in range(self.layers.count())
                if self.layers.item(k).checkState() == Qt.CheckState.Checked]

    def schedule(self, *_args) -> None:
        self._timer.start()

    def refresh(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.worker = None
        project = self.session.project
        layers = self.ticked()
        if not self.reference or not project.has_reference(self.reference) or len(layers) < 2:
            self.result = None
            self.summary.setText("Tick two or more layers.")
            self.table.setRowCount(0)
            return
        from mtworkbench.analysis.span_reliability import reliability_of, span_inputs

        # With a campaign, the segments it gave each layer; outside one, each layer's run of work.
        inputs = span_inputs(project, self.reference, layers, all_segments=False)
        self.summary.setText(f"Computing over {len(layers)} layers…")

        def job(_progress, cancel, _deliver) -> SpanReliability:
            return reliability_of(inputs, cancelled=cancel)

        worker = self.worker = JobWorker(job, project=project)
        worker.succeeded.connect(self._ready)
        worker.failed.connect(self._failed)
        worker.start()

    def _current(self) -> bool:
        worker = self.sender()
        return worker is self.worker and getattr(worker, "project", None) is self.session.project

    def _failed(self, message: str) -> None:
        if self._current():
            self.worker = None
            self.summary.setText(f"Not computed: {message}")

    def _ready(self, result: SpanReliability) -> None:
        if not self._current():
            return
        self.worker = None
        self.result = result
        u = result.unitizing
        unitizing = "" if u is None or math.isnan(u.alpha) else \
            f" · unitizing alpha {u.alpha:.3f} over {u.length} characters"
        self.summary.setText(f"{len(result.annotators)} layers · {result.n_units} {result.unit} · "
                             f"{len(result.segments)} segments{unitizing}")
        self.summary.setToolTip("A layer counts on the segments it worked on (a campaign's, or from its first "
                                "to its last annotated segment). Intervals: 95% bootstrap over units. "
                                "Unitizing alpha (Krippendorff 2004): entity boundaries to the character, "
                                "two layers at a time. " + result.unitizing_note)
        rows: list[tuple[str, str, tuple[AgreementStat, ...]]] = [("Overall", "every unit's label", result.overall)]
        rows += [(t, f"{t} against the rest", stats) for t, stats in result.by_type.items()]
        rows += [(f"doc {d}", f"document {d}", stats) for d, stats in result.by_document.items()]
        self.table.setRowCount(len(rows))
        for r, (scope, tip, stats) in enumerate(rows):
            by_name = {s.stat: s for s in stats}
            cells = [scope, *_fmt(by_name.get("alpha:nominal")), *_fmt(by_name.get("ac1"))]
            for c, value in enumerate(cells):
                item = QTableWidgetItem(value)
                item.setToolTip(tip)
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
