"""The app keeps a project's scores beside its bundle: opening a bundle attaches
its score file, so the Metrics and Analysis workspaces (which score through the
scoring service with the project's cache) reuse scores computed before."""

from __future__ import annotations

import pytest

from mtworkbench.gui.main_window import MainWindow
from mtworkbench.io.bundle.bundle import save_bundle
from mtworkbench.scoring.cache import cache_for
from mtworkbench.scoring.job import ScoringRequest, run_scoring
from mtworkbench.scoring.store import store_for, store_path
from tests.gui.metrics_synthetic import synthetic_project


@pytest.fixture
def window(qtbot):
    w = MainWindow()
    qtbot.addWidget(w)
    yield w
    w.session.undo_stack.setClean()


def score_in(window) -> list[tuple[str, str]]:
    project = window.session.project
    request = ScoringRequest(specs=("bleu", "ter"), systems=("sys0", "sys1"), ci_samples=20, use_processes=False)
    outcome = run_scoring(project, cache_for(project), request)
    assert all(item.entry.ci is not None for item in outcome.items)  # intervals even for restored scores
    return sorted(outcome.restored)


def test_reopened_project_reuses_its_scores(window, tmp_path):
    path = tmp_path / "g.mtwb.json"
    save_bundle(synthetic_project(10, 2), path)
    assert window.open_path(path, offer_recovery=False)
    assert store_for(window.session.project) is not None
    assert score_in(window) == []
    assert store_path(path).exists()
    assert window.open_path(path, offer_recovery=False)  # a new Project object, an empty in-memory cache
    assert score_in(window) == [("sys0", "bleu"), ("sys0", "ter"), ("sys1", "bleu"), ("sys1", "ter")]


def test_save_as_moves_the_score_file(window, tmp_path):
    window.set_project(synthetic_project(6, 2), None)
    assert store_for(window.session.project) is None
    target = tmp_path / "new.mtwb.json"
    assert window.save_to(target)
    assert store_for(window.session.project).path == store_path(target)


def test_save_as_gives_the_copy_its_own_named_file_with_the_scores(window, tmp_path):
    import json

    path = tmp_path / "orig.mtwb.json"
    save_bundle(synthetic_project(8, 2), path)
    assert window.open_path(path, offer_recovery=False)
    score_in(window)
    old_bytes = store_path(path).read_bytes()
    target = tmp_path / "copy.mtwb.json"
    assert window.save_to(target)
    assert json.loads(target.read_text(encoding="utf-8"))["score_file"] == "copy.mtwb.scores.npz"
    assert json.loads(path.read_text(encoding="utf-8"))["score_file"] == "orig.mtwb.scores.npz"
    assert store_path(target).exists()  # the scores came along at once
    assert window.open_path(target, offer_recovery=False)
    assert len(score_in(window)) == 4  # all four restored, none computed
    assert store_path(path).read_bytes() == old_bytes
