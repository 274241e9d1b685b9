"""The Metrics workspace's tabs of per-segment views, each view in a scroll area of its own."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QScrollArea, QTabWidget, QWidget


class DetailTabs(QTabWidget):
    """The detail views, each in a scroll area of its own: a wide view (a long
    METEOR alignment) scrolls inside its tab and never widens the window's
    centre, so it never squeezes the docks (their sizes are the user's).
    ``currentWidget``, ``widget`` and ``indexOf`` speak of the views themselves."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        corner = QWidget()
        self.corner_bar = QHBoxLayout(corner)  # the pop-out button sits beside the tabs
        self.corner_bar.setContentsMargins(0, 0, 0, 0)
        self.setCornerWidget(corner, Qt.Corner.TopRightCorner)
        self.setUsesScrollButtons(True)

    def add_view(self, view: QWidget, title: str) -> int:
        area = QScrollArea()
        area.setObjectName(f"{view.objectName() or 'detail'}-scroll")
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setWidget(view)
        return self.addTab(area, title)

    @staticmethod
    def _inner(widget: QWidget | None) -> QWidget | None:
        return widget.widget() if isinstance(widget, QScrollArea) else widget

    # Qt returns None when there is no tab, although the stub promises a QWidget.
    def currentWidget(self) -> QWidget | None:  # type: ignore[override]  # noqa: N802 - Qt's name
        return self._inner(super().currentWidget())

    def widget(self, index: int) -> QWidget | None:
        return self._inner(super().widget(index))

    def indexOf(self, widget: QWidget) -> int:  # noqa: N802 - Qt's name
        for i in range(self.count()):
            if self.widget(i) is widget:
                return i
        return super().indexOf(widget)

    def setCurrentWidget(self, widget: QWidget) -> None:  # noqa: N802 - Qt's name
        index = self.indexOf(widget)
        if index >= 0:
            self.setCurrentIndex(index)
