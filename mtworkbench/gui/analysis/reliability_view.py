"""The reliability curves (Turian, Shen & Melamed 2003, figure 4): mean Spearman correlation with
the human score against pseudo-document length on a log axis, one line per
metric, and the judge-vs-judge line (black, dashed) where two judges rated the
same items."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from mtworkbench.analysis.reliability import INTER_JUDGE, ReliabilityResult
from mtworkbench.gui.analysis.plot_style import (
    INK,
    JUDGE_COLOUR,
    apply_style,
    colour,
    symbol,
)
from mtworkbench.gui.plain import esc

JUDGE_LABEL = "judge vs judge"


class ReliabilityView(pg.PlotWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, background="w")
        self.setObjectName("reliability-plot")
        apply_style(self)
        self.setMinimumSize(260, 240)
        item = self.getPlotItem()
        item.setLogMode(x=True, y=False)
        item.setLabel("bottom", "pseudo-document length (segments, log scale)", color=INK)
        item.setLabel("left", "mean Spearman ρ with human", color=INK)
        # The legend sits in its own row below the axis, never over the curves
        # (rising metric curves and falling error-rate curves leave no free corner).
        self.legend = pg.LegendItem(labelTextColor=INK, frame=False, colCount=4, labelTextSize="9pt")
        item.layout.addItem(self.legend, 4, 1)
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.result: ReliabilityResult | None = None
        self.show_result(None)

    def clear_curves(self) -> None:
        for curve in self.curves.values():
            self.removeItem(curve)
        self.legend.clear()
        self.curves = {}

    def show_result(self, result: ReliabilityResult | None, message: str = "") -> None:
        item = self.getPlotItem()
        self.clear_curves()
        self.result = result
        if result is None or not result.curves:
            item.setTitle(esc(message) or "No reliability curves yet", color=INK, size="10pt")
            return
        metric_index = 0
        skipped: list[str] = []
        for curve in result.curves:
            lengths = np.asarray(curve.lengths, dtype=float)
            mean = np.asarray([v if math.isfinite(v) else np.nan for v in curve.mean], dtype=float)
            if not np.isfinite(mean).any():
                # Nothing to draw (e.g. no length had two judges on the same items); an
                # all-NaN line would only make pyqtgraph's range code warn.
                skipped.append(curve.label)
                continue
            if curve.label == INTER_JUDGE:
                pen = pg.mkPen(JUDGE_COLOUR, width=2, style=Qt.PenStyle.DashLine)
                kwargs = {"symbol": "o", "symbolBrush": pg.mkBrush("w"), "symbolPen": pg.mkPen(JUDGE_COLOUR)}
                name = JUDGE_LABEL
            else:
                c = colour(metric_index)
                pen = pg.mkPen(c, width=2)
                kwargs = {"symbol": symbol(metric_index), "symbolBrush": pg.mkBrush(c), "symbolPen": pg.mkPen(c)}
                metric_index += 1
                name = curve.label
            line = pg.PlotDataItem(lengths, mean, pen=pen, symbolSize=7, connect="finite", **kwargs)
            self.addItem(line)
            self.legend.addItem(line, esc(name))  # legend labels are HTML
            self.curves[curve.label] = line
        all_lengths = sorted({n for c in result.curves for n in c.lengths})
        # Ticks at the lengths actually drawn (view coordinates are log10 in log mode).
        item.getAxis("bottom").setTicks([[(math.log10(n), str(n)) for n in all_lengths]])
        mode = "across systems" if result.mode == "systems" else "across documents"
        item.setTitle(f"Reliability by document length · {esc(result.human)}<br>"
                      f"{result.n_docs} pseudo-docs per length · ρ {mode}", color=INK, size="10pt")
        item.enableAutoRange()
        item.layout.activate()  # place the legend row now, not on the next event-loop pass
