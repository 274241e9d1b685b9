"""Plots as files: PNG at twice the on-screen resolution (sharp in a paper) or SVG.

Both render the plot view itself, so the file shows exactly what is on screen.
Two pitfalls are avoided here: pyqtgraph's SVGExporter cannot parse the path
data Qt 6 writes (it fails on curves and scatter symbols), and its
ImageExporter scales the plot's text but not the legend's. The generic
``gui.export.export_widget`` would call ``QWidget.render`` with a signature that
``QGraphicsView`` does not accept.
"""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgGenerator

PNG_SCALE = 2


def export_plot(plot: pg.PlotWidget, path: str | Path) -> None:
    path = Path(path)
    suffix = path.suffix.lower()
    # A plot updated a moment ago may still have its layout pending (Qt lays out
    # graphics widgets on the next event-loop pass): settle it before drawing.
    plot.getPlotItem().layout.activate()
    if suffix == ".png":
        write_png(plot, path)
    elif suffix == ".svg":
        write_svg(plot, path)
    else:
        raise ValueError(f"cannot export a plot as {suffix or 'a file without suffix'}: use .png or .svg")
    if not path.exists() or path.stat().st_size == 0:
        raise OSError(f"could not write {path}")


def _render(plot: pg.PlotWidget, painter: QPainter) -> None:
    width, height = max(plot.width(), 1), max(plot.height(), 1)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    # QGraphicsView.render(painter, target, source): the whole viewport onto the whole page.
    plot.render(painter, QRectF(0, 0, width, height), plot.viewport().rect())


def write_png(plot: pg.PlotWidget, path: Path, scale: int = PNG_SCALE) -> None:
    width, height = max(plot.width(), 1), max(plot.height(), 1)
    image = QImage(width * scale, height * scale, QImage.Format.Format_ARGB32)
    image.setDevicePixelRatio(scale)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    try:
        _render(plot, painter)
    finally:
        painter.end()
    # PySide6 takes the format as str at run time although its stub says bytes.
    if not image.save(str(path), "PNG"):  # type: ignore[call-overload]
        raise OSError(f"could not write {path}")


def write_svg(plot: pg.PlotWidget, path: Path) -> None:
    width, height = max(plot.width(), 1), max(plot.height(), 1)
    generator = QSvgGenerator()
    generator.setFileName(str(path))
    generator.setSize(plot.size())
    generator.setViewBox(QRect(0, 0, width, height))
    # The generator's default 72 dpi differs from the screen's: pyqtgraph sizes its
    # data items by the device's resolution, so they would come out scaled by 96/72
    # against the axes.
    generator.setResolution(plot.logicalDpiX())
    generator.setTitle(plot.getPlotItem().titleLabel.text or "mtworkbench plot")
    painter = QPainter(generator)
    try:
        _render(plot, painter)
    finally:
        painter.end()
