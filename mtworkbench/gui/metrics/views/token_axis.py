"""A pyqtgraph axis whose ticks are token labels that never collide.

The bottom axis writes its labels upright (rotated a quarter turn), so a
label needs only a line's height of room and every token can be labelled on
a grid of ordinary size. At every repaint (so on every zoom or pan) the axis
shows every k-th token, k being the smallest "nice" step (1, 2, 5, 10, 20,
50...) for which a label fits in the pixel room between two ticks; the view
gives the grid room enough for k = 1 when it fits the grid (``room_per_token``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFontMetricsF

MAX_LABEL_CHARS = 14
BARRIER_LABEL = "‖"  # the barrier column between two references


def nice_step(minimum: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... that is >= ``minimum``."""
    if minimum <= 1:
        return 1
    magnitude = 10 ** math.floor(math.log10(minimum))
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= minimum:
            return int(factor * magnitude)
    return int(10 * magnitude)  # pragma: no cover


def short_label(token: str) -> str:
    if not token:
        return BARRIER_LABEL
    return token if len(token) <= MAX_LABEL_CHARS else token[: MAX_LABEL_CHARS - 1] + "…"


class TokenAxis(pg.AxisItem):
    def __init__(self, orientation: str, **kwargs) -> None:
        super().__init__(orientation, **kwargs)
        self.tokens: list[str] = []
        self.labels: list[str] = []
        self._label_extent = 10.0

    def set_tokens(self, tokens: Sequence[str]) -> None:
        self.tokens = list(tokens)
        self.labels = [short_label(t) for t in self.tokens]
        metrics = QFontMetricsF(self.style.get("tickFont") or self.font())
        if self.orientation == "bottom":
            # Upright labels: a line's height each; the axis as tall as the longest.
            widest = max((metrics.horizontalAdvance(s) for s in self.labels), default=10.0)
            self._label_width = widest
            self._label_extent = metrics.height() + 2
            self._updateMaxTextSize(int(widest) + 4)
        elif self.orientation == "top":
            widest = max((metrics.horizontalAdvance(s) for s in self.labels), default=10.0)
            self._label_extent = widest + 8  # a gap between neighbours
        else:
            self._label_extent = metrics.height() + 2
            # Size the axis for the widest label now, as pyqtgraph would after a first
            # paint (autoExpandTextSpace): a grab right after drawing is then complete.
            widest = max((metrics.horizontalAdvance(s) for s in self.labels), default=10.0)
            self._updateMaxTextSize(int(widest) + 2)
        self.picture = None
        self.update()

    def _updateMaxTextSize(self, x: int) -> None:  # noqa: N802 - pyqtgraph's name
        if self.orientation == "bottom" and self.tokens:
            x = max(x, int(getattr(self, "_label_width", 0)) + 4)  # upright labels need their length
        super()._updateMaxTextSize(x)

    @property
    def room_per_token(self) -> float:
        """Pixels a token needs for its label to be drawn."""
        return self._label_extent

    def drawPicture(self, p, axisSpec, tickSpecs, textSpecs) -> None:  # noqa: N802 - pyqtgraph's name
        if self.orientation != "bottom":
            super().drawPicture(p, axisSpec, tickSpecs, textSpecs)
            return
        super().drawPicture(p, axisSpec, tickSpecs, [])
        p.setFont(self.style.get("tickFont") or self.font())
        p.setPen(self.textPen())
        width = getattr(self, "_label_width", 40.0)
        for rect, _flags, text in textSpecs:
            p.save()
            p.translate(rect.center().x(), rect.top())
            p.rotate(-90)  # reads bottom to top, ending at the tick
            line = rect.height() / 0.8 if rect.height() else 14.0
            p.drawText(QRectF(-width - 2, -line / 2, width, line),
                       int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), text)
            p.restore()

    def step_for(self, span: float, size: float) -> int:
        """Every how many tokens a label is drawn when ``span`` tokens take ``size`` pixels."""
        if size <= 0 or span <= 0:
            return 1
        pixels_per_token = size / span
        return nice_step(self._label_extent / pixels_per_token)

    def tickValues(self, minVal: float, maxVal: float, size: float):
        n = len(self.tokens)
        if n == 0:
            return []
        minVal, maxVal = sorted((minVal, maxVal))  # an inverted axis passes them reversed
        step = self.step_for(maxVal - minVal, size)
        lo = max(0, math.ceil(minVal))
        hi = min(n - 1, math.floor(maxVal))
        first = math.ceil(lo / step) * step
        return [(float(step), [float(v) for v in range(first, hi + 1, step)])]

    def tickStrings(self, values, scale, spacing):
        out = []
        for v in values:
            i = round(v)
            out.append(self.labels[i] if 0 <= i < len(self.labels) else "")
        return out

    def visible_ticks(self) -> list[int]:
        """The token indices labelled at the current range (for tests and the hover text)."""
        lo, hi = sorted(self.range)
        size = self.width() if self.orientation in ("bottom", "top") else self.height()
        ticks = self.tickValues(lo, hi, size)
        return [int(v) for v in ticks[0][1]] if ticks else []

    def pixels_per_token(self) -> float:
        lo, hi = sorted(self.range)
        size = self.width() if self.orientation in ("bottom", "top") else self.height()
        return size / (hi - lo) if hi > lo else 0.0

    @property
    def label_extent(self) -> float:
        return self._label_extent
