"""Running a step once the window has painted what came before it.

Work split over event-loop turns to keep each turn short only helps if the window paints
in between: a zero-delay call is a posted event, sent in the same pass as the paint request,
and on some platforms the paint itself waits for a frame timer (about 16 ms). So the step is
run right after the window's next paint, or after ``LATEST_MS`` when no paint comes (a
hidden or covered window), whichever is first; at once when the window is not visible.
A paint within the caller's own turn does not count.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

LATEST_MS = 200


class _AfterPaint(QObject):
    def __init__(self, window: QWidget, step: Callable[[], object]) -> None:
        super().__init__(window)
        self.window, self.step, self.done = window, step, False
        QTimer.singleShot(0, self, self._arm)
        QTimer.singleShot(LATEST_MS, self, self._run)

    def _arm(self) -> None:
        # From the next turn on: a paint within the caller's own turn (a status bar message
        # repaints at once) is not the paint of what it changed. The update makes sure one comes.
        if not self.done:
            self.window.installEventFilter(self)
            self.window.update()

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Paint and not self.done:
            QTimer.singleShot(0, self, self._run)  # posted: sent once this paint has finished
        return False

    def _run(self) -> None:
        if self.done:
            return
        self.done = True
        self.window.removeEventFilter(self)
        self.deleteLater()
        self.step()


def after_next_paint(window: QWidget, step: Callable[[], object]) -> None:
    """Run ``step`` once ``window`` has painted (see the module's note); at once when hidden."""
    if not window.isVisible():
        step()
        return
    _AfterPaint(window, step)
