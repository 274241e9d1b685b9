"""The Agreement tab's scatter: two judges' paired values, jittered."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QWidget

from mtworkbench.analysis.agreement import PairedValues, jitter
from mtworkbench.gui.judge.agreement_tables import fmt
from mtworkbench.gui.plain import esc

JITTER = 0.20
JITTER_SEED = 0
POINT_COLOUR = QColor(29, 78, 216, 120)


def _span(values: np.ndarray) -> tuple[float, float]:
    low, high = float(values.min()) - JITTER, float(values.max()) + JITTER  # the jittered points stay inside
    return low, high


def set_title(item: pg.PlotItem, lines: list[str]) -> None:
    """A title of several lines, its row as tall as they are (pyqtgraph fixes it at one line)."""
    item.setTitle("<br>".join(lines), color="#27272a", size="10pt")
    height = int(item.titleLabel.item.boundingRect().height()) + 2
    item.titleLabel.setMaximumHeight(height)
    item.layout.setRowFixedHeight(0, height)


class PairScatter(pg.PlotWidget):
    """Two judges' paired scores, jittered; the dashed diagonal is perfect agreement."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, background="w")
        self.setObjectName("pair-scatter")
        self.setMinimumSize(360, 320)
        item = self.getPlotItem()
        item.showGrid(x=True, y=True, alpha=0.15)
        item.setMenuEnabled(False)
        for name in ("left", "bottom"):
            axis = item.getAxis(name)
            axis.setPen(pg.mkPen("#27272a"))
            axis.setTextPen(pg.mkPen("#27272a"))
        self.points = pg.ScatterPlotItem(size=9, pen=pg.mkPen(None), brush=pg.mkBrush(POINT_COLOUR))
        self.addItem(self.points)
        self.diagonal = pg.InfiniteLine(pos=(0, 0), angle=45, pen=pg.mkPen("#a1a1aa", width=1, style=Qt.PenStyle.DashLine))
        self.addItem(self.diagonal)
        self.x: np.ndarray = np.empty(0)
        self.y: np.ndarray = np.empty(0)

    def show_empty(self, message: str) -> None:
        self.x = self.y = np.empty(0)
        self.points.setData([], [])
        self.getPlotItem().setTitle(esc(message), color="#27272a", size="12pt")

    def show_values(self, judges: tuple[str, str], paired: PairedValues, label: str, rho: float | None,
                    scale: str = "", axes: tuple[str, str] | None = None) -> None:
        """Two judges' paired values; ``scale`` ``ldc`` (1-5 ticks), ``percent`` (0-100) or free.

        ``axes``: what each judge's values are, when they differ (a pseudo-judge's imported
        scores against a judge's 1-5 ratings): each axis is labelled with its own scale and
        no "perfect agreement" diagonal is drawn, since unlike scales cannot agree."""
        item = self.getPlotItem()
        if not len(paired.a):
            self.show_empty("No judge pair with shared items yet")
            return
        # Separate seeds for the axes: with one seed both would move by the same
        # amount and every point would slide along the diagonal.
        self.x = jitter(paired.a, JITTER, JITTER_SEED)
        self.y = jitter(paired.b, JITTER, JITTER_SEED + 1)
        self.points.setData(self.x, self.y)
        a, b = judges
        label_a, label_b = axes or (label, label)
        unlike = label_a != label_b
        self.diagonal.setVisible(not unlike)
        what = "unlike scales, rank correlation only" if unlike else label
        # Two lines: on one, "judge × judge: what, n items, ρ" ran past a 500 px plot at both ends.
        set_title(item, [f"{esc(a)} × {esc(b)}",
                         f"{esc(what)} · {len(paired.a)} items · Spearman ρ = {fmt(rho)}"])
        item.setLabel("bottom", f"{esc(a)}: {esc(label_a)}", color="#27272a")
        item.setLabel("left", f"{esc(b)}: {esc(label_b)}", color="#27272a")
        if unlike:  # each axis its own range
            item.getAxis("bottom").setTicks(None)
            item.getAxis("left").setTicks(None)
            item.setRange(xRange=_span(paired.a), yRange=_span(paired.b), padding=0.05)
            return
        if scale == "ldc":
            ticks = [[(v, str(v)) for v in range(1, 6)]]
            item.getAxis("bottom").setTicks(ticks)
            item.getAxis("left").setTicks(ticks)
            item.setRange(xRange=(0.5, 5.5), yRange=(0.5, 5.5), padding=0)
            return
        item.getAxis("bottom").setTicks(None)
        item.getAxis("left").setTicks(None)
        if scale == "percent":
            item.setRange(xRange=(-3, 103), yRange=(-3, 103), padding=0)
        else:
            low = float(min(paired.a.min(), paired.b.min())) - 1
            high = float(max(paired.a.max(), paired.b.max())) + 1
            item.setRange(xRange=(low, high), yRange=(low, high), padding=0.02)  # square: the diagonal stays 45°
