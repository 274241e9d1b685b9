"""The Metrics workspace: corpus table, sentence browser and per-segment detail views.

Scoring runs in the background (``gui/worker.py``) with a progress bar
and a cancel button; results live in the project's ``ScoreCache`` and are
reused until the texts or annotations they came from change. The workspace
scores on its own when it is shown and results are missing, and again shortly
after an edit. A project opened while the workspace is hidden is read (texts,
human scores, error spans, the first row's detail view) when it is first shown,
in a few event-loop turns (``_show_new_project``).
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.errors import DataError
from mtworkbench.core.events import (
    AFFECTS_JUDGMENTS,
    AFFECTS_SCORES,
    MEMBERSHIP_EVENTS,
    QUEUE_EVENTS,
    AnnotationsReset,
    SettingsChanged,
)
from mtworkbench.core.model import Project, ProjectEvent
from mtworkbench.gui.commands import SetSettingCommand
from mtworkbench.gui.metrics.corpus_table import CorpusTable, corpus_rows
from mtworkbench.gui.metrics.detail_tabs import DetailTabs
from mtworkbench.gui.metrics.error_strip import ErrorSpanStrip
from mtworkbench.gui.metrics.scoring_controls import PreparingJob, ScoringControls
from mtworkbench.gui.metrics.sentence_browser import SentenceBrowser
from mtworkbench.gui.metrics.settings_dialog import MetricSettingsDialog
from mtworkbench.gui.metrics.views import detail_views
from mtworkbench.gui.pane_layout import LayoutMemory, PopOutPane
from mtworkbench.gui.worker import JobWorker
from mtworkbench.gui.workspace_base import Workspace
from mtworkbench.metrics.spec import parse_spec
from mtworkbench.scoring.cache import cache_for
from mtworkbench.scoring.job import (
    DEFAULT_CI_SAMPLES,
    segment_matrix,
)

RESCORE_DELAY_MS = 1000
REFRESH_DELAY_MS = 120
AUTO_SCORE_DELAY_MS = 100
MAX_CORPUS_ROWS = 10


@dataclass
class Deferred:
    """What the workspace has yet to read or draw, left for later to keep the GUI responsive."""

    texts: bool = True  # the sentence browser's texts
    human_scores: bool = True  # the human-score column
    spans_when_shown: bool = False  # judgments changed while hidden: error spans redrawn when shown
    open_when_shown: bool = False  # a project opened while hidden: read and drawn when first shown
    strip_follows: bool = False  # a new project: the error strip follows it at the next refresh
    hold_details: bool = False  # a row selected now leaves its spans and detail view to a later turn
    stored_scores: bool = True  # the score file's scores of a new project: read back when first shown


class MetricsWorkspace(Workspace, ScoringControls):
    title = "Metrics"

    def __init__(self, session, parent=None) -> None:
        super().__init__(session, parent)
        self.cache = cache_for(session.project)
        self.ci_samples = DEFAULT_CI_SAMPLES
        self.paired_method = "paired-bs"
        self.paired: dict[str, tuple[tuple, object]] = {}
        self.errors: dict[str, str] = {}
        # (system, spec) pairs the scoring left without a score on purpose (a system that is the only reference)
        self.unscored: dict[tuple[str, str], str] = {}
        self.worker: JobWorker | None = None
        self._restart_after_worker = False
        self.deferred = Deferred()
        self._stages: list = []  # what is left of showing a new project, one event-loop turn each
        self.human_label = ""
        self.human_matrix: np.ndarray | None = None
        self.human_systems: dict[str, float] = {}  # system -> mean human score, for the corpus table
        self.last_outcome = None
        self._preparing: PreparingJob | None = None  # a job whose inputs are being read

        # --- toolbar ------------------------------------------------------------------
        self.score_button = QPushButton("&Score")
        self.score_button.setObjectName("score-button")
        self.score_button.setToolTip("Score every system with the chosen metrics (results are cached)")
        self.cancel_button = QPushButton("Cance&l")
        self.cancel_button.setObjectName("cancel-scoring")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setObjectName("scoring-progress")
        self.progress.setMaximumWidth(220)
        self.progress.setTextVisible(True)
        self.progress.hide()
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # shows ids and names from the bundle
        self.status.setObjectName("metrics-status")
        # A long message wraps instead of widening the workspace (which would squeeze the docks).
        self.status.setWordWrap(True)
        self.settings_button = QPushButton("&Metrics…")
        self.settings_button.setObjectName("metric-settings")
        self.baseline_combo = QComboBox()
        self.baseline_combo.setObjectName("baseline")
        self.baseline_combo.setToolTip("Paired significance tests compare every system with this one")
        self.copy_tsv_button = QPushButton("Copy &TSV")
        self.copy_tsv_button.setObjectName("copy-tsv")
        self.copy_latex_button = QPushButton("Copy L&aTeX")
        self.copy_latex_button.setObjectName("copy-latex")
        bar = QHBoxLayout()
        for w in (self.score_button, self.cancel_button, self.progress):
            bar.addWidget(w)
        bar.addWidget(self.status, 1)  # takes the free width, so messages are not cut
        bar.addWidget(QLabel("Baseline"))
        for tool in (self.baseline_combo, self.settings_button, self.copy_tsv_button, self.copy_latex_button):
            bar.addWidget(tool)

        # --- views --------------------------------------------------------------------
        self.corpus_table = CorpusTable()
        self.browser = SentenceBrowser()
        self.detail_tabs = DetailTabs()
        self.detail_tabs.setObjectName("detail-views")
        self.detail_views: dict[str, QWidget] = {}
        self._detail_shown: dict[str, tuple] = {}
        for name, cls in detail_views().items():
            view: QWidget
            try:
                view = cls()
            except Exception:  # noqa: BLE001 - one broken view must not hide the others
                view = QLabel(f"The {name} view could not be created:\n{traceback.format_exc(limit=2)}")
                view.setTextFormat(Qt.TextFormat.PlainText)
                view.setWordWrap(True)
            view.setObjectName(f"detail-{name}")
            if hasattr(view, "grow_wide"):
                view.grow_wide = False  # fits the pane's width; zoom or pop out for every label
            self.detail_views[name] = view
            self.detail_tabs.add_view(view, getattr(cls, "title", name))

        self.error_strip = ErrorSpanStrip()  # raters' error spans of the selected row
        # Each view can pop out into a window of its own; the splitters give the room
        # left to the others, and the user's sizes and windows are remembered.
        self.corpus_pane = PopOutPane("corpus", "Corpus scores", self.corpus_table,
                                      bar=self.corpus_table.caption_bar)
        self.browser_pane = PopOutPane("browser", "Sentence browser", self.browser, bar=self.browser.top_bar)
        self.detail_pane = PopOutPane("details", "Metric views", self.detail_tabs, bar=self.detail_tabs.corner_bar)
        browser_column = QSplitter(Qt.Orientation.Vertical)
        browser_column.addWidget(self.browser_pane)
        browser_column.addWidget(self.error_strip)
        browser_column.setStretchFactor(0, 4)
        browser_column.setStretchFactor(1, 1)
        browser_column.setChildrenCollapsible(False)
        lower = QSplitter(Qt.Orientation.Horizontal)
        lower.addWidget(browser_column)
        lower.addWidget(self.detail_pane)
        lower.setStretchFactor(0, 1)
        lower.setStretchFactor(1, 1)
        lower.setChildrenCollapsible(False)
        lower.setSizes([620, 620])
        main = QSplitter(Qt.Orientation.Vertical)
        main.addWidget(self.corpus_pane)
        main.addWidget(lower)
        main.setStretchFactor(0, 0)  # the table keeps the rows it needs; the views take what is left
        main.setStretchFactor(1, 1)
        main.setChildrenCollapsible(False)
        main.setSizes([210, 560])
        self.main_splitter, self.lower_splitter = main, lower
        self.layout_memory = LayoutMemory("metrics", self)
        for name, splitter in (("main", main), ("lower", lower), ("browser", browser_column)):
            self.layout_memory.add_splitter(name, splitter)
        for pane in (self.corpus_pane, self.browser_pane, self.detail_pane):
            self.layout_memory.add_pane(pane)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(main)

        # --- timers ---------------------------------------------------------------------
        self.refresh_timer = QTimer(self)
        self.refresh_timer.setSingleShot(True)
        self.refresh_timer.setInterval(REFRESH_DELAY_MS)
        self.refresh_timer.timeout.connect(self.refresh)
        self.rescore_timer = QTimer(self)
        self.rescore_timer.setSingleShot(True)
        self.rescore_timer.setInterval(RESCORE_DELAY_MS)
        self.rescore_timer.timeout.connect(self._auto_score)
        self.errors_timer = QTimer(self)
        self.errors_timer.setSingleShot(True)
        self.errors_timer.setInterval(0)
        self.errors_timer.timeout.connect(self._judgments_changed)
        self.prepare_timer = QTimer(self)
        self.prepare_timer.setInterval(0)
        self.prepare_timer.timeout.connect(self._prepare_slice)
        self.stage_timer = QTimer(self)
        self.stage_timer.setSingleShot(True)
        self.stage_timer.setInterval(0)
        self.stage_timer.timeout.connect(self._next_stage)

        # --- connections (bound methods: Qt drops them with the widget) --------------------
        self.score_button.clicked.connect(self.start_scoring)
        self.cancel_button.clicked.connect(self.cancel_scoring)
        self.settings_button.clicked.connect(self.open_settings)
        self.baseline_combo.activated.connect(self._baseline_chosen)
        self.copy_tsv_button.clicked.connect(self.copy_tsv)
        self.copy_latex_button.clicked.connect(self.copy_latex)
        self.browser.row_selected.connect(self._row_selected)
        self.error_strip.visibility_changed.connect(self._error_spans_toggled)
        self.browser.human_score_clicked.connect(self._open_in_judge)
        self.detail_tabs.currentChanged.connect(self._detail_tab_changed)
        session.project_replaced.connect(self._project_replaced)
        session.project_changed.connect(self._project_changed)
        session.current_segment_changed.connect(self._current_segment_changed)
        self.refresh()
        self.error_strip.follow_project(session.project)

    # --- what the rest of the app sees ------------------------------------------------------
    @property
    def project(self) -> Project:
        return self.session.project

    @property
    def specs(self) -> list[str]:
        return list(self.project.settings.metrics)

    @property
    def system_ids(self) -> list[str]:
        return [s.id for s in self.project.systems]

    def export_widget(self) -> QWidget:
        """The detail view when the user works there, else the corpus table."""
        focus = QApplication.focusWidget()
        if focus is not None and (self.detail_tabs.isAncestorOf(focus) or self.browser.isAncestorOf(focus)):
            view = self.detail_tabs.currentWidget()
            if view is not None and hasattr(view, "export_widget"):
                return view.export_widget()
        return self.corpus_table

    def needs_scoring(self) -> bool:
        """Results are missing: scores, or the paired tests against the current baseline."""
        if not self.project.references or not self.project.systems:
            return False
        if self.cache.pending_intervals(self.system_ids, self.specs):
            return True  # scores read back from the score file: their intervals are still to draw
        # A metric that failed on these inputs (e.g. NEE without entities) waits for an edit.
        if any(spec not in self.errors and (system, spec) not in self.unscored
               for system, spec in self.cache.missing(self.system_ids, self.specs)):
            return True
        baseline = self.project.settings.baseline
        if baseline and len(self.system_ids) > 1:
            valid = self._valid_paired()
            return any(spec not in valid and spec not in self.errors for spec in self.specs)
        return False

    def _auto_score(self) -> None:
        if self.isVisible() and self.needs_scoring():
            self.start_scoring()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.layout_memory.restore()
        self._fit_corpus_table(len(self.system_ids))
        if self.restore_stored() and not self.deferred.open_when_shown:
            self.refresh()  # the stored scores in the first paint, not "…" until a job returns
        if self.deferred.open_when_shown:  # before the first paint: the old project's rows never show
            self._show_new_project()
        elif self.deferred.spans_when_shown:
            self.deferred.spans_when_shown = False
            self.errors_timer.start()
            self.refresh_timer.start()
        if self.needs_scoring() and not self.is_scoring():
            # After the first paint, not in the same event-loop turn.
            self.rescore_timer.start(AUTO_SCORE_DELAY_MS)  # start(ms) sets the interval: always pass it

    # --- settings ---------------------------------------------------------------------------------
    def open_settings(self) -> None:
        dialog = MetricSettingsDialog(self.specs, self.ci_samples, self.paired_method, self,
                                      external=list(self.project.external_scores))
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        self.apply_settings(dialog.result_specs, dialog.ci_samples.value(), dialog.paired_method.currentText())

    def apply_settings(self, specs: list[str], ci_samples: int, paired_method: str) -> None:
        options_changed = (ci_samples, paired_method) != (self.ci_samples, self.paired_method)
        self.ci_samples, self.paired_method = ci_samples, paired_method
        if options_changed:
            # Intervals and tests depend on these options: compute them again.
            self.cache.invalidate_all()
            self.paired.clear()
        if specs != self.specs:
            self.session.push(SetSettingCommand(self.project, "metrics", list(specs)))
        self.refresh()
        self.start_scoring()

    def _baseline_chosen(self, index: int) -> None:
        value = self.baseline_combo.itemData(index)
        if value != self.project.settings.baseline:
            self.session.push(SetSettingCommand(self.project, "baseline", value))

    def set_baseline(self, system_id: str | None) -> None:
        index = self.baseline_combo.findData(system_id)
        if index >= 0:
            self.baseline_combo.setCurrentIndex(index)
            self._baseline_chosen(index)

    # --- reacting to the project -----------------------------------------------------------------
    def _project_replaced(self, project: Project) -> None:
        if self._preparing is not None:
            self._stop_preparing()
            self._scoring_stopped()
        elif self.worker is not None:  # scoring (not preparing)
            self._restart_after_worker = False
            self.worker.cancel()
        self.cache = cache_for(project)
        self.paired.clear()
        self.errors.clear()
        self.deferred.texts = self.deferred.human_scores = self.deferred.strip_follows = True
        self.human_matrix, self.human_label, self.human_systems = None, "", {}  # the old project's
        self._detail_shown.clear()
        self._stages.clear()
        for timer in (self.refresh_timer, self.errors_timer, self.rescore_timer, self.stage_timer):
            timer.stop()
        self.deferred.spans_when_shown = False
        self.deferred.stored_scores = True
        if not self.isVisible():
            # Reading every text and human score, indexing the error spans and drawing the
            # first row's GTM view took 30-90 ms of opening the TED import in the main
            # window (bench_judge_spans), for a tab the user may never open: done when shown.
            self.deferred.open_when_shown = True
            return
        self._show_new_project()
        self.rescore_timer.start(AUTO_SCORE_DELAY_MS)

    def _show_new_project(self) -> None:
        """Show a new project in three event-loop turns, not one (55-120 ms on the TED
        import in bench_judge_spans): now, before the first paint, the rows, the metric
        scores and whether there are error spans (the strip takes its room at once); then
        the human scores; then the selected row's error spans and detail view."""
        self.deferred.open_when_shown = False
        self.deferred.hold_details = True
        self.restore_stored()
        try:
            self.refresh(human_scores=False)
        finally:
            self.deferred.hold_details = False
        self._stages = [self._stage_human_scores, self._stage_selected_row]
        self.stage_timer.start()

    def _next_stage(self) -> None:
        if self._stages:
            self._stages.pop(0)()
        if self._stages:
            self.stage_timer.start()

    def _stage_human_scores(self) -> None:
        if self.deferred.human_scores:  # else a refresh meanwhile read them
            self.refresh()

    def _stage_selected_row(self) -> None:
        selected = self.browser.selected()
        if selected is not None:
            self.error_strip.show_segment(self.project, *selected)
            self._update_detail_view()

    def _project_changed(self, event: ProjectEvent) -> None:
        if type(event) in QUEUE_EVENTS:
            return  # a judge's queue moving shows nowhere here
        if self.deferred.open_when_shown:  # everything is read afresh when shown
            if type(event) in AFFECTS_SCORES:
                self.errors.clear()  # the inputs changed: a metric that failed may work now
            return
        # The cache hears the event itself (after this slot), so refresh a moment later.
        if type(event) in AFFECTS_JUDGMENTS:
            self.deferred.human_scores = True
            if not self.isVisible():
                # Re-reading every human score and re-indexing every span at each rating
                # made judging stall (bench_judge_spans): done when the workspace is shown.
                self.deferred.spans_when_shown = True
                return
            self.errors_timer.start()  # once after a burst (an import adds thousands)
        elif isinstance(event, SettingsChanged):
            if event.name in ("metrics", "baseline") and self.isVisible():
                self.rescore_timer.start(RESCORE_DELAY_MS)
        elif type(event) in AFFECTS_SCORES:
            self.deferred.texts = True
            self._detail_shown.clear()
            self.errors.clear()  # the inputs changed: a metric that failed may work now
            if self.isVisible():
                self.rescore_timer.start(RESCORE_DELAY_MS)
        if type(event) in MEMBERSHIP_EVENTS or isinstance(event, AnnotationsReset):
            self.deferred.texts = True
        self.refresh_timer.start()

    # --- drawing ---------------------------------------------------------------------------------
    def refresh(self, human_scores: bool = True) -> None:
        """Redraw from the project and the cache; ``human_scores=False`` leaves human scores
        that need reading to a later refresh (the column shows them then)."""
        self.refresh_timer.stop()
        project = self.project
        self.deferred.open_when_shown = False  # whatever was deferred is read now
        if self.deferred.strip_follows:  # a new project: its error spans indexed before a row is selected
            self.deferred.strip_follows = False
            self.error_strip.follow_project(project)
        systems = self.system_ids
        specs = self.specs
        self._fill_baseline_combo()
        if self.deferred.human_scores and human_scores:
            self.deferred.human_scores = False
            self._load_human_scores()
        self.corpus_table.set_content(
            specs, corpus_rows(self.cache, systems, specs, self._valid_paired(), self.errors, self.unscored),
            project.settings.baseline, human=self.human_systems, human_label=self.human_label,
        )
        self._fit_corpus_table(len(systems))
        if self.deferred.texts:
            self.deferred.texts = False
            seg_ids = project.segment_ids
            hyps = [[s.texts.get(sid, "") for sid in seg_ids] for s in project.systems]
            seg_texts = [
                "\n".join([seg.source, *(r.texts.get(seg.id) or "" for r in project.references)])
                for seg in project.segments
            ]
            self.browser.set_texts(seg_ids, systems, hyps, seg_texts)
        n_seg = len(project.segments)
        matrices = {spec: segment_matrix(self.cache, systems, spec, n_seg) for spec in specs}
        self.browser.set_scores(matrices, self.human_matrix, self.human_label or "Human")
        if self.browser.selected() is None and self.browser.model.rowCount():
            segment = self.session.current_segment
            if not (segment and systems and self.browser.select(systems[0], segment)):
                self.browser.view.selectRow(0)
        missing = self.cache.missing(systems, specs)
        if not self.is_scoring() and not self.status.text():
            self.status.setText(f"{len(missing)} results to compute" if missing else "")

    def _fit_corpus_table(self, n_systems: int) -> None:
        """Every system's row in view (up to ten; more scroll inside the table), the
        views below the rest: WMT projects have eight systems or more."""
        table = self.corpus_table.view
        rows_shown = max(1, min(n_systems, MAX_CORPUS_ROWS))
        bar = table.horizontalScrollBar().sizeHint().height()
        wanted = (table.horizontalHeader().sizeHint().height() + rows_shown * table.verticalHeader().defaultSectionSize()
                  + 2 * table.frameWidth() + bar + 2)
        table.setMinimumHeight(wanted)
        sizes = self.main_splitter.sizes()
        pane = self.corpus_pane.minimumSizeHint().height()
        if len(sizes) == 2 and sum(sizes) > pane + 200 and sizes[0] != pane and "main" not in self.layout_memory.user_sized:
            self.main_splitter.setSizes([pane, sum(sizes) - pane])

    def _fill_baseline_combo(self) -> None:
        combo = self.baseline_combo
        combo.blockSignals(True)
        combo.clear()
        combo.addItem("(none)", None)
        for system in self.system_ids:
            combo.addItem(system, system)
        combo.setCurrentIndex(max(0, combo.findData(self.project.settings.baseline)))
        combo.blockSignals(False)

    def _valid_paired(self) -> dict:
        """Paired results whose inputs are still the current ones (by fingerprint)."""
        valid = {}
        baseline = self.project.settings.baseline
        for spec, (key, result) in self.paired.items():
            if key[3] != baseline or key[1] != self.paired_method:
                continue
            if all(self.cache.current_fingerprint(system, spec) == fp for system, fp in key[4]):
                valid[spec] = result
        return valid

    def _load_human_scores(self) -> None:
        from mtworkbench.analysis.human_scores import collect_human_scores

        self.human_matrix, self.human_label, self.human_systems = None, "", {}
        if not self.project.judgments:
            return
        try:
            human = collect_human_scores(self.project, "all")
        except DataError:
            return
        self.human_matrix = human.matrix
        self.human_label = f"Human ({human.field})"
        with np.errstate(all="ignore"):  # a system without ratings has no mean (NaN, shown as –)
            means = human.system_scores()
        self.human_systems = {s: float(v) for s, v in zip(human.systems, means) if np.isfinite(v)}

    # --- selection and detail views ----------------------------------------------------------------
    def _row_selected(self, system: str, segment: str) -> None:
        self.session.set_current_segment(segment)
        if self.deferred.hold_details:
            return  # drawn in a later event-loop turn (_show_new_project)
        self._update_detail_view()
        self.error_strip.show_segment(self.project, system, segment)

    def _judgments_changed(self) -> None:
        self.error_strip.follow_project(self.project)
        self._detail_shown.clear()  # the detail views redraw with the new spans
        selected = self.browser.selected()
        if selected is not None:
            self.error_strip.show_segment(self.project, *selected)
            self._update_detail_view()

    def _error_spans_toggled(self, visible: bool) -> None:
        for view in self.detail_views.values():
            if hasattr(view, "set_errors_visible"):
                view.set_errors_visible(visible)

    def _current_segment_changed(self, segment: str) -> None:
        if self.deferred.open_when_shown:  # the rows are the old project's; the new ones select it when shown
            return
        selected = self.browser.selected()
        if not segment or (selected is not None and selected[1] == segment):
            return
        system = selected[0] if selected else (self.system_ids[0] if self.system_ids else "")
        if system and self.browser.select(system, segment, emit=False):
            self._update_detail_view()

    def _detail_tab_changed(self, _index: int) -> None:
        self._update_detail_view()

    def detail_spec(self, view_cls) -> str | None:
        """The project's spec for the view's metric (e.g. gtm:e=2), else the view's default."""
        name = parse_spec(view_cls.default_metric)[0] if getattr(view_cls, "default_metric", "") else ""
        for spec in self.specs:
            if parse_spec(spec)[0] == name:
                return spec
        return None

    def _update_detail_view(self) -> None:
        selected = self.browser.selected()
        view = self.detail_tabs.currentWidget()
        if selected is None or view is None or not hasattr(view, "set_segment"):
            return
        system, segment = selected
        spec = self.detail_spec(type(view))
        key = (system, segment, spec)
        name = view.objectName()
        if self._detail_shown.get(name) == key:
            return
        self._detail_shown[name] = key
        try:
            view.set_segment(self.project, system, segment, spec)
        except Exception as exc:  # noqa: BLE001 - a view's bug must not reach the user as a crash
            self.status.setText(f"{name}: {type(exc).__name__}: {exc}")

    def _open_in_judge(self, system: str, segment: str) -> None:
        self.session.open_in_judge_requested.emit(system, segment)

    # --- copying ----------------------------------------------------------------------------------
    def copy_tsv(self) -> None:
        self.corpus_table.copy_tsv()
        self.status.setText("Copied the corpus table as TSV.")

    def copy_latex(self) -> None:
        self.corpus_table.copy_latex()
        self.status.setText("Copied the corpus table as LaTeX.")
