"""A start-up probe for benchmarks: when the window shows and paints, how long the event loop
stalls afterwards, and how long quitting takes.

Off unless ``MTWB_START_PROBE`` is set (to a number of seconds to watch the event loop after
the window is shown). Markers go to stdout as ``MTWB-<WHAT> <unix time>`` lines so a parent
process can time them against its own clock.
"""

from __future__ import annotations

import faulthandler
import os
import sys
import time

from PySide6.QtCore import QElapsedTimer, QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

PROBE_ENV = "MTWB_START_PROBE"
# Set to a number of milliseconds: every stall longer than that dumps the stacks of all
# threads to stderr while it lasts (``faulthandler``'s watchdog runs without the interpreter's
# lock, so it also names a C call on another thread that holds that lock). A diagnostic only:
# reading other threads' frames without the lock can crash the process, as faulthandler warns,
# so the timed runs never set it.
STALL_DUMP_ENV = "MTWB_STALL_DUMP"
# The event loop is polled this often; a gap longer than this is a stall.
TICK_MS = 10
# Stalls longer than this are listed (longest first, with when they began after the paint).
LONG_MS = 40


def _say(what: str, extra: str = "") -> None:
    sys.stdout.write(f"MTWB-{what} {time.time():.4f}{' ' + extra if extra else ''}\n")
    sys.stdout.flush()


class StartProbe(QObject):
    """Watches the main window: its first show, its first paint whose title names the project."""

    def __init__(self, window: QMainWindow, watch_s: float) -> None:
        super().__init__(window)
        self.window = window
        self.watch_ms = int(watch_s * 1000)
        self.shown = False
        self.painted = False
        self.longest_ms = 0
        # (stall ms, ms since the paint) of every stall over LONG_MS: which turns, not just the worst
        self.long_stalls: list[tuple[int, int]] = []
        self.clock = QElapsedTimer()
        self.since_show = QElapsedTimer()
        self.ticker = QTimer(self)
        self.ticker.setInterval(TICK_MS)
        self.ticker.timeout.connect(self._tick)
        self.dump_after_s = _dump_after_s()
        window.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        kind = event.type()
        if kind == QEvent.Type.Show and not self.shown:
            self.shown = True
            _say("SHOWN", self.window.windowTitle())
        elif kind == QEvent.Type.Paint and not self.painted:
            self.painted = True
            _say("PAINTED", self.window.windowTitle())
            self.clock.start()
            self.since_show.start()
            self.ticker.start()
            if self.dump_after_s:  # from the paint on: the turn that paints may itself be long
                faulthandler.dump_traceback_later(self.dump_after_s, repeat=True, exit=False)
        return False

    def _tick(self) -> None:
        gap = self.clock.restart()
        self.longest_ms = max(self.longest_ms, gap - TICK_MS)
        if gap - TICK_MS > LONG_MS:
            self.long_stalls.append((gap - TICK_MS, self.since_show.elapsed() - gap))
        if self.dump_after_s:
            faulthandler.dump_traceback_later(self.dump_after_s, repeat=True, exit=False)
        if self.since_show.elapsed() >= self.watch_ms:
            self.ticker.stop()
            if self.dump_after_s:
                faulthandler.cancel_dump_traceback_later()
            _say("STALLS", " ".join(f"{ms}@{at}" for ms, at in sorted(self.long_stalls, reverse=True)[:8]))
            _say("STALL", f"{self.longest_ms} {self.window.windowTitle()}")
            QTimer.singleShot(0, self._quit)

    def _quit(self) -> None:
        _say("QUIT")
        self.window.close()
        app = QApplication.instance()
        if app is not None:
            app.quit()


def _dump_after_s() -> float:
    try:
        return max(0.0, float(os.environ.get(STALL_DUMP_ENV, "0")) / 1000)
    except ValueError:
        return 0.0


def exited() -> None:
    """The event loop has returned (what follows is the interpreter's own teardown)."""
    if os.environ.get(PROBE_ENV):
        _say("EXITED")


def install(window: QMainWindow) -> StartProbe | None:
    value = os.environ.get(PROBE_ENV)
    if not value:
        return None
    try:
        watch_s = float(value)
    except ValueError:
        watch_s = 3.0
    return StartProbe(window, watch_s)
