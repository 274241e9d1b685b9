"""Metric (x) against human score (y) for one metric, with the least-squares
line and Pearson r, Spearman ρ and Kendall τ in the title."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

from mtworkbench.analysis.correlation import ScatterSummary
from mtworkbench.gui.analysis.plot_style import (
    INK,
    LINE_COLOUR,
    POINT_COLOUR,
    apply_style,
)
from mtworkbench.gui.plain import esc


def _f(x: float) -> str:
    return "–" if not math.isfinite(x) else f"{x:.3f}"


def caption(summary: ScatterSummary) -> str:
    return (f"r = {_f(summary.pearson)}   ρ = {_f(summary.spearman)}   τ = {_f(summary.kendall)}"
            f"   (n = {summary.n})")


class NumberAxis(pg.AxisItem):
    """Tick labels with at most five significant digits (never 0.0106372289871955)."""

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph's name
        return [f"{v * scale:.5g}" for v in values]


class ScatterView(pg.PlotWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, background="w",
                         axisItems={"bottom": NumberAxis("bottom"), "left": NumberAxis("left")})
        self.setObjectName("scatter-plot")
        apply_style(self)
        self.setMinimumSize(260, 240)
        self.points = pg.ScatterPlotItem(size=7, pen=pg.mkPen(None), brush=pg.mkBrush(POINT_COLOUR))
        self.line = pg.PlotDataItem(pen=pg.mkPen(LINE_COLOUR, width=2))
        self.addItem(self.points)
        self.addItem(self.line)
        self.labels: list[pg.TextItem] = []
        self.summary: ScatterSummary | None = None
        self.caption_text = ""
        self.show_summary(None)

    def show_summary(self, summary: ScatterSummary | None, title: str = "", point_labels: list[str] | None = None) -> None:
        item = self.getPlotItem()
        for label in self.labels:
            self.removeItem(label)
        self.labels = []
        self.summary = summary
        if summary is None or summary.n == 0:
            self.points.setData([], [])
            self.line.setData([], [])
            self.caption_text = ""
            item.setTitle(esc(title) or "No scores to plot yet", color=INK, size="11pt")
            return
        x, y = np.asarray(summary.x, float), np.asarray(summary.y, float)
        self.points.setData(x, y)
        if math.isfinite(summary.slope):
            xs = np.array([x.min(), x.max()])
            self.line.setData(xs, summary.slope * xs + summary.intercept)
        else:
            self.line.setData([], [])
        x_mid, y_mid = (x.min() + x.max()) / 2, (y.min() + y.max()) / 2
        for text, px, py in zip(point_labels or [], x, y):
            # A label reads away from the nearer edges (left of a point in the right half,
            # below one in the top half), so the outermost systems' names stay inside the plot.
            label = pg.TextItem(str(text), color=INK, anchor=(1 if px > x_mid else 0, 0 if py > y_mid else 1))
            label.setPos(float(px), float(py))
            self.addItem(label)
            self.labels.append(label)
        self.caption_text = caption(summary)
        # pyqtgraph titles and labels are HTML; the labels name metrics and judges from the bundle.
        heading = esc(title or f"{summary.x_label} vs {summary.y_label}")
        item.setTitle(f"{heading}<br>{self.caption_text}", color=INK, size="10pt")
        item.setLabel("bottom", esc(summary.x_label), color=INK)
        item.setLabel("left", esc(summary.y_label), color=INK)
        item.enableAutoRange()
        # One distinct value on an axis: pyqtgraph would zoom to a sliver around it
        # and label every tick with the same 16 digits; show a readable span instead.
        for values, set_range in ((x, item.setXRange), (y, item.setYRange)):
            if len(values) and np.ptp(values) == 0:
                centre = float(values[0])
                half = abs(centre) * 0.1 or 1.0
                set_range(centre - half, centre + half, padding=0)

    def point_count(self) -> int:
        return len(self.points.data)
