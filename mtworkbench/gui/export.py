"""Export any view as PNG (pixels) or SVG (vector), on screen or headless."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QTabBar,
    QWidget,
)

# Controls are for working with a view, not part of the figure.
CONTROL_TYPES = (QAbstractSpinBox, QAbstractButton, QComboBox, QLineEdit)
EXPORT_HIDDEN = "exportHidden"  # a widget property: True leaves the widget out of figures
TITLE_MARGIN = 8


@contextmanager
def figure_only(widget: QWidget) -> Iterator[None]:
    """Hide ``widget``'s controls (spin boxes, buttons, combo boxes, line edits),
    the labels naming them, and widgets marked ``exportHidden``, then show them again."""
    hidden: list[QWidget] = []
    controls = [w for w in widget.findChildren(QWidget) if w.isVisibleTo(widget) and _is_control(w, widget)]
    labels = [w for w in widget.findChildren(QLabel) if w.isVisibleTo(widget) and w.buddy() in controls]
    for w in controls + labels:
        w.setVisible(False)
        hidden.append(w)
    _settle()
    try:
        yield
    finally:
        for w in hidden:
            w.setVisible(True)
        _settle()


def _settle() -> None:
    """Let the layouts place what is left before the view is painted."""
    for _ in range(3):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)


def _is_control(w: QWidget, top: QWidget) -> bool:
    if w.property(EXPORT_HIDDEN):
        return True
    if not isinstance(w, CONTROL_TYPES):
        return False
    # The parts of a control (a spin box's line edit) go with it; a tab bar keeps its arrows.
    return not any(isinstance(p, (*CONTROL_TYPES, QTabBar)) for p in _parents(w, top))


def _parents(w: QWidget, top: QWidget) -> Iterator[QWidget]:
    p = w.parentWidget()
    while p is not None and p is not top:
        yield p
        p = p.parentWidget()


def export_figure(widget: QWidget, path: Path, title: str = "") -> None:
    """A clean figure of ``widget``: its title (``title``, else the widget's own
    ``export_title()``), the view with its legend, no controls; PNG or SVG."""
    if not title and hasattr(widget, "export_title"):
        title = widget.export_title()
    with figure_only(widget):
        _write_with_title(widget, path, title)


def _write_with_title(widget: QWidget, path: Path, title: str) -> None:
    font = QFont(widget.font())
    font.setBold(True)
    font.setPointSizeF(font.pointSizeF() * 1.2)
    title_height = QFontMetrics(font).height() + 2 * TITLE_MARGIN if title else 0
    width, height = widget.width(), widget.height() + title_height

    def paint(painter: QPainter) -> None:
        painter.fillRect(QRect(0, 0, width, height), QColor("white"))
        if title:
            painter.setFont(font)
            painter.setPen(QColor("black"))
            painter.drawText(QRect(TITLE_MARGIN, 0, width - 2 * TITLE_MARGIN, title_height),
                             int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft), title)
        QWidget.render(widget, painter, QPoint(0, title_height))

    suffix = path.suffix.lower()
    if suffix == ".png":
        ratio = widget.devicePixelRatioF()
        image = QImage(int(width * ratio), int(height * ratio), QImage.Format.Format_ARGB32)
        image.setDevicePixelRatio(ratio)
        painter = QPainter(image)
        try:
            paint(painter)
        finally:
            painter.end()
        # PySide6 takes the format as str at run time although its stub says bytes.
        if not image.save(str(path), "PNG"):  # type: ignore[call-overload]
            raise OSError(f"could not write {path}")
    elif suffix == ".svg":
        generator = QSvgGenerator()
        generator.setFileName(str(path))
        generator.setSize(QSize(width, height))
        generator.setViewBox(QRect(0, 0, width, height))
        generator.setTitle(title or "mtworkbench view")
        generator.setResolution(widget.logicalDpiX())
        painter = QPainter(generator)
        try:
            paint(painter)
        finally:
            painter.end()
        if not path.exists():
            raise OSError(f"could not write {path}")
    else:
        raise ValueError(f"cannot export as {suffix or 'a file without suffix'}: use .png or .svg")


def export_widget(widget: QWidget, path: Path, size: QSize | None = None) -> None:
    """Write ``widget`` to ``path``; the suffix (.png or .svg) picks the format.

    Drawn into memory first, then written by the one output writer (``core.output``):
    atomically to a file, into a FIFO or device as it is."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    from mtworkbench.core.output import write_output

    suffix = path.suffix.lower()
    if size is not None:
        widget.resize(size)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if suffix == ".png":
        if not widget.grab().save(buffer, "PNG"):
            raise OSError(f"could not draw {path}")
        buffer.close()
        write_output(path, bytes(data.data()))
    elif suffix == ".svg":
        generator = QSvgGenerator()
        generator.setOutputDevice(buffer)
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
        buffer.close()
        if not data.size():
            raise OSError(f"could not draw {path}")
        write_output(path, bytes(data.data()))
    else:
        raise ValueError(f"cannot export as {suffix or 'a file without suffix'}: use .png or .svg")
