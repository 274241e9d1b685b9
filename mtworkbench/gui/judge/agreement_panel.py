"""Agreement between judges: pairs table, intra-judge consistency, paired scatter;
and per rater, the quality control of BAD items hidden in DA/ESA queues.

A protocol chooser (only the protocols the project has: LDC adequacy/fluency, DA,
ESA, MQM, relative ranking) sets the columns of the pairs and repeats tables: kappa
and correlations of 1-5 ratings; correlations and mean absolute difference of DA/ESA
0-100 or MQM segment scores; WMT's kappa over pairwise comparisons for rankings.
The scatter offers the quantities present (adequacy, fluency, DA, ESA, MQM score).

The numbers come from ``mtworkbench.analysis.agreement`` (no Qt); this panel
only lays them out. The scatter shows two judges' first ratings of the items
both rated, each point moved by seeded uniform noise of +-0.20 on both axes
so that piled-up 1-5 ratings show their density (Turian et al., figure 3).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.analysis.agreement import (
    AgreementReport,
    PairAgreement,
    PairedValues,
)
from mtworkbench.core.events import AFFECTS_JUDGMENTS, JudgeRemoved
from mtworkbench.core.model import ProjectEvent
from mtworkbench.gui.judge import agreement_job
from mtworkbench.gui.judge.agreement_tables import (
    INTRA_COLUMNS,
    PAIR_COLUMNS,
    PROTOCOL_NAMES,
    SCATTER_QUANTITIES,
    SCORE_WHAT,
    SUMMARY_COLUMNS,
    QualityControlModel,
    RowsModel,
    fmt,
    protocol_rows,
    summary_columns,
    table_view,
)
from mtworkbench.gui.judge.pair_scatter import JITTER, PairScatter
from mtworkbench.gui.judge.quality_control_columns import QC_COLUMNS, qc_rows
from mtworkbench.gui.judge.reliability_columns import RELIABILITY_COLUMNS, reliability_rows
from mtworkbench.gui.judge.span_agreement_columns import SPAN_COLUMNS, span_pairs
from mtworkbench.gui.session import ProjectSession
from mtworkbench.gui.worker import JobWorker

_EVENTS = AFFECTS_JUDGMENTS | {JudgeRemoved}
SPAN_CAPTION = "Error spans (MQM, ESA): between raters on shared items"
RELIABILITY_CAPTION = "All judges at once: Krippendorff's α and Gwet's AC1/AC2 (missing ratings allowed)"


class AgreementPanel(QWidget):
    """Pairs of judges and their agreement; one judge against themselves; a scatter of one pair."""

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("agreement-panel")
        self.session = session
        self.report: AgreementReport | None = None
        self.n_judgments = 0  # judgments the report was computed from, BAD copies included
        self._dirty = True
        self.worker: JobWorker | None = None  # a large project's agreement under way on the worker
        self.reliability_worker: JobWorker | None = None  # a small project's alpha/AC1/AC2 under way
        self.reliability: list = []  # QuantityReliability of every protocol, from the last job

        self.summary = QLabel()
        self.summary.setObjectName("agreement-summary")
        self.summary.setWordWrap(True)
        self.pairs_model = RowsModel(PAIR_COLUMNS, self)
        self.pairs = table_view(self.pairs_model, "pairs-table")
        self.intra_model = RowsModel(INTRA_COLUMNS, self)
        self.intra = table_view(self.intra_model, "intra-table")
        self.summary_model = RowsModel(SUMMARY_COLUMNS, self)
        self.judges_table = table_view(self.summary_model, "judges-table")
        self.pairs.selectionModel().currentRowChanged.connect(self._pair_chosen)
        self.span_model = RowsModel(SPAN_COLUMNS, self)  # MQM/ESA raters: span agreement
        self.span_table = table_view(self.span_model, "span-pairs-table")
        # Span agreement walks every span (~80 ms for 10,000): computed on the next
        # event-loop pass, so the tab shows its other tables without waiting for it.
        self.span_timer = QTimer(self)
        self.span_timer.setSingleShot(True)
        self.span_timer.setInterval(0)
        self.span_timer.timeout.connect(self._refresh_spans)
        self.reliability_model = RowsModel(RELIABILITY_COLUMNS, self)
        self.reliability_table = table_view(self.reliability_model, "reliability-table")
        self.qc_model = QualityControlModel(QC_COLUMNS, self)  # DA/ESA raters with BAD items
        self.qc_table = table_view(self.qc_model, "quality-control-table")
        self.qc_table.setMinimumHeight(110)  # the header and three raters

        # The protocol whose agreement the pairs and repeats tables show: only those present.
        self.protocol = QComboBox()
        self.protocol.setObjectName("agreement-protocol")
        self.protocol.setToolTip("Which protocol's ratings the tables compare")
        self.protocol.currentIndexChanged.connect(self._protocol_chosen)
        self.protocol_note = QLabel()
        self.protocol_note.setObjectName("agreement-protocol-note")
        self.protocol_note.setWordWrap(True)
        self.protocol_note.setStyleSheet("color:#52525b;")
        self._filling = False  # the choosers are being refilled: their signals change nothing
        self.quantity = QComboBox()
        self.quantity.setObjectName("scatter-quantity")
        for label, quantity, _protocol in SCATTER_QUANTITIES[:2]:
            self.quantity.addItem(label, quantity)
        self.quantity.currentIndexChanged.connect(self._quantity_chosen)
        self.scatter = PairScatter()

        def caption(text: str) -> QLabel:
            label = QLabel(text)
            font = QFont(label.font())
            font.setBold(True)
            label.setFont(font)
            return label

        tables = QWidget()
        left = QVBoxLayout(tables)
        left.setContentsMargins(0, 0, 0, 0)
        left.addWidget(self.summary)
        chooser_row = QHBoxLayout()
        chooser_row.addWidget(QLabel("Protocol:"))
        chooser_row.addWidget(self.protocol)
        chooser_row.addWidget(self.protocol_note, 1)
        left.addLayout(chooser_row)
        self.reliability_caption = caption(RELIABILITY_CAPTION)
        left.addWidget(self.reliability_caption)
        left.addWidget(self.reliability_table, 2)
        left.addWidget(caption("Between judges (items both rated)"))
        left.addWidget(self.pairs, 2)
        left.addWidget(caption("Each judge against themselves (repeated items)"))
        left.addWidget(self.intra, 2)
        left.addWidget(caption("Each judge's scale (the z-transform before pooling)"))
        left.addWidget(self.judges_table, 2)
        self.span_caption = caption(SPAN_CAPTION)
        left.addWidget(self.span_caption)
        left.addWidget(self.span_table, 2)
        self.qc_caption = caption("Quality control (DA, ESA): BAD items scored lower than their originals?")
        left.addWidget(self.qc_caption)
        left.addWidget(self.qc_table, 2)
        plot = self.plot_panel = QWidget()  # hidden for rankings: they are compared pair of systems by pair
        right = QVBoxLayout(plot)
        right.setContentsMargins(0, 0, 0, 0)
        chooser = QHBoxLayout()
        chooser.addWidget(caption("Paired scores of the selected pair"))
        chooser.addStretch(1)
        chooser.addWidget(self.quantity)
        right.addLayout(chooser)
        right.addWidget(self.scatter, 1)
        note = QLabel(f"Each point is one item both judges rated, moved by random ±{JITTER:.2f} on both axes "
                      "so that equal ratings do not hide each other. Where both judges rate on the same scale, "
                      "the dashed line is perfect agreement.")
        note.setWordWrap(True)
        note.setStyleSheet("color:#52525b;")
        right.addWidget(note)
        splitter = QSplitter()
        splitter.addWidget(tables)
        splitter.addWidget(plot)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([700, 560])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(splitter)

        session.project_changed.connect(self._on_project_changed)
        session.project_replaced.connect(self._on_project_replaced)

    # Recomputed only when shown: rating an item should not wait for statistics.
    def _on_project_changed(self, event: ProjectEvent) -> None:
        if type(event) in _EVENTS:
            self._dirty = True
            if self.isVisible():
                self.refresh()

    def _on_project_replaced(self, _project) -> None:
        self._dirty = True
        if self.isVisible():
            self.refresh()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._dirty:
            self.refresh()

    def refresh(self) -> None:
        self._dirty = False
        judgments = self.session.project.judgments
        if self.worker is not None:
            self.worker.cancel()  # computing what is no longer the project's state
            self.worker = None
        if self.reliability_worker is not None:
            self.reliability_worker.cancel()
            self.reliability_worker = None
        self.reliability_caption.setText(f"{RELIABILITY_CAPTION} (computing…)")
        if len(judgments) > agreement_job.INLINE_JUDGMENTS:
            self.summary.setText(f"Computing agreement over {len(judgments)} judgments…")
            self._start_worker()
            return
        # BAD copies are quality control, not ratings of the system: they are judged below.
        self._show_report(agreement_job.tab_report(judgments), len(judgments))
        self._show_quality_control(qc_rows(self.session.project))
        self.span_timer.start()
        project = self.session.project
        worker = self.reliability_worker = JobWorker(agreement_job.reliability_job(project), project=project)
        worker.succeeded.connect(self._reliability_ready)
        worker.failed.connect(self._worker_failed)
        worker.start()

    def _reliability_ready(self, results: list) -> None:
        worker = self.sender()
        if worker is self.reliability_worker and getattr(worker, "project", None) is self.session.project:
            self.reliability_worker = None
            self._show_reliability(results)

    def _show_reliability(self, results: list) -> None:
        self.reliability = results
        self.reliability_caption.setText(RELIABILITY_CAPTION)
        self._fill_reliability()

    def _fill_reliability(self) -> None:
        rows = reliability_rows(self.reliability, self.current_protocol())
        self.reliability_model.set_rows(rows)
        self.reliability_table.setVisible(bool(rows))

    def _show_quality_control(self, rows: list) -> None:
        self.qc_model.set_rows(rows)
        self.qc_caption.setVisible(bool(self.qc_model.rows))
        self.qc_table.setVisible(bool(self.qc_model.rows))

    def _show_report(self, report: AgreementReport, n_judgments: int) -> None:
        self.report = report
        self.n_judgments = n_judgments
        self.summary_model.set_rows([report.summaries[j] for j in report.judges], summary_columns(report))
        # Refill the choosers with what the project has, keeping the user's choice if still there.
        protocols = report.protocols or ["ldc"]
        wanted = self.protocol.currentData()
        quantity = self.quantity.currentData()
        self._filling = True
        try:
            self.protocol.clear()
            for protocol in protocols:
                self.protocol.addItem(PROTOCOL_NAMES[protocol], protocol)
            self.protocol.setCurrentIndex(max(0, self.protocol.findData(wanted)))
            self.protocol.setEnabled(len(protocols) > 1)
            self.quantity.clear()
            for label, name, protocol in SCATTER_QUANTITIES:
                if protocol in protocols:
                    self.quantity.addItem(label, name)
            self.quantity.setEnabled(self.quantity.count() > 1)
            self._match_quantity(quantity)
        finally:
            self._filling = False
        self._show_protocol()

    def current_protocol(self) -> str:
        return self.protocol.currentData() or "ldc"

    def _match_quantity(self, preferred: str | None) -> None:
        """The scatter's quantity: ``preferred`` if it belongs to the chosen protocol, else its first one."""
        protocol = self.current_protocol()
        names = [name for _label, name, p in SCATTER_QUANTITIES if p == protocol]
        target = preferred if preferred in names else (names[0] if names else None)
        if target is not None:
            self.quantity.setCurrentIndex(self.quantity.findData(target))

    def _protocol_chosen(self, *_args) -> None:
        if self._filling or self.report is None:
            return
        self._filling = True
        try:
            self._match_quantity(self.quantity.currentData())
        finally:
            self._filling = False
        self._show_protocol()

    def _quantity_chosen(self, *_args) -> None:
        if self._filling or self.report is None:
            return
        protocol = next((p for _l, name, p in SCATTER_QUANTITIES if name == self.quantity.currentData()), None)
        if protocol is not None and protocol != self.current_protocol():
            self.protocol.setCurrentIndex(self.protocol.findData(protocol))  # shows that protocol's tables
            return
        self._update_scatter()

    def _show_protocol(self) -> None:
        """The chosen protocol's pairs and repeats, in its own columns."""
        report = self.report
        if report is None:
            return
        protocol = self.current_protocol()
        chosen = self.selected_pair()
        pair_columns, pairs, intra_columns, repeats = protocol_rows(report, protocol)
        self.pairs_model.set_rows(pairs, pair_columns)
        self.intra_model.set_rows(repeats, intra_columns)
        self._fill_reliability()
        self.summary.setText(
            f"{self.n_judgments} judgments by {len(report.judges)} judges; "
            f"{len(pairs)} {'pair' if len(pairs) == 1 else 'pairs'} of judges "
            f"{'shares' if len(pairs) == 1 else 'share'} items in {PROTOCOL_NAMES.get(protocol, protocol)}. "
            "A dash marks a statistic that is undefined; BAD quality-control copies are left out."
        )
        self.protocol_note.setText(self._protocol_note(protocol))
        row = 0
        if chosen is not None:
            for i, pair in enumerate(pairs):
                if pair.judges == chosen.judges:
                    row = i
        if pairs:
            self.pairs.selectRow(row)
        self._update_scatter()

    def _protocol_note(self, protocol: str) -> str:
        if protocol == "ldc":
            return "ρ Spearman, r Pearson, κw quadratic-weighted Cohen's kappa on the 1–5 scale."
        if protocol == "rank":
            ranking = self.report.ranking if self.report else None
            pooled = ""
            if ranking is not None:
                pooled = (f" All raters: inter κ = {fmt(ranking.inter.kappa)} ({ranking.inter.n} pairs), "
                          f"intra κ = {fmt(ranking.intra.kappa)} ({ranking.intra.n}).")
            return ("Cohen's κ over pairs of systems (better, worse, tie), P(E) as WMT 2013–2016." + pooled)
        return (f"r Pearson, ρ Spearman, mean |Δ| of the {SCORE_WHAT[protocol]}; "
                "repeats: a rater's first score against the later ones.")

    def _refresh_spans(self) -> None:
        self._show_spans(span_pairs(self.session.project))

    def _show_spans(self, rows: list) -> None:
        self.span_model.set_rows(rows)
        self.span_caption.setText(SPAN_CAPTION)
        self.span_caption.setVisible(bool(self.span_model.rows))
        self.span_table.setVisible(bool(self.span_model.rows))

    # --- a large project: on the worker, from a snapshot (agreement_job) ---------------------------
    def _start_worker(self) -> None:
        project = self.session.project
        worker = self.worker = JobWorker(agreement_job.agreement_job(project), project=project)
        worker.item_ready.connect(self._report_ready)
        worker.progress_changed.connect(self._span_progress)
        worker.succeeded.connect(self._spans_ready)
        worker.failed.connect(self._worker_failed)
        worker.start()

    def _current_worker(self) -> bool:
        """Whether the signal being handled comes from the latest job (earlier ones are stale)."""
        worker = self.sender()
        return worker is self.worker and getattr(worker, "project", None) is self.session.project

    def _report_ready(self, delivered: tuple[AgreementReport, int]) -> None:
        if self._current_worker():
            self._show_report(*delivered)

    def _span_progress(self, done: int, total: int) -> None:
        if self._current_worker() and total:
            self.span_caption.setText(f"{SPAN_CAPTION} (computing: {done} of {total} pairs of raters)")
            self.span_caption.setVisible(True)

    def _spans_ready(self, outcome: agreement_job.AgreementTables) -> None:
        if self._current_worker():
            self.worker = None
            self._show_quality_control(outcome.quality_control)
            self._show_spans(outcome.span_pairs)
            self._show_reliability(outcome.reliability)

    def _worker_failed(self, message: str) -> None:
        if self.sender() is self.reliability_worker:
            self.reliability_worker = None
            self.reliability_caption.setText(f"{RELIABILITY_CAPTION}: could not be computed: {message}")
            return
        if self._current_worker():
            self.worker = None
            self.summary.setText(f"Agreement could not be computed: {message}")

    def selected_pair(self) -> Any:
        """The pair row chosen in the table (the first one if none is), of the protocol shown."""
        rows = self.pairs_model.rows
        if self.report is None or not rows:
            return None
        row = self.pairs.currentIndex().row()
        return rows[row] if 0 <= row < len(rows) else rows[0]

    def _pair_chosen(self, *_args) -> None:
        self._update_scatter()

    def _axis_label(self, judge: str, quantity: str, label: str) -> str:
        """The quantity a judge's values are: ``label`` (1-5 ratings), or a score-only
        judge's imported scores (compared against adequacy and fluency) by their scale."""
        project = self.session.project
        if quantity in ("adequacy", "fluency") and judge in project.judges:
            own = [j for j in project.judgments if j.judge == judge and not j.qc]
            if own and all(j.adequacy is None and j.fluency is None for j in own):
                return f"score ({score_scale(project, judge)})"
        return f"{label} (1–5)" if quantity in ("adequacy", "fluency") else label

    def _update_scatter(self, *_args) -> None:
        protocol = self.current_protocol()
        pair = self.selected_pair()
        self.plot_panel.setVisible(protocol != "rank")
        if protocol == "rank":
            self.scatter.show_empty("Rankings are compared by pairs of systems: see the tables")
            return
        if pair is None:
            self.scatter.show_empty("No judge pair with shared items yet")
            return
        quantity = self.quantity.currentData()
        label = self.quantity.currentText()
        if isinstance(pair, PairAgreement):
            if quantity not in pair.paired:
                self.scatter.show_empty("No judge pair with shared items yet")
                return
            axes = (self._axis_label(pair.judges[0], quantity, label), self._axis_label(pair.judges[1], quantity, label))
            self.scatter.show_values(pair.judges, pair.paired[quantity], label, getattr(pair, quantity).spearman,
                                     "ldc" if _one_to_five(pair.paired[quantity]) else "", axes)
            return
        self.scatter.show_values(pair.judges, pair.paired, label, pair.spearman,
                                 "percent" if protocol in ("da", "esa") and _in_percent(pair.paired) else "")


def score_scale(project, judge: str) -> str:
    """What a score-only judge's scores are: their scale ("da-z", "mqm"...) as imported."""
    scales = {(j.scale or j.protocol).strip() for j in project.judgments if j.judge == judge and j.score is not None}
    return ", ".join(sorted(s for s in scales if s)) or "score"


def _one_to_five(paired: PairedValues) -> bool:
    return bool(np.all((paired.a >= 1) & (paired.a <= 5) & (paired.b >= 1) & (paired.b <= 5)))


def _in_percent(paired: PairedValues) -> bool:
    return bool(np.all((paired.a >= 0) & (paired.a <= 100) & (paired.b >= 0) & (paired.b <= 100)))
