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

Texts are plain (``PlainText`` labels, a read-only plain-text editor); the
spans are drawn as extra selections, so no markup is built from the data.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QKeyEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.analysis.mqm_weights import GOOGLE_WEIGHTS
from mtworkbench.core.judging import JudgeSession, QueueItem
from mtworkbench.core.model import ErrorSpan, Project, Segment
from mtworkbench.core.mqm_typology import GOOGLE_TYPOLOGY, NON_TRANSLATION_CATEGORY, PickEntry, Typology
from mtworkbench.gui.judge.score_slider import ScoreSlider

# Background per severity: amber for minor, red for major, grey for neutral.
SEVERITY_COLOURS = {"minor": "#fde68a", "major": "#fca5a5", "neutral": "#d4d4d8"}
ESA_SEVERITY_KEYS = {Qt.Key.Key_1: "minor", Qt.Key.Key_2: "major"}
MQM_SEVERITY_KEYS = {Qt.Key.Key_1: "Minor", Qt.Key.Key_2: "Major", Qt.Key.Key_3: "Neutral"}
DIGITS = {getattr(Qt.Key, f"Key_{d}"): d for d in range(10)}
CONTEXT_SEGMENTS = 2  # segments shown before and after the current one

HINTS = {
    "da": "Type the score (0–100) · ←/→ or ↑/↓ ±1 · PgUp/PgDn ±10 · Enter submit · Backspace previous item",
    "esa": "Shift+arrows select · 1 minor, 2 major · Delete removes the span at the cursor · "
           "↑/↓ ±1, PgUp/PgDn ±10 or type the score · Enter submit",
    "mqm": "Shift+arrows select · 1 minor, 2 major, 3 neutral, then the category's keys (A M: Accuracy/Mistranslation; "
           "/ searches by name) · N non-translation · 0 no errors · Delete removes the span at the cursor · Enter submit",
}


