"""The rating view: one candidate translation, its reference (and optionally
the source), and the two LDC scales as rows of toggle buttons.

The keyboard is the fast path: digits 1-5 rate adequacy and then fluency
(``RatingEntry``), Enter submits and shows the next item, Backspace or Left
goes back to the previous item, Right skips ahead. While the comment field has
focus keys type into it; Enter there submits, Escape leaves it.

Everything the view changes goes through the undo stack (``RateItemCommand``);
the queue itself lives in the project (``JudgeSession`` is a handle on it), so
the view only remembers what is on screen.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFont, QKeyEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QButtonGroup,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.events import (
    AnnotationsReset,
    SystemAdded,
    TargetLanguageChanged,
)
from mtworkbench.core.judging import (
    ADEQUACY_LABELS,
    ADEQUACY_QUESTION,
    FLUENCY_LABELS,
    FLUENCY_QUESTION,
    JudgeSession,
    QueueItem,
    RatingEntry,
    fluency_labels,
)
from mtworkbench.core.model import Judgment, Project
from mtworkbench.core.overlap import word_overlap
from mtworkbench.gui.judge.commands import RateItemCommand
from mtworkbench.gui.judge.protocol_rating import ProtocolPanel, context_label, document_context
from mtworkbench.gui.judge.queue_view import JudgeQueueView
from mtworkbench.gui.session import ProjectSession
from mtworkbench.gui.worker import JobWorker

DIGIT_KEYS = {Qt.Key.Key_1: 1, Qt.Key.Key_2: 2, Qt.Key.Key_3: 3, Qt.Key.Key_4: 4, Qt.Key.Key_5: 5}
KEY_HINTS = (
    "<b>1</b>–<b>5</b> rate adequacy, then fluency &nbsp;·&nbsp; <b>Enter</b> submit and go on &nbsp;·&nbsp; "
    "<b>Backspace</b> or <b>←</b> previous item &nbsp;·&nbsp; <b>→</b> skip &nbsp;·&nbsp; "
    "<b>Tab</b> comment, <b>Esc</b> leave it"
)
HIGHLIGHT_COLOUR = "#fde68a"  # amber-200: readable under black text, visible on white
ACCENT = "#1d4ed8"

# Events that can change what the view shows.
_RELEVANT = (
    JudgeQueueView.relevant
    | {SystemAdded, AnnotationsReset}
    | {TargetLanguageChanged}  # the fluency scale names the target language
)

# Fluency labels by target language code, looked up once per language and process: the
# first lookup loads langcodes' name tables, which stalled opening a project for 100-250 ms.
_FLUENCY_LABELS: dict[str | None, dict[int, str]] = {}


def merge_spans(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Join spans separated only by spaces, so a shared phrase reads as one mark."""
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and not text[merged[-1][1]:start].strip():
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def overlap_html(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` as HTML with ``spans`` marked, everything else escaped."""
    out, last = [], 0
    for start, end in merge_spans(text, spans):
        out.append(html.escape(text[last:start], quote=False))
        out.append(f'<span style="background-color:{HIGHLIGHT_COLOUR};">{html.escape(text[start:end], quote=False)}</span>')
        last = end
    out.append(html.escape(text[last:], quote=False))
    return "".join(out)


class ScaleRow(QFrame):
    """One scale: a heading with its question and five toggle buttons, 1 (worst) to 5.

    The buttons run 1..5 from the left like the digit keys above the letters,
    so finger and eye agree.
    """

    rating_clicked = Signal(int)
    """The user clicked a rating button; payload: the rating 1-5."""

    def __init__(self, name: str, question: str, labels: dict[int, str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"scale-{name.lower()}")
        self.name = name
        self.heading = QLabel()
        self.question = question
        self.group = QButtonGroup(self)
        self.buttons: dict[int, QPushButton] = {}
        row = QHBoxLayout()
        row.setSpacing(6)
        for rating in sorted(labels):
            button = QPushButton(f"{rating}   {labels[rating]}")
            button.setCheckable(True)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys belong to the view
            button.setMinimumHeight(36)
            # Labels name the target language ("Incomprehensible Norwegian Bokmål"):
            # they may be cut in a narrow window (the tooltip has them whole)
            # rather than widen the whole main window.
            button.setMinimumWidth(48)
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            button.setObjectName(f"{name.lower()}-{rating}")
            button.setToolTip(f"{name}: {labels[rating]} (key {rating})")
            self.group.addButton(button, rating)
            self.buttons[rating] = button
            row.addWidget(button)
        self.group.idClicked.connect(self.rating_clicked)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 8)
        layout.setSpacing(4)
        layout.addWidget(self.heading)
        layout.addLayout(row)
        self.set_state(None, expecting=False)

    def set_labels(self, labels: dict[int, str]) -> None:
        """New wording for the five ratings (the fluency scale names the target language)."""
        for rating, button in self.buttons.items():
            button.setText(f"{rating}   {labels[rating]}")
            button.setToolTip(f"{self.name}: {labels[rating]} (key {rating})")

    def set_state(self, rating: int | None, expecting: bool) -> None:
        # A non-exclusive moment lets every button be unchecked (no rating yet).
        self.group.setExclusive(False)
        for value, button in self.buttons.items():
            button.setChecked(value == rating)
        self.group.setExclusive(True)
        marker = f'<span style="color:{ACCENT};">▶</span> ' if expecting else ""
        self.heading.setText(
            f"{marker}<b>{self.name}</b> &nbsp;<span style='color:#555;'>{html.escape(self.question)}</span>"
        )
        self.setProperty("expecting", expecting)
        self.setStyleSheet(
            f"#{self.objectName()} {{ border: 2px solid {ACCENT if expecting else '#d4d4d8'}; border-radius: 6px; }}"
            f"QPushButton {{ font-size: 11pt; padding: 4px 6px; }}"
            f"QPushButton:checked {{ background-color: {ACCENT}; color: white; border: 1px solid {ACCENT}; border-radius: 4px; }}"
        )


class _TextBlock(QWidget):
    """A caption and a large, wrapped, selectable text."""

    def __init__(self, caption: str, point_size: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.caption = QLabel(caption)
        self.caption.setStyleSheet("color:#52525b; font-weight:bold; letter-spacing:1px;")
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        font = QFont(self.text.font())
        font.setPointSize(point_size)
        self.text.setFont(font)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.caption)
        layout.addWidget(self.text)

    def set_html(self, body: str) -> None:
        self.text.setText(body)


class RatingView(JudgeQueueView):
    """Rate the current item of one judge's queue."""

    relevant = _RELEVANT

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.setObjectName("rating-view")
        self.entry = RatingEntry()
        self._protocol_shown: tuple | None = None  # the item the protocol panel was filled for
        self._labels_language: str | None = None  # the target language the fluency labels name
        self._label_lookup: JobWorker | None = None  # a language-name lookup on the worker

        top = self._top_row("position-label", "judge-progress", "%v of %m judged")

        self.candidate = _TextBlock("TRANSLATION", 17)
        self.candidate.setObjectName("candidate")
        self.reference = _TextBlock("REFERENCE", 15)
        self.reference.setObjectName("reference")
        self.source = _TextBlock("SOURCE", 13)
        self.source.setObjectName("source")
        self.source.text.setStyleSheet("color:#3f3f46;")
        texts = QWidget()
        texts_layout = QVBoxLayout(texts)
        texts_layout.setContentsMargins(4, 4, 4, 4)
        texts_layout.setSpacing(12)
        # The document around the item, as DA, ESA and MQM show it (dimmed: context, not the item).
        self.context_before = context_label("ldc-context-before")
        self.context_after = context_label("ldc-context-after")
        texts_layout.addWidget(self.context_before)
        texts_layout.addWidget(self.candidate)
        texts_layout.addWidget(self.reference)
        texts_layout.addWidget(self.source)
        texts_layout.addWidget(self.context_after)
        texts_layout.addStretch(1)
        self.texts_scroll = self._scroll_area(texts)
        self.texts_scroll.viewport().installEventFilter(self)

        self.message = QLabel()
        self.message.setObjectName("rating-message")
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        font = QFont(self.message.font())
        font.setPointSize(14)
        self.message.setFont(font)

        self.adequacy = ScaleRow("Adequacy", ADEQUACY_QUESTION, ADEQUACY_LABELS)
        self.fluency = ScaleRow("Fluency", FLUENCY_QUESTION, FLUENCY_LABELS)
        self.adequacy.rating_clicked.connect(self._adequacy_clicked)
        self.fluency.rating_clicked.connect(self._fluency_clicked)

        actions = self._action_row(
            "comment", "Optional comment (Tab to type, Enter submits, Esc returns to rating keys)",
            "◀  &Previous  (Backspace)", "S&kip  (→)  ▶", "S&ubmit and next  (Enter)", "submit",
        )
        footer = self._footer_row(KEY_HINTS, "key-hints", "rating-status")
        # DA, ESA and MQM queues are rated here instead of the LDC scales.
        self.protocol_panel = ProtocolPanel()
        self.protocol_panel.setVisible(False)
        self.protocol_panel.push = self.session.push  # span edits are undoable, as the submit is
        self.protocol_panel.judgments = self._judges_judgments
        self._assemble(top, self.texts_scroll, self.message, (self.adequacy, self.fluency, self.protocol_panel),
                       actions, footer)

    # --- the judge and their queue ------------------------------------------------------
    def _session_for(self, project: Project, judge: str) -> JudgeSession | None:
        if judge not in project.judges or judge not in project.judge_queues:
            return None
        return JudgeSession(project, judge)

    # --- showing --------------------------------------------------------------------------
    def current_item(self) -> QueueItem | None:
        return self.queue.current if self.queue is not None else None

    def refresh(self) -> None:
        self._update_fluency_labels(needed_now=self.current_item() is not None and not self._protocol_active())
        super().refresh()
        if self._protocol_active():
            self.protocol_panel.show_suggestion_state()  # the accept rate counts the judgment just stored

    def _stored(self, item: QueueItem) -> Judgment | None:
        return item.judgment

    def _start_item(self, item: QueueItem | None, stored: Judgment | None) -> None:
        self.entry = RatingEntry.from_judgment(stored)

    def _show(self, item: QueueItem | None) -> None:
        has_item = item is not None
        protocol = self._protocol_active()
        self.protocol_panel.setVisible(protocol and has_item)
        for widget in (self.adequacy, self.fluency, self.hints):
            widget.setVisible(not protocol)
        self.candidate.setVisible(True)
        self.reference.setVisible(True)
        self.texts_scroll.setVisible(has_item)
        self.message.setVisible(not has_item)
        for control in (self.adequacy, self.fluency, self.comment, self.submit_button, self.skip_button):
            control.setEnabled(has_item)
        progress = self._show_progress()
        if self.queue is None or progress is None:
            self.progress.setRange(0, 1)
            self.progress.setValue(0)
            self.position_label.setText("")
            if self._problem:
                self.message.setText(html.escape(self._problem))
            elif self.judge is None:
                self.message.setText("Choose who you are above, or add a new judge, to start judging.")
            else:
                self.message.setText(
                    f"{html.escape(self.judge)} has no queue yet.<br>Press <b>Start queue…</b> above to draw one."
                )
            self._show_entry()
            return
        if item is None:
            self.position_label.setText(f"<b>Finished</b> &nbsp;·&nbsp; {progress.done} of {progress.total} done")
            pending = self.queue.first_pending()
            left = progress.total - progress.done
            extra = (
                f"<br>{left} {'item is' if left == 1 else 'items are'} still unrated (skipped or undone); "
                "press <b>→</b> to go to the first of them."
                if pending is not None
                else ""
            )
            self.message.setText(
                f"You have reached the end of the queue.{extra}<br>Press <b>Backspace</b> to review the last item."
            )
            self._show_entry()
            return
        again = " &nbsp;·&nbsp; <i>rated before: change the rating or press Enter to keep it</i>" if item.judgment else ""
        self.position_label.setText(
            f"<b>Item {item.index + 1} of {progress.total}</b> &nbsp;·&nbsp; {progress.done} done{again}"
        )
        self.position_label.setTextFormat(Qt.TextFormat.RichText)
        config = self.queue.config
        reference = item.reference_text
        if config.highlight_overlap and reference is not None:
            overlap = word_overlap(item.candidate, reference)
            self.candidate.set_html(overlap_html(item.candidate, overlap.candidate_spans))
            self.reference.set_html(overlap_html(reference, overlap.reference_spans))
        else:
            self.candidate.set_html(html.escape(item.candidate, quote=False))
            self.reference.set_html(html.escape(reference, quote=False) if reference is not None else "<i>(no reference)</i>")
        self.source.setVisible(config.show_source)
        self.source.set_html(html.escape(item.source, quote=False))
        before, after = ("", "") if self._protocol_active() else document_context(self.queue.project, item)
        self.context_before.setText(f"Before, in the same document:\n{before}" if before else "")
        self.context_after.setText(f"After, in the same document:\n{after}" if after else "")
        self.context_before.setVisible(bool(before))
        self.context_after.setVisible(bool(after))
        self._show_protocol(item)
        self._fit_texts()
        self._show_entry()

    def _spans_layout(self) -> bool:
        """ESA and MQM: the protocol panel shows the translation, under the reference."""
        return self._protocol_active() and self.queue is not None and self.queue.state.protocol in ("esa", "mqm")

    def _fit_texts(self) -> None:
        """ESA and MQM: the reference (and source) take only the height of their text, so the
        translation follows them at the top and the spare room goes below the span list,
        never between the texts; LDC and DA leave the texts all the room."""
        layout = self.layout()
        body = self.texts_scroll.widget()
        if not isinstance(layout, QBoxLayout) or body is None:
            return
        fit = self._spans_layout() and self.texts_scroll.isVisible()
        if fit:
            width = self.texts_scroll.viewport().width()
            # The height of the texts wrapped at the width they have (a label's own size hint
            # assumes a narrower wrap and would leave the band this avoids).
            height = body.heightForWidth(width) if body.hasHeightForWidth() else -1
            self.texts_scroll.setMaximumHeight((height if height > 0 else body.sizeHint().height()) + 2)
        else:
            self.texts_scroll.setMaximumHeight(16_777_215)  # Qt's QWIDGETSIZE_MAX: no cap
        layout.setStretchFactor(self.texts_scroll, 0 if fit else 1)
        layout.setStretchFactor(self.protocol_panel, 1 if fit else 0)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        # Wrapped text is taller in a narrower area: refit whenever the texts' width changes
        # (the first layout gives the width only after the item is shown).
        if watched is self.texts_scroll.viewport() and event.type() == QEvent.Type.Resize \
                and event.size().width() != event.oldSize().width():
            self._fit_texts()
        return super().eventFilter(watched, event)

    def _update_fluency_labels(self, needed_now: bool) -> None:
        """"Flawless German" for a German target; never English for another language.

        A language not looked up yet is looked up on the worker while no 1-5 item is
        on screen (opening a project); meanwhile the scale says "in the target language".
        """
        language = self.session.project.target_language
        if language == self._labels_language and language in _FLUENCY_LABELS:
            return
        labels = _FLUENCY_LABELS.get(language)
        if labels is None and (needed_now or not (language or "").strip()):  # no language: nothing to look up
            labels = _FLUENCY_LABELS[language] = fluency_labels(language)
        if labels is None:
            self.fluency.set_labels(fluency_labels(None))
            self._labels_language = None
            self._look_up_labels(language)
            return
        self._labels_language = language
        self.fluency.set_labels(labels)

    def _look_up_labels(self, language: str | None) -> None:
        if self._label_lookup is not None:
            return  # one at a time; the labels are checked again when it is done

        def job(_progress, _cancel, _deliver) -> tuple[str | None, dict[int, str]]:
            try:
                return language, fluency_labels(language)
            except Exception:  # noqa: BLE001 - an unnamed language, never a failed view
                return language, fluency_labels(None)

        worker = self._label_lookup = JobWorker(job)
        worker.succeeded.connect(self._labels_looked_up)
        worker.start()

    def _labels_looked_up(self, outcome: tuple[str | None, dict[int, str]]) -> None:
        self._label_lookup = None
        language, labels = outcome
        _FLUENCY_LABELS.setdefault(language, labels)
        self.refresh()

    def _protocol_active(self) -> bool:
        return self.queue is not None and self.queue.state.protocol != "ldc"

    def _show_protocol(self, item: QueueItem) -> None:
        """Swap the LDC scales for the DA/ESA/MQM panel when the queue has that protocol."""
        if self.queue is None or not self._protocol_active():
            return
        state = self.queue.state
        # ESA and MQM: the panel shows the translation, with its spans.
        self.candidate.setVisible(state.protocol not in ("esa", "mqm"))
        # DA may be source-based: then the reference is not shown and the source is.
        source_based = state.protocol == "da" and state.da_basis == "source"
        self.reference.setVisible(not source_based)
        if source_based:
            self.source.setVisible(True)
        if self._protocol_shown != self._shown:
            self._protocol_shown = self._shown
            self.protocol_panel.show_item(self.queue, item)

    def _show_entry(self) -> None:
        if self._protocol_active():
            self.submit_button.setEnabled(self.current_item() is not None)
            return
        expecting = self.entry.expecting if self.current_item() is not None else None
        self.adequacy.set_state(self.entry.adequacy, expecting == "adequacy")
        self.fluency.set_state(self.entry.fluency, expecting == "fluency")
        self.submit_button.setEnabled(self.entry.complete and self.current_item() is not None)

    # --- input ------------------------------------------------------------------------------
    def rate_key(self, digit: int) -> None:
        if self.current_item() is None:
            return
        if self.entry.adequacy is None and self.entry.fluency is not None:
            self.entry.adequacy = digit  # fluency was clicked first: keep it
        else:
            self.entry.press(digit)
        self.status.clear()
        self._show_entry()

    def _adequacy_clicked(self, rating: int) -> None:
        self.entry.adequacy = rating
        self._show_entry()
        self.setFocus()

    def _fluency_clicked(self, rating: int) -> None:
        self.entry.fluency = rating
        self._show_entry()
        self.setFocus()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.comment.hasFocus():  # a key the comment field passed on
            super().keyPressEvent(event)
            return
        if self._protocol_active() and self.current_item() is not None and self.protocol_panel.handle_key(event):
            self.status.clear()
            return
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        key = Qt.Key(event.key())
        if modifiers != Qt.KeyboardModifier.NoModifier:
            super().keyPressEvent(event)
        elif key in DIGIT_KEYS:
            self.rate_key(DIGIT_KEYS[key])
        elif not self._navigate(key):
            super().keyPressEvent(event)

    def focusNextPrevChild(self, next_: bool) -> bool:
        # Tab from the rating keys goes to the comment first; from there (and
        # Shift+Tab from the rating keys) focus moves on through the window as usual.
        if next_ and self.hasFocus() and self.comment.isEnabled():
            self.comment.setFocus(Qt.FocusReason.TabFocusReason)
            return True
        return super().focusNextPrevChild(next_)

    # --- actions ------------------------------------------------------------------------------
    def _submit(self, item: QueueItem) -> None:
        if self._protocol_active():
            self._submit_protocol(item)
            return
        if self.entry.adequacy is None or self.entry.fluency is None:  # (not complete)
            missing = self.entry.expecting
            self.status.setText(f"Rate {missing} first (keys 1–5).")
            return
        adequacy, fluency, queue = self.entry.adequacy, self.entry.fluency, self.queue
        assert queue is not None, "submit() checked it"
        self._record("Cannot record the rating", lambda comment, seconds: queue.rate(adequacy, fluency, comment,
                                                                                     seconds), RateItemCommand)

    def _submit_protocol(self, item: QueueItem) -> None:
        assert self.queue is not None and self.judge is not None, "submit() checked both"
        missing = self.protocol_panel.missing()
        if missing:
            self.status.setText(missing)
            return
        score, errors = self.protocol_panel.rating()
        outcomes = self.protocol_panel.outcomes()
        queue = self.queue
        self._record("Cannot record the rating",
                     lambda comment, seconds: queue.rate_scored(score, errors, comment, seconds, outcomes),
                     RateItemCommand)

    def _judges_judgments(self) -> list[Judgment]:
        judge = self.judge
        return [j for j in self.session.project.judgments if j.judge == judge and j.suggestions]
