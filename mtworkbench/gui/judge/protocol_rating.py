"""Rating under the DA, ESA and MQM protocols, keyboard first.

``ProtocolPanel`` sits in the rating view in place of the LDC scales when the
judge's queue has another protocol; the view offers it every key first.

- DA: a 0-100 slider; type digits to set the number, Left/Right or Up/Down
  ±1, PageUp/PageDown ±10, Enter submits.
- ESA: in the translation, Shift+arrows select (or drag with the mouse), 1 marks
  the selection a minor error, 2 a major one; Delete removes the span under the
  cursor; the score as in DA (Up/Down, PageUp/PageDown, or digits with nothing
  selected); Enter submits the score with the spans.
- MQM: as ESA with 1 minor, 2 major, 3 neutral, then a category picked from the
  project's typology by its keys (``A`` then ``M``: Accuracy/Mistranslation) or, after
  ``/``, by name in a list filtered as you type (Enter picks); N marks the whole
  segment a Non-translation; at most ``max_errors`` spans, a refusal shown in red;
  0 (or the "No errors" button) says the translation has none, an explicit choice as
  in Anthea: Enter with no span and no such choice records nothing and says what to
  do, so a second Enter never rates the next item unseen. The MQM score of the spans
  marked so far is shown as they are marked. Enter submits without a score.

A queue that started from a model's error spans (ESA-AI) shows them pre-marked, dashed, until
the judge keeps (A), changes or deletes (R) each, or all at once (Shift+A, Shift+R); see
``suggestion_bar``. Every span edit is an undoable command (``span_commands``).

Texts are plain (``PlainText`` labels, a read-only plain-text editor); the
spans are drawn as extra selections, so no markup is built from the data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QKeyEvent, QTextCharFormat, QTextCursor, QUndoCommand
from PySide6.QtWidgets import (
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.analysis.mqm_weights import GOOGLE_WEIGHTS
from mtworkbench.core.judging import JudgeSession, QueueItem
from mtworkbench.core.model import ErrorSpan, Project, Segment
from mtworkbench.core.mqm_typology import GOOGLE_TYPOLOGY, NON_TRANSLATION_CATEGORY, Typology
from mtworkbench.core.span_draft import SpanDraft
from mtworkbench.core.suggested_spans import SpanOutcome
from mtworkbench.gui.judge.category_picker import CategoryPicker, ask_category
from mtworkbench.gui.judge.score_slider import ScoreSlider
from mtworkbench.gui.judge.span_commands import SpanEditCommand
from mtworkbench.gui.judge.suggestion_bar import SUGGESTION_HINT, SuggestionBar

# Background per severity: amber for minor, red for major, grey for neutral.
SEVERITY_COLOURS = {"minor": "#fde68a", "major": "#fca5a5", "neutral": "#d4d4d8"}
# A span the model pre-marked and the judge has not decided on: a dashed underline in a darker
# shade of its severity over a pale ground, so it never looks like the judge's own.
SUGGESTED_COLOURS = {"minor": "#b45309", "major": "#b91c1c", "neutral": "#52525b"}
ESA_SEVERITY_KEYS = {Qt.Key.Key_1: "minor", Qt.Key.Key_2: "major"}
MQM_SEVERITY_KEYS = {Qt.Key.Key_1: "Minor", Qt.Key.Key_2: "Major", Qt.Key.Key_3: "Neutral"}
DIGITS = {getattr(Qt.Key, f"Key_{d}"): d for d in range(10)}
CONTEXT_SEGMENTS = 2  # segments shown before and after the current one
LISTED_SPANS = 4  # spans named in the list under the translation (the view is tight at 800 pixels)

__all__ = ["CategoryPicker", "ProtocolPanel", "ask_category", "context_label", "document_context", "source_context"]

HINTS = {
    "da": "Type the score (0–100) · ←/→ or ↑/↓ ±1 · PgUp/PgDn ±10 · Enter submit · Backspace previous item",
    "esa": "Shift+arrows select · 1 minor, 2 major · Delete removes the span at the cursor · "
           "↑/↓ ±1, PgUp/PgDn ±10 or type the score · Enter submit",
    "mqm": "Shift+arrows select · 1 minor, 2 major, 3 neutral, then the category's keys (A M: Accuracy/Mistranslation; "
           "/ searches by name) · N non-translation · 0 no errors · Delete removes the span at the cursor · Enter submit",
}


class ProtocolPanel(QWidget):
    """The DA/ESA/MQM rating controls and the translation with its error spans."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("protocol-panel")
        self.protocol = "ldc"
        self.max_errors = 5
        self.project: Project | None = None  # set by show_item: its typology is read at each pick
        # The spans of the item shown (and the suggestions among them); one draft per item
        # and stored judgment, so undoing a submit finds the spans as they were.
        self.draft = SpanDraft("ldc")
        self._drafts: dict[tuple, SpanDraft] = {}
        self.push: Callable[[QUndoCommand], None] | None = None  # the session's undo stack (the rating view's)
        self.judgments: Callable[[], Sequence] = lambda: ()  # the judge's judgments, for the accept rate
        self.ask_category = ask_category
        self.context_before = context_label("context-before")
        self.translation = QPlainTextEdit()
        self.translation.setObjectName("span-text")
        self.translation.setReadOnly(True)
        self.translation.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the view routes the keys here
        self.translation.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByKeyboard | Qt.TextInteractionFlag.TextSelectableByMouse
        )
        font = QFont(self.translation.font())
        font.setPointSize(17)
        self.translation.setFont(font)
        self.translation.setMaximumHeight(96)
        self.context_after = context_label("context-after")
        self.spans_label = QLabel()
        self.spans_label.setObjectName("span-list")
        self.spans_label.setTextFormat(Qt.TextFormat.PlainText)
        self.spans_label.setWordWrap(True)
        # Two lines kept whatever the window's height: the list says which spans are the model's.
        self.spans_label.setMinimumHeight(2 * self.spans_label.fontMetrics().lineSpacing() + 2)
        self.score = ScoreSlider()
        # No focus: the rating view keeps the keys (0 does the same as a click).
        self.no_errors_button = QPushButton("No e&rrors  (0)")
        self.no_errors_button.setObjectName("mqm-no-errors")
        self.no_errors_button.setCheckable(True)
        self.no_errors_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.no_errors_button.setToolTip("The translation has no errors (an explicit choice: Enter alone records nothing)")
        self.no_errors_button.clicked.connect(lambda _checked: self.choose_no_errors())
        self.suggestion_bar = SuggestionBar()
        self.suggestion_bar.wire(self.keep_current, self.delete_current, self.keep_all, self.delete_all)
        self.hints = QLabel()
        self.hints.setObjectName("protocol-hints")
        self.hints.setTextFormat(Qt.TextFormat.PlainText)
        self.hints.setWordWrap(True)
        self.hints.setStyleSheet("color:#3f3f46;")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.context_before, self.translation, self.context_after, self.spans_label,
                       self.suggestion_bar):
            layout.addWidget(widget)
        # Spare height (the panel takes it for ESA and MQM) goes here: the translation stays
        # up with the reference, the controls down by the submit row.
        layout.addStretch(1)
        for control in (self.no_errors_button, self.score, self.hints):
            layout.addWidget(control)

    @property
    def spans(self) -> list[ErrorSpan]:
        return self.draft.spans

    @property
    def no_errors(self) -> bool:
        """MQM: the rater chose "no errors" for this item."""
        return self.draft.no_errors

    @property
    def typology(self) -> Typology:
        """The typology the rater picks from: the project's, as it is now (it may be edited mid-queue)."""
        return self.project.settings.mqm_typology if self.project is not None else GOOGLE_TYPOLOGY

    # --- showing ------------------------------------------------------------------
    def show_item(self, queue: JudgeSession, item: QueueItem | None) -> None:
        state = queue.state
        self.protocol, self.max_errors = state.protocol, state.max_errors
        self.project = queue.project
        spans = self.protocol in ("esa", "mqm")
        self.translation.setVisible(spans)
        self.spans_label.setVisible(spans)
        self.score.setVisible(self.protocol != "mqm")
        self.no_errors_button.setVisible(self.protocol == "mqm")
        self.hints.setText(HINTS.get(self.protocol, "") + (f"\n{SUGGESTION_HINT}" if item and item.suggested else ""))
        if item is None:
            return
        stored = item.judgment
        key = (queue.judge, item.index, stored)
        if key not in self._drafts:
            self._drafts[key] = SpanDraft.start(self.protocol, item.suggested if spans else (), stored)
        self.draft = self._drafts[key]
        self.translation.setPlainText(item.candidate)
        self.score.reset(stored.score if stored is not None else None)
        before, after = document_context(queue.project, item)
        self.context_before.setText(f"Before, in the same document:\n{before}" if before else "")
        self.context_after.setText(f"After, in the same document:\n{after}" if after else "")
        self.context_before.setVisible(bool(before))
        self.context_after.setVisible(bool(after))
        self._draw_spans()

    def _draw_spans(self) -> None:
        selections = []
        current = self.current_suggestion()
        for k, span in enumerate(self.spans):
            if span.start is None or span.end is None:
                continue
            selection = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self.translation.document())
            cursor.setPosition(span.start)
            cursor.setPosition(span.end, QTextCursor.MoveMode.KeepAnchor)
            selection.cursor = cursor
            fmt = QTextCharFormat()
            severity = span.severity.lower()
            if self.draft.pending(k):
                fmt.setBackground(QColor("#f4f4f5"))
                fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline)
                fmt.setUnderlineColor(QColor(SUGGESTED_COLOURS.get(severity, "#52525b")))
                fmt.setForeground(QColor(SUGGESTED_COLOURS.get(severity, "#52525b")))
                if k == current:
                    fmt.setFontWeight(QFont.Weight.Bold)
            else:
                fmt.setBackground(QColor(SEVERITY_COLOURS.get(severity, "#d4d4d8")))
            selection.format = fmt
            selections.append(selection)
        self.translation.setExtraSelections(selections)
        text = self.translation.toPlainText()
        lines = [
            f"{'◇ ' if self.draft.pending(k) else ''}{span.severity}{' · ' + span.category if span.category else ''}: "
            f"“{text[span.start:span.end] if span.start is not None else '(whole segment)'}”"
            + (" (model)" if self.draft.pending(k) else " (model, decided)" if self.draft.from_model(k) else "")
            for k, span in enumerate(self.spans)
        ]
        self.show_suggestion_state()
        limit = f" (at most {self.max_errors})" if self.protocol == "mqm" else ""
        if len(lines) > LISTED_SPANS:  # the rest are drawn in the translation; a longer list would be cut
            lines = [*lines[:LISTED_SPANS], f"… and {len(lines) - LISTED_SPANS} more, marked above"]
        text = f"Errors marked{limit}: " + ("; ".join(lines) if lines else "none")
        if self.protocol == "mqm":
            self.no_errors_button.setChecked(self.no_errors and not self.spans)
            if self.spans:
                text += f"  ·  MQM score {mqm_score(self.spans):g}"
            elif self.no_errors:
                text = "No errors: the translation is rated as having none (MQM score 0)."
            else:
                text += " yet: mark each error, or press 0 if there is none."
        self.spans_label.setText(text)
        self.spans_label.setStyleSheet("")

    def show_suggestion_state(self) -> None:
        offered = self.draft.suggested
        self.suggestion_bar.setVisible(bool(offered) and self.protocol in ("esa", "mqm"))
        if offered:
            models = sorted({s.model for s in offered if s.model})
            self.suggestion_bar.show_state(models, len(offered), len(self.draft.pending_indices()), self.judgments())

    # --- edits (each one undoable) ----------------------------------------------------------
    def _edit(self, text: str, change: Callable[[], object]) -> None:
        before = self.draft.snapshot()
        change()
        after = self.draft.snapshot()
        if after != before and self.push is not None:
            self.push(SpanEditCommand(text, self.draft, before, after, self._draft_changed))
        self._draw_spans()

    def _draft_changed(self, draft: SpanDraft) -> None:
        if draft is self.draft:
            self._draw_spans()

    def current_suggestion(self) -> int | None:
        """The pre-marked span A and R act on: the one at the cursor, else the first one left."""
        pending = self.draft.pending_indices()
        at = self.draft.at(self.translation.textCursor().position()) if pending else None
        return at if at in pending else (pending[0] if pending else None)

    def keep_current(self) -> None:
        k = self.current_suggestion()
        if k is not None:
            self._edit("Keep suggested span", lambda: self.draft.keep(k))
            self._cursor_to_next_suggestion()

    def delete_current(self) -> None:
        k = self.current_suggestion()
        if k is not None:
            self._edit("Delete suggested span", lambda: self.draft.remove(k))
            self._cursor_to_next_suggestion()

    def keep_all(self) -> None:
        self._edit("Keep all suggested spans", self.draft.keep_all)

    def delete_all(self) -> None:
        self._edit("Delete all suggested spans", self.draft.delete_all_pending)

    def _cursor_to_next_suggestion(self) -> None:
        k = self.current_suggestion()
        start = self.spans[k].start if k is not None else None
        if start is not None:
            cursor = self.translation.textCursor()
            cursor.setPosition(start)
            self.translation.setTextCursor(cursor)
            self._draw_spans()

    def change_at_cursor(self, severity: str) -> bool:
        """1/2/3 with the cursor in a span and nothing selected: that span's severity (MQM: a
        category is asked for when it has none)."""
        k = self.draft.at(self.translation.textCursor().position())
        if k is None:
            return False
        span = self.spans[k]
        category = span.category
        if self.protocol == "mqm" and not category:
            category = self.ask_category(self) or ""
            if not category:
                return True
        self._edit("Change error span", lambda: self.draft.change(k, ErrorSpan(span.start, span.end, severity,
                                                                               category)))
        return True

    def recategorise_at_cursor(self) -> None:
        """MQM, C: pick another category for the span at the cursor."""
        k = self.draft.at(self.translation.textCursor().position())
        if k is None:
            return
        chosen = self.ask_category(self)
        if chosen:
            span = self.spans[k]
            self._edit("Change error category", lambda: self.draft.change(k, ErrorSpan(
                span.start, span.end, span.severity, chosen)))

    # --- keys ---------------------------------------------------------------------
    def handle_key(self, event: QKeyEvent) -> bool:
        """Act on a key of the rating view; False leaves it to the view (Enter, Backspace...)."""
        key = Qt.Key(event.key())
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        shift = bool(modifiers & Qt.KeyboardModifier.ShiftModifier)
        if modifiers & ~Qt.KeyboardModifier.ShiftModifier:
            return False  # Ctrl/Alt chords are the window's shortcuts (Ctrl+Z, Ctrl+S...)
        if self.protocol == "da":
            steps = {Qt.Key.Key_Left: -1, Qt.Key.Key_Down: -1, Qt.Key.Key_Right: 1, Qt.Key.Key_Up: 1}
        else:
            steps = {Qt.Key.Key_Down: -1, Qt.Key.Key_Up: 1}
            if key in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Home, Qt.Key.Key_End):
                self._move_cursor(key, shift)
                return True
        steps |= {Qt.Key.Key_PageUp: 10, Qt.Key.Key_PageDown: -10}
        if self.protocol != "mqm" and key in steps:
            self.score.step(steps[key])
            return True
        if self.protocol in ("esa", "mqm"):
            severities = ESA_SEVERITY_KEYS if self.protocol == "esa" else MQM_SEVERITY_KEYS
            if key in severities and self.translation.textCursor().hasSelection():
                self.mark(severities[key])
                return True
            if key in severities and self.change_at_cursor(severities[key]):
                return True
            if key == Qt.Key.Key_Delete:
                self.remove_at_cursor()
                return True
            if self.draft.suggested and key in (Qt.Key.Key_A, Qt.Key.Key_R):
                {(Qt.Key.Key_A, False): self.keep_current, (Qt.Key.Key_R, False): self.delete_current,
                 (Qt.Key.Key_A, True): self.keep_all, (Qt.Key.Key_R, True): self.delete_all}[(key, shift)]()
                return True
            if self.protocol == "mqm" and key == Qt.Key.Key_C:
                self.recategorise_at_cursor()
                return True
            if self.protocol == "mqm" and key == Qt.Key.Key_N:
                self.mark_non_translation()
                return True
            if self.protocol == "mqm" and key == Qt.Key.Key_0:
                self.choose_no_errors()
                return True
        if self.protocol != "mqm" and key in DIGITS:
            self.score.type_digit(DIGITS[key])
            return True
        return False

    def _move_cursor(self, key: Qt.Key, shift: bool) -> None:
        cursor = self.translation.textCursor()
        mode = QTextCursor.MoveMode.KeepAnchor if shift else QTextCursor.MoveMode.MoveAnchor
        op = {
            Qt.Key.Key_Left: QTextCursor.MoveOperation.Left, Qt.Key.Key_Right: QTextCursor.MoveOperation.Right,
            Qt.Key.Key_Home: QTextCursor.MoveOperation.Start, Qt.Key.Key_End: QTextCursor.MoveOperation.End,
        }[key]
        cursor.movePosition(op, mode)
        self.translation.setTextCursor(cursor)

    def mark(self, severity: str) -> bool:
        cursor = self.translation.textCursor()
        start, end = cursor.selectionStart(), cursor.selectionEnd()
        if start == end:
            return False
        overlapping = [k for k, s in enumerate(self.spans)
                       if s.start is not None and s.end is not None and s.start < end and start < s.end]
        if self.protocol == "mqm" and len(self.spans) >= self.max_errors and not overlapping:
            self.spans_label.setText(f"⚠ At most {self.max_errors} errors a segment in this queue; "
                                     "delete one first (Delete at the span), or press N for a non-translation.")
            self.spans_label.setStyleSheet("color:#b91c1c; font-weight:bold;")
            return False
        category = ""
        if self.protocol == "mqm":
            chosen = self.ask_category(self)
            if not chosen:
                return False
            category = chosen
        span = ErrorSpan(start, end, severity, category)
        cursor.setPosition(end)
        self.translation.setTextCursor(cursor)
        if overlapping:  # a selection over a span marks its new extent (a suggestion's, say)
            self._edit("Change error span", lambda: self.draft.change(overlapping[0], span))
        else:
            self._edit("Mark error span", lambda: self.draft.add(span))
        return True

    def mark_non_translation(self) -> None:
        """The whole segment is not a translation: one Major span over all of it (weight 25)."""
        text = self.translation.toPlainText()
        # The typology's own spelling (an imported one may say "Non-translation!"); the weights match either.
        category = next((c.name for c in self.typology.categories
                         if c.name.casefold().startswith(NON_TRANSLATION_CATEGORY.casefold())), NON_TRANSLATION_CATEGORY)
        def whole() -> None:
            for k in reversed(range(len(self.spans))):
                self.draft.remove(k)
            self.draft.add(ErrorSpan(0, len(text), "Major", category))

        self._edit("Mark non-translation", whole)

    def choose_no_errors(self) -> None:
        """MQM: the rater says the translation has no errors (only while none is marked)."""
        if self.spans:
            self.no_errors_button.setChecked(False)
            self.spans_label.setText("Errors are marked: delete them first (Delete at a span) to rate “no errors”.")
            self.spans_label.setStyleSheet("color:#b91c1c; font-weight:bold;")
            return
        self._edit("No errors", lambda: setattr(self.draft, "no_errors", True))

    def remove_at_cursor(self) -> None:
        k = self.draft.at(self.translation.textCursor().position())
        if k is not None:
            self._edit("Delete error span", lambda: self.draft.remove(k))
        else:
            self._draw_spans()

    # --- the rating -------------------------------------------------------------------
    def missing(self) -> str:
        """What the rater still has to do before Enter submits ('' when ready)."""
        if self.protocol in ("da", "esa") and self.score.value is None:
            return "Set the score first (type 0–100, or the arrow keys)."
        if self.protocol == "mqm" and not self.spans and not self.no_errors:
            return ("Nothing recorded: mark the errors (select, then 1 minor, 2 major, 3 neutral) "
                    "or press 0 for “no errors”, then Enter.")
        return ""

    def rating(self) -> tuple[float | None, tuple[ErrorSpan, ...]]:
        score = None if self.protocol == "mqm" or self.score.value is None else float(self.score.value)
        return score, tuple(self.spans) if self.protocol in ("esa", "mqm") else ()

    def outcomes(self) -> tuple[SpanOutcome, ...]:
        """What became of each span the model pre-marked (none for a queue without suggestions)."""
        return self.draft.outcomes() if self.protocol in ("esa", "mqm") else ()


