"""Scores on disk show in the corpus table's first paint: the demo (from the score file
shipped beside it) and a bundle whose score file is current. The scoring worker is
switched off, so nothing a background job computes can be what the table shows; the
intervals follow from the job once it may run."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from mtworkbench.gui.metrics import scoring_controls
from mtworkbench.gui.metrics.formatting import format_score
from mtworkbench.io.bundle.bundle import save_bundle
from mtworkbench.resources import demo_project_path
from mtworkbench.scoring.cache import ScoreCache
from mtworkbench.scoring.job import ScoringRequest, run_scoring
from mtworkbench.scoring.store import load_project
from tests.scoring.test_restore_now import SPECS, multilingual_project


@pytest.fixture
def no_worker(monkeypatch):
    """The scoring worker never starts: what the table shows came from the score file."""
    started = []

    class Refused:
        def __init__(self, *args, **kwargs) -> None:
            started.append(args)
            raise AssertionError("a scoring job started")

    monkeypatch.setattr(scoring_controls, "JobWorker", Refused)
    monkeypatch.setattr(scoring_controls.ScoringControls, "start_scoring", lambda self: started.append("start"))
    return started


def click_metrics_tab(qtbot, window):
    """A real click on the Metrics tab (built on that click when it was not yet)."""
    tab_bar = window.tabs.tabBar()
    index = next(i for i in range(window.tabs.count()) if window.tabs.tabText(i).replace("&", "") == "Metrics")
    qtbot.mouseClick(tab_bar, Qt.MouseButton.LeftButton, pos=tab_bar.tabRect(index).center())
    workspace = window.tabs.currentWidget()
    assert type(workspace).__name__ == "MetricsWorkspace"
    return workspace


def shown_cells(workspace) -> dict[tuple[str, str], str]:
    """What the corpus table's cells read, by (system, spec), as the view draws them."""
    model = workspace.corpus_table.view.model()
    assert model is workspace.corpus_table.model
    out = {}
    for row in range(model.rowCount()):
        system = model.rows[row].system  # (the first column adds "(baseline)")
        assert model.index(row, 0).data().startswith(system)
        for column in range(1, model.columnCount()):
            spec = workspace.specs[column - 1] if column <= len(workspace.specs) else None
            if spec is not None:
                out[(system, spec)] = model.index(row, column).data()
    return out


def test_the_demo_shows_its_scores_in_the_first_paint(qtbot, window, no_worker, screenshot_dir):
    assert window.open_path(demo_project_path())
    assert window.session.path is None  # the untitled copy: no score file of its own
    workspace = click_metrics_tab(qtbot, window)
    cells = shown_cells(workspace)
    project = window.session.project
    assert set(cells) == {(s.id, m) for s in project.systems for m in project.settings.metrics}
    assert "…" not in "".join(cells.values()), cells
    assert workspace.status.text() == "14 scores read from the score file."  # not "14 results to compute"
    bleu = workspace.cache.current("mt", "bleu").score.corpus
    assert cells[("mt", "bleu")].startswith(format_score(bleu, "bleu"))
    workspace.grab().save(str(screenshot_dir / "demo-metrics-first-paint.png"))
    assert no_worker == []  # shown before any job was even asked for
    qtbot.waitUntil(lambda: "start" in no_worker)  # then asked for (intervals, paired tests), not run here


def test_a_bundle_with_a_current_score_file_shows_its_scores_then_their_intervals(qtbot, window, tmp_path,
                                                                                  monkeypatch, screenshot_dir):
    path = tmp_path / "many.mtwb.json"
    project = multilingual_project()
    project.settings.baseline = "a"
    save_bundle(project, path)
    fresh = run_scoring(load_project(path), ScoreCache(),
                        ScoringRequest(specs=SPECS, systems=("a", "b"), ci_samples=1000, use_processes=False))
    fresh_scores = {(i.system, i.spec): i.entry for i in fresh.items}

    started = []
    real_start = scoring_controls.ScoringControls.start_scoring
    monkeypatch.setattr(scoring_controls.ScoringControls, "start_scoring", lambda self: started.append(self))
    assert window.open_path(path, offer_recovery=False)
    workspace = click_metrics_tab(qtbot, window)
    cells = shown_cells(workspace)
    assert len(cells) == 8 and "…" not in "".join(cells.values()), cells
    for (system, spec), entry in fresh_scores.items():
        assert cells[(system, spec)] == format_score(entry.score.corpus, spec)  # the score; no interval yet
    workspace.grab().save(str(screenshot_dir / "stored-scores-first-paint.png"))

    # The job may run now: it draws the intervals from the stored statistics, as a fresh score's.
    monkeypatch.setattr(scoring_controls.ScoringControls, "start_scoring", real_start)
    qtbot.mouseClick(workspace.score_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not workspace.is_scoring() and not workspace.needs_scoring(), timeout=60_000)
    workspace.refresh()
    cells = shown_cells(workspace)
    for (system, spec), entry in fresh_scores.items():
        ci = workspace.cache.current(system, spec).ci
        assert (ci.lower, ci.upper) == (entry.ci.lower, entry.ci.upper)
        assert cells[(system, spec)].startswith(
            f"{format_score(entry.score.corpus, spec)} ± {format_score(entry.ci.ci, spec)}")
    assert workspace.last_outcome.restored == []  # nothing computed or read again: only the intervals
    workspace.grab().save(str(screenshot_dir / "stored-scores-with-intervals.png"))
