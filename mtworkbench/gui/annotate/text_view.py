"""The annotation text view: reference segments as flowing text, entities
painted as coloured highlights with a small type label under them.

One text block per segment (a wider gap before each paragraph); a gutter on
the left names the segments. Entities are not part of the document: they are
painted from the project on every paint of the visible blocks, so adding,
retyping or removing one costs a repaint of what is on screen and never a
rebuild of the text, even for a 2,000-segment document.

The view owns no annotation logic. It reports type keys, Delete and caret
moves by signal and offers the selection in Python string offsets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QTextBlock,
    QTextBlockFormat,
    QTextCursor,
    QTextOption,
)
from PySide6.QtWidgets import QTextEdit, QWidget

from mtworkbench.core.annotation import snap_to_words, word_stops
from mtworkbench.core.layers import Relation, span_depths
from mtworkbench.core.model import EntitySpan
from mtworkbench.gui.annotate.gutter import SegmentGutter
from mtworkbench.gui.annotate.offsets import display_text, from_utf16, to_utf16
from mtworkbench.gui.annotate.relation_arcs import relation_arc

LINE_HEIGHT_PERCENT = 185  # room under each line for the type labels
PARAGRAPH_GAP = 14.0


@dataclass(frozen=True)
class ShownSegment:
    segment: str
    text: str | None  # None: the reference has no text for it
    starts_paragraph: bool


@dataclass(frozen=True)
class TextSelection:
    segment: str
    start: int  # Python string offsets into the segment's reference text
    end: int


class SelectionError(ValueError):
    """The selection cannot become an entity (spans two segments, only spaces...)."""


class EntityTextView(QTextEdit):
    type_key_pressed = Signal(str)
    """A type key was pressed; payload: the key, upper case."""

    delete_pressed = Signal()
    cycle_pressed = Signal()
    """Tab: select the next span at the caret."""
    confirm_pressed = Signal()
    cancel_pressed = Signal()
    relation_key_pressed = Signal(str)
    """A relation type's key (or "" for Ctrl+L: the first type)."""
    control_clicked = Signal(str, int)
    """Ctrl+click: (segment, offset) under the mouse; the caret does not move."""
    suggestion_key_pressed = Signal(str, str)
    """(accept|reject, caret|segment|document): Ctrl+Enter / Ctrl+Backspace, with Shift the
    segment's, with Alt the document's; plain Enter accepts at the caret."""
    suggestion_clicked = Signal(str, int, bool)
    """A click on a suggestion drawn in the text: (segment, offset, accept); right-click rejects."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("annotation-text")
        self.setReadOnly(True)
        self.setUndoRedoEnabled(False)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.setWordWrapMode(QTextOption.WrapMode.WordWrap)
        font = self.font()
        font.setPointSizeF(max(font.pointSizeF(), 10.0) * 1.15)
        self.setFont(font)
        self.document().setDefaultFont(font)
        self.document().setDocumentMargin(24)  # room above the first line for relation arcs
        self.label_font = QFont(font)
        self.label_font.setPointSizeF(font.pointSizeF() * 0.62)
        self.label_font.setBold(True)
        self._segments: list[ShownSegment] = []
        self._block_of: dict[str, int] = {}
        self._longest = ""  # the shown segment id that needs the widest gutter
        self.spans_for: Callable[[str], list[EntitySpan]] = lambda _segment: []
        # Pending suggestions, drawn dashed beside the spans (ids start with "?").
        self.suggestions_for: Callable[[str], list[EntitySpan]] = lambda _segment: []
        self.colors: dict[str, QColor] = {}
        self.type_keys: set[str] = set()
        self.snap_enabled = True
        self.charwise = False  # the selection's ends were placed with Shift+arrow keys
        # The project's target language: snapping uses its words (zh characters, ja MeCab words).
        self.language_of: Callable[[], str | None] = lambda: None
        self.selected_span: str | None = None
        self.relation_keys: set[str] = set()
        self.relations_for: Callable[[], list[Relation]] = list
        self.relation_directed: Callable[[str], bool] = lambda _layer: True  # by relation layer
        self.relation_source: str | None = None  # the source of a relation being drawn
        self.current_segment: str = ""
        self.gutter = SegmentGutter(self)
        self.verticalScrollBar().valueChanged.connect(self.gutter.update)

    # --- content -------------------------------------------------------------------
    def set_segments(self, segments: list[ShownSegment]) -> None:
        """Show these segments (the one full rebuild: on a scope or document change)."""
        self._segments = list(segments)
        self._block_of = {s.segment: i for i, s in enumerate(self._segments)}
        doc = self.document()
        blocked = self.blockSignals(True)  # no caret signals while the text is half built
        # One call for the text and one per paragraph for the formats: few calls into
        # Qt also keeps a 2,000-segment document quick to show.
        doc.setPlainText("\n".join(display_text(s.text or "") for s in self._segments))
        cursor = QTextCursor(doc)
        cursor.beginEditBlock()  # one layout pass for all the format changes
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.setBlockFormat(_block_format(False))
        gap = _block_format(True)
        for i, shown in enumerate(self._segments):
            if shown.starts_paragraph and i > 0:
                cursor.setPosition(doc.findBlockByNumber(i).position())
                cursor.setBlockFormat(gap)
        cursor.endEditBlock()
        self.setTextCursor(QTextCursor(doc))
        self.blockSignals(blocked)
        self.selected_span = None
        self._update_gutter_width()
        self.viewport().update()

    def add_segments(self, before: list[ShownSegment], after: list[ShownSegment]) -> None:
        """Lay out more segments at either end of those shown (a long page grows a slice per
        event-loop turn); the caret, the selection and the text in sight stay where they were."""
        doc, bar = self.document(), self.verticalScrollBar()
        top = self._segments[self.cursorForPosition(QPoint(0, 0)).blockNumber()].segment if self._segments else ""
        offset = self._block_top(top) - bar.value() if top else 0.0
        blocked = self.blockSignals(True)
        cursor = QTextCursor(doc)
        cursor.beginEditBlock()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        for shown in after:
            cursor.insertBlock(_block_format(shown.starts_paragraph))
            cursor.insertText(display_text(shown.text or ""))
        cursor.setPosition(0)
        for shown, following in zip(before, before[1:] + self._segments[:1]):  # split off the first block
            cursor.insertText(display_text(shown.text or ""))
            cursor.insertBlock(_block_format(following.starts_paragraph))
        cursor.endEditBlock()
        self._segments = before + self._segments + after
        self._block_of = {s.segment: i for i, s in enumerate(self._segments)}
        self.blockSignals(blocked)
        if top:
            bar.setValue(round(self._block_top(top) - offset))
        self._update_gutter_width(before + after)
        self.viewport().update()

    def _block_top(self, segment_id: str) -> float:
        block = self.document().findBlockByNumber(self._block_of[segment_id])
        return self.document().documentLayout().blockBoundingRect(block).top()

    def shown_segments(self) -> list[str]:
        return [s.segment for s in self._segments]

    def shows(self, segment_id: str) -> bool:
        return segment_id in self._block_of

    def replace_segment_text(self, segment_id: str, text: str | None) -> None:
        """Show a segment's new reference text without touching the other blocks."""
        i = self._block_of.get(segment_id)
        if i is None:
            return
        old = self._segments[i]
        self._segments[i] = ShownSegment(segment_id, text, old.starts_paragraph)
        block = self.document().findBlockByNumber(i)
        cursor = QTextCursor(block)
        cursor.setPosition(block.position() + block.length() - 1, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(display_text(text or ""))

    def segment_text(self, segment_id: str) -> str | None:
        i = self._block_of.get(segment_id)
        return None if i is None else self._segments[i].text

    # --- selection and caret ---------------------------------------------------------
    def _locate(self, position: int) -> tuple[str, int]:
        block = self.document().findBlock(position)
        shown = self._segments[block.blockNumber()]
        return shown.segment, from_utf16(shown.text or "", position - block.position())

    def selection_start(self) -> tuple[str, int] | None:
        """(segment, offset) where the selection (or the caret) begins."""
        if not self._segments:
            return None
        return self._locate(self.textCursor().selectionStart())

    def caret(self) -> tuple[str, int] | None:
        """(segment, offset) of the caret, or None when nothing is shown."""
        if not self._segments:
            return None
        return self._locate(self.textCursor().position())

    def has_selection(self) -> bool:
        return self.textCursor().hasSelection()

    def selection(self, snap: bool | None = None) -> TextSelection:
        """The selected text as offsets into one segment's text (snapped to words by default)."""
        cursor = self.textCursor()
        if not cursor.hasSelection():
            raise SelectionError("select some text first (drag with the mouse or use Shift+arrows)")
        seg_a, start = self._locate(cursor.selectionStart())
        seg_b, end = self._locate(cursor.selectionEnd())
        if seg_a != seg_b:
            raise SelectionError("an entity must lie within one segment; the selection spans two")
        text = self.segment_text(seg_a) or ""
        snap = self.snap_enabled if snap is None else snap
        if snap:
            # Punctuation at the edges is trimmed unless the user placed the ends character by character.
            snapped = snap_to_words(text, start, end, self.language_of(), trim_punctuation=not self.charwise)
        else:
            snapped = (start, end) if text[start:end].strip() else None
        if snapped is None:
            raise SelectionError("the selection holds only spaces")
        return TextSelection(seg_a, *snapped)

    def _position(self, segment_id: str, offset: int) -> int:
        i = self._block_of[segment_id]
        block = self.document().findBlockByNumber(i)
        return block.position() + to_utf16(self._segments[i].text or "", offset)

    def select_range(self, segment_id: str, start: int, end: int) -> None:
        cursor = self.textCursor()
        cursor.setPosition(self._position(segment_id, start))
        cursor.setPosition(self._position(segment_id, end), QTextCursor.MoveMode.KeepAnchor)
        self.setTextCursor(cursor)
        self.ensureCursorVisible()

    def place_caret(self, segment_id: str, offset: int = 0) -> None:
        cursor = self.textCursor()
        cursor.setPosition(self._position(segment_id, offset))
        self.setTextCursor(cursor)
        self.ensureCursorVisible()

    def scroll_to_segment(self, segment_id: str) -> None:
        i = self._block_of.get(segment_id)
        if i is None:
            return
        rect = self.document().documentLayout().blockBoundingRect(self.document().findBlockByNumber(i))
        bar = self.verticalScrollBar()
        top, bottom = bar.value(), bar.value() + self.viewport().height()
        if rect.top() < top or rect.bottom() > bottom:
            bar.setValue(int(max(0.0, rect.top() - self.viewport().height() / 3)))

    def set_current_segment(self, segment_id: str) -> None:
        if segment_id != self.current_segment:
            self.current_segment = segment_id
            self.viewport().update()
            self.gutter.update()

    def set_selected_span(self, span_id: str | None) -> None:
        if span_id != self.selected_span:
            self.selected_span = span_id
            self.viewport().update()

    # --- input -----------------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        key = event.key()
        arrows = (Qt.Key.Key_Left, Qt.Key.Key_Right)
        control = Qt.KeyboardModifier.ControlModifier
        shift = Qt.KeyboardModifier.ShiftModifier
        if key in arrows and modifiers in (control, control | shift):
            self.charwise = False
            if self._move_word(key == Qt.Key.Key_Right, bool(modifiers & shift)):
                event.accept()
                return
        elif key in arrows + (Qt.Key.Key_Up, Qt.Key.Key_Down) and modifiers == shift:
            self.charwise = True  # the user extends the selection character by character
        elif key in (Qt.Key.Key_Home, Qt.Key.Key_End) and modifiers & shift:
            self.charwise = False
        plain = modifiers in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier)
        text = event.text().upper()
        if self._span_key(event, modifiers, text):
            event.accept()
            return
        if plain and len(text) == 1 and text in self.type_keys:
            self.type_key_pressed.emit(text)
            event.accept()
            return
        if modifiers == Qt.KeyboardModifier.NoModifier and event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            self.delete_pressed.emit()
            event.accept()
            return
        if modifiers == Qt.KeyboardModifier.NoModifier and event.key() == Qt.Key.Key_Escape and self.has_selection():
            cursor = self.textCursor()
            cursor.clearSelection()
            self.setTextCursor(cursor)
            event.accept()
            return
        super().keyPressEvent(event)

    def _span_key(self, event: QKeyEvent, modifiers, text: str) -> bool:
        """Tab, Enter, Esc, Ctrl+L and relation keys (whichever is not an entity key)."""
        none = modifiers == Qt.KeyboardModifier.NoModifier
        key = event.key()
        if none and key == Qt.Key.Key_Tab:
            self.cycle_pressed.emit()
        elif none and key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.relation_source:
            self.confirm_pressed.emit()
        elif (scope := _suggestion_scope(key, modifiers)) is not None:
            self.suggestion_key_pressed.emit(*scope)
        elif none and key == Qt.Key.Key_Escape and self.relation_source:
            self.cancel_pressed.emit()
        elif modifiers == Qt.KeyboardModifier.ControlModifier and key == Qt.Key.Key_L:
            self.relation_key_pressed.emit("")
        elif none and len(text) == 1 and text in self.relation_keys and text not in self.type_keys:
            self.relation_key_pressed.emit(text)
        else:
            return False
        return True

    def focusNextPrevChild(self, next: bool) -> bool:
        return False  # Tab cycles through spans here; it never leaves the text

    def _move_word(self, forward: bool, extend: bool) -> bool:
        """Ctrl(+Shift)+arrow by the language's words (the units selections snap to);
        False at a segment's edge (Qt then moves into the next one)."""
        cursor = self.textCursor()
        segment, offset = self._locate(cursor.position())
        text = self.segment_text(segment)
        if text is None:
            return False
        stops = word_stops(text, self.language_of())
        target = next((s for s in stops if s > offset), None) if forward else \
            next((s for s in reversed(stops) if s < offset), None)
        if target is None:
            return False
        mode = QTextCursor.MoveMode.KeepAnchor if extend else QTextCursor.MoveMode.MoveAnchor
        cursor.setPosition(self._position(segment, target), mode)
        self.setTextCursor(cursor)
        self.ensureCursorVisible()
        return True

    def _suggestion_under(self, event: QMouseEvent) -> tuple[str, int] | None:
        """(segment, offset) under the mouse when a pending suggestion covers it."""
        if not self._segments:
            return None
        segment, offset = self._locate(self.cursorForPosition(event.position().toPoint()).position())
        hit = any(a <= offset < b for s in self.suggestions_for(segment) for a, b in s.parts)
        return (segment, offset) if hit else None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.charwise = False
        self._press_at = event.position().toPoint()
        if event.button() == Qt.MouseButton.RightButton and (under := self._suggestion_under(event)):
            self._menu_swallowed = True  # the right-click rejected: no context menu after it
            self.suggestion_clicked.emit(*under, False)
            event.accept()
            return
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier and self._segments:
            position = self.cursorForPosition(event.position().toPoint()).position()
            self.control_clicked.emit(*self._locate(position))
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        moved = (event.position().toPoint() - getattr(self, "_press_at", QPoint())).manhattanLength()
        if event.button() == Qt.MouseButton.LeftButton and not self.has_selection() and moved < 4 \
                and not event.modifiers() and (under := self._suggestion_under(event)):
            self.suggestion_clicked.emit(*under, True)  # a click (not a drag) on a suggestion accepts it
            return
        if self.snap_enabled and event.button() == Qt.MouseButton.LeftButton and self.has_selection():
            try:
                snapped = self.selection()
            except SelectionError:
                return
            self.select_range(snapped.segment, snapped.start, snapped.end)

    def contextMenuEvent(self, event) -> None:
        if getattr(self, "_menu_swallowed", False):
            self._menu_swallowed = False
            event.accept()
            return
        super().contextMenuEvent(event)

    # --- painting ----------------------------------------------------------------------
    def _visible_blocks(self):
        """(block, top-left in viewport coordinates) of each block on screen."""
        if not self._segments:
            return
        layout = self.document().documentLayout()
        dy = self.verticalScrollBar().value()
        dx = self.horizontalScrollBar().value()
        height = self.viewport().height()
        block = self.cursorForPosition(QPoint(0, 0)).block()
        # cursorForPosition may land one block late when the top shows a paragraph gap
        if block.previous().isValid():
            block = block.previous()
        while block.isValid():
            rect = layout.blockBoundingRect(block)
            top = rect.top() - dy
            if top > height:
                break
            if rect.bottom() - dy >= -rect.height():
                yield block, QPointF(rect.left() - dx, top)
            block = block.next()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self.viewport())
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            anchors: dict[str, QRectF] = {}
            for block, origin in self._visible_blocks():
                shown = self._segments[block.blockNumber()]
                if shown.segment == self.current_segment and len(self._segments) > 1:
                    self._paint_current_band(painter, block, origin)
                if shown.text:
                    self._paint_spans(painter, block, origin, shown, anchors)
            self._paint_relations(painter, anchors)
        finally:
            painter.end()
        super().paintEvent(event)  # the text itself, over the highlights

    def _paint_current_band(self, painter: QPainter, block: QTextBlock, origin: QPointF) -> None:
        layout = block.layout()
        if layout.lineCount() == 0:
            return
        last = layout.lineAt(layout.lineCount() - 1)
        height = last.y() + last.height() * LINE_HEIGHT_PERCENT / 100
        band = QRectF(0, origin.y() - 2, self.viewport().width(), height + 2)
        painter.fillRect(band, QColor(255, 246, 204))

    def _paint_spans(self, painter: QPainter, block: QTextBlock, origin: QPointF, shown: ShownSegment,
                     anchors: dict[str, QRectF]) -> None:
        """Each span as a box per fragment and line; a span with spans inside it is drawn
        larger by one step per level, so nested and crossing spans stay visible and each
        label sits on a row of its own (as brat stacks them)."""
        layout = block.layout()
        text = shown.text or ""
        labels: list[tuple[QRectF, EntitySpan, QColor]] = []  # under the last piece of each entity
        spans = self.spans_for(shown.segment) + self.suggestions_for(shown.segment)
        depths = span_depths(spans)
        for span in sorted(spans, key=lambda s: -depths[s.id]):  # outer boxes first, inner on top
            color = QColor(self.colors.get(span.type, QColor("#888888")))
            ghost = span.id.startswith("?")
            depth = depths[span.id]
            rects: list[QRectF] = []
            for start, end in span.parts:
                start16, end16 = to_utf16(text, start), to_utf16(text, end)
                for i in range(layout.lineCount()):
                    line = layout.lineAt(i)
                    a = max(start16, line.textStart())
                    b = min(end16, line.textStart() + line.textLength())
                    if a >= b:
                        continue
                    x1, x2 = sorted((_x(line, a), _x(line, b)))  # right-to-left lines run backwards
                    grow = 2.0 * depth
                    rects.append(QRectF(origin.x() + x1 - 1 - grow, origin.y() + line.y() - grow,
                                        x2 - x1 + 2 + 2 * grow, line.height() + 2 * grow))
            selected = span.id == self.selected_span or span.id == self.relation_source
            fill = QColor(color)
            fill.setAlpha(110 if selected else 12 if ghost else 45)
            # A suggestion: a dashed outline in its type's colour over a faint tint, as
            # INCEpTION draws recommendations, so it never reads as a span already made.
            pen = QPen(color.darker(140) if selected else color, 1.6 if ghost else 2.0 if selected else 1.0)
            if ghost:
                pen.setStyle(Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.setBrush(fill)
            for rect in rects:
                painter.drawRoundedRect(rect, 3, 3)
            if rects:
                labels.append((rects[-1], span, color))
                anchors[span.id] = rects[0]
        self._paint_labels(painter, labels)

    def _paint_relations(self, painter: QPainter, anchors: dict[str, QRectF]) -> None:
        """An arc over the text from each relation's source to its target, type on the arc
        (an arrowhead only where the relation's layer is directed)."""
        metrics = QFontMetricsF(self.label_font)
        painter.setFont(self.label_font)
        for relation in self.relations_for():
            a, b = anchors.get(relation.source), anchors.get(relation.target)
            if a is None or b is None:
                continue
            arc = relation_arc(a, b, relation.type, metrics, self.relation_directed(relation.layer))
            painter.setPen(QPen(QColor("#444444"), 1.3))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(arc.path)
            if arc.head is not None:
                painter.setBrush(QColor("#444444"))
                painter.drawPolygon(arc.head)
            painter.fillRect(arc.label_box, QColor(255, 255, 255, 220))
            painter.drawText(QPointF(arc.label_box.left() + 2, arc.label_box.top() + metrics.ascent()), relation.type)

    def _paint_labels(self, painter: QPainter, labels: list[tuple[QRectF, EntitySpan, QColor]]) -> None:
        """Each type's name under its entity; labels that would collide on a line go one
        row lower (nested entities), and a label is cut short only where the next one on
        its row begins."""
        metrics = QFontMetricsF(self.label_font)
        painter.setFont(self.label_font)
        labels.sort(key=lambda item: (round(item[0].center().y()), item[0].left()))
        rows: dict[tuple[int, int], float] = {}  # (text line, label row) -> right end used
        placed: list[tuple[QPointF, float, EntitySpan, QColor]] = []
        for rect, span, color in labels:
            line = round(rect.center().y())
            width = metrics.horizontalAdvance(_label(span)) + 4
            row = 0
            while rows.get((line, row), -1e9) > rect.left():
                row += 1
            rows[(line, row)] = rect.left() + width
            y = rect.bottom() + metrics.ascent() + 1 + row * metrics.height()
            placed.append((QPointF(rect.left() + 1, y), width, span, color))
        for point, width, span, color in placed:
            room = max(self.viewport().width() - point.x(), metrics.horizontalAdvance("MMM"))
            painter.setPen(color.darker(150))
            painter.drawText(point, metrics.elidedText(_label(span), Qt.TextElideMode.ElideRight, min(room, width)))

    # --- gutter ------------------------------------------------------------------------
    def _update_gutter_width(self, added: list[ShownSegment] | None = None) -> None:
        """Measures every shown id, or only those ``added`` to what was measured before."""
        measured = [s.segment for s in (self._segments if added is None else added)] + ([self._longest] if added else [])
        self._longest = max(measured, key=self.gutter.fontMetrics().horizontalAdvance, default="")
        longest = self.gutter.fontMetrics().horizontalAdvance(self._longest)
        width = min(max(longest + 14, 28), 110)
        self.setViewportMargins(width, 0, 0, 0)
        self.gutter.setFixedWidth(width)
        self._place_gutter()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._place_gutter()

    def _place_gutter(self) -> None:
        rect = self.contentsRect()
        self.gutter.setGeometry(QRect(rect.left(), rect.top(), self.gutter.width(), rect.height()))


_FORMATS: dict[bool, QTextBlockFormat] = {}


def _block_format(paragraph_gap: bool) -> QTextBlockFormat:
    """The block format of a segment (made once: see the note on PySide6 6.12 in the report)."""
    if paragraph_gap not in _FORMATS:
        fmt = QTextBlockFormat()
        fmt.setLineHeight(LINE_HEIGHT_PERCENT, QTextBlockFormat.LineHeightTypes.ProportionalHeight.value)
        fmt.setTopMargin(PARAGRAPH_GAP if paragraph_gap else 0.0)
        _FORMATS[paragraph_gap] = fmt
    return _FORMATS[paragraph_gap]


def _label(span: EntitySpan) -> str:
    return f"{span.type}?" if span.id.startswith("?") else span.type  # a suggestion asks


_CTRL, _SHIFT, _ALT = (Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier,
                       Qt.KeyboardModifier.AltModifier)
_SUGGESTION_SCOPES = ((_CTRL, "caret"), (_CTRL | _SHIFT, "segment"), (_CTRL | _ALT, "document"))


def _suggestion_scope(key: int, modifiers) -> tuple[str, str] | None:
    """Enter accepts the suggestion at the caret; Ctrl+Enter too, Ctrl+Backspace (or
    Ctrl+Delete) rejects it; Shift widens either to the segment, Alt to the document."""
    accept = key in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
    if not accept and key not in (Qt.Key.Key_Backspace, Qt.Key.Key_Delete):
        return None
    if accept and modifiers == Qt.KeyboardModifier.NoModifier:
        return "accept", "caret"
    scope = next((name for mods, name in _SUGGESTION_SCOPES if modifiers == mods), None)
    return None if scope is None else ("accept" if accept else "reject", scope)


def _x(line, position: int) -> float:
    value = line.cursorToX(position)
    return value[0] if isinstance(value, tuple) else value
