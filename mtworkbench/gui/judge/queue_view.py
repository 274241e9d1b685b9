"""What the rating view and the ranking view share: one judge's queue in the project,
moved through back and forward; the time spent on the item on screen, which only
counts while the window is in front; the comment field and the action buttons; and
submitting through the undo stack.

A subclass builds its own middle part, opens its kind of session (``_session_for``),
shows an item (``refresh``) and submits it (``submit``, through ``_record``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QUndoCommand
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.events import (
    AFFECTS_JUDGMENTS,
    JUDGE_ROSTER,
    QUEUE_EVENTS,
    TEXT_EVENTS,
    JudgeQueueChanged,
    ReferenceRemoved,
    SystemRemoved,
)
from mtworkbench.core.judging import ItemClock, JudgeSession, Progress
from mtworkbench.core.model import ModelError, Project, ProjectEvent
from mtworkbench.gui import dialogs
from mtworkbench.gui.session import ProjectSession

Edit = TypeVar("Edit")

SUBMIT_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
BACK_KEYS = (Qt.Key.Key_Backspace, Qt.Key.Key_Left)
FORWARD_KEYS = (Qt.Key.Key_Right,)


class JudgeQueueView(QWidget):
    """The part of a judging view that does not depend on the protocol."""

    item_shown = Signal(int)
    """A (different) queue item is on screen; payload: its index (-1 when none)."""

    # Events that can change what the view shows.
    relevant: ClassVar[frozenset[type[ProjectEvent]]] = (
        AFFECTS_JUDGMENTS | JUDGE_ROSTER | QUEUE_EVENTS | TEXT_EVENTS | {SystemRemoved, ReferenceRemoved}
    )
    # Events after which the judge's queue is opened again.
    reopen: ClassVar[frozenset[type[ProjectEvent]]] = JUDGE_ROSTER | {JudgeQueueChanged, SystemRemoved}

    queue: JudgeSession | None
    comment: QLineEdit
    status: QLabel

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.judge: str | None = None
        self.queue = None
        # Injectable time source (tests replace it); the clock asks it on every reading.
        self.now: Callable[[], float] = time.monotonic
        self.clock = ItemClock(lambda: self.now())
        self._shown: tuple | None = None  # (judge, index, what is stored) on screen
        self._active = True  # the window is in front and the view visible
        self._problem = ""  # why the judge's queue could not be opened
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    # --- building -------------------------------------------------------------------------------
    def _top_row(self, position_name: str, progress_name: str, progress_format: str) -> QHBoxLayout:
        """The item's position on the left, the progress bar on the right."""
        self.position_label = QLabel()
        self.position_label.setObjectName(position_name)
        self.progress = QProgressBar()
        self.progress.setObjectName(progress_name)
        self.progress.setFormat(progress_format)
        self._progress_format = progress_format
        self.progress.setMinimumWidth(260)
        top = QHBoxLayout()
        top.addWidget(self.position_label)
        top.addStretch(1)
        top.addWidget(self.progress)
        return top

    @staticmethod
    def _scroll_area(body: QWidget) -> QScrollArea:
        """``body`` in a frameless scroll area that never takes the keys."""
        area = QScrollArea()
        area.setWidget(body)
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        return area

    def _action_row(self, comment_name: str, placeholder: str, back: str, skip: str, submit: str,
                    submit_name: str) -> QHBoxLayout:
        """The comment field (Enter submits, Esc leaves it) and the back, skip and submit buttons."""
        self.comment = QLineEdit()
        self.comment.setObjectName(comment_name)
        self.comment.setPlaceholderText(placeholder)
        self.comment.returnPressed.connect(self.submit)
        self.comment.installEventFilter(self)
        self.back_button = QPushButton(back)
        self.back_button.clicked.connect(self.back)
        self.skip_button = QPushButton(skip)
        self.skip_button.clicked.connect(self.forward)
        self.submit_button = QPushButton(submit)
        self.submit_button.setObjectName(submit_name)
        self.submit_button.clicked.connect(self.submit)
        for button in (self.back_button, self.skip_button, self.submit_button):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys belong to the view
        actions = QHBoxLayout()
        actions.addWidget(self.comment, 1)
        actions.addWidget(self.back_button)
        actions.addWidget(self.skip_button)
        actions.addWidget(self.submit_button)
        return actions

    def _footer_row(self, hints: str, hints_name: str, status_name: str) -> QHBoxLayout:
        """The key hints on the left, the status (what is missing) on the right."""
        self.hints = QLabel(hints)
        self.hints.setObjectName(hints_name)
        self.hints.setStyleSheet("color:#3f3f46;")
        self.hints.setWordWrap(True)
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # shows ids and names from the project
        self.status.setObjectName(status_name)
        self.status.setStyleSheet("color:#b45309;")
        bottom = QHBoxLayout()
        bottom.addWidget(self.hints, 1)
        bottom.addWidget(self.status)
        return bottom

    def _assemble(self, top: QHBoxLayout, body: QWidget, message: QWidget, controls: Sequence[QWidget],
                  actions: QHBoxLayout, footer: QHBoxLayout) -> None:
        """Lay the parts out top to bottom (the item, or the message standing in for it,
        takes the room), follow the project and show where the queue stands."""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(6)
        layout.addLayout(top)
        layout.addWidget(body, 1)
        layout.addWidget(message, 1)
        for control in controls:
            layout.addWidget(control)
        layout.addLayout(actions)
        layout.addLayout(footer)
        self.session.project_changed.connect(self._on_project_changed)
        self.session.project_replaced.connect(self._on_project_replaced)
        self.refresh()

    # --- the judge and their queue --------------------------------------------------------------
    def set_judge(self, judge: str | None) -> None:
        self.judge = judge
        self._open_queue()
        self.refresh()

    def _session_for(self, project: Project, judge: str) -> JudgeSession | None:
        """The session on ``judge``'s queue when this view rates it (None otherwise);
        ModelError when the queue cannot be opened."""
        raise NotImplementedError

    def _open_queue(self) -> None:
        self.queue, self._problem = None, ""
        if self.judge is None:
            return
        try:
            self.queue = self._session_for(self.session.project, self.judge)
        except ModelError as exc:
            self._problem = str(exc)

    def _on_project_replaced(self, _project) -> None:
        self.judge, self.queue, self._shown = None, None, None
        self.refresh()

    def _on_project_changed(self, event: ProjectEvent) -> None:
        if type(event) not in self.relevant:
            return
        if type(event) in self.reopen:
            self._open_queue()
        self.refresh()

    # --- showing --------------------------------------------------------------------------------
    def current_item(self) -> Any:
        """The queue's current item as the view shows it; None when there is none."""
        raise NotImplementedError

    def refresh(self) -> None:
        """Show the current item. A different one, or one whose stored result changed
        (by undo, say), starts afresh: a new entry, its stored comment, the clock from zero."""
        item = self.current_item()
        stored = self._stored(item) if item is not None else None
        shown = None if item is None else (self.judge, item.index, stored)
        if shown != self._shown:
            self._shown = shown
            self._start_item(item, stored)
            self.comment.setText(stored.comment if stored is not None else "")
            self._restart_clock()
            self.status.clear()
            self.item_shown.emit(item.index if item else -1)
        self._show(item)

    def _stored(self, item: Any) -> Any:
        """What the project holds for ``item`` (a judgment, a ranking: it has a ``comment``), or None."""
        raise NotImplementedError

    def _start_item(self, item: Any, stored: Any) -> None:
        """A new entry for ``item`` (None: no item), filled from ``stored``."""
        raise NotImplementedError

    def _show(self, item: Any) -> None:
        raise NotImplementedError

    def _show_progress(self) -> Progress | None:
        """The back button and the progress bar as the queue stands; its progress (None: no queue)."""
        self.back_button.setEnabled(self.queue is not None and self.queue.position > 0)
        self.progress.setVisible(self.queue is not None)  # no queue: "0 of 1 done" would be untrue
        if self.queue is None:
            return None
        progress = self.queue.progress
        if progress.batches > 1:  # a queue served in batches counts the batch at hand
            self.progress.setFormat(f"Batch {progress.batch} of {progress.batches}: {self._progress_format}")
            self.progress.setRange(0, max(progress.batch_total, 1))
            self.progress.setValue(progress.batch_done)
        else:
            self.progress.setFormat(self._progress_format)
            self.progress.setRange(0, max(progress.total, 1))
            self.progress.setValue(progress.done)
        return progress

    def _restart_clock(self) -> None:
        """Time a new item from zero (paused at once while the window is not in front)."""
        self.clock.start()
        if not self._active:
            self.clock.pause()

    def _navigate(self, key: Qt.Key) -> bool:
        """Enter submits, Backspace or ← goes back, → skips; False for any other key."""
        if key in SUBMIT_KEYS:
            self.submit()
        elif key in BACK_KEYS:
            self.back()
        elif key in FORWARD_KEYS:
            self.forward()
        else:
            return False
        return True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.comment and isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress:
            if event.key() == Qt.Key.Key_Escape:
                self.setFocus()
                return True
        return super().eventFilter(watched, event)

    # --- actions --------------------------------------------------------------------------------
    def submit(self) -> None:
        """Record the item on screen (Enter, the submit button, Enter in the comment)."""
        item = self.current_item()
        if item is not None and self.queue is not None and self.judge is not None:
            self._submit(item)

    def _submit(self, item: Any) -> None:
        """Record ``item`` (the current one; the queue and the judge are set)."""
        raise NotImplementedError

    def _record(self, title: str, prepare: Callable[[str, float], Edit],
                command: Callable[[Edit], QUndoCommand]) -> None:
        """Submit the current item with the comment and the time spent on it: push the undo
        ``command(edit)`` of the edit ``prepare(comment, seconds)`` computes (the command's
        redo records the item, moves the queue on and stores the work); ``title`` heads
        the error dialog when the project refuses it. The next item starts on the keys."""
        assert self.queue is not None, "only with an item on screen"
        try:
            edit = prepare(self.comment.text().strip(), self.clock.seconds)
        except ModelError as exc:
            dialogs.error(self, title, str(exc))
            return
        self.session.push(command(edit))
        self.setFocus()  # the next item starts on the keys, also after a comment
        self.refresh()

    def back(self) -> None:
        if self.queue is not None and self.queue.position > 0:
            self.queue.back()
            self.refresh()

    def forward(self) -> None:
        """The next item; at the end of the queue, the first one still undone."""
        if self.queue is None:
            return
        if self.queue.finished:
            pending = self.queue.first_pending()
            if pending is not None:
                self.queue.go_to(pending)
        else:
            self.queue.forward()
        self.refresh()

    def go_to(self, index: int) -> None:
        if self.queue is not None:
            self.queue.go_to(index)
            self.refresh()

    # --- time spent only counts while the window is in front ------------------------------------
    def set_active(self, active: bool) -> None:
        self._active = active
        if active:
            self.clock.resume()
        else:
            self.clock.pause()