def mqm_score(spans: Sequence[ErrorSpan]) -> float:
    """The MQM score of the marked spans under Google's weights (minus their sum)."""
    return GOOGLE_WEIGHTS.score(spans)


def context_label(name: str) -> QLabel:
    """A dimmed plain-text label for the document around the item (context, not the item)."""
    label = QLabel()
    label.setObjectName(name)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setStyleSheet("color:#a1a1aa;")
    return label


def neighbours(project: Project, document: str, segment: str) -> tuple[list[Segment], list[Segment]]:
    """The segments just before and just after ``segment`` in its document."""
    segments = project.segments_of_document(document)
    at = [s.id for s in segments].index(segment)
    return segments[max(0, at - CONTEXT_SEGMENTS):at], segments[at + 1:at + 1 + CONTEXT_SEGMENTS]


def document_context(project: Project, item: QueueItem) -> tuple[str, str]:
    """The source/translation pairs of the segments around the item in its document."""

    def pair(segment: Segment) -> str:
        translation = project.system_text(item.system, segment.id) or ""
        return f"{segment.source}\n→ {translation}"

    before, after = neighbours(project, item.document, item.segment)
    return "\n".join(pair(s) for s in before), "\n".join(pair(s) for s in after)


def source_context(project: Project, document: str, segment: str) -> tuple[str, str]:
    """The sources around a segment in its document (a ranking item shows several
    systems' translations, so its context is the source alone, as WMT's ranking showed it)."""
    before, after = neighbours(project, document, segment)
    return "\n".join(s.source for s in before), "\n".join(s.source for s in after)

