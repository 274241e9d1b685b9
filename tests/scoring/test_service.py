"""The scoring service: one metric instance per spec, bound to the project once,
reused for every system; the same numbers as a fresh metric per system; the CLI's
score_project takes the same path."""

from __future__ import annotations

import numpy as np
import pytest

from mtworkbench.core.project_input import scoring_input
from mtworkbench.metrics.base import MetricSpecError
from mtworkbench.metrics.learned import LearnedModel
from mtworkbench.metrics.registry import create_metric
from mtworkbench.scoring import job as scoring_job
from mtworkbench.scoring.cache import ScoreCache
from mtworkbench.scoring.job import ScoringRequest, run_scoring
from mtworkbench.scoring.project_scores import score_project
from tests.gui.metrics_synthetic import synthetic_project

SYSTEMS = ("sys0", "sys1", "sys2")


@pytest.fixture
def created(monkeypatch):
    """Every metric the service creates, in order."""
    made = []

    def counting_create(spec, language=None):
        metric = create_metric(spec, language)
        made.append((spec, metric))
        return metric

    monkeypatch.setattr(scoring_job, "create_metric", counting_create)
    return made


@pytest.mark.parametrize("use_processes", [False, True], ids=["thread", "processes"])
def test_one_metric_per_spec_scores_every_system_like_a_fresh_one(created, use_processes):
    project = synthetic_project(60, 3)
    request = ScoringRequest(specs=("nist", "bleu"), systems=SYSTEMS, baseline="sys0", ci_samples=50,
                             paired_samples=50, use_processes=use_processes)
    outcome = run_scoring(project, ScoreCache(), request)
    assert outcome.used_processes == use_processes
    assert [spec for spec, _ in created] == ["nist", "bleu"]  # one each, for 3 systems and the paired test
    assert {spec: m for spec, m in created} == outcome.metrics
    assert len(outcome.items) == 6 and set(outcome.paired) == {"nist", "bleu"}
    for item in outcome.items:
        fresh = create_metric(item.spec).score(scoring_input(project, item.system))
        assert item.entry.score.system == item.system
        assert item.entry.score.corpus == fresh.corpus
        np.testing.assert_array_equal(item.entry.score.stats, fresh.stats)


def tiny_model() -> LearnedModel:
    rng = np.random.default_rng(5)
    return LearnedModel(rng.normal(size=(4, 9)), rng.normal(size=4), 0.25, 0.5, np.zeros(9), np.ones(9))


def test_bind_is_a_no_op_by_default():
    project = synthetic_project(5, 1)
    metric = create_metric("bleu:smooth=floor")
    before = dict(metric.options)
    assert metric.bind(project) is None
    assert metric.options == before


def test_the_learned_metric_is_bound_to_the_projects_model(created):
    project = synthetic_project(20, 2)
    request = ScoringRequest(specs=("learned",), systems=SYSTEMS[:2], ci_samples=0, use_processes=False)
    untrained = run_scoring(project, ScoreCache(), request)
    assert "no trained model" in untrained.errors["learned"] and not untrained.items

    project.learned_model = tiny_model().to_json()
    outcome = run_scoring(project, ScoreCache(), request)
    assert not outcome.errors
    expected = create_metric("learned")
    expected.set_model(tiny_model())
    for item in outcome.items:
        want = expected.score(scoring_input(project, item.system))
        np.testing.assert_allclose(item.entry.score.stats, want.stats, rtol=0, atol=1e-12)


def test_score_project_takes_the_same_path_and_raises_metric_errors(created):
    project = synthetic_project(30, 3)
    (nist,) = score_project(project, ["nist"], systems=["sys2", "sys0"])
    assert [spec for spec, _ in created] == ["nist"]
    assert nist.systems == list(SYSTEMS)
    assert np.isnan(nist.corpus[1]) and not np.isnan(nist.corpus[[0, 2]]).any()
    assert nist.corpus[2] == create_metric("nist").score(scoring_input(project, "sys2")).corpus
    with pytest.raises(MetricSpecError, match="nosuchmetric"):
        score_project(project, ["nosuchmetric"])
