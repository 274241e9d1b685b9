"""The gutter beside the annotation text: segment ids, the current one in bold."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent
from PySide6.QtWidgets import QWidget


class SegmentGutter(QWidget):
    """Segment ids beside their text; the current one in bold."""

    def __init__(self, view: Any) -> None:
        super().__init__(view)
        self.view = view
        font = QFont(view.font())
        font.setPointSizeF(view.font().pointSizeF() * 0.75)
        self.setFont(font)

    def sizeHint(self) -> QSize:
        return QSize(self.width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(event.rect(), QColor(242, 242, 242))
        metrics = self.fontMetrics()
        plain, bold = QFont(self.font()), QFont(self.font())
        bold.setBold(True)
        for block, origin in self.view._visible_blocks():
            shown = self.view._segments[block.blockNumber()]
            current = shown.segment == self.view.current_segment
            painter.setFont(bold if current else plain)
            painter.setPen(QColor(30, 30, 30) if current else QColor(120, 120, 120))
            label = metrics.elidedText(shown.segment, Qt.TextElideMode.ElideLeft, self.width() - 8)
            if shown.text is None:
                label += " ∅"
            line_top = origin.y() + (block.layout().lineAt(0).y() if block.layout().lineCount() else 0)
            painter.drawText(QRectF(2, line_top, self.width() - 6, metrics.height() + 6),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, label)
        painter.end()
