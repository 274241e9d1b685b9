"""Export any view as PNG (pixels) or SVG (vector), on screen or headless."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtGui import QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QWidget


def export_widget(widget: QWidget, path: Path, size: QSize | None = None) -> None:
    """Write ``widget`` to ``path``; the suffix (.png or .svg) picks the format."""
    suffix = path.suffix.lower()
    if size is not None:
        widget.resize(size)
    if suffix == ".png":
        if not widget.grab().save(str(path), "PNG"):
            raise OSError(f"could not write {path}")
    elif suffix == ".svg":
        generator = QSvgGenerator()
        generator.setFileName(str(path))
        generator.setSize(widget.size())
        generator.setViewBox(QRect(0, 0, widget.width(), widget.height()))
        generator.setTitle(widget.windowTitle() or "mtworkbench view")
        # Without the screen's resolution, plots inside the widget are drawn 96/72 too large.
        generator.setResolution(widget.logicalDpiX())
        painter = QPainter(generator)
        try:
            # QWidget.render explicitly: QGraphicsView (pyqtgraph plots) overrides render()
            # with a scene-rendering signature that rejects these arguments.
            QWidget.render(widget, painter, QPoint())
        finally:
            painter.end()
        if not path.exists():
            raise OSError(f"could not write {path}")
    else:
        raise ValueError(f"cannot export as {suffix or 'a file without suffix'}: use .png or .svg")
