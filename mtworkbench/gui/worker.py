"""The one QThread worker for background jobs (scoring, analysis).

A job is a plain callable ``job(progress, cancel, deliver) -> outcome`` that
never touches a widget: ``progress(done, total)`` reports work done,
``cancel()`` says whether to stop (the job raises ``Cancelled``) and
``deliver(item)`` hands over a partial result. The worker turns those into
signals, which Qt delivers to the GUI thread; progress is throttled so a metric
that reports every segment cannot flood the event queue.

Errors reach the user one way: a data error (``DataError``, ``MetricError``, or
any ``ValueError`` raised by the data) as its own message; anything unexpected
as one line naming the exception, with its traceback logged to stderr. Never a
traceback in a dialog.

Workers have no Qt parent: a thread owned by a widget would be destroyed with
it while still running, which aborts the process. ``start`` keeps each running
worker alive in this module until its thread finishes (then it deletes itself);
a closed workspace only cancels its worker, and quitting the application
cancels and waits for all of them.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QThread, Signal

from mtworkbench.core.jobs import CancelCheck, Cancelled, ProgressCallback

log = logging.getLogger(__name__)

PROGRESS_INTERVAL_S = 0.05
QUIT_WAIT_MS = 10_000

Job = Callable[[ProgressCallback, CancelCheck, Callable[[Any], None]], Any]

# Running workers, kept alive here rather than by a parent widget (see the module doc).
_RUNNING: set[JobWorker] = set()


def error_message(exc: BaseException) -> str:
    """What the user reads when a job stops on ``exc``: one line, never a traceback."""
    if isinstance(exc, ValueError):  # DataError and MetricError are ValueErrors: bad input, said as is
        return str(exc)
    first_line = (str(exc).strip().splitlines() or [""])[0]
    return f"Unexpected error: {type(exc).__name__}" + (f": {first_line}" if first_line else "")


class JobWorker(QThread):
    progress_changed = Signal(int, int)
    """Work done so far: (done, total) in the job's own units."""

    item_ready = Signal(object)
    """A partial result the job delivered (e.g. one scored system)."""

    succeeded = Signal(object)
    """The job finished; payload: its outcome."""

    failed = Signal(str)
    """The job stopped on an error; payload: a message for the user (see ``error_message``)."""

    cancelled = Signal()
    """The job stopped because ``cancel()`` was called."""

    def __init__(self, job: Job, project: Any = None, cache: Any = None) -> None:
        super().__init__()
        self.job = job
        # What the job reads and where its results go, so a workspace can tell
        # whether a late result still belongs to the project it shows.
        self.project, self.cache = project, cache
        self._cancel = threading.Event()
        self._last_progress = 0.0

    def start(self) -> None:  # type: ignore[override]
        app = QCoreApplication.instance()
        if app is not None and not getattr(app, "_mtwb_stop_workers", False):
            app.aboutToQuit.connect(stop_all_workers)
            setattr(app, "_mtwb_stop_workers", True)  # noqa: B010 - QCoreApplication declares no such attribute; hook aboutToQuit once
        _RUNNING.add(self)
        self.finished.connect(self._release)
        super().start()

    def _release(self) -> None:
        _RUNNING.discard(self)
        self.deleteLater()

    def cancel(self) -> None:
        self._cancel.set()

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def _progress(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done >= total or now - self._last_progress >= PROGRESS_INTERVAL_S:
            self._last_progress = now
            self.progress_changed.emit(int(done), int(total))

    def run(self) -> None:
        try:
            outcome = self.job(self._progress, self._cancel.is_set, self.item_ready.emit)
        except Cancelled:
            self.cancelled.emit()
        except ValueError as exc:
            self.failed.emit(error_message(exc))
        except Exception as exc:  # noqa: BLE001 - reported to the user by the workspace, never a crash
            log.error("background job failed", exc_info=exc)
            self.failed.emit(error_message(exc))
        else:
            self.succeeded.emit(outcome)


def stop_all_workers(timeout_ms: int = QUIT_WAIT_MS) -> None:
    """Cancel every running job, then wait for each (at application exit)."""
    for worker in list(_RUNNING):
        worker.cancel()
    for worker in list(_RUNNING):
        worker.wait(timeout_ms)


def running_workers() -> int:
    return len(_RUNNING)