class CategoryPicker(QDialog):
    """The project's typology as a tree; a category is picked by its keys or by name.

    Keys (the default): typing a category's key narrows to its subcategories (or
    picks it when it has none), the subcategory's key picks it, Backspace steps
    back, Enter picks the highlighted row. ``/`` (or a click in the field) searches
    by name instead: words typed filter the rows, ↑/↓ choose, Enter picks. Esc cancels.
    """

    def __init__(self, typology: Typology | Sequence[str] = GOOGLE_TYPOLOGY, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("MQM category")
        self.typology = typology if isinstance(typology, Typology) else Typology(()).with_names(typology)
        self.keys_label = QLabel()
        self.keys_label.setObjectName("category-keys")
        self.keys_label.setTextFormat(Qt.TextFormat.PlainText)
        self.filter = QLineEdit()
        self.filter.setObjectName("category-filter")
        self.filter.setPlaceholderText("/ search by name: type words, ↑/↓ choose, Enter pick")
        self.tree = QTreeWidget()
        self.tree.setObjectName("category-tree")
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["Category", "Keys"])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self._entries: list[tuple[QTreeWidgetItem, PickEntry]] = []
        top: QTreeWidgetItem | None = None
        for entry in self.typology.entries():
            shown = entry.full_name if entry.depth == 0 else entry.full_name.partition("/")[2]
            item = QTreeWidgetItem([shown, " ".join(entry.keys.upper())])
            item.setData(0, Qt.ItemDataRole.UserRole, entry.full_name)
            item.setToolTip(0, entry.full_name)
            if entry.depth == 0:
                self.tree.addTopLevelItem(item)
                top = item
            elif top is not None:
                top.addChild(item)
            self._entries.append((item, entry))
        self.tree.expandAll()
        self.tree.resizeColumnToContents(0)
        self.tree.setColumnWidth(0, self.tree.columnWidth(0) + 24)
        layout = QVBoxLayout(self)
        layout.addWidget(self.keys_label)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.filter)
        self.resize(420, 520)
        self.filter.textChanged.connect(self._refilter)
        self.filter.returnPressed.connect(self._pick)
        self.tree.itemActivated.connect(lambda _item, _col: self._pick())
        self.filter.installEventFilter(self)
        self.tree.installEventFilter(self)
        self.chosen: str | None = None
        self.typed = ""  # the keys typed so far
        self._show_keys()
        self._first_visible(leaves_first=False)

    # --- rows -------------------------------------------------------------------------------
    def visible_names(self) -> list[str]:
        return [e.full_name for item, e in self._entries if self._visible(item)]

    @staticmethod
    def _visible(item: QTreeWidgetItem) -> bool:
        parent = item.parent()
        return not item.isHidden() and (parent is None or not parent.isHidden())

    def _first_visible(self, leaves_first: bool = True) -> None:
        rows = [(item, e) for item, e in self._entries if self._visible(item)]
        pick = next((item for item, e in rows if not e.has_subcategories), None) if leaves_first else None
        current = pick or (rows[0][0] if rows else None)
        if current is not None:
            self.tree.setCurrentItem(current)

    # --- by keys ------------------------------------------------------------------------------
    def type_key(self, char: str) -> None:
        level = [(item, e) for item, e in self._entries
                 if e.depth == len(self.typed) and e.keys and e.keys[:-1] == self.typed]
        match = next(((item, e) for item, e in level if e.keys[-1].casefold() == char.casefold()), None)
        if match is None:
            self.keys_label.setText(f"No category has the key {char.upper()!r} here. " + self._keys_hint())
            return
        item, entry = match
        if not entry.has_subcategories:
            self.chosen = entry.full_name
            self.accept()
            return
        self.typed = entry.keys
        for other, e in self._entries:
            if e.depth == 0:
                other.setHidden(e is not entry)
        self.tree.setCurrentItem(item)
        self._show_keys()

    def back(self) -> None:
        self.typed = self.typed[:-1]
        for item, e in self._entries:
            if e.depth == 0:
                item.setHidden(False)
        self._show_keys()
        self._first_visible(leaves_first=False)

    def _keys_hint(self) -> str:
        if self.typed:
            name = next(e.full_name for _, e in self._entries if e.keys == self.typed)
            return f"{name}: a subcategory's key, Enter for {name} itself, Backspace back, / search"
        return "Type a category's key · / search by name · Esc cancel"

    def _show_keys(self) -> None:
        self.keys_label.setText(self._keys_hint())

    # --- by name --------------------------------------------------------------------------------
    def _refilter(self, text: str) -> None:
        words = text.casefold().split()
        self.typed = ""
        for item, e in self._entries:
            item.setHidden(bool(words) and not all(w in e.full_name.casefold() for w in words))
        for item, e in self._entries:  # a category stays when one of its subcategories matches
            if e.depth == 0 and any(not child.isHidden() for k in range(item.childCount())
                                    if (child := item.child(k)) is not None):
                item.setHidden(False)
        self._first_visible()

    def _step(self, delta: int) -> None:
        rows = [item for item, _ in self._entries if self._visible(item)]
        if not rows:
            return
        current = self.tree.currentItem()
        at = rows.index(current) if current in rows else -1
        self.tree.setCurrentItem(rows[max(0, min(len(rows) - 1, at + delta))])

    def eventFilter(self, watched, event) -> bool:
        if event.type() != event.Type.KeyPress:
            return super().eventFilter(watched, event)
        key = event.key()
        if watched is self.filter and key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            self._step(1 if key == Qt.Key.Key_Down else -1)
            return True
        if watched is self.tree:
            text = event.text()
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self._pick()
                return True
            if key == Qt.Key.Key_Backspace:
                self.back()
                return True
            if text == "/" or key == Qt.Key.Key_Slash:
                self.filter.setFocus()
                return True
            if len(text) == 1 and text.isalnum() and not event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier:
                self.type_key(text)
                return True
        return super().eventFilter(watched, event)

    def _pick(self) -> None:
        item = self.tree.currentItem()
        if item is not None and self._visible(item):
            self.chosen = item.data(0, Qt.ItemDataRole.UserRole)
            self.accept()


def ask_category(parent: QWidget | None, typology: Typology | None = None) -> str | None:
    """The category the rater picks from ``typology`` (by default the panel's), or None
    when cancelled (tests replace this)."""
    if typology is None:
        typology = getattr(parent, "typology", GOOGLE_TYPOLOGY)
    picker = CategoryPicker(typology if typology is not None else GOOGLE_TYPOLOGY, parent)
    picker.tree.setFocus()
    return picker.chosen if picker.exec() == QDialog.DialogCode.Accepted else None


