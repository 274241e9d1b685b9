"""The METEOR alignment of one segment, two ways.

*Alignment*: the candidate above the reference as token rows, one line per
link coloured by the module that matched it, each chunk outlined in both rows.
*Matrix* (in the style of Meteor X-Ray): reference tokens across, candidate
tokens down, a filled cell per link in its module's colour, chunks outlined.
A combo chooses which reference to show (the winner is marked); clicking a
link (or a linked word, or a cell) highlights both words in the text panes.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import (
    QComboBox,
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.gui.metrics.views.base import MetricDetailView
from mtworkbench.gui.metrics.views.colours import (
    GREY,
    INK,
    MODULE_COLOURS,
    module_colour,
    tint,
)
from mtworkbench.gui.metrics.views.text_panes import Mark, TokenPane
from mtworkbench.gui.plain import tooltip
from mtworkbench.metrics.base import MetricSpecError
from mtworkbench.metrics.meteor import (
    Meteor,
    MeteorLink,
    MeteorReferenceResult,
    MeteorResult,
)

LINK_ROLE = 0  # QGraphicsItem.data key holding the link index
ROW_GAP = 110.0  # vertical distance between the candidate and the reference row
TOKEN_GAP = 12.0
CELL = 22.0  # matrix cell size


def _fit(view: QGraphicsView, min_scale: float, vertical: bool) -> None:
    """Scale the scene down to the viewport (never up, never below ``min_scale``)."""
    rect = view.sceneRect()
    room = view.viewport().size()
    scale = 1.0
    if rect.width() > 0 and room.width() > 4:
        scale = min(scale, (room.width() - 4) / rect.width())
    if vertical and rect.height() > 0 and room.height() > 4:
        scale = min(scale, (room.height() - 4) / rect.height())
    view.resetTransform()
    view.scale(max(scale, min_scale), max(scale, min_scale))


MIN_STRIP_HEIGHT = 170

class ClickableView(QGraphicsView):
    """A graphics view that reports the link under a click."""

    def __init__(self, owner: MeteorAlignmentView) -> None:
        super().__init__()
        self.owner = owner
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        self.setBackgroundBrush(QBrush(QColor("white")))
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)

    def mousePressEvent(self, event) -> None:
        link = self.link_at(event.position().toPoint())
        if link is not None and event.button() == Qt.MouseButton.LeftButton:
            self.owner.select_link(link)
            event.accept()
            return
        super().mousePressEvent(event)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        _fit(self, 0.5 if self is self.owner.matrix_view else 0.6, vertical=self is self.owner.matrix_view)

    def link_at(self, pos) -> int | None:
        for item in self.items(pos):
            value = item.data(LINK_ROLE)
            if value is not None:
                return int(value)
        return None

    def view_pos_of(self, item: QGraphicsItem) -> QPointF:
        return QPointF(self.mapFromScene(item.sceneBoundingRect().center()))


class MeteorAlignmentView(MetricDetailView):
    title = "METEOR alignment"
    default_metric = "meteor"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.shown: MeteorReferenceResult | None = None
        self.selected_link: int | None = None
        self.link_items: dict[int, list[QGraphicsItem]] = {}  # per view: "alignment", "matrix"
        self.reference_box = QComboBox()
        self.reference_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.reference_box.setMinimumContentsLength(16)
        self.reference_box.setToolTip("Which reference to show; ★ marks the one that scored best")
        self.scores_label = QLabel()
        self.scores_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.legend = QLabel(self._legend_html())
        # Lines wrap in a narrow pane rather than widen the view past its frame.
        self.scores_label.setWordWrap(True)
        self.legend.setWordWrap(True)
        self.selection_label = QLabel("Click a link (or a cell of the matrix) to find its words below.")
        self.selection_label.setWordWrap(True)
        self.selection_label.setTextFormat(Qt.TextFormat.PlainText)  # quotes tokens of the texts
        top = QHBoxLayout()
        top.addWidget(QLabel("Reference:"))
        top.addWidget(self.reference_box)
        top.addStretch(1)

        self.alignment_scene = QGraphicsScene(self)
        self.alignment_view = ClickableView(self)
        self.alignment_view.setScene(self.alignment_scene)
        self.matrix_scene = QGraphicsScene(self)
        self.matrix_view = ClickableView(self)
        self.matrix_view.setScene(self.matrix_scene)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.alignment_view, "Alignment")
        self.tabs.addTab(self.matrix_view, "Matrix")
        self.tabs.setMinimumHeight(MIN_STRIP_HEIGHT)  # the alignment strip, its links and both token rows
        self._alignment_items: dict[int, list[QGraphicsItem]] = {}
        self._matrix_items: dict[int, list[QGraphicsItem]] = {}

        self.hyp_pane = TokenPane("Candidate")
        self.ref_pane = TokenPane("Reference")
        panes = QWidget()
        panes_layout = QVBoxLayout(panes)
        panes_layout.setContentsMargins(0, 0, 0, 0)
        panes_layout.addWidget(self.hyp_pane)
        panes_layout.addWidget(self.ref_pane)

        upper = QWidget()
        upper_layout = QVBoxLayout(upper)
        upper_layout.setContentsMargins(4, 4, 4, 0)
        upper_layout.addLayout(top)
        upper_layout.addWidget(self.scores_label)
        upper_layout.addWidget(self.legend)
        upper_layout.addWidget(self.tabs, 1)
        upper_layout.addWidget(self.selection_label)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(upper)
        splitter.addWidget(panes)
        splitter.setStretchFactor(0, 4)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self.content)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        self.reference_box.currentIndexChanged.connect(self._reference_chosen)

    @staticmethod
    def _legend_html() -> str:
        parts = [
            f'<span style="color:{c}">━━</span> {m}' for m, c in MODULE_COLOURS.items() if m != "paraphrase"
        ]
        return (" &nbsp; ".join(parts)
                + f' &nbsp; <span style="color:{INK}">▭</span> chunk &nbsp; <i>italic</i> = function word')

    def make_metric(self, spec: str) -> Meteor:
        metric = super().make_metric(spec)
        if not isinstance(metric, Meteor):
            raise MetricSpecError("the METEOR alignment view shows the meteor metric only")
        return metric

    # --- drawing -------------------------------------------------------------------
    def draw(self, r: MeteorResult) -> None:
        self.reference_box.blockSignals(True)
        self.reference_box.clear()
        for ref in r.per_reference:
            winner = " ★ best" if ref.reference_index == r.chosen_reference else ""
            name = "no reference" if ref.reference_index < 0 else f"Reference {ref.reference_index + 1}"
            self.reference_box.addItem(f"{name} — {ref.score:.4f}{winner}", ref.reference_index)
        chosen = next(
            (n for n, ref in enumerate(r.per_reference) if ref.reference_index == r.chosen_reference), 0
        )
        self.reference_box.setCurrentIndex(chosen)
        self.reference_box.blockSignals(False)
        self.show_reference(r.per_reference[chosen])

    def _reference_chosen(self, index: int) -> None:
        if self.result is not None and 0 <= index < len(self.result.per_reference):
            self.show_reference(self.result.per_reference[index])

    def choose_reference(self, reference_index: int) -> None:
        """Show the reference stream ``reference_index`` (0-based), as the combo does."""
        n = self.reference_box.findData(reference_index)
        if n < 0:
            raise ValueError(f"no reference {reference_index + 1} for this segment")
        self.reference_box.setCurrentIndex(n)

    def show_reference(self, ref: MeteorReferenceResult) -> None:
        self.shown = ref
        self.selected_link = None
        r = self.result
        winner = r is not None and ref.reference_index == r.chosen_reference
        name = "no reference" if ref.reference_index < 0 else f"reference {ref.reference_index + 1}"
        self.scores_label.setText(
            f"<b>Score = {ref.score:.4f}</b> &nbsp; P = {ref.precision:.4f} &nbsp; R = {ref.recall:.4f}"
            f" &nbsp; Fmean = {ref.fmean:.4f} &nbsp; frag = {ref.frag:.4f} &nbsp; penalty = {ref.penalty:.4f}"
            f" &nbsp; {len(ref.links)} links, {len(ref.chunks)} chunks &nbsp; ({name}"
            f"{', the best: its score is the segment score' if winner else ''})"
        )
        self._draw_alignment(ref)
        self._draw_matrix(ref)
        self._fill_panes(ref)
        self.selection_label.setText("Click a link (or a cell of the matrix) to find its words below.")

    def _font(self) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(max(font.pointSizeF(), 10.0))
        return font

    def _draw_alignment(self, ref: MeteorReferenceResult) -> None:
        scene = self.alignment_scene
        scene.clear()
        self._alignment_items = {}
        font = self._font()
        metrics = QFontMetricsF(font)
        height = metrics.height()

        def row(tokens: list[str], function: list[bool], y: float) -> list[QRectF]:
            boxes, x = [], 10.0
            for n, tok in enumerate(tokens):
                item = QGraphicsSimpleTextItem(tok)
                f = QFont(font)
                f.setItalic(bool(function and function[n]))
                item.setFont(f)
                item.setPos(x, y)
                scene.addItem(item)
                w = QFontMetricsF(f).horizontalAdvance(tok)
                boxes.append(QRectF(x, y, w, height))
                x += w + TOKEN_GAP
            return boxes

        hyp_y, ref_y = 30.0, 30.0 + ROW_GAP
        label_font = QFont(font)
        label_font.setBold(True)
        for text, y in (("candidate", hyp_y - height - 4), ("reference", ref_y + height + 6)):
            label = scene.addSimpleText(text, label_font)
            label.setBrush(QBrush(QColor(GREY)))
            label.setPos(10, y)
        hyp_boxes = row(ref.hypothesis_tokens, ref.hyp_function_words, hyp_y)
        ref_boxes = row(ref.reference_tokens, ref.ref_function_words, ref_y)

        for chunk in ref.chunks:
            for boxes, a, b in ((hyp_boxes, chunk.hyp_start, chunk.hyp_end), (ref_boxes, chunk.ref_start, chunk.ref_end)):
                rect = boxes[a].united(boxes[b - 1]).adjusted(-4, -3, 4, 3)
                outline = scene.addRect(rect, QPen(QColor(INK), 1.2))
                outline.setZValue(-1)

        for n, link in enumerate(ref.links):
            h, r = hyp_boxes[link.hyp], ref_boxes[link.ref]
            colour = QColor(module_colour(link.module))
            line = QGraphicsLineItem(h.center().x(), h.bottom() + 3, r.center().x(), r.top() - 3)
            pen = QPen(colour, 2.5)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            line.setPen(pen)
            line.setData(LINK_ROLE, n)
            line.setToolTip(tooltip(self._link_text(link)))
            line.setCursor(Qt.CursorShape.PointingHandCursor)
            scene.addItem(line)
            items: list[QGraphicsItem] = [line]
            for box in (h, r):  # the words themselves are clickable too
                under = QGraphicsRectItem(box.adjusted(-2, -1, 2, 1))
                under.setBrush(QBrush(QColor(tint(module_colour(link.module)))))
                under.setPen(QPen(Qt.PenStyle.NoPen))
                under.setZValue(-2)
                under.setData(LINK_ROLE, n)
                under.setToolTip(tooltip(self._link_text(link)))
                scene.addItem(under)
                items.append(under)
            self._alignment_items[n] = items
        scene.setSceneRect(scene.itemsBoundingRect().adjusted(-10, -10, 10, 10))
        self._fit_alignment()

    def _fit_alignment(self) -> None:
        """Shrink long sentences to the views (down to 60 % / 50 %; beyond that, scroll)."""
        _fit(self.alignment_view, 0.6, vertical=False)
        _fit(self.matrix_view, 0.5, vertical=True)

    def _draw_matrix(self, ref: MeteorReferenceResult) -> None:
        scene = self.matrix_scene
        scene.clear()
        self._matrix_items = {}
        font = self._font()
        metrics = QFontMetricsF(font)
        hyp, refs = ref.hypothesis_tokens, ref.reference_tokens
        left = max((metrics.horizontalAdvance(t) for t in hyp), default=20.0) + 14
        top = max((metrics.horizontalAdvance(t) for t in refs), default=20.0) + 14
        grid_pen = QPen(QColor("#D0D0D0"), 0.8)
        for i, tok in enumerate(hyp):
            item = scene.addSimpleText(tok, font)
            item.setPos(left - 8 - metrics.horizontalAdvance(tok), top + i * CELL + (CELL - metrics.height()) / 2)
        for j, tok in enumerate(refs):
            item = scene.addSimpleText(tok, font)
            item.setRotation(-90)  # reads bottom-up, as Meteor X-Ray's column labels
            item.setPos(left + j * CELL + (CELL - metrics.height()) / 2, top - 8)
        for i in range(len(hyp) + 1):
            scene.addLine(left, top + i * CELL, left + len(refs) * CELL, top + i * CELL, grid_pen)
        for j in range(len(refs) + 1):
            scene.addLine(left + j * CELL, top, left + j * CELL, top + len(hyp) * CELL, grid_pen)
        for n, link in enumerate(ref.links):
            cell = QGraphicsRectItem(left + link.ref * CELL + 2, top + link.hyp * CELL + 2, CELL - 4, CELL - 4)
            cell.setBrush(QBrush(QColor(module_colour(link.module))))
            cell.setPen(QPen(Qt.PenStyle.NoPen))
            cell.setData(LINK_ROLE, n)
            cell.setToolTip(tooltip(self._link_text(link)))
            scene.addItem(cell)
            self._matrix_items[n] = [cell]
        for chunk in ref.chunks:
            rect = QRectF(
                left + chunk.ref_start * CELL, top + chunk.hyp_start * CELL,
                (chunk.ref_end - chunk.ref_start) * CELL, (chunk.hyp_end - chunk.hyp_start) * CELL,
            )
            scene.addRect(rect, QPen(QColor(INK), 1.8))
        scene.setSceneRect(scene.itemsBoundingRect().adjusted(-10, -10, 10, 10))
        _fit(self.matrix_view, 0.5, vertical=True)

    def _link_text(self, link: MeteorLink) -> str:
        ref = self.shown
        assert ref is not None
        return (f"candidate {link.hyp + 1} “{ref.hypothesis_tokens[link.hyp]}” ↔ reference "
                f"{link.ref + 1} “{ref.reference_tokens[link.ref]}” ({link.module} match)")

    def _fill_panes(self, ref: MeteorReferenceResult) -> None:
        hyp_marks = [Mark(l.hyp, l.hyp + 1, tint(module_colour(l.module)), l.module) for l in ref.links]
        ref_marks = [Mark(l.ref, l.ref + 1, tint(module_colour(l.module)), l.module) for l in ref.links]
        self.hyp_pane.set_tokens(ref.hypothesis_tokens, hyp_marks)
        self.hyp_pane.set_title(f"Candidate ({len(ref.hypothesis_tokens)} tokens)")
        self.ref_pane.set_tokens(ref.reference_tokens, ref_marks)
        name = "no reference" if ref.reference_index < 0 else f"Reference {ref.reference_index + 1}"
        self.ref_pane.set_title(f"{name} ({len(ref.reference_tokens)} tokens)")

    # --- linking -------------------------------------------------------------------
    def select_link(self, n: int) -> None:
        """Highlight link ``n`` of the shown reference and its two words."""
        ref = self.shown
        if ref is None or not 0 <= n < len(ref.links):
            return
        self.selected_link = n
        link = ref.links[n]
        for items in (self._alignment_items, self._matrix_items):
            for m, group in items.items():
                for item in group:
                    if isinstance(item, QGraphicsLineItem):
                        pen = item.pen()
                        pen.setWidthF(5.0 if m == n else 2.5)
                        item.setPen(pen)
                    elif items is self._matrix_items and isinstance(item, QGraphicsRectItem):
                        item.setPen(QPen(QColor(INK), 2.5) if m == n else QPen(Qt.PenStyle.NoPen))
        self.hyp_pane.highlight_tokens([link.hyp])
        self.ref_pane.highlight_tokens([link.ref])
        self.selection_label.setText(self._link_text(link))
        self.link_clicked.emit(link.hyp, link.ref)

    def link_view_pos(self, n: int, matrix: bool = False) -> QPointF:
        """Where link ``n`` is drawn, in viewport coordinates (for tests that click it)."""
        view = self.matrix_view if matrix else self.alignment_view
        items = (self._matrix_items if matrix else self._alignment_items)[n]
        return view.view_pos_of(items[0])
