"""Opening the Metrics workspace on 10,000 segments x 10 systems: scoring runs in
the background and the event loop keeps running (goal: no stall of 100 ms or more)."""

from __future__ import annotations

import gc
import time

import numpy as np
import pytest
from metrics_synthetic import synthetic_project
from PySide6.QtCore import Qt, QTimer

from mtworkbench.gui.metrics.workspace import MetricsWorkspace
from mtworkbench.gui.session import ProjectSession

# The goal (no stall of 100 ms or more) is measured by benchmarks/bench_metrics_workspace_stall.py;
# a shared CI machine cannot time it reliably, so this test checks the structure that makes it
# possible (scoring in worker processes, the event loop ticking throughout) and prints the stall.
GOAL_STALL_S = 0.100


class StallMeter:
    """A 10 ms timer; the longest interval between its ticks is the longest stall."""

    def __init__(self) -> None:
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self.tick)
        self.last = 0.0
        self.gaps: list[float] = []

    def start(self) -> None:
        self.last = time.perf_counter()
        self.timer.start()

    def tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append(now - self.last)
        self.last = now

    def stop(self) -> float:
        self.timer.stop()
        self.tick()
        return max(self.gaps)


def test_large_project_scores_in_background_without_stalling(qtbot):
    import sacrebleu

    # Collect what earlier tests left behind now, so a full collection of their objects
    # does not land inside the measurement.
    gc.collect()
    project = synthetic_project(10_000, 10)
    project.settings.metrics = ["bleu", "wer"]
    session = ProjectSession()
    session.replace_project(project, None)
    workspace = MetricsWorkspace(session)
    workspace.ci_samples = 100  # intervals on 10,000 segments: fewer resamples keep the test short
    qtbot.addWidget(workspace)
    workspace.resize(1200, 800)

    meter = StallMeter()
    meter.start()
    started = time.perf_counter()
    workspace.show()  # the workspace starts scoring by itself
    qtbot.waitUntil(workspace.is_scoring, timeout=5000)
    assert workspace.progress.isVisible() and workspace.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: not workspace.is_scoring(), timeout=120_000)
    elapsed = time.perf_counter() - started
    # While scoring, the user sorts the browser and filters it.
    max_stall = meter.stop()
    print(f"\nscored 10,000 x 10 with bleu+wer in {elapsed:.1f} s; "
          f"{len(meter.gaps)} ticks, longest stall {1000 * max_stall:.0f} ms, "
          f"processes: {workspace.last_outcome.used_processes}, goal < {1000 * GOAL_STALL_S:.0f} ms")
    assert workspace.last_outcome.used_processes  # the scoring ran outside the GUI process
    assert len(meter.gaps) > 10  # and the event loop kept ticking while it did

    assert workspace.cache.missing(workspace.system_ids, workspace.specs) == []
    assert workspace.browser.model.rowCount() == 100_000
    hyps = [project.system("sys0").texts[s] for s in project.segment_ids]
    refs = [project.reference("ref").texts[s] for s in project.segment_ids]
    expected = sacrebleu.corpus_bleu(hyps, [refs]).score
    assert workspace.corpus_table.model.rows[0].cells["bleu"].score == pytest.approx(expected, abs=1e-9)
    # Systems were built worse and worse: BLEU falls, WER rises.
    bleu = [workspace.cache.current(s, "bleu").score.corpus for s in workspace.system_ids]
    wer = [workspace.cache.current(s, "wer").score.corpus for s in workspace.system_ids]
    assert np.all(np.diff(bleu) < 0) and np.all(np.diff(wer) > 0)

    # Sorting and filtering 100,000 rows are numpy operations, not per-row Python.
    meter = StallMeter()
    meter.start()
    bleu_column = workspace.browser.model.column_of("bleu")
    workspace.browser.view.sortByColumn(bleu_column, Qt.SortOrder.DescendingOrder)
    qtbot.wait(30)
    values = [workspace.browser.model.value(r, bleu_column) for r in range(50)]
    assert values == sorted(values, reverse=True)
    workspace.browser.text_filter.setText("w17")
    workspace.browser.apply_filter()
    qtbot.wait(30)
    assert 0 < workspace.browser.model.rowCount() < 100_000
    meter.stop()
