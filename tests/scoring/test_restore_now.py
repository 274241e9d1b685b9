"""Scores read back from the score file before any job (``scoring.restore.restore_now``):
exactly the numbers a fresh computation gives, intervals drawn afterwards by the next job
the same as a fresh score's, and never a score of other inputs or other metric code."""

from __future__ import annotations

import numpy as np
import pytest

from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.io.bundle.bundle import save_bundle
from mtworkbench.scoring import store as store_module
from mtworkbench.scoring.cache import ScoreCache, cache_for
from mtworkbench.scoring.job import ScoringRequest, run_scoring
from mtworkbench.scoring.restore import restore_now, small_enough
from mtworkbench.scoring.store import load_project

SPECS = ("bleu", "chrf", "ter", "nist")
# Every language: the texts decide the fingerprints and the scores.
LINES = [
    ("Die Katze sitzt auf der Matte.", "Die Katze saß auf der Matte.", "Eine Katze sitzt auf Matte."),
    ("猫はマットの上に座っている。", "猫がマットの上に座った。", "猫はマットに座る。"),
    ("猫坐在垫子上。", "那只猫坐在垫子上。", "猫在垫子上。"),
    ("Кошка сидит на коврике.", "Кошка сидела на коврике.", "Кот сидит на ковре."),
    ("القطة تجلس على السجادة.", "جلست القطة على السجادة.", "القط يجلس على سجادة."),
    ("Der Hund bellt laut im Garten.", "Der Hund bellte im Garten.", "Ein Hund bellt im Hof."),
]


def multilingual_project() -> Project:
    segments = [Segment(str(k + 1), f"source {k}") for k in range(len(LINES) * 3)]
    rows = [LINES[k % len(LINES)] for k in range(len(segments))]
    ids = [s.id for s in segments]
    project = Project([Document("d", [Paragraph("p", segments)])], [Reference("ref", texts=dict(
        zip(ids, (r[0] for r in rows))))], [], "xx", "de", name="many languages")
    project.add_system(System("a", texts=dict(zip(ids, (r[1] for r in rows)))))
    project.add_system(System("b", texts=dict(zip(ids, (r[2] for r in rows)))))
    project.settings.metrics = list(SPECS)
    return project


REQUEST = ScoringRequest(specs=SPECS, systems=("a", "b"), ci_samples=200, use_processes=False)


@pytest.fixture
def scored_bundle(tmp_path):
    """A bundle whose score file holds its current scores, and the fresh results (with intervals)."""
    path = tmp_path / "many.mtwb.json"
    save_bundle(multilingual_project(), path)
    project = load_project(path)
    fresh = run_scoring(project, ScoreCache(), REQUEST)
    assert not fresh.errors and not fresh.restored and len(fresh.items) == 8
    return path, {(item.system, item.spec): item.entry for item in fresh.items}


def same_score(a, b) -> bool:
    return (a.corpus == b.corpus and a.signature == b.signature and np.array_equal(a.segments, b.segments)
            and np.array_equal(a.stats, b.stats) and a.stat_names == b.stat_names and a.system == b.system)


def test_restored_scores_equal_a_fresh_computation_and_the_next_job_adds_the_same_intervals(scored_bundle):
    path, fresh = scored_bundle
    project = load_project(path)  # a new Project: an empty in-memory cache
    cache = cache_for(project)
    restored = restore_now(project, cache, SPECS, ["a", "b"])
    assert sorted(restored.pairs) == sorted(fresh)
    for (system, spec), entry in fresh.items():
        now = cache.current(system, spec)
        assert same_score(now.score, entry.score), (system, spec)
        assert now.ci is None and now.ci_pending  # the score first, its interval after
    assert cache.pending_intervals(["a", "b"], list(SPECS))

    delivered = []
    outcome = run_scoring(project, cache, REQUEST, deliver=delivered.append)
    assert outcome.restored == []  # every score came from the cache: nothing read or scored again
    assert len(delivered) == 8 and not any(item.entry.ci_pending for item in delivered)
    for item in outcome.items:
        cache.store(item.system, item.spec, item.fingerprint, item.entry, item.generation)
        ci, want = item.entry.ci, fresh[(item.system, item.spec)].ci
        assert (ci.lower, ci.upper, ci.ci) == (want.lower, want.upper, want.ci)
        assert same_score(item.entry.score, fresh[(item.system, item.spec)].score)
    assert not cache.pending_intervals(["a", "b"], list(SPECS))


def test_the_job_hands_over_stored_scores_before_their_intervals(scored_bundle):
    path, fresh = scored_bundle
    project = load_project(path)
    delivered = []
    outcome = run_scoring(project, ScoreCache(), REQUEST, deliver=delivered.append)
    assert sorted(outcome.restored) == sorted(fresh)
    first, then = delivered[:8], delivered[8:]
    assert all(item.entry.ci_pending and item.entry.ci is None for item in first)
    assert len(then) == 8 and all(item.entry.ci is not None and not item.entry.ci_pending for item in then)
    for item in outcome.items:
        want = fresh[(item.system, item.spec)]
        assert (item.entry.ci.lower, item.entry.ci.upper) == (want.ci.lower, want.ci.upper)
        assert same_score(item.entry.score, want.score)


def test_an_edited_system_is_never_restored_from_its_old_scores(scored_bundle):
    path, fresh = scored_bundle
    project = load_project(path)
    project.system("b").texts["1"] = "Гость ضيف 客人"  # the file's scores of b are stale now
    cache = cache_for(project)
    restored = restore_now(project, cache, SPECS, ["a", "b"])
    assert sorted(restored.pairs) == sorted((s, m) for s, m in fresh if s == "a")
    assert all(cache.current("b", spec) is None for spec in SPECS)


def test_scores_from_other_metric_code_are_never_restored(scored_bundle, monkeypatch, capsys):
    path, _fresh = scored_bundle
    monkeypatch.setattr(store_module, "metrics_code_digest", lambda: "other metric code")
    project = load_project(path)
    assert restore_now(project, cache_for(project), SPECS, ["a", "b"]).pairs == []
    assert "another version of the metrics' code" in capsys.readouterr().err


def test_without_intervals_nothing_waits_for_one(scored_bundle):
    path, _fresh = scored_bundle
    project = load_project(path)
    cache = cache_for(project)
    assert len(restore_now(project, cache, SPECS, ["a", "b"], with_intervals=False).pairs) == 8
    assert not cache.pending_intervals(["a", "b"], list(SPECS))


def test_only_small_projects_are_restored_on_the_callers_thread(monkeypatch):
    from mtworkbench.scoring import restore

    project = multilingual_project()  # 18 segments x 2 systems
    assert small_enough(project)
    monkeypatch.setattr(restore, "SYNC_LIMIT", 35)
    assert not small_enough(project)
