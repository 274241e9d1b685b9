"""The one background worker: results, progress, cancel, and how errors reach the user."""

from __future__ import annotations

import logging
import threading
import time

import pytest
from PySide6.QtCore import Qt

from mtworkbench.core.errors import DataError
from mtworkbench.core.jobs import check_cancel
from mtworkbench.core.scoring_input import MetricError
from mtworkbench.gui import dialogs
from mtworkbench.gui.analysis import workspace as analysis_module
from mtworkbench.gui.analysis.workspace import AnalysisWorkspace
from mtworkbench.gui.metrics import scoring_controls
from mtworkbench.gui.metrics.workspace import MetricsWorkspace
from mtworkbench.gui.session import ProjectSession
from mtworkbench.gui.worker import JobWorker, error_message, running_workers, stop_all_workers
from tests.gui.test_analysis import judged_project


def run_to_end(qtbot, worker: JobWorker, signal_name: str, timeout: int = 5000) -> list:
    """Start ``worker`` and return the arguments of ``signal_name`` once it has finished."""
    with qtbot.waitSignal(getattr(worker, signal_name), timeout=timeout) as blocker:
        worker.start()
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=timeout)
    return blocker.args


def test_result_progress_and_items_arrive_on_the_gui_thread(qtbot):
    def job(progress, cancel, deliver):
        for k in range(3):
            deliver(("item", k))
            progress(k + 1, 3)
        return {"answer": 42}

    worker = JobWorker(job, project="p", cache="c")
    items, progress = [], []
    worker.item_ready.connect(items.append)
    worker.progress_changed.connect(lambda d, t: progress.append((d, t)))
    (outcome,) = run_to_end(qtbot, worker, "succeeded")
    assert outcome == {"answer": 42}
    assert items == [("item", 0), ("item", 1), ("item", 2)]
    assert progress[-1] == (3, 3)  # throttled, but the last report always arrives
    assert (worker.project, worker.cache) == ("p", "c")


@pytest.mark.parametrize(
    "error",
    [DataError("scores.tsv: line 3: expected a number, got 'x'"),
     MetricError("nee: no entity is annotated in reference 1"),
     ValueError("system 'mt' has 49 segments, expected 50")],
    ids=["DataError", "MetricError", "ValueError"],
)
def test_a_data_error_is_its_own_message(qtbot, error):
    def job(progress, cancel, deliver):
        raise error

    (message,) = run_to_end(qtbot, JobWorker(job), "failed")
    assert message == str(error)


def test_an_unexpected_error_is_one_line_and_its_traceback_is_logged(qtbot, caplog):
    def job(progress, cancel, deliver):
        raise KeyError("segment 7\nsecond line")

    with caplog.at_level(logging.ERROR, logger="mtworkbench.gui.worker"):
        (message,) = run_to_end(qtbot, JobWorker(job), "failed")
    assert message.startswith("Unexpected error: KeyError") and "segment 7" in message
    assert "\n" not in message and "Traceback" not in message
    (record,) = [r for r in caplog.records if r.name == "mtworkbench.gui.worker"]
    assert record.exc_info is not None and record.exc_info[0] is KeyError


def test_error_message_keeps_data_errors_verbatim():
    assert error_message(DataError("a.json: $.systems[0].id: expected a string")) == (
        "a.json: $.systems[0].id: expected a string"
    )
    assert error_message(ZeroDivisionError()) == "Unexpected error: ZeroDivisionError"


def test_cancel_stops_the_job(qtbot):
    started = threading.Event()

    def job(progress, cancel, deliver):
        started.set()
        for _ in range(2000):
            check_cancel(cancel)
            time.sleep(0.01)
        raise AssertionError("never cancelled")

    worker = JobWorker(job)
    with qtbot.waitSignal(worker.cancelled, timeout=5000):
        worker.start()
        assert started.wait(5)
        worker.cancel()
    assert worker.is_cancelled()
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)


def test_stop_all_workers_cancels_and_waits_for_every_job(qtbot):
    stopped = []

    def job(progress, cancel, deliver):
        try:
            for _ in range(2000):
                check_cancel(cancel)
                time.sleep(0.01)
        finally:
            stopped.append(1)

    workers = [JobWorker(job), JobWorker(job)]
    for worker in workers:
        worker.start()
    assert running_workers() == 2
    stop_all_workers()
    assert stopped == [1, 1]  # both ran their cleanup before stop_all_workers returned
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)


def test_metrics_workspace_shows_a_scoring_data_error_as_a_message(qtbot, monkeypatch):
    shown = []
    monkeypatch.setattr(dialogs, "error", lambda parent, title, message: shown.append((title, message)))

    def failing_scoring(*args, **kwargs):
        raise MetricError("bleu: reference stream 2 has 4 segments, the hypothesis has 5")

    monkeypatch.setattr(scoring_controls, "run_scoring", failing_scoring)
    session = ProjectSession()
    ws = MetricsWorkspace(session)
    qtbot.addWidget(ws)
    session.replace_project(judged_project(n_segments=5, n_systems=2), None)
    ws.start_scoring()
    qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
    assert shown == [("Scoring failed", "bleu: reference stream 2 has 4 segments, the hypothesis has 5")]
    qtbot.waitUntil(lambda: not ws.is_scoring(), timeout=5000)


def test_analysis_workspace_shows_an_unexpected_error_as_one_line(qtbot, monkeypatch):
    shown = []
    monkeypatch.setattr(dialogs, "error", lambda parent, title, message: shown.append((title, message)))

    def broken_analysis(*args, **kwargs):
        raise RuntimeError("the statistics went wrong")

    monkeypatch.setattr(analysis_module, "run_analysis", broken_analysis)
    session = ProjectSession()
    ws = AnalysisWorkspace(session)
    qtbot.addWidget(ws)
    session.replace_project(judged_project(n_segments=5, n_systems=2), None)
    ws.show()
    qtbot.mouseClick(ws.compute_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
    assert shown == [("Analysis failed", "Unexpected error: RuntimeError: the statistics went wrong")]
    qtbot.waitUntil(lambda: ws.worker is None, timeout=5000)
