"""The Analysis workspace: how well do metrics agree with human scores?

Pick a human score (a judge, a score scale or all judges; adequacy, fluency or
a numeric score; optionally z-normalised per judge), metrics, a level and a
correlation method, and press Compute. Scoring and statistics run on a worker
thread (``gui/worker.py``) with progress and cancel; scores come from
and go to the project's score cache, so metrics the Metrics workspace already
computed are not scored again.

Results: a correlation table (r, interval, p, n per metric), a scatter plot of
the selected metric against the human score with the least-squares line and
r, ρ, τ, and the reliability curves by pseudo-document length (Turian, Shen & Melamed 2003,
figure 4). Plots export as PNG or SVG, tables as CSV.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.analysis.correlation import INTERVALS, METHODS
from mtworkbench.analysis.human_scores import collect_human_scores
from mtworkbench.core.errors import DataError
from mtworkbench.core.events import (
    AFFECTS_JUDGMENTS,
    JUDGE_ROSTER,
    QUEUE_EVENTS,
    SettingsChanged,
)
from mtworkbench.core.model import Project, ProjectEvent
from mtworkbench.core.scoring_input import MetricError
from mtworkbench.core.wording import plural
from mtworkbench.gui import dialogs
from mtworkbench.gui.analysis.choices import NO_JUDGMENTS_MESSAGE, AnalysisChoices
from mtworkbench.gui.analysis.correlation_table import (
    CorrelationTableModel,
    correlation_table_view,
)
from mtworkbench.gui.analysis.error_counts_view import ErrorCountsPanel
from mtworkbench.gui.analysis.file_actions import AnalysisFiles
from mtworkbench.gui.analysis.meta_table_view import MetaTable
from mtworkbench.gui.analysis.reliability_view import ReliabilityView
from mtworkbench.gui.analysis.scatter_view import ScatterView
from mtworkbench.gui.pane_layout import LayoutMemory, PopOutPane
from mtworkbench.gui.plain import esc
from mtworkbench.gui.worker import JobWorker
from mtworkbench.gui.workspace_base import Workspace
from mtworkbench.metrics.registry import metric_names
from mtworkbench.metrics.spec import parse_spec
from mtworkbench.scoring.analysis_job import LEVELS, AnalysisOutcome, AnalysisRequest, run_analysis
from mtworkbench.scoring.cache import cache_for

IMAGE_FILTER = "PNG image (*.png);;SVG image (*.svg)"
CSV_FILTER = "CSV table (*.csv)"
INTERVAL_LABELS = {"fisher": "Fisher z", "bootstrap": "bootstrap (1000)", "none": "none"}
class AnalysisWorkspace(Workspace, AnalysisChoices, AnalysisFiles):
    title = "Analysis"

    def __init__(self, session, parent=None) -> None:
        super().__init__(session, parent)
        self.worker: JobWorker | None = None
        self.outcome: AnalysisOutcome | None = None
        self.cache = cache_for(session.project)

        # --- controls (left column) -----------------------------------------------------
        self.human_combo = QComboBox()
        self.human_combo.setObjectName("human-combo")
        self.human_combo.setToolTip("The human score: a judge, a score scale or all judges, and which field")
        self.z_check = QCheckBox("&z-normalise per judge")
        self.z_check.setObjectName("z-normalise")
        self.z_check.setToolTip("Standardise each judge's scores (mean 0, sd 1) before averaging judges")
        human_box = QGroupBox("Human score")
        human_layout = QVBoxLayout(human_box)
        human_layout.addWidget(self.human_combo)
        self.import_button = QPushButton("&Import scores…")
        self.import_button.setObjectName("import-scores")
        self.import_button.setToolTip("Add segment scores (DA, MQM, 1–5) from a file as a pseudo-judge")
        human_layout.addWidget(self.z_check)
        import_row = QHBoxLayout()
        import_row.addStretch(1)
        import_row.addWidget(self.import_button)
        human_layout.addLayout(import_row)

        self.metric_list = QListWidget()
        self.metric_list.setObjectName("metric-list")
        self.metric_list.setToolTip("Tick the metrics to correlate; double-click a spec to edit it (e.g. gtm:e=2)")
        self.metric_list.setMinimumHeight(110)
        self.add_metric_combo = QComboBox()
        self.add_metric_combo.setObjectName("add-metric-spec")
        self.add_metric_combo.setEditable(True)
        self.add_metric_combo.addItems(metric_names())
        self.add_metric_button = QPushButton("A&dd")
        self.add_metric_button.setObjectName("add-metric")
        self.remove_metric_button = QPushButton("&Remove")
        self.remove_metric_button.setObjectName("remove-metric")
        add_row = QHBoxLayout()
        add_row.addWidget(self.add_metric_combo, 1)
        add_row.addWidget(self.add_metric_button)
        add_row.addWidget(self.remove_metric_button)
        metric_box = QGroupBox("Metrics")
        metric_layout = QVBoxLayout(metric_box)
        metric_layout.addWidget(self.metric_list, 1)
        metric_layout.addLayout(add_row)

        self.level_combo = QComboBox()
        self.level_combo.setObjectName("level-combo")
        self.level_combo.addItems(LEVELS)
        self.level_combo.setToolTip("segment: every rated system-segment item; system: corpus score vs mean human score")
        self.method_combo = QComboBox()
        self.method_combo.setObjectName("method-combo")
        self.method_combo.addItems(METHODS)
        self.interval_combo = QComboBox()
        self.interval_combo.setObjectName("interval-combo")
        for name in INTERVALS:
            self.interval_combo.addItem(INTERVAL_LABELS[name], name)
        self.reliability_check = QCheckBox("reli&ability curves")
        self.reliability_check.setObjectName("reliability-check")
        self.reliability_check.setChecked(True)
        self.docs_spin = QSpinBox()
        self.docs_spin.setObjectName("reliability-docs")
        self.docs_spin.setRange(10, 10000)
        self.docs_spin.setSingleStep(100)
        self.docs_spin.setValue(1000)
        self.docs_spin.setToolTip("Pseudo-documents drawn per length")
        options = QGroupBox("Correlation")
        form = QFormLayout(options)
        form.addRow("Level", self.level_combo)
        form.addRow("Method", self.method_combo)
        form.addRow("Interval", self.interval_combo)
        form.addRow(self.reliability_check)
        form.addRow("Documents", self.docs_spin)

        self.compute_button = QPushButton("C&ompute")
        self.compute_button.setObjectName("compute-analysis")
        self.compute_button.setDefault(True)
        self.cancel_button = QPushButton("Cance&l")
        self.cancel_button.setObjectName("cancel-analysis")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setObjectName("analysis-progress")
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(True)
        self.progress.hide()
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # shows ids and names from the bundle
        self.status.setObjectName("analysis-status")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QHBoxLayout()
        buttons.addWidget(self.compute_button, 1)
        buttons.addWidget(self.cancel_button)

        controls = QWidget()
        controls.setObjectName("analysis-controls")
        controls.setFixedWidth(232)
        left = QVBoxLayout(controls)
        left.setContentsMargins(0, 0, 4, 0)
        left.addWidget(human_box)
        left.addWidget(metric_box, 1)
        left.addWidget(options)
        left.addLayout(buttons)
        left.addWidget(self.progress)
        left.addWidget(self.status)
        self.compare_button = QPushButton("Com&pare two systems…")  # compare-mt analyses, an HTML report
        self.compare_button.setObjectName("compare-systems")
        self.compare_button.clicked.connect(self.compare_systems)
        left.addWidget(self.compare_button)

        # --- results (right) --------------------------------------------------------------
        self.table_model = CorrelationTableModel(self)
        self.table = correlation_table_view(self.table_model)
        self.table_title = QLabel("Correlation with human scores")
        self.table_title.setObjectName("table-title")
        self.export_table_button = QPushButton("E&xport CSV…")
        self.export_table_button.setObjectName("export-table-csv")
        table_bar = QHBoxLayout()
        table_bar.addWidget(self.table_title, 1)
        table_bar.addWidget(self.export_table_button)
        table_panel = QWidget()
        table_layout = QVBoxLayout(table_panel)
        table_layout.setContentsMargins(0, 0, 0, 0)
        table_layout.addLayout(table_bar)
        table_layout.addWidget(self.table)

        self.scatter = ScatterView()
        self.scatter_metric = QComboBox()
        self.scatter_metric.setObjectName("scatter-metric")
        self.scatter_metric.setMinimumWidth(120)
        self.export_scatter_button = QPushButton("Export fi&gure…")
        self.export_scatter_button.setObjectName("export-scatter")
        self.export_scatter_button.setToolTip("Save the scatter plot as PNG or SVG")
        scatter_bar = QHBoxLayout()
        scatter_bar.addWidget(QLabel("Scatter of"))
        scatter_bar.addWidget(self.scatter_metric, 1)
        scatter_bar.addWidget(self.export_scatter_button)
        scatter_panel = QWidget()
        scatter_layout = QVBoxLayout(scatter_panel)
        scatter_layout.setContentsMargins(0, 0, 0, 0)
        scatter_layout.addLayout(scatter_bar)
        scatter_layout.addWidget(self.scatter, 1)

        self.reliability_view = ReliabilityView()
        self.reliability_note = QLabel()
        self.reliability_note.setTextFormat(Qt.TextFormat.PlainText)
        self.reliability_note.setObjectName("reliability-note")
        self.reliability_note.setWordWrap(True)
        self.reliability_note.setStyleSheet("color: #52525b;")
        self.export_reliability_button = QPushButton("Export c&urves…")
        self.export_reliability_button.setObjectName("export-reliability")
        self.export_reliability_button.setToolTip("Save the reliability plot as PNG or SVG")
        self.export_reliability_csv_button = QPushButton("C&SV…")
        self.export_reliability_csv_button.setObjectName("export-reliability-csv")
        self.export_reliability_csv_button.setToolTip("Save the curves as CSV (label, n, mean_spearman)")
        reliability_bar = QHBoxLayout()
        reliability_bar.addWidget(QLabel("Reliability curves"), 1)
        reliability_bar.addWidget(self.export_reliability_button)
        reliability_bar.addWidget(self.export_reliability_csv_button)
        reliability_panel = QWidget()
        reliability_layout = QVBoxLayout(reliability_panel)
        reliability_layout.setContentsMargins(0, 0, 0, 0)
        reliability_layout.addLayout(reliability_bar)
        reliability_layout.addWidget(self.reliability_view, 1)
        reliability_layout.addWidget(self.reliability_note)

        # Each result can pop out into a window of its own; sizes and windows are remembered.
        self.table_pane = PopOutPane("correlations", "Correlation table", table_panel, bar=table_bar)
        self.scatter_pane = PopOutPane("scatter", "Scatter plot", scatter_panel, bar=scatter_bar)
        self.reliability_pane = PopOutPane("reliability", "Reliability curves", reliability_panel,
                                           bar=reliability_bar)
        plots = QSplitter(Qt.Orientation.Horizontal)
        plots.addWidget(self.scatter_pane)
        plots.addWidget(self.reliability_pane)
        plots.setChildrenCollapsible(False)
        plots.setStretchFactor(0, 1)
        plots.setStretchFactor(1, 1)
        self.results = QSplitter(Qt.Orientation.Vertical)
        self.results.setObjectName("analysis-results")
        self.results.addWidget(self.table_pane)
        self.results.addWidget(plots)
        self.layout_memory = LayoutMemory("analysis", self)
        self.layout_memory.add_splitter("results", self.results)
        self.layout_memory.add_splitter("plots", plots)
        for pane in (self.table_pane, self.scatter_pane, self.reliability_pane):
            self.layout_memory.add_pane(pane)
        self.results.setStretchFactor(0, 1)
        self.results.setStretchFactor(1, 3)
        self.results.setChildrenCollapsible(False)

        self.empty_message = QLabel(NO_JUDGMENTS_MESSAGE)
        self.empty_message.setObjectName("analysis-empty")
        self.empty_message.setWordWrap(True)
        self.empty_message.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.empty_message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.empty_import_button = QPushButton("&Import human scores…")
        self.empty_import_button.setObjectName("empty-import-scores")
        self.empty_page = QWidget()
        self.empty_page.setObjectName("analysis-empty-page")
        empty_layout = QVBoxLayout(self.empty_page)
        empty_layout.addWidget(self.empty_message)
        import_row = QHBoxLayout()
        import_row.setContentsMargins(12, 0, 12, 0)
        import_row.addWidget(self.empty_import_button)
        import_row.addStretch(1)
        empty_layout.addLayout(import_row)
        empty_layout.addStretch(1)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.empty_page)
        self.pages.addWidget(self.results)

        # Error counts (MQM/ESA spans) sit in a tab beside the correlation results.
        self.error_panel = ErrorCountsPanel()
        self.error_panel.export_button.clicked.connect(self._export_error_bars_clicked)
        self.result_tabs = QTabWidget()
        self.result_tabs.setObjectName("analysis-tabs")
        self.result_tabs.addTab(self.pages, "Correlation")
        self.result_tabs.addTab(self.error_panel, "Error counts")
        self.meta_table = MetaTable()
        self.result_tabs.addTab(self.meta_table, "Meta-evaluation")
        from mtworkbench.gui.analysis.metric_spans_panel import MetricSpanPanel  # xCOMET's spans vs the raters'

        self.result_tabs.addTab(MetricSpanPanel(session), "Metric span agreement")

        layout = QHBoxLayout(self)
        layout.addWidget(controls)
        layout.addWidget(self.result_tabs, 1)

        # --- connections (bound methods: Qt drops them when the widget goes) -------------
        self.compute_button.clicked.connect(self.compute)
        self.import_button.clicked.connect(self.import_scores)
        self.empty_import_button.clicked.connect(self.import_scores)
        self.cancel_button.clicked.connect(self.cancel)
        self.add_metric_button.clicked.connect(self._add_metric_clicked)
        self.remove_metric_button.clicked.connect(self.remove_selected_metric)
        self.scatter_metric.currentIndexChanged.connect(self._show_scatter)
        self.table.selectionModel().currentRowChanged.connect(self._table_row_changed)
        self.export_table_button.clicked.connect(self._export_table_clicked)
        self.export_scatter_button.clicked.connect(self._export_scatter_clicked)
        self.export_reliability_button.clicked.connect(self._export_reliability_clicked)
        self.export_reliability_csv_button.clicked.connect(self._export_reliability_csv_clicked)
        self.choices_timer = QTimer(self)
        self.choices_timer.setSingleShot(True)
        self.choices_timer.setInterval(0)
        self.choices_timer.timeout.connect(self.fill_human_choices)
        self.errors_timer = QTimer(self)  # recount once after a burst of judgment events
        self.errors_timer.setSingleShot(True)
        self.errors_timer.setInterval(0)
        self.errors_timer.timeout.connect(self._recount_errors)
        self._judgments_dirty = False  # judgments changed while hidden: choices and error counts are old
        self._open_pending = False  # a project opened while hidden: its choices are listed when shown
        self._errors_stale = False  # the error counts wait for their tab to be shown
        self.result_tabs.currentChanged.connect(self._result_tab_changed)
        session.project_replaced.connect(self._project_replaced)
        session.project_changed.connect(self._project_changed)
        self._project_replaced(session.project, at_once=True)

    # --- what the window sees ------------------------------------------------------------
    @property
    def project(self) -> Project:
        return self.session.project

    def export_widget(self) -> QWidget:
        if self.result_tabs.currentWidget() is self.error_panel:
            return self.error_panel
        return self.pages.currentWidget() or self

    def is_computing(self) -> bool:
        return self.worker is not None and self.worker.isRunning()

    def request(self) -> AnalysisRequest:
        return AnalysisRequest(
            human_spec=self.human_combo.currentData() or "",
            z=self.z_check.isChecked(),
            specs=tuple(self.checked_specs()),
            level=self.level_combo.currentText(),
            method=self.method_combo.currentText(),
            interval=self.interval_combo.currentData(),
            with_reliability=self.reliability_check.isChecked(),
            reliability_docs=self.docs_spin.value(),
        )

    # --- computing ----------------------------------------------------------------------------
    def compute(self) -> bool:
        """Start the background job; False (with a message) when the inputs are not usable."""
        if self.is_computing():
            return False
        self._list_choices_if_stale()  # the project's choices, not a project opened before
        request = self.request()
        if not request.human_spec:
            self.status.setText("Pick a human score first.")
            return False
        if not request.specs:
            self.status.setText("Tick at least one metric.")
            return False
        for spec in request.specs:
            # Only the syntax and the name here: building a metric may import heavy
            # modules, so its options are checked by the worker (reported per metric).
            try:
                name, _options = parse_spec(spec)
                if name not in metric_names() and name[len("ext:"):] not in self.project.external_scores:
                    raise MetricError(f"unknown metric {name!r}; valid metrics: {', '.join(metric_names())}")
            except MetricError as exc:
                dialogs.error(self, "Invalid metric", f"{spec}: {exc}")
                return False
        try:
            human = collect_human_scores(self.project, request.human_spec, z=request.z)
        except DataError as exc:
            dialogs.error(self, "Cannot use this human score", str(exc))
            return False
        if not human.rated_systems():
            self.status.setText(f"No system has {human.label} scores.")
            return False
        project, cache = self.project, self.cache

        def job(progress, cancel, deliver):
            return run_analysis(project, cache, human, request, progress=progress, cancel=cancel)

        worker = JobWorker(job, project=project, cache=cache)
        worker.progress_changed.connect(self._on_progress)
        worker.succeeded.connect(self._on_succeeded)
        worker.failed.connect(self._on_failed)
        worker.cancelled.connect(self._on_cancelled)
        worker.finished.connect(self._on_worker_finished)
        self.worker = worker
        self.progress.setValue(0)
        self.progress.show()
        self.compute_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        # A closed workspace cancels its job; the worker outlives it until the thread ends.
        self.destroyed.connect(worker.cancel)
        self.status.setText(f"Scoring {plural(len(human.rated_systems()), 'system')} with {plural(len(request.specs), 'metric')}…")
        worker.start()
        return True

    def compare_systems(self) -> None:
        from mtworkbench.gui.analysis.compare_report import compare_systems_interactively

        self.compare_worker = compare_systems_interactively(self, self.project, self.status.setText)

    def cancel(self) -> None:
        if self.worker is not None and self.is_computing():
            self.worker.cancel()
            self.status.setText("Cancelling…")

    def _on_progress(self, done: int, total: int) -> None:
        if self.sender() is self.worker and total > 0:
            self.progress.setValue(int(1000 * done / total))

    def _on_succeeded(self, outcome: AnalysisOutcome) -> None:
        if self.sender() is not self.worker or self.worker.project is not self.project:
            return  # a job for a project that has since been replaced
        for item in outcome.scored_items:  # share the scores with the Metrics workspace
            self.cache.store(item.system, item.spec, item.fingerprint, item.entry, item.generation)
        self.show_outcome(outcome)

    def _on_failed(self, message: str) -> None:
        if self.sender() is not self.worker:
            return
        self.status.setText("The analysis failed.")
        dialogs.error(self, "Analysis failed", message)

    def _on_cancelled(self) -> None:
        if self.sender() is self.worker:
            self.status.setText("Cancelled; the previous results (if any) are still shown.")

    def _on_worker_finished(self) -> None:
        worker = self.sender()
        if worker is not self.worker:
            return
        self.worker = None  # the worker deletes itself once its thread has finished
        self.progress.hide()
        self.cancel_button.setEnabled(False)
        self.compute_button.setEnabled(self.human_combo.count() > 0)

    # --- showing results -------------------------------------------------------------------
    def show_outcome(self, outcome: AnalysisOutcome) -> None:
        self.outcome = outcome
        request = outcome.request
        self.table_model.set_results(outcome.correlations, outcome.higher_is_better, outcome.williams)
        self.meta_table.set_rows(outcome.meta, request.method)
        self._fit_table_height()
        self.table_title.setText(
            f"<b>{esc(outcome.human_label)}</b> vs metrics · {request.level} level · {request.method} · "
            f"{plural(len(outcome.systems), 'system')}"
        )
        current = self.scatter_metric.currentText()
        self.scatter_metric.blockSignals(True)
        self.scatter_metric.clear()
        self.scatter_metric.addItems(list(outcome.scatters))
        index = self.scatter_metric.findText(current)
        self.scatter_metric.setCurrentIndex(max(index, 0))
        self.scatter_metric.blockSignals(False)
        self._show_scatter()
        self.reliability_view.show_result(
            outcome.reliability,
            outcome.reliability_error or ("Reliability curves are off" if not request.with_reliability else ""),
        )
        notes: list[str] = []
        if outcome.reliability is not None:
            notes += outcome.reliability.notes
            skipped = sorted(outcome.reliability.skipped)
            if skipped:
                notes.append(f"lengths {', '.join(map(str, skipped))} skipped: "
                             f"{outcome.reliability.skipped[skipped[0]]}")
        elif outcome.reliability_error:
            notes.append(outcome.reliability_error)
        self.reliability_note.setText("; ".join(notes))
        if request.level == "system" and len(outcome.systems) < 2:
            rated = ", ".join(outcome.systems) or "none"
            messages = [f"Only one system has {outcome.human_label} scores ({rated}): one system cannot be "
                        "correlated at the system level. Use the segment level, or add systems."]
        else:
            messages = [f"Correlated {plural(len(outcome.correlations), 'metric')} with {outcome.human_label}."]
        messages += [f"{spec}: {why}" for spec, why in outcome.errors.items()]
        self.status.setText("\n".join(messages))

    def _fit_table_height(self) -> None:
        """Give the table room for its rows (up to eight), the plots the rest."""
        rows = min(max(self.table_model.rowCount(), 2), 8)
        wanted = (self.table.horizontalHeader().height() + rows * self.table.verticalHeader().defaultSectionSize()
                  + 2 * self.table.frameWidth() + self.export_table_button.sizeHint().height() + 8)
        total = sum(self.results.sizes())
        if "results" in self.layout_memory.user_sized:
            return  # the user's sizes
        if total > wanted + 200:
            self.results.setSizes([wanted, total - wanted])

    def _show_scatter(self, *_args) -> None:
        spec = self.scatter_metric.currentText()
        if self.outcome is None or spec not in self.outcome.scatters:
            self.scatter.show_summary(None)
            return
        self.scatter.show_summary(self.outcome.scatters[spec], point_labels=self.outcome.point_labels.get(spec))

    def select_scatter_metric(self, spec: str) -> None:
        index = self.scatter_metric.findText(spec)
        if index < 0:
            raise KeyError(spec)
        self.scatter_metric.setCurrentIndex(index)

    def _table_row_changed(self, current, _previous) -> None:
        if current.isValid():
            spec = self.table_model.results[current.row()].metric
            index = self.scatter_metric.findText(spec)
            if index >= 0:
                self.scatter_metric.setCurrentIndex(index)

    def _mark_stale(self) -> None:
        if self.outcome is not None and not self.status.text().startswith("Results may be out of date"):
            self.status.setText("Results may be out of date: the project changed. Press Compute to update.")

    # --- following the project ------------------------------------------------------------------
    def _project_replaced(self, project: Project, at_once: bool = False) -> None:
        self.choices_timer.stop()
        if self.worker is not None and self.is_computing():
            self.worker.cancel()
        self.cache = cache_for(project)
        self.outcome = None
        self.table_model.set_results([])
        self.meta_table.set_rows([])
        self.scatter_metric.clear()
        self.scatter.show_summary(None)
        self.reliability_view.show_result(None)
        self.reliability_note.setText("")
        self.table_title.setText("Correlation with human scores")
        self.set_metric_specs(list(project.settings.metrics))
        self.status.setText("")
        self.errors_timer.stop()
        if not self.isVisible() and not at_once:
            # Listing the human choices and counting every error span took 10-55 ms of
            # opening the TED import in the main window (bench_judge_spans): done when shown.
            self._judgments_dirty = self._open_pending = True
            return
        self._judgments_dirty = self._open_pending = False
        self.fill_human_choices()
        self._recount_errors()
        self._prompt()

    def _prompt(self) -> None:
        if self.human_combo.count():
            self.status.setText("Pick a human score and metrics, then press Compute.")

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.layout_memory.restore()
        if self._judgments_dirty:  # judgments changed (or a project opened) while hidden
            self._judgments_dirty = False
            # The choices before the first paint (a few ms): never the old project's page;
            # the error counts in the next event-loop turn, if their tab is in front.
            self.choices_timer.stop()
            self.fill_human_choices()
            self.errors_timer.start()
            if self._open_pending:
                self._prompt()
        self._open_pending = False

    def _recount_errors(self) -> None:
        if not self.error_panel.isVisible():
            # Counting every span and drawing the bars took 7-20 ms on the TED import:
            # not for a tab nobody looks at (it counts when shown).
            self._errors_stale = True
            return
        self._errors_stale = False
        self.error_panel.set_judgments(list(self.project.judgments))

    def _result_tab_changed(self, _index: int) -> None:
        if self._errors_stale:
            self._recount_errors()

    def _project_changed(self, event: ProjectEvent) -> None:
        if type(event) in AFFECTS_JUDGMENTS | JUDGE_ROSTER:
            self._mark_stale()
            if not self.isVisible():  # rating in the Judge workspace must not wait for these
                self._judgments_dirty = True
                return
            # An import adds thousands of judgments one event each: list the choices once, after the burst.
            self.choices_timer.start()
            self.errors_timer.start()
        elif type(event) not in QUEUE_EVENTS and not isinstance(event, SettingsChanged):
            self._mark_stale()
