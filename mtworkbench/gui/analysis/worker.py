"""Runs the analysis job on a QThread; progress and the outcome come back by signal.

The worker never touches a widget. Progress is throttled so a metric that
reports every segment cannot flood the GUI's event queue.

Workers have no Qt parent: a thread owned by a widget would be destroyed with
it while still running, which aborts the process. ``start_worker`` keeps each
running worker alive here until it finishes; a closed workspace only cancels
its worker (``destroyed`` -> ``cancel``), and quitting the application cancels
and waits for all of them.
"""

from __future__ import annotations

import threading
import time
import traceback

from PySide6.QtCore import QCoreApplication, QThread, Signal

from mtworkbench.analysis.human_scores import HumanScores
from mtworkbench.core.errors import DataError
from mtworkbench.core.jobs import Cancelled
from mtworkbench.core.model import Project
from mtworkbench.scoring.cache import ScoreCache
from mtworkbench.scoring.analysis_job import AnalysisRequest, run_analysis

PROGRESS_INTERVAL_S = 0.05


class AnalysisWorker(QThread):
    progress_changed = Signal(int, int)
    """(done, total) in thousandths of the whole job."""

    succeeded = Signal(object)
    """Payload: the ``AnalysisOutcome``."""

    failed = Signal(str)
    """The job stopped on an error; payload: the message for the user."""

    cancelled = Signal()

    def __init__(self, project: Project, cache: ScoreCache, human: HumanScores, request: AnalysisRequest,
                 parent=None) -> None:
        super().__init__(parent)
        self.project, self.cache, self.human, self.request = project, cache, human, request
        self._cancel = threading.Event()
        self._last_progress = 0.0

    def cancel(self) -> None:
        self._cancel.set()

    def release(self) -> None:
        """The thread has finished: drop the keep-alive reference (see ``start_worker``)."""
        _RUNNING.discard(self)
        self.deleteLater()

    def _progress(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done >= total or now - self._last_progress >= PROGRESS_INTERVAL_S:
            self._last_progress = now
            self.progress_changed.emit(int(done), int(total))

    def run(self) -> None:
        try:
            outcome = run_analysis(self.project, self.cache, self.human, self.request,
                                   progress=self._progress, cancel=self._cancel.is_set)
        except Cancelled:
            self.cancelled.emit()
        except DataError as exc:
            self.failed.emit(str(exc))
        except Exception as exc:  # noqa: BLE001 - reported by the workspace, never a crash
            self.failed.emit(f"{type(exc).__name__}: {exc}\n\n{traceback.format_exc(limit=4)}")
        else:
            self.succeeded.emit(outcome)


_RUNNING: set[AnalysisWorker] = set()
_QUIT_HOOKED = False
QUIT_WAIT_MS = 5000


def start_worker(worker: AnalysisWorker) -> None:
    """Start ``worker`` and keep it alive until its thread has finished."""
    global _QUIT_HOOKED
    app = QCoreApplication.instance()
    if app is not None and not _QUIT_HOOKED:
        app.aboutToQuit.connect(stop_all_workers)
        _QUIT_HOOKED = True
    _RUNNING.add(worker)
    worker.finished.connect(worker.release)
    worker.start()


def stop_all_workers() -> None:
    for worker in list(_RUNNING):
        worker.cancel()
    for worker in list(_RUNNING):
        worker.wait(QUIT_WAIT_MS)


def running_workers() -> int:
    return len(_RUNNING)
