"""Runs the scoring job on a QThread; results and progress come back by signal.

The worker never touches a widget: it calls the plain job with ``progress`` and
``cancel`` callbacks and emits signals, which Qt delivers to the GUI thread.
Progress is throttled so a metric that reports every segment cannot flood the
GUI's event queue.
"""

from __future__ import annotations

import threading
import time
import traceback

from PySide6.QtCore import QCoreApplication, QThread, Signal

from mtworkbench.core.jobs import Cancelled
from mtworkbench.core.model import Project
from mtworkbench.scoring.cache import ScoreCache
from mtworkbench.scoring.job import ScoredItem, ScoringRequest, run_scoring

PROGRESS_INTERVAL_S = 0.05

# Running workers, kept alive here rather than by a parent widget: a QThread destroyed
# while it runs aborts the process, and a workspace may close before its job ends.
_RUNNING: set[ScoringWorker] = set()


def stop_all_workers(timeout_ms: int = 10_000) -> None:
    """Cancel every running job and wait for it (at application exit)."""
    for worker in list(_RUNNING):
        worker.cancel()
        worker.wait(timeout_ms)


class ScoringWorker(QThread):
    progress_changed = Signal(int, int)
    """Work done so far: (done, total) in the job's own units."""

    item_ready = Signal(object)
    """One (system, metric) result is ready; payload: ``ScoredItem``."""

    succeeded = Signal(object)
    """The job finished; payload: ``ScoringOutcome``."""

    failed = Signal(str)
    """The job stopped on an unexpected error; payload: the message."""

    cancelled = Signal()
    """The job stopped because ``cancel()`` was called."""

    def __init__(self, project: Project, cache: ScoreCache, request: ScoringRequest, parent=None,
                 prepared: dict | None = None) -> None:
        super().__init__(parent)
        self.project, self.cache, self.request = project, cache, request
        self.prepared = prepared
        self._cancel = threading.Event()
        self._last_progress = 0.0

    def start(self) -> None:  # type: ignore[override]
        if not _RUNNING:
            app = QCoreApplication.instance()
            if app is not None and not getattr(app, "_mtwb_stop_workers", False):
                app.aboutToQuit.connect(stop_all_workers)
                app._mtwb_stop_workers = True
        _RUNNING.add(self)
        self.finished.connect(self._forget)
        super().start()

    def _forget(self) -> None:
        _RUNNING.discard(self)

    def cancel(self) -> None:
        self._cancel.set()

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def _progress(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done >= total or now - self._last_progress >= PROGRESS_INTERVAL_S:
            self._last_progress = now
            self.progress_changed.emit(int(done), int(total))

    def _deliver(self, item: ScoredItem) -> None:
        self.item_ready.emit(item)

    def run(self) -> None:
        try:
            outcome = run_scoring(
                self.project, self.cache, self.request, progress=self._progress,
                cancel=self._cancel.is_set, deliver=self._deliver, prepared=self.prepared,
            )
        except Cancelled:
            self.cancelled.emit()
        except Exception as exc:  # noqa: BLE001 - reported to the user by the workspace, never a crash
            self.failed.emit(f"{type(exc).__name__}: {exc}\n\n{traceback.format_exc(limit=4)}")
        else:
            self.succeeded.emit(outcome)
