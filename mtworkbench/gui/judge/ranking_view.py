"""Relative ranking in the Judge workspace: one source, its reference, and 2-5 systems'
translations side by side (one row each, Appraise style), each ranked 1 (best) to 5.

Keyboard first: one candidate has the focus (a blue frame); ↑/↓ or Tab/Shift+Tab move
it, 1-5 rank it and move on to the next candidate still without a rank (ties are
allowed: type the same digit), 0 or Delete clears its rank, Enter submits once every
candidate has a rank and shows the next item, Backspace or ← goes back, → skips. C
types a comment (Enter there submits, Esc returns). The mouse works too: click a
rank button.

Texts are plain (``PlainText`` labels): nothing from the project is read as markup.
System names are never shown. Every change goes through the undo stack
(``RankItemCommand``); the queue lives in the project (``RankingSession``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QKeyEvent
from PySide6.QtWidgets import QButtonGroup, QFrame, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from mtworkbench.core.model import Project
from mtworkbench.core.ranking import RANKS, RankEntry, Ranking, RankingItem, RankingSession
from mtworkbench.gui.judge.protocol_rating import context_label, source_context
from mtworkbench.gui.judge.queue_view import JudgeQueueView
from mtworkbench.gui.judge.ranking_commands import RankItemCommand
from mtworkbench.gui.session import ProjectSession

ACCENT = "#1d4ed8"
RANK_LABELS = {1: "Best", 2: "", 3: "", 4: "", 5: "Worst"}
DIGITS = {getattr(Qt.Key, f"Key_{d}"): d for d in RANKS}
CLEAR_KEYS = (Qt.Key.Key_0, Qt.Key.Key_Delete)
HINTS = ("↑/↓ or Tab choose a translation · 1–5 rank it (1 best, ties allowed) · 0 clears · "
         "Enter submit when all are ranked · Backspace or ← previous item · → skip · C comment")


def _plain_label(name: str, point_size: int | None = None, colour: str | None = None) -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    label.setTextFormat(Qt.TextFormat.PlainText)  # project text is never markup
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    if point_size is not None:
        font = QFont(label.font())
        font.setPointSize(point_size)
        label.setFont(font)
    if colour is not None:
        label.setStyleSheet(f"color:{colour};")
    return label


class CandidateRow(QFrame):
    """One translation with its five rank buttons; framed in the accent colour when focused."""

    rank_clicked = Signal(int, int)
    """A rank button was clicked; payload: (candidate index, rank)."""

    def __init__(self, index: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.index = index
        self.setObjectName(f"candidate-{index + 1}")
        self.caption = QLabel(f"Translation {index + 1}")
        self.caption.setTextFormat(Qt.TextFormat.PlainText)
        self.caption.setStyleSheet("color:#52525b; font-weight:bold;")
        self.text = _plain_label(f"candidate-text-{index + 1}", 15)
        self.text.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.group = QButtonGroup(self)
        self.buttons: dict[int, QPushButton] = {}
        ranks = QHBoxLayout()
        ranks.setSpacing(4)
        for rank in RANKS:
            label = f"{rank}\n{RANK_LABELS[rank]}" if RANK_LABELS[rank] else f"{rank}\n "
            button = QPushButton(label)
            button.setObjectName(f"rank-{index + 1}-{rank}")
            button.setCheckable(True)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys belong to the view
            button.setFixedSize(52, 44)
            button.setToolTip(f"Rank {rank}{' (' + RANK_LABELS[rank].lower() + ')' if RANK_LABELS[rank] else ''}")
            self.group.addButton(button, rank)
            self.buttons[rank] = button
            ranks.addWidget(button)
        self.group.idClicked.connect(lambda rank: self.rank_clicked.emit(self.index, rank))
        texts = QVBoxLayout()
        texts.setSpacing(2)
        texts.addWidget(self.caption)
        texts.addWidget(self.text)
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 6, 10, 6)
        row.addLayout(texts, 1)
        row.addSpacing(12)
        row.addLayout(ranks)
        self.set_state(None, False)

    def set_state(self, rank: int | None, focused: bool) -> None:
        self.group.setExclusive(False)  # a moment with every button unchecked (no rank yet)
        for value, button in self.buttons.items():
            button.setChecked(value == rank)
        self.group.setExclusive(True)
        self.setProperty("focused", focused)
        marker = "▶ " if focused else ""
        self.caption.setText(f"{marker}Translation {self.index + 1}")
        self.setStyleSheet(
            f"#{self.objectName()} {{ border: 2px solid {ACCENT if focused else '#d4d4d8'}; border-radius: 6px;"
            f" background: {'#eff6ff' if focused else 'white'}; }}"
            f"QPushButton {{ font-size: 10pt; }}"
            f"QPushButton:checked {{ background-color: {ACCENT}; color: white; border: 1px solid {ACCENT};"
            f" border-radius: 4px; }}"
        )


class RankingView(JudgeQueueView):
    """Rank the current item of one judge's relative-ranking queue."""

    queue: RankingSession | None

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.setObjectName("ranking-view")
        self.entry = RankEntry([])
        self.rows: list[CandidateRow] = []

        top = self._top_row("ranking-position", "ranking-progress", "%v of %m ranked")
        self.position_label.setTextFormat(Qt.TextFormat.PlainText)

        self.source_caption = QLabel("SOURCE")
        self.source = _plain_label("ranking-source", 13, "#3f3f46")
        # The document around the item, dimmed: the sources before and after it.
        self.context_before = context_label("ranking-context-before")
        self.context_after = context_label("ranking-context-after")
        self.reference_caption = QLabel("REFERENCE")
        self.reference = _plain_label("ranking-reference", 13)
        for caption in (self.source_caption, self.reference_caption):
            caption.setStyleSheet("color:#52525b; font-weight:bold; letter-spacing:1px;")
        self.candidates = QWidget()
        self.candidates_layout = QVBoxLayout(self.candidates)
        self.candidates_layout.setContentsMargins(0, 0, 0, 0)
        self.candidates_layout.setSpacing(6)
        body = QWidget()
        body_layout = QVBoxLayout(body)
        body_layout.setContentsMargins(4, 4, 4, 4)
        body_layout.setSpacing(4)
        for widget in (self.source_caption, self.context_before, self.source, self.context_after,
                       self.reference_caption, self.reference):
            body_layout.addWidget(widget)
        body_layout.addSpacing(8)
        body_layout.addWidget(self.candidates)
        body_layout.addStretch(1)
        self.scroll_area = self._scroll_area(body)

        self.message = _plain_label("ranking-message", 14)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)

        actions = self._action_row(
            "ranking-comment", "Optional comment (C to type, Enter submits, Esc returns to the ranking keys)",
            "◀  Previous  (Backspace)", "Skip  (→)  ▶", "Submit and next  (Enter)", "ranking-submit",
        )
        footer = self._footer_row(HINTS, "ranking-hints", "ranking-status")
        self.hints.setTextFormat(Qt.TextFormat.PlainText)
        self._assemble(top, self.scroll_area, self.message, (), actions, footer)

    # --- the judge and their queue ------------------------------------------------------------
    def _session_for(self, project: Project, judge: str) -> RankingSession | None:
        state = project.judge_queues.get(judge) if judge in project.judges else None
        if state is None or state.protocol != "rank":
            return None
        return RankingSession(project, judge)

    # --- showing --------------------------------------------------------------------------------
    def current_item(self) -> RankingItem | None:
        return self.queue.current_ranking if self.queue is not None else None

    def _stored(self, item: RankingItem) -> Ranking | None:
        return item.ranking

    def _start_item(self, item: RankingItem | None, stored: Ranking | None) -> None:
        self.entry = RankEntry.for_item(len(item.systems) if item else 0, stored)
        self._build_rows(item)

    def _build_rows(self, item: RankingItem | None) -> None:
        n = len(item.systems) if item is not None else 0
        while len(self.rows) > n:
            row = self.rows.pop()
            self.candidates_layout.removeWidget(row)
            row.hide()  # hidden at once: a stale row must not stand beside the new ones
            row.deleteLater()
        while len(self.rows) < n:
            row = CandidateRow(len(self.rows))
            row.rank_clicked.connect(self._rank_clicked)
            self.candidates_layout.addWidget(row)
            self.rows.append(row)

    def _show(self, item: RankingItem | None) -> None:
        has_item = item is not None
        self.scroll_area.setVisible(has_item)
        self.message.setVisible(not has_item)
        for control in (self.comment, self.skip_button):
            control.setEnabled(has_item)
        progress = self._show_progress()
        if self.queue is None or progress is None:
            self.position_label.setText("")
            if self._problem:
                self.message.setText(self._problem)
            elif self.judge is None:
                self.message.setText("Choose who you are above, or add a new judge, to start ranking.")
            else:
                self.message.setText(f"{self.judge} has no ranking queue.")
            self._show_entry()
            return
        if item is None:
            self.position_label.setText(f"Finished · {progress.done} of {progress.total} done")
            pending = self.queue.first_pending()
            extra = ("\nSome items are still unranked (skipped or undone); press → to go to the first of them."
                     if pending is not None else "")
            self.message.setText(f"You have reached the end of the queue.{extra}\n"
                                 "Press Backspace to review the last item.")
            self._show_entry()
            return
        again = " · ranked before: change the ranks or press Enter to keep them" if item.ranking else ""
        self.position_label.setText(
            f"Item {item.index + 1} of {progress.total} · {progress.done} done · "
            f"{len(item.systems)} translations{again}")
        show_source = self.queue.state.show_source or item.reference_text is None
        self.source_caption.setVisible(show_source)
        self.source.setVisible(show_source)
        self.source.setText(item.source)
        before, after = source_context(self.queue.project, item.document, item.segment)
        self.context_before.setText(f"Before, in the same document:\n{before}" if before else "")
        self.context_after.setText(f"After, in the same document:\n{after}" if after else "")
        self.context_before.setVisible(show_source and bool(before))
        self.context_after.setVisible(show_source and bool(after))
        has_reference = item.reference_text is not None
        self.reference_caption.setVisible(has_reference)
        self.reference.setVisible(has_reference)
        self.reference.setText(item.reference_text or "")
        for row, text in zip(self.rows, item.candidates):  # every refresh: a text may have been edited
            row.text.setText(text)
        self._show_entry()

    def _show_entry(self) -> None:
        has_item = self.current_item() is not None
        for k, row in enumerate(self.rows):
            row.set_state(self.entry.ranks[k] if k < len(self.entry.ranks) else None,
                          has_item and k == self.entry.focus)
        self.submit_button.setEnabled(has_item and self.entry.complete)
        if has_item and 0 <= self.entry.focus < len(self.rows):
            self.scroll_area.ensureWidgetVisible(self.rows[self.entry.focus], 0, 8)

    # --- input ----------------------------------------------------------------------------------
    def rank_key(self, rank: int) -> None:
        if self.current_item() is None:
            return
        self.entry.press(rank)
        self.status.clear()
        self._show_entry()

    def _rank_clicked(self, index: int, rank: int) -> None:
        if self.current_item() is None or index >= len(self.entry.ranks):
            return
        self.entry.focus = index
        self.entry.press(rank)
        self._show_entry()
        self.setFocus()

    def move_focus(self, step: int) -> None:
        self.entry.move(step)
        self._show_entry()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        key = Qt.Key(event.key())
        if modifiers not in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier):
            super().keyPressEvent(event)  # Ctrl/Alt chords are the window's (Ctrl+Z, Ctrl+S...)
        elif key in DIGITS and modifiers == Qt.KeyboardModifier.NoModifier:
            self.rank_key(DIGITS[key])
        elif key in CLEAR_KEYS:
            self.entry.clear()
            self._show_entry()
        elif key == Qt.Key.Key_Down:
            self.move_focus(1)
        elif key == Qt.Key.Key_Up:
            self.move_focus(-1)
        elif key == Qt.Key.Key_C and self.comment.isEnabled():
            self.comment.setFocus(Qt.FocusReason.ShortcutFocusReason)
        elif not self._navigate(key):
            super().keyPressEvent(event)

    def focusNextPrevChild(self, next_: bool) -> bool:
        # Tab and Shift+Tab move between the translations while the view has the keys.
        if self.hasFocus() and self.current_item() is not None:
            self.move_focus(1 if next_ else -1)
            return True
        return super().focusNextPrevChild(next_)

    # --- actions ----------------------------------------------------------------------------------
    def _submit(self, item: RankingItem) -> None:
        if not self.entry.complete:
            missing = self.entry.missing
            self.status.setText(f"Rank every translation first: {missing} still without a rank (keys 1–5).")
            return
        ranks, queue = [int(r) for r in self.entry.ranks if r is not None], self.queue
        assert queue is not None, "submit() checked it"
        self._record("Cannot record the ranking", lambda comment, seconds: queue.rank(ranks, comment, seconds),
                     RankItemCommand)
