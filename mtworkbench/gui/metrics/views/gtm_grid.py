"""The GTM bitext grid: reference tokens across, candidate tokens down.

Hits are blue dots, the runs GTM chose are orange squares (each aligned block
outlined as the square it spans), runs turned down are faint grey outlines,
and barrier columns between references are grey bands. The exponent and the
greedy/exact choice recompute the segment live; hovering a cell names both
tokens and its run; clicking a hit highlights the two words in the text panes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath, QPen
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QDoubleSpinBox,
    QFrame,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.gui.metrics.views.base import MetricDetailView
from mtworkbench.gui.metrics.views.colours import BLUE, GREY, INK, ORANGE, tint
from mtworkbench.gui.metrics.views.text_panes import Mark, TokenPane
from mtworkbench.gui.metrics.views.token_axis import TokenAxis
from mtworkbench.gui.plain import tooltip
from mtworkbench.metrics.base import MetricSpecError
from mtworkbench.metrics.gtm import GTM, GTMResult

pg.setConfigOptions(imageAxisOrder="row-major", antialias=True)


def _colour(hex_colour: str, alpha: int = 255) -> QColor:
    c = QColor(hex_colour)
    c.setAlpha(alpha)
    return c


def _pen(hex_colour: str, width: float = 1.0, alpha: int = 255, style=Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(_colour(hex_colour, alpha))
    pen.setWidthF(width)
    pen.setCosmetic(True)  # width in pixels at any zoom
    pen.setStyle(style)
    return pen


@dataclass
class GridCells:
    """Lookups the hover text and clicks need, built once per result."""

    hits: set[tuple[int, int]]
    block_of_cell: dict[tuple[int, int], int]
    rejected_at: dict[tuple[int, int], list[int]]
    ref_of_column: list[tuple[int, int]]  # column -> (reference, position); (k, -1) for a barrier

    @classmethod
    def of(cls, r: GTMResult) -> GridCells:
        rows, cols = r.hits.nonzero()
        hits = set(zip(rows.tolist(), cols.tolist()))
        block_of_cell = {}
        for b, blk in enumerate(r.chosen):
            for t in range(blk.cells):
                block_of_cell[(blk.hyp_start + t, blk.ref_start + t)] = b
        rejected_at: dict[tuple[int, int], list[int]] = {}
        for q, rej in enumerate(r.rejected):
            rejected_at.setdefault(rej.blocked_at, []).append(q)
        ref_of_column = []
        k = pos = 0
        barriers = set(r.barriers)
        for j in range(len(r.ref_tokens)):
            if j in barriers:
                ref_of_column.append((k, -1))
                k, pos = k + 1, 0
            else:
                ref_of_column.append((k, pos))
                pos += 1
        return cls(hits, block_of_cell, rejected_at, ref_of_column)


def maximal_run(hits: set[tuple[int, int]], i: int, j: int) -> tuple[int, int, int]:
    """The maximal diagonal run of hits through (i, j): (start row, start column, length)."""
    i0, j0 = i, j
    while (i0 - 1, j0 - 1) in hits:
        i0, j0 = i0 - 1, j0 - 1
    n = 1
    while (i0 + n, j0 + n) in hits:
        n += 1
    return i0, j0, n


VIEW_EXTRA_HEIGHT = 480  # controls, numbers, legend, hint and the two text panes
MAX_GRID_PIXELS = 3800  # within the render command's largest canvas (4000)
NARROW_VIEW_WIDTH = 320  # the least a pane keeps for the view when the grid scrolls inside it
PAN_KEYS = {
    Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0),
    Qt.Key.Key_Up: (0, -1), Qt.Key.Key_Down: (0, 1),
}


class GTMGridView(MetricDetailView):
    title = "GTM grid"
    default_metric = "gtm:e=2"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # True: the view widens for a label on every reference token (exports, the render
        # command). A workspace pane sets False: the view keeps the pane's width and the
        # grid alone scrolls sideways, so the options and numbers above it stay in view.
        self.grow_wide = True
        self.cells: GridCells | None = None
        self.selected_cell: tuple[int, int] | None = None

        # Controls and numbers.
        self.exponent_box = QDoubleSpinBox()
        self.exponent_box.setRange(1.0, 10.0)
        self.exponent_box.setSingleStep(0.5)
        self.exponent_box.setDecimals(2)
        self.exponent_box.setValue(2.0)
        self.exponent_box.setToolTip("GTM exponent e >= 1: higher rewards longer runs")
        self.exact_box = QCheckBox("E&xact maximum")
        self.exact_box.setToolTip("The exact maximum matching, instead of GTM 1.4's greedy choice of runs")
        self.reset_button = QPushButton("Fit &grid")  # Alt+F is the File menu
        self.reset_button.setToolTip("Show the whole grid (0 or Home); + and − zoom, arrow keys pan, "
                                     "the mouse wheel zooms and dragging pans")
        self.scores_label = QLabel()
        self.scores_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.cap_label = QLabel()
        # Lines wrap in a narrow pane rather than run out of it (and out of sight).
        self.scores_label.setWordWrap(True)
        self.cap_label.setWordWrap(True)
        controls = QHBoxLayout()
        exponent_label = QLabel("&Exponent e:")
        exponent_label.setBuddy(self.exponent_box)  # also leaves exported figures with its box
        controls.addWidget(exponent_label)
        controls.addWidget(self.exponent_box)
        controls.addWidget(self.exact_box)
        controls.addWidget(self.reset_button)
        controls.addStretch(1)
        self.legend = QLabel(
            f'<span style="color:{BLUE}">●</span> hit &nbsp; '
            f'<span style="color:{ORANGE}">■</span> aligned block (chosen run) &nbsp; '
            f'<span style="color:{GREY}">□</span> rejected run (a cell was taken) &nbsp; '
            f'<span style="color:{GREY}">▮</span> barrier between references &nbsp; '
            f'<span style="color:{INK}">▢</span> selected'
        )
        self.legend.setWordWrap(True)

        # The grid.
        self.x_axis = TokenAxis("bottom")
        self.y_axis = TokenAxis("left")
        self.plot = pg.PlotWidget(axisItems={"bottom": self.x_axis, "left": self.y_axis})
        self.plot.setBackground("w")
        for axis in (self.x_axis, self.y_axis):
            axis.setPen(pg.mkPen(INK))
            axis.setTextPen(pg.mkPen(INK))
        self.plot.setLabel("bottom", "reference tokens (references joined, ‖ = barrier)")
        # Named in a line above the grid, not along the left axis: a grid taller than its
        # pane would scroll half of a vertical title out of sight ("ndidate tokens").
        self.axes_label = QLabel("Rows: candidate tokens, top to bottom · columns: reference tokens")
        self.axes_label.setTextFormat(Qt.TextFormat.PlainText)
        self.axes_label.setWordWrap(True)
        self.plot.invertY(True)  # the first candidate token at the top, as text reads
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.setMinimumHeight(260)
        vb = self.plot.getViewBox()
        self.barrier_item = QGraphicsPathItem()
        self.barrier_item.setBrush(QBrush(_colour(GREY, 90)))
        self.barrier_item.setPen(QPen(Qt.PenStyle.NoPen))
        self.rejected_item = QGraphicsPathItem()
        self.rejected_item.setPen(_pen(GREY, 1.0, 150, Qt.PenStyle.DashLine))
        self.rejected_item.setBrush(QBrush(_colour(GREY, 28)))
        self.block_frame_item = QGraphicsPathItem()
        self.block_frame_item.setPen(_pen(ORANGE, 1.5))
        self.block_frame_item.setBrush(QBrush(_colour(ORANGE, 45)))
        self.block_cell_item = QGraphicsPathItem()
        self.block_cell_item.setPen(QPen(Qt.PenStyle.NoPen))
        self.block_cell_item.setBrush(QBrush(_colour(ORANGE, 200)))
        self.hits_item = pg.ScatterPlotItem(
            pxMode=True, size=6, pen=pg.mkPen(None), brush=pg.mkBrush(BLUE), symbol="o",
            useCache=False,  # vector dots, so SVG export holds circles rather than bitmaps
        )
        self.selection_item = QGraphicsRectItem()
        self.selection_item.setPen(_pen(INK, 2.5))
        self.selection_item.setVisible(False)
        for item in (
            self.barrier_item, self.rejected_item, self.block_frame_item,
            self.block_cell_item, self.hits_item, self.selection_item,
        ):
            self.plot.addItem(item)
        self.hover_label = QLabel("Hover a cell to see its tokens and run; click a hit to find its words.")
        self.hover_label.setProperty("exportHidden", True)  # a hint for the screen, not the figure
        self.hover_label.setTextFormat(Qt.TextFormat.PlainText)
        # Room for two lines below the grid, so a long hint wraps instead of covering it.
        self.hover_label.setWordWrap(True)
        self.hover_label.setMinimumHeight(2 * self.hover_label.fontMetrics().lineSpacing() + 4)

        # Text panes.
        self.hyp_pane = TokenPane("Candidate")
        self.ref_panes: list[TokenPane] = []
        self.panes_box = QWidget()
        self.panes_layout = QVBoxLayout(self.panes_box)
        self.panes_layout.setContentsMargins(0, 0, 0, 0)
        self.panes_layout.addWidget(self.hyp_pane)

        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(4, 4, 4, 0)
        top_layout.addLayout(controls)
        top_layout.addWidget(self.scores_label)
        top_layout.addWidget(self.cap_label)
        top_layout.addWidget(self.legend)
        top_layout.addWidget(self.axes_label)
        self.grid_area = QScrollArea()
        self.grid_area.setObjectName("gtm-grid-area")
        self.grid_area.setWidgetResizable(True)
        self.grid_area.setFrameShape(QFrame.Shape.NoFrame)
        self.grid_area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # the tab scrolls down
        self.grid_area.setWidget(self.plot)
        top_layout.addWidget(self.grid_area, 1)
        top_layout.addWidget(self.hover_label)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(top)
        splitter.addWidget(self.panes_box)
        splitter.setStretchFactor(0, 4)
        splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self.content)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

        self.exponent_box.valueChanged.connect(self._options_changed)
        self.exact_box.toggled.connect(self._options_changed)
        self.reset_button.clicked.connect(self.fit)
        self.plot.scene().sigMouseMoved.connect(self._mouse_moved)
        vb.sigRangeChanged.connect(self._resize_dots)
        vb.sigResized.connect(self._resize_dots)
        self.plot.scene().sigMouseClicked.connect(self._mouse_clicked)

    # --- metric and options ----------------------------------------------------------
    def make_metric(self, spec: str) -> GTM:
        metric = super().make_metric(spec)
        if not isinstance(metric, GTM):
            raise MetricSpecError("the GTM grid shows the gtm metric only")
        for box, value in ((self.exponent_box, metric.exponent), (self.exact_box, metric.options["mode"] == "exact")):
            box.blockSignals(True)  # pushing the spec's values into the controls is no edit
            if isinstance(box, QDoubleSpinBox):
                box.setValue(float(value))
            else:
                box.setChecked(bool(value))
            box.blockSignals(False)
        return metric

    def _options_changed(self, *_args) -> None:
        mode = "exact" if self.exact_box.isChecked() else "greedy"
        e = self.exponent_box.value()
        self.current_metric = GTM(e=e, mode=mode)
        self.metric_spec = f"gtm:e={e:g},mode={mode}"
        # The exact search can take a second on a dense grid: say so while it runs.
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            self.refresh()
        finally:
            QApplication.restoreOverrideCursor()

    # --- drawing -------------------------------------------------------------------
    def draw(self, r: GTMResult) -> None:
        self.cells = GridCells.of(r)
        self.selected_cell = None
        self.selection_item.setVisible(False)
        n_rows, width = len(r.hyp_tokens), len(r.ref_tokens)
        self.x_axis.set_tokens(r.ref_tokens)
        self.y_axis.set_tokens(r.hyp_tokens)

        rows, cols = r.hits.nonzero()
        self.hits_item.setData(x=np.asarray(cols, dtype=float), y=np.asarray(rows, dtype=float))

        barriers = QPainterPath()
        for b in r.barriers:
            barriers.addRect(QRectF(b - 0.5, -0.5, 1.0, max(n_rows, 1)))
        self.barrier_item.setPath(barriers)

        cells, frames = QPainterPath(), QPainterPath()
        for blk in r.chosen:
            frames.addRect(QRectF(blk.ref_start - 0.5, blk.hyp_start - 0.5, blk.cells, blk.cells))
            for t in range(blk.cells):
                cells.addRect(QRectF(blk.ref_start + t - 0.45, blk.hyp_start + t - 0.45, 0.9, 0.9))
        self.block_cell_item.setPath(cells)
        self.block_frame_item.setPath(frames)
        rejected = QPainterPath()
        for rej in r.rejected:
            rejected.addRect(QRectF(rej.ref_start - 0.5, rej.hyp_start - 0.5, rej.length, rej.length))
        self.rejected_item.setPath(rejected)

        self.plot.setLimits(
            xMin=-1.5, xMax=max(width, 1) + 0.5, yMin=-1.5, yMax=max(n_rows, 1) + 0.5,
            minXRange=3, minYRange=3,
        )
        self._make_room(n_rows, width)
        self.fit()
        self._draw_numbers(r)
        self._fill_panes(r)

        self.hover_label.setText("Hover a cell to see its tokens and run; click a hit to find its words.")

    def _resize_dots(self, *_args) -> None:
        """Round dots of about half a cell (in pixels, so they stay round at any aspect)."""
        px_w, px_h = self.plot.getViewBox().viewPixelSize()  # data units per pixel
        cell = min(1 / px_w if px_w else 0.0, 1 / px_h if px_h else 0.0)
        size = min(max(0.5 * cell, 2.0), 10.0)
        if abs(size - self.hits_item.opts["size"]) > 0.25:
            self.hits_item.setSize(size)

    def _make_room(self, n_rows: int, n_columns: int) -> None:
        """A plot big enough for a label on every token when fitted; a longer grid
        makes the view taller or wider and its tab scrolls (readable, never cramped)."""
        # The left axis widens once its labels are measured: leave it room now.
        width = max(self.y_axis.width(), 120) + n_columns * self.x_axis.room_per_token + 40
        height = n_rows * self.y_axis.room_per_token + self.x_axis.height() + 24
        plot_w, plot_h = int(min(width, MAX_GRID_PIXELS)), int(min(max(height, 260), MAX_GRID_PIXELS))
        self.plot.setMinimumSize(plot_w, plot_h)
        # Said explicitly on the view too (with room for the rows above and below the
        # grid and the text panes): the scroll area of its tab honours it at once.
        bar = self.grid_area.horizontalScrollBar().sizeHint().height()
        self.grid_area.setMinimumHeight(plot_h + (0 if self.grow_wide else bar))
        self.setMinimumSize(plot_w + 16 if self.grow_wide else NARROW_VIEW_WIDTH,
                            plot_h + (0 if self.grow_wide else bar) + VIEW_EXTRA_HEIGHT)

    # --- zoom and pan with the keyboard (the mouse wheel zooms, dragging pans) ----------
    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt's name
        key = event.key()
        vb = self.plot.getViewBox()
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            vb.scaleBy((0.8, 0.8))
        elif key == Qt.Key.Key_Minus:
            vb.scaleBy((1.25, 1.25))
        elif key in (Qt.Key.Key_0, Qt.Key.Key_Home):
            self.fit()
        elif key in PAN_KEYS:
            (x0, x1), (y0, y1) = vb.viewRange()
            dx, dy = PAN_KEYS[key]
            vb.translateBy(x=dx * 0.2 * (x1 - x0), y=dy * 0.2 * (y1 - y0))
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def fit(self) -> None:
        r = self.result
        if r is None:
            return
        self.plot.setXRange(-0.5, max(len(r.ref_tokens), 1) - 0.5, padding=0)
        self.plot.setYRange(-0.5, max(len(r.hyp_tokens), 1) - 0.5, padding=0)

    def _draw_numbers(self, r: GTMResult) -> None:
        mode = "exact maximum" if r.mode == "exact" else "GTM 1.4 greedy"
        if r.exact_fell_back:
            mode += " (grid too large for the exact search: greedy used)"
        self.scores_label.setText(
            f"<b>P = {r.precision:.4f} &nbsp; R = {r.recall:.4f} &nbsp; F = {r.f:.4f}</b>"
            f" &nbsp; MMS = {r.mms:.4f} (e = {r.exponent:g}, {mode}) &nbsp; "
            f"{len(r.chosen)} blocks, {int(r.hits.sum())} hits, {len(r.rejected)} rejected"
        )
        used = sum(b.weight for b in r.chosen)
        self.cap_label.setText(
            f"Cap = min(|candidate| = {r.hyp_len}, mean |reference| = {r.mean_ref_len:g}) = {r.cap:g}; "
            f"aligned weight {used:g} — cap {'reached: it ended the selection' if r.cap_reached else 'not reached'}"
        )

    def _fill_panes(self, r: GTMResult) -> None:
        assert self.cells is not None
        hyp_marks = [
            Mark(b.hyp_start, b.hyp_start + b.cells, tint(ORANGE), f"block {n + 1}")
            for n, b in enumerate(r.chosen)
        ]
        self.hyp_pane.set_tokens(r.hyp_tokens, hyp_marks)
        self.hyp_pane.set_title(f"Candidate ({r.hyp_len} tokens)")
        refs = self._reference_tokens(r)
        while len(self.ref_panes) < len(refs):
            pane = TokenPane()
            self.ref_panes.append(pane)
            self.panes_layout.addWidget(pane)
        for k, pane in enumerate(self.ref_panes):
            pane.setVisible(k < len(refs))
        for k, tokens in enumerate(refs):
            marks = []
            for n, b in enumerate(r.chosen):
                rk, pos = self.cells.ref_of_column[b.ref_start]
                if rk == k:
                    marks.append(Mark(pos, pos + b.cells, tint(ORANGE), f"block {n + 1}"))
            self.ref_panes[k].set_tokens(tokens, marks)
            self.ref_panes[k].set_title(f"Reference {k + 1} ({len(tokens)} tokens)")

    def _reference_tokens(self, r: GTMResult) -> list[list[str]]:
        refs: list[list[str]] = [[]]
        barriers = set(r.barriers)
        for j, tok in enumerate(r.ref_tokens):
            if j in barriers:
                refs.append([])
            else:
                refs[-1].append(tok)
        return refs[:-1] if r.barriers else refs

    # --- hover and click ---------------------------------------------------------------
    def cell_at_scene(self, pos: QPointF) -> tuple[int, int] | None:
        vb = self.plot.getViewBox()
        if self.result is None or not vb.sceneBoundingRect().contains(pos):
            return None
        p = vb.mapSceneToView(pos)
        i, j = round(p.y()), round(p.x())
        if 0 <= i < len(self.result.hyp_tokens) and 0 <= j < len(self.result.ref_tokens):
            return i, j
        return None

    def scene_pos_of_cell(self, i: int, j: int) -> QPointF:
        return self.plot.getViewBox().mapViewToScene(QPointF(j, i))

    def describe_cell(self, i: int, j: int) -> str:
        """Both tokens of cell (i, j) and what GTM did with its run."""
        r, cells = self.result, self.cells
        assert r is not None and cells is not None
        hyp = r.hyp_tokens[i]
        k, pos = cells.ref_of_column[j]
        if pos < 0:
            return f"candidate {i + 1} “{hyp}” × barrier after reference {k + 1} (never matches)"
        text = f"candidate {i + 1} “{hyp}” × reference {k + 1} token {pos + 1} “{r.ref_tokens[j]}”"
        if (i, j) not in cells.hits:
            return text + ": no hit"
        i0, _j0, n = maximal_run(cells.hits, i, j)
        text += f": hit in a run of {n} (from candidate {i0 + 1})"
        b = cells.block_of_cell.get((i, j))
        if b is not None:
            blk = r.chosen[b]
            text += f"; aligned in block {b + 1} of {blk.cells} cells, weight {blk.weight:g}"
        else:
            text += "; not aligned (its row or column is taken by another block)"
            if (i, j) in cells.rejected_at:
                lengths = sorted({r.rejected[q].length for q in cells.rejected_at[(i, j)]}, reverse=True)
                text += f"; blocked windows of length {', '.join(map(str, lengths))}"
        return text

    def _mouse_moved(self, pos: QPointF) -> None:
        cell = self.cell_at_scene(pos)
        if cell is None or self.cells is None:
            return
        text = self.describe_cell(*cell)
        self.hover_label.setText(text)
        self.plot.setToolTip(tooltip(text))

    def _mouse_clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        cell = self.cell_at_scene(event.scenePos())
        if cell is not None:
            self.select_cell(*cell)

    def select_cell(self, i: int, j: int) -> bool:
        """Highlight hit (i, j) and its two words; False (nothing changes) if it is no hit."""
        if self.cells is None or (i, j) not in self.cells.hits:
            return False
        self.selected_cell = (i, j)
        self.selection_item.setRect(QRectF(j - 0.5, i - 0.5, 1.0, 1.0))
        self.selection_item.setVisible(True)
        self.hyp_pane.highlight_tokens([i])
        k, pos = self.cells.ref_of_column[j]
        for n, pane in enumerate(self.ref_panes):
            pane.highlight_tokens([pos] if n == k else [])
        self.hover_label.setText(self.describe_cell(i, j))
        self.link_clicked.emit(i, j)
        return True
