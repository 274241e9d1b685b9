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

import time
import traceback

import numpy as np
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTabWidget,
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
from mtworkbench.gui import dialogs
from mtworkbench.gui.commands import SetSettingCommand
from mtworkbench.gui.metrics.views import detail_views
from mtworkbench.gui.metrics.corpus_table import CorpusTable, corpus_rows
from mtworkbench.gui.metrics.error_strip import ErrorSpanStrip
from mtworkbench.gui.metrics.sentence_browser import SentenceBrowser
from mtworkbench.gui.metrics.settings_dialog import MetricSettingsDialog, scoring_scheduler
from mtworkbench.gui.worker import JobWorker
from mtworkbench.gui.workspace_base import Workspace
from mtworkbench.metrics.spec import parse_spec
from mtworkbench.scoring.cache import cache_for
from mtworkbench.scoring.job import (
    DEFAULT_CI_SAMPLES,
    InputReader,
    ScoringRequest,
    run_scoring,
    segment_matrix,
)

RESCORE_DELAY_MS = 1000
REFRESH_DELAY_MS = 120
AUTO_SCORE_DELAY_MS = 100
PREPARE_SLICE_S = 0.015  # GUI-thread time per event-loop turn spent reading texts for a job


class DetailTabs(QTabWidget):
    """The detail views, each in a scroll area of its own: a wide view (a long
    METEOR alignment) scrolls inside its tab and never widens the window's
    centre, so it never squeezes the docks (their sizes are the user's).
    ``currentWidget``, ``widget`` and ``indexOf`` speak of the views themselves."""

    def add_view(self, view: QWidget, title: str) -> int:
        area = QScrollArea()
        area.setObjectName(f"{view.objectName() or 'detail'}-scroll")
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setWidget(view)
        return self.addTab(area, title)

    @staticmethod
    def _inner(widget: QWidget | None) -> QWidget | None:
        return widget.widget() if isinstance(widget, QScrollArea) else widget

    # Qt returns None when there is no tab, although the stub promises a QWidget.
    def currentWidget(self) -> QWidget | None:  # type: ignore[override]  # noqa: N802 - Qt's name
        return self._inner(super().currentWidget())

    def widget(self, index: int) -> QWidget | None:
        return self._inner(super().widget(index))

    def indexOf(self, widget: QWidget) -> int:  # noqa: N802 - Qt's name
        for i in range(self.count()):
            if self.widget(i) is widget:
                return i
        return super().indexOf(widget)

    def setCurrentWidget(self, widget: QWidget) -> None:  # noqa: N802 - Qt's name
        index = self.indexOf(widget)
        if index >= 0:
            self.setCurrentIndex(index)


