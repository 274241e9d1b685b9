"""The demo's shipped score file (resources/demo/demo.mtwb.scores.npz) holds exactly the
scores the current metric code computes for the demo, so the app shows them at once;
a stale one is ignored by the app (never a wrong number), and this test says to rebuild it."""

from __future__ import annotations

from mtworkbench.io.bundle.bundle import load_bundle
from mtworkbench.resources import demo_project_path
from mtworkbench.scoring import store as store_module
from mtworkbench.scoring.shipped_scores import seed_shipped_scores, shipped_score_file, stale_pairs
from mtworkbench.scoring.store import unsaved_store

REBUILD = ("run `.venv/bin/python tools/build_demo.py` (or with --scores-only) and commit "
           "resources/demo/demo.mtwb.scores.npz")


def test_the_shipped_demo_scores_are_current():
    path = shipped_score_file(demo_project_path())
    assert path.is_file(), f"{path} is missing: {REBUILD}"
    stale = stale_pairs(demo_project_path())
    assert not stale, (
        f"{path} is stale (the metrics' code, the demo or the version changed): {len(stale)} scores no longer "
        f"match a fresh computation, e.g. {stale[0][1]} of {stale[0][0]}; {REBUILD}")


def test_every_metric_of_the_demo_is_shipped():
    project = load_bundle(demo_project_path())
    n = seed_shipped_scores(project, demo_project_path())
    assert n == len(project.settings.metrics) * len(project.systems) == 14
    assert {key[:2] for key in unsaved_store(project).entries} == {
        (s.id, m) for s in project.systems for m in project.settings.metrics}


def test_a_stale_shipped_file_is_detected_and_not_used(monkeypatch, capsys):
    # What an edit under mtworkbench/metrics does to the file: its entries no longer count.
    monkeypatch.setattr(store_module, "metrics_code_digest", lambda: "edited metric code")
    project = load_bundle(demo_project_path())
    assert seed_shipped_scores(project, demo_project_path()) == 0
    assert "another version of the metrics' code" in capsys.readouterr().err
    assert len(stale_pairs(demo_project_path())) == 14