class ProtocolPanel(QWidget):
    """The DA/ESA/MQM rating controls and the translation with its error spans."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("protocol-panel")
        self.protocol = "ldc"
        self.max_errors = 5
        self.project: Project | None = None  # set by show_item: its typology is read at each pick
        self.spans: list[ErrorSpan] = []
        self.no_errors = False  # MQM: the rater chose "no errors" for this item
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
        self.score = ScoreSlider()
        # No focus: the rating view keeps the keys (0 does the same as a click).
        self.no_errors_button = QPushButton("No e&rrors  (0)")
        self.no_errors_button.setObjectName("mqm-no-errors")
        self.no_errors_button.setCheckable(True)
        self.no_errors_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.no_errors_button.setToolTip("The translation has no errors (an explicit choice: Enter alone records nothing)")
        self.no_errors_button.clicked.connect(lambda _checked: self.choose_no_errors())
        self.hints = QLabel()
        self.hints.setObjectName("protocol-hints")
        self.hints.setTextFormat(Qt.TextFormat.PlainText)
        self.hints.setWordWrap(True)
        self.hints.setStyleSheet("color:#3f3f46;")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.context_before, self.translation, self.context_after, self.spans_label,
                       self.no_errors_button, self.score, self.hints):
            layout.addWidget(widget)

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
        self.hints.setText(HINTS.get(self.protocol, ""))
        if item is None:
            return
        stored = item.judgment
        self.spans = list(stored.errors) if stored is not None else []
        self.no_errors = stored is not None and not stored.errors  # rated before, with no errors
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
        for span in self.spans:
            if span.start is None or span.end is None:
                continue
            selection = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self.translation.document())
            cursor.setPosition(span.start)
            cursor.setPosition(span.end, QTextCursor.MoveMode.KeepAnchor)
            selection.cursor = cursor
            fmt = QTextCharFormat()
            fmt.setBackground(QColor(SEVERITY_COLOURS.get(span.severity.lower(), "#d4d4d8")))
            selection.format = fmt
            selections.append(selection)
        self.translation.setExtraSelections(selections)
        text = self.translation.toPlainText()
        lines = [
            f"{span.severity}{' · ' + span.category if span.category else ''}: "
            f"“{text[span.start:span.end] if span.start is not None else '(whole segment)'}”"
            for span in self.spans
        ]
        limit = f" (at most {self.max_errors})" if self.protocol == "mqm" else ""
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
            if key == Qt.Key.Key_Delete:
                self.remove_at_cursor()
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
        if self.protocol == "mqm" and len(self.spans) >= self.max_errors:
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
        self.spans.append(ErrorSpan(start, end, severity, category))
        self.no_errors = False
        self.spans.sort(key=lambda s: (s.start if s.start is not None else -1, s.end or 0))
        cursor.setPosition(end)
        self.translation.setTextCursor(cursor)
        self._draw_spans()
        return True

    def mark_non_translation(self) -> None:
        """The whole segment is not a translation: one Major span over all of it (weight 25)."""
        text = self.translation.toPlainText()
        # The typology's own spelling (an imported one may say "Non-translation!"); the weights match either.
        category = next((c.name for c in self.typology.categories
                         if c.name.casefold().startswith(NON_TRANSLATION_CATEGORY.casefold())), NON_TRANSLATION_CATEGORY)
        self.spans = [ErrorSpan(0, len(text), "Major", category)]
        self.no_errors = False
        self._draw_spans()

    def choose_no_errors(self) -> None:
        """MQM: the rater says the translation has no errors (only while none is marked)."""
        if self.spans:
            self.no_errors_button.setChecked(False)
            self.spans_label.setText("Errors are marked: delete them first (Delete at a span) to rate “no errors”.")
            self.spans_label.setStyleSheet("color:#b91c1c; font-weight:bold;")
            return
        self.no_errors = True
        self._draw_spans()

    def remove_at_cursor(self) -> None:
        at = self.translation.textCursor().position()
        for span in self.spans:
            if span.start is not None and span.end is not None and span.start <= at <= span.end:
                self.spans.remove(span)
                break
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

