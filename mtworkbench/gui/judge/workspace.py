"""The Judge workspace: who is judging, their queue, the rating view, all
judgments in a table, and agreement between judges.

Identity and queue live in the project (``project.judges``,
``project.judge_queues``) and change only through undoable commands, so the
window shows the project as modified and saving keeps a judge's place.
Which judge is selected is UI state and is not saved.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.events import JUDGE_ROSTER, JudgeQueueChanged
from mtworkbench.core.judging import JudgeSession, build_queue, config_of
from mtworkbench.core.model import Judgment, ModelError, Project, ProjectEvent
from mtworkbench.gui import dialogs
from mtworkbench.gui.commands import AddJudgeCommand
from mtworkbench.gui.judge import queue_dialog
from mtworkbench.gui.judge.agreement_panel import AgreementPanel
from mtworkbench.gui.judge.commands import SetQueueOptionCommand, StartQueueCommand
from mtworkbench.gui.judge.judgments_table import JudgmentsPanel
from mtworkbench.gui.judge.ranking_view import RankingView
from mtworkbench.gui.judge.rating import RatingView
from mtworkbench.gui.judge.suggested_queue import ModelSpansStarter
from mtworkbench.gui.project_people import remember, remembered
from mtworkbench.gui.workspace_base import Workspace

NO_JUDGE = ""


def ask_judge_name(parent: QWidget | None) -> str | None:
    """The name of a new judge, or None when cancelled (tests monkeypatch this)."""
    name, ok = QInputDialog.getText(parent, "New judge", "Your name or initials, as the judgments will record it:")
    return name if ok else None


class JudgeWorkspace(Workspace):
    title = "Judge"

    def __init__(self, session, parent=None) -> None:
        super().__init__(session, parent)
        self.judge_combo = QComboBox()
        self.judge_combo.setObjectName("judge-combo")
        self.judge_combo.setMinimumWidth(180)
        self.judge_combo.currentIndexChanged.connect(self._judge_chosen)
        self.new_judge_button = QPushButton("&New judge…")
        self.new_judge_button.setObjectName("new-judge")
        self.new_judge_button.clicked.connect(self.new_judge)
        self.start_button = QPushButton("&Start queue…")
        self.start_button.setObjectName("start-queue")
        self.start_button.clicked.connect(self.start_queue)
        self.show_source = QCheckBox("Show s&ource")
        self.show_source.setObjectName("show-source")
        self.show_source.toggled.connect(self._show_source_toggled)
        self.highlight = QCheckBox("Highlight shared wor&ds")  # Alt+H is the Help menu
        self.highlight.setObjectName("highlight-overlap")
        self.highlight.toggled.connect(self._highlight_toggled)
        for widget in (self.show_source, self.highlight):
            widget.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # a stray key must not flip them
        self.focus_button = QPushButton("Focus &mode")
        self.focus_button.setObjectName("focus-mode")
        self.focus_button.setCheckable(True)
        self.focus_button.setChecked(True)
        self.focus_button.setToolTip("Hide the side panels while judging: more room, and no system names in view")
        self.focus_button.toggled.connect(self._apply_focus_mode)
        self._hidden_docks: list[QDockWidget] = []
        self._watching_window = False
        self.notice = QLabel()
        self.notice.setTextFormat(Qt.TextFormat.PlainText)  # names a segment and a judge
        self.notice.setObjectName("judge-notice")
        self.notice.setStyleSheet("color:#b45309;")
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Judge"))
        bar.addWidget(self.judge_combo)
        bar.addWidget(self.new_judge_button)
        bar.addWidget(self.start_button)
        bar.addSpacing(16)
        bar.addWidget(self.show_source)
        bar.addWidget(self.highlight)
        bar.addSpacing(16)
        bar.addWidget(self.notice, 1)
        bar.addWidget(self.focus_button)

        self.rating = RatingView(session)
        self.model_spans = ModelSpansStarter(self, self.rating.status.setText, lambda _queue: None)
        # Relative ranking has its own view, in a tab shown instead of Rate while the
        # chosen judge's queue is a ranking queue (``_route``).
        self.ranking = RankingView(session)
        self.judgments = JudgmentsPanel(session)
        self.judgments.judgment_activated.connect(self._judgment_activated)
        self.agreement = AgreementPanel(session)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("judge-tabs")
        self.tabs.addTab(self.rating, "Rate")
        self.tabs.addTab(self.ranking, "Rank")
        self.tabs.setTabVisible(self.tabs.indexOf(self.ranking), False)
        self.tabs.addTab(self.judgments, "Judgments")
        self.tabs.addTab(self.agreement, "Agreement")
        self.tabs.currentChanged.connect(self._tab_changed)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.model_spans.bar)  # shown while a model finds a new queue's spans
        layout.addWidget(self.tabs, 1)

        session.project_replaced.connect(self._on_project_replaced)
        session.path_changed.connect(self._path_changed)
        session.project_changed.connect(self._on_project_changed)
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):
            app.applicationStateChanged.connect(self._application_state_changed)
        self._shown_project = self.session.project
        self._fill_judges()
        self._select_remembered_judge()  # built after the project was opened (the app builds it late)

    # --- identity ---------------------------------------------------------------------------
    @property
    def judge(self) -> str | None:
        return self.judge_combo.currentData() or None

    def _fill_judges(self) -> None:
        current = self.judge_combo.currentData() or NO_JUDGE
        project = self.session.project
        self.judge_combo.blockSignals(True)
        self.judge_combo.clear()
        self.judge_combo.addItem("— choose —", NO_JUDGE)
        for judge in project.judges:
            self.judge_combo.addItem(judge, judge)
        self.judge_combo.setCurrentIndex(max(0, self.judge_combo.findData(current)))
        self.judge_combo.blockSignals(False)
        self._judge_chosen()

    def select_judge(self, judge: str) -> None:
        self.judge_combo.setCurrentIndex(max(0, self.judge_combo.findData(judge)))

    def _path_changed(self, path) -> None:  # saved under a new name: the choice goes with it
        # (Opening another project changes the path too, before this workspace shows it.)
        if self.judge is not None and self._shown_project is self.session.project:
            remember("judge", path, self.judge)

    def _judge_chosen(self, *_args) -> None:
        if self.judge is not None:
            remember("judge", self.session.path, self.judge)
        self._route()
        self.notice.clear()
        self._update_controls()
        if self.judge is not None:
            self.active_view.setFocus()

    # --- rating or ranking --------------------------------------------------------------------
    def _ranking_queue(self) -> bool:
        judge = self.judge
        state = self.session.project.judge_queues.get(judge) if judge is not None else None
        return state is not None and state.protocol == "rank"

    @property
    def active_view(self):
        """The view the chosen judge works in: Rank for a relative-ranking queue, else Rate."""
        return self.ranking if self._ranking_queue() else self.rating

    def _route(self) -> None:
        """Give the judge to the view their queue needs, and show its tab in place of the other."""
        ranking = self._ranking_queue()
        was_current = self.tabs.currentWidget() in (self.rating, self.ranking)
        want_rating, want_ranking = (None, self.judge) if ranking else (self.judge, None)
        if self.rating.judge != want_rating:
            self.rating.set_judge(want_rating)
        if self.ranking.judge != want_ranking:
            self.ranking.set_judge(want_ranking)
        self.tabs.setTabVisible(self.tabs.indexOf(self.ranking), ranking)
        self.tabs.setTabVisible(self.tabs.indexOf(self.rating), not ranking)
        if was_current:
            self.tabs.setCurrentWidget(self.active_view)

    def new_judge(self) -> None:
        name = ask_judge_name(self)
        if name is None:
            return
        name = name.strip()
        if not name:
            dialogs.error(self, "Cannot add judge", "A judge needs a non-empty name.")
            return
        if name in self.session.project.judges:
            dialogs.error(self, "Cannot add judge", f"There is a judge called {name!r} already; choose it above.")
            return
        self.session.push(AddJudgeCommand(self.session.project, name))
        self.select_judge(name)

    # --- the queue --------------------------------------------------------------------------
    def start_queue(self) -> None:
        judge = self.judge
        project = self.session.project
        if judge is None:
            return
        if not project.systems or not project.segments:
            dialogs.error(self, "Nothing to judge", "The project has no system translations to judge.")
            return
        previous = config_of(project.judge_queues[judge]) if judge in project.judge_queues else None
        config = queue_dialog.ask_queue_config(self, project, judge, previous)
        if config is None:
            return
        try:
            state = build_queue(project, judge, config)
        except ModelError as exc:
            dialogs.error(self, "Cannot start the queue", str(exc))
            return
        if config.suggest_spans:  # ESA-AI: the model's spans first, in the background
            self.model_spans.done = lambda queue: self._store_queue(project, judge, queue)
            self.model_spans.start(project, state, config.suggest_spans)
            return
        self._store_queue(project, judge, state)

    def _store_queue(self, project: Project, judge: str, state) -> None:
        if project is not self.session.project or judge not in project.judges:
            return  # another project was opened, or the judge removed, meanwhile
        self.session.push(StartQueueCommand(project, judge, state))
        self.tabs.setCurrentWidget(self.active_view)
        self.active_view.setFocus()

    def _set_option(self, name: str, value: bool) -> None:
        judge, project = self.judge, self.session.project
        if judge is None or judge not in project.judge_queues or name not in JudgeSession.DISPLAY_OPTIONS:
            return
        if bool(getattr(project.judge_queues[judge], name)) != value:
            self.session.push(SetQueueOptionCommand(project, judge, name, value))
        self.active_view.setFocus()

    def _show_source_toggled(self, checked: bool) -> None:
        self._set_option("show_source", checked)

    def _highlight_toggled(self, checked: bool) -> None:
        self._set_option("highlight_overlap", checked)

    def _update_controls(self) -> None:
        project = self.session.project
        judge = self.judge
        state = project.judge_queues.get(judge) if judge is not None else None
        self.start_button.setEnabled(judge is not None)
        self.start_button.setText("Ne&w queue…" if state is not None else "&Start queue…")
        for box, name in ((self.show_source, "show_source"), (self.highlight, "highlight_overlap")):
            box.blockSignals(True)
            box.setChecked(bool(state is not None and getattr(state, name)))
            # Word overlap is drawn on one translation only; a ranking shows several.
            box.setEnabled(state is not None and not (name == "highlight_overlap" and state.protocol == "rank"))
            box.blockSignals(False)

    # --- following the project ------------------------------------------------------------------
    def _on_project_replaced(self, _project: Project) -> None:
        self._shown_project = _project
        self.judge_combo.blockSignals(True)
        self.judge_combo.setCurrentIndex(0)
        self.judge_combo.blockSignals(False)
        self._fill_judges()
        self._select_remembered_judge()

    def _select_remembered_judge(self) -> None:
        mine = remembered("judge", self.session.path)  # who judged in this project last time
        if mine and mine in self.session.project.judges:
            self.select_judge(mine)

    def _on_project_changed(self, event: ProjectEvent) -> None:
        if type(event) in JUDGE_ROSTER:
            self._fill_judges()
        elif isinstance(event, JudgeQueueChanged):
            self._route()  # a new queue (or its undo) may change the protocol
            self._update_controls()

    # --- opening an item from elsewhere --------------------------------------------------------
    def show_item(self, system_id: str, segment_id: str) -> None:
        """Show (system, segment) in the rating view if the chosen judge's queue has it;
        otherwise list its judgments in the table and say why."""
        view = self.active_view
        queue = view.queue
        if queue is not None:
            matches = [
                i for i, raw in enumerate(queue.state.items)
                if system_id in (raw.systems or [raw.system]) and raw.segment == segment_id
            ]
            if matches:
                # The original, not a repeat or a BAD copy: that is the rating other views mean.
                originals = [i for i in matches if not queue.state.items[i].repeat and not queue.state.items[i].qc]
                view.go_to((originals or matches)[0])
                self.tabs.setCurrentWidget(view)
                self.notice.clear()
                view.setFocus()
                return
        self.judgments.set_filter(system=system_id)
        self.tabs.setCurrentWidget(self.judgments)
        who = f"{self.judge}'s queue" if self.judge else "a queue (choose a judge first)"
        self.notice.setText(f"Segment {segment_id} of that system is not in {who}; its judgments are listed.")

    def _judgment_activated(self, judgment: Judgment) -> None:
        if judgment.judge != self.judge:
            self.select_judge(judgment.judge)
        view = self.active_view
        queue = view.queue
        index = queue.index_of_judgment(judgment.id) if queue is not None else None
        if index is not None:
            view.go_to(index)
            self.tabs.setCurrentWidget(view)
            view.setFocus()
        else:
            self.show_item(judgment.system, judgment.segment)

    # --- time only runs while the judge can see the item -----------------------------------------
    def _application_state_changed(self, state: Qt.ApplicationState) -> None:
        for view in (self.rating, self.ranking):
            view.set_active(state == Qt.ApplicationState.ApplicationActive and view.isVisible())

    def _tab_changed(self, _index: int) -> None:
        for view in (self.rating, self.ranking):
            view.set_active(self.tabs.currentWidget() is view and self.isVisible())
        if self.tabs.currentWidget() in (self.rating, self.ranking):
            self.tabs.currentWidget().setFocus()

    # --- focus mode: the window's docks hide while this workspace is in front ---------------------
    # On by default: the segment panel beside the rating view would show system
    # names next to their texts, and the rating view needs the room.
    def _apply_focus_mode(self, on: bool) -> None:
        if on and self.isVisible():
            self._hide_docks()
        elif not on:
            self._restore_docks()
        self.active_view.setFocus()

    def _hide_docks(self) -> None:
        window = self.window()
        if window is self or self._hidden_docks:
            return
        self._hidden_docks = [d for d in window.findChildren(QDockWidget) if d.isVisible()]
        for dock in self._hidden_docks:
            dock.hide()

    def _restore_docks(self) -> None:
        for dock in self._hidden_docks:
            dock.show()
        self._hidden_docks = []

    def eventFilter(self, watched, event) -> bool:
        # Give the panels back before the window saves its layout on closing,
        # so they are not remembered as hidden.
        if watched is self.window() and event.type() == QEvent.Type.Close:
            self._restore_docks()
        return super().eventFilter(watched, event)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.window() is not self and not self._watching_window:
            self.window().installEventFilter(self)
            self._watching_window = True
        if self.focus_button.isChecked():
            self._hide_docks()
        for view in (self.rating, self.ranking):
            view.set_active(self.tabs.currentWidget() is view)
        if self.tabs.currentWidget() in (self.rating, self.ranking):
            self.tabs.currentWidget().setFocus()

    def hideEvent(self, event) -> None:
        super().hideEvent(event)
        if not self.window().isMinimized():
            self._restore_docks()  # other workspaces get their panels back
        self.rating.set_active(False)
        self.ranking.set_active(False)

    def export_widget(self) -> QWidget:
        return self.tabs.currentWidget()
