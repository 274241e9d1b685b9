"""Shared look of the Analysis plots: white background, dark axes, Okabe-Ito
colours (distinguishable with the common colour-vision deficiencies) plus a
distinct marker per line, so the figures survive black-and-white printing."""

from __future__ import annotations

import pyqtgraph as pg

INK = "#27272a"
MUTED = "#71717a"
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#8C6D1F", "#3F3F46")
SYMBOLS = ("o", "s", "t", "d", "star", "p", "h", "x")
JUDGE_COLOUR = "#111111"
POINT_COLOUR = (0, 114, 178, 150)  # translucent blue: overlapping points read as darker
LINE_COLOUR = "#D55E00"


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def symbol(i: int) -> str:
    return SYMBOLS[i % len(SYMBOLS)]


def apply_style(plot: pg.PlotWidget) -> None:
    item = plot.getPlotItem()
    item.showGrid(x=True, y=True, alpha=0.15)
    item.setMenuEnabled(False)
    for name in ("left", "bottom"):
        axis = item.getAxis(name)
        axis.setPen(pg.mkPen(INK))
        axis.setTextPen(pg.mkPen(INK))
        axis.enableAutoSIPrefix(False)  # "wer (x0.001)" with ticks 0..800 misreads as a different metric