class MetricsWorkspace(Workspace):
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
        self._texts_dirty = True
        self._human_dirty = True
        self._spans_dirty = False  # judgments changed while hidden: error spans redrawn when shown
        self._open_pending = False  # a project opened while hidden: read and drawn when first shown
        self._spans_pending = False  # a new project: the error strip follows it at the next refresh
        self._hold_details = False  # a row selected now leaves its spans and detail view to a later turn
        self._stages: list = []  # what is left of showing a new project, one event-loop turn each
        self.human_label = ""
        self.human_matrix: np.ndarray | None = None
        self.last_outcome = None
        # (request, systems still to read, inputs read so far, reader) while inputs are being read
        self._preparing: tuple | None = None

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
            self.detail_views[name] = view
            self.detail_tabs.add_view(view, getattr(cls, "title", name))

        self.error_strip = ErrorSpanStrip()  # raters' error spans of the selected row
        browser_column = QSplitter(Qt.Orientation.Vertical)
        browser_column.addWidget(self.browser)
        browser_column.addWidget(self.error_strip)
        browser_column.setStretchFactor(0, 4)
        browser_column.setStretchFactor(1, 1)
        lower = QSplitter(Qt.Orientation.Horizontal)
        lower.addWidget(browser_column)
        lower.addWidget(self.detail_tabs)
        lower.setStretchFactor(0, 1)
        lower.setStretchFactor(1, 1)
        lower.setSizes([620, 620])
        main = QSplitter(Qt.Orientation.Vertical)
        main.addWidget(self.corpus_table)
        main.addWidget(lower)
        main.setStretchFactor(0, 1)
        main.setStretchFactor(1, 4)
        main.setSizes([210, 560])
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

    def is_scoring(self) -> bool:
        """True from the start of a job until its last result has been taken in."""
        return self._preparing is not None or self.worker is not None

    def export_widget(self) -> QWidget:
        """The detail view when the user works there, else the corpus table."""
        focus = QApplication.focusWidget()
        if focus is not None and (self.detail_tabs.isAncestorOf(focus) or self.browser.isAncestorOf(focus)):
            view = self.detail_tabs.currentWidget()
            if view is not None and hasattr(view, "export_widget"):
                return view.export_widget()
        return self.corpus_table

    # --- scoring -------------------------------------------------------------------------------
    def request(self) -> ScoringRequest:
        return ScoringRequest(
            specs=tuple(self.specs),
            systems=tuple(self.system_ids),
            baseline=self.project.settings.baseline,
            ci_samples=self.ci_samples,
            paired_method=self.paired_method,
            scheduler=scoring_scheduler(),
        )

    def start_scoring(self) -> None:
        if not self.project.systems or not self.project.references or not self.specs:
            self.status.setText("Nothing to score: the project needs systems, references and metrics.")
            return
        if self._preparing is not None:
            self._stop_preparing()
        elif self.worker is not None:  # scoring (not preparing)
            self._restart_after_worker = True
            self.worker.cancel()
            return
        self.rescore_timer.stop()
        self._restart_after_worker = False
        request = self.request()
        # The texts are read here, on the GUI thread, a few systems per event-loop turn:
        # that Python work in the worker thread would fight every repaint for the GIL.
        self._preparing = (request, list(request.systems), {}, InputReader(self.project, self.cache))
        self.progress.setRange(0, 0)
        self.progress.show()
        self.cancel_button.setEnabled(True)
        self.status.setText("Reading the texts…")
        self.prepare_timer.start()

    def _prepare_slice(self) -> None:
        if self._preparing is None:
            self.prepare_timer.stop()
            return
        request, todo, prepared, reader = self._preparing
        deadline = time.perf_counter() + PREPARE_SLICE_S
        while todo and time.perf_counter() < deadline:
            system = todo.pop(0)
            prepared[system] = reader.read(system)
        if not todo:
            self._stop_preparing()
            self._start_worker(request, prepared)

    def _stop_preparing(self) -> None:
        self.prepare_timer.stop()
        self._preparing = None

    def _start_worker(self, request: ScoringRequest, prepared: dict) -> None:
        project, cache = self.project, self.cache

        def job(progress, cancel, deliver):
            return run_scoring(project, cache, request, progress=progress, cancel=cancel, deliver=deliver,
                               prepared=prepared)

        worker = JobWorker(job, project=project, cache=cache)
        self.destroyed.connect(worker.cancel)  # the job outlives a closed workspace only briefly
        worker.progress_changed.connect(self._on_progress)
        worker.item_ready.connect(self._on_item)
        worker.succeeded.connect(self._on_succeeded)
        worker.failed.connect(self._on_failed)
        worker.cancelled.connect(self._on_cancelled)
        worker.finished.connect(self._on_worker_finished)
        self.worker = worker
        self.status.setText("Scoring…")
        worker.start()

    def cancel_scoring(self) -> None:
        self._restart_after_worker = False
        if self._preparing is not None:
            self._stop_preparing()
            self._scoring_stopped()
            self.status.setText("Scoring cancelled.")
        elif self.worker is not None:  # scoring (not preparing)
            self.worker.cancel()
            self.status.setText("Cancelling…")

    def _on_progress(self, done: int, total: int) -> None:
        if total > 0:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * done / total))

    # A worker's signals all arrive before its ``finished``, and a new worker starts only
    # after the old one finished, so every signal below comes from ``self.worker``.
    # Results go to the job's own cache: after File > Open the job may belong to the old project.
    def _on_item(self, item) -> None:
        worker = self.worker
        if worker is None:
            return
        worker.cache.store(item.system, item.spec, item.fingerprint, item.entry, item.generation)
        if worker.project is self.project:
            self.refresh_timer.start()

    def _on_succeeded(self, outcome) -> None:
        worker = self.worker
        if worker is None:
            return
        for spec, (key, result) in outcome.paired.items():
            worker.cache.store_paired(key, result)
        if worker.project is not self.project:
            return
        self.last_outcome = outcome
        for spec, (key, result) in outcome.paired.items():
            self.paired[spec] = (key, result)
        self.errors = dict(outcome.errors)
        self.unscored = dict(outcome.unscored)
        for spec, message in outcome.errors.items():
            self.status.setText(f"{spec}: {message}")
        if not outcome.errors:
            where = "worker processes" if outcome.used_processes else "a background thread"
            self.status.setText(f"Scored {len(outcome.items)} system × metric results ({where})."
                                + "".join(f" {why}." for why in dict.fromkeys(outcome.unscored.values())))
        self.refresh()

    def _on_failed(self, message: str) -> None:
        self.status.setText("Scoring failed.")
        dialogs.error(self, "Scoring failed", message)

    def _on_cancelled(self) -> None:
        self.status.setText("Scoring cancelled; results so far are kept.")
        self.refresh()

    def _on_worker_finished(self) -> None:
        worker = self.worker
        if worker is None:
            return
        self.worker = None
        worker.deleteLater()
        self._scoring_stopped()
        if self._restart_after_worker:
            self._restart_after_worker = False
            self.start_scoring()

    def _scoring_stopped(self) -> None:
        self.progress.hide()
        self.cancel_button.setEnabled(False)

    def needs_scoring(self) -> bool:
        """Results are missing: scores, or the paired tests against the current baseline."""
        if not self.project.references or not self.project.systems:
            return False
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
        if self._open_pending:  # before the first paint: the old project's rows never show
            self._show_new_project()
        elif self._spans_dirty:
            self._spans_dirty = False
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
        self._texts_dirty = self._human_dirty = self._spans_pending = True
        self.human_matrix, self.human_label = None, ""  # the old project's
        self._detail_shown.clear()
        self._stages.clear()
        for timer in (self.refresh_timer, self.errors_timer, self.rescore_timer, self.stage_timer):
            timer.stop()
        self._spans_dirty = False
        if not self.isVisible():
            # Reading every text and human score, indexing the error spans and drawing the
            # first row's GTM view took 30-90 ms of opening the TED import in the main
            # window (bench_judge_spans), for a tab the user may never open: done when shown.
            self._open_pending = True
            return
        self._show_new_project()
        self.rescore_timer.start(AUTO_SCORE_DELAY_MS)

    def _show_new_project(self) -> None:
        """Show a new project in three event-loop turns, not one (55-120 ms on the TED
        import in bench_judge_spans): now, before the first paint, the rows, the metric
        scores and whether there are error spans (the strip takes its room at once); then
        the human scores; then the selected row's error spans and detail view."""
        self._open_pending = False
        self._hold_details = True
        try:
            self.refresh(human_scores=False)
        finally:
            self._hold_details = False
        self._stages = [self._stage_human_scores, self._stage_selected_row]
        self.stage_timer.start()

    def _next_stage(self) -> None:
        if self._stages:
            self._stages.pop(0)()
        if self._stages:
            self.stage_timer.start()

    def _stage_human_scores(self) -> None:
        if self._human_dirty:  # else a refresh meanwhile read them
            self.refresh()

    def _stage_selected_row(self) -> None:
        selected = self.browser.selected()
        if selected is not None:
            self.error_strip.show_segment(self.project, *selected)
            self._update_detail_view()

    def _project_changed(self, event: ProjectEvent) -> None:
        if type(event) in QUEUE_EVENTS:
            return  # a judge's queue moving shows nowhere here
        if self._open_pending:  # everything is read afresh when shown
            if type(event) in AFFECTS_SCORES:
                self.errors.clear()  # the inputs changed: a metric that failed may work now
            return
        # The cache hears the event itself (after this slot), so refresh a moment later.
        if type(event) in AFFECTS_JUDGMENTS:
            self._human_dirty = True
            if not self.isVisible():
                # Re-reading every human score and re-indexing every span at each rating
                # made judging stall (bench_judge_spans): done when the workspace is shown.
                self._spans_dirty = True
                return
            self.errors_timer.start()  # once after a burst (an import adds thousands)
        elif isinstance(event, SettingsChanged):
            if event.name in ("metrics", "baseline") and self.isVisible():
                self.rescore_timer.start(RESCORE_DELAY_MS)
        elif type(event) in AFFECTS_SCORES:
            self._texts_dirty = True
            self._detail_shown.clear()
            self.errors.clear()  # the inputs changed: a metric that failed may work now
            if self.isVisible():
                self.rescore_timer.start(RESCORE_DELAY_MS)
        if type(event) in MEMBERSHIP_EVENTS or isinstance(event, AnnotationsReset):
            self._texts_dirty = True
        self.refresh_timer.start()

    # --- drawing ---------------------------------------------------------------------------------
    def refresh(self, human_scores: bool = True) -> None:
        """Redraw from the project and the cache; ``human_scores=False`` leaves human scores
        that need reading to a later refresh (the column shows them then)."""
        self.refresh_timer.stop()
        project = self.project
        self._open_pending = False  # whatever was deferred is read now
        if self._spans_pending:  # a new project: its error spans indexed before a row is selected
            self._spans_pending = False
            self.error_strip.follow_project(project)
        systems = self.system_ids
        specs = self.specs
        self._fill_baseline_combo()
        self.corpus_table.set_content(
            specs, corpus_rows(self.cache, systems, specs, self._valid_paired(), self.errors, self.unscored),
            project.settings.baseline,
        )
        # Room for up to five systems without scrolling; more scroll inside the table.
        table = self.corpus_table.view
        rows_shown = max(1, min(len(systems), 5))
        table.setMinimumHeight(table.horizontalHeader().sizeHint().height()
                               + rows_shown * table.verticalHeader().defaultSectionSize() + 2 * table.frameWidth() + 2)
        if self._texts_dirty:
            self._texts_dirty = False
            seg_ids = project.segment_ids
            hyps = [[s.texts.get(sid, "") for sid in seg_ids] for s in project.systems]
            seg_texts = [
                "\n".join([seg.source, *(r.texts.get(seg.id) or "" for r in project.references)])
                for seg in project.segments
            ]
            self.browser.set_texts(seg_ids, systems, hyps, seg_texts)
        if self._human_dirty and human_scores:
            self._human_dirty = False
            self._load_human_scores()
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

        self.human_matrix, self.human_label = None, ""
        if not self.project.judgments:
            return
        try:
            human = collect_human_scores(self.project, "all")
        except DataError:
            return
        self.human_matrix = human.matrix
        self.human_label = f"Human ({human.field})"

    # --- selection and detail views ----------------------------------------------------------------
    def _row_selected(self, system: str, segment: str) -> None:
        self.session.set_current_segment(segment)
        if self._hold_details:
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
        if self._open_pending:  # the rows are the old project's; the new ones select it when shown
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
