"""The learned SVM metric: features by hand, numpy decision function == sklearn's."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.svm import SVC

from mtworkbench.core.errors import DataError
from mtworkbench.metrics.base import MetricError, ScoringInput
from mtworkbench.metrics.learned import (
    FEATURE_NAMES,
    LearnedMetric,
    LearnedModel,
    Tokenisation,
    features,
    human_machine_examples,
    train_learned,
)
from mtworkbench.metrics.registry import create_metric


def test_features_by_hand():
    hyp = "the cat the cat sat".split()
    refs = ["the cat sat on the mat".split(), "a cat sat".split()]
    f = dict(zip(FEATURE_NAMES, features(hyp, refs)))
    # Unigrams the:2 cat:2 sat:1 against pooled references the:2 cat:2 sat:2 -> 5/5
    # (BLEU's per-reference clip would give 4/5).
    assert f["p1"] == pytest.approx(1.0)
    # Bigrams the-cat x2, cat-the, cat-sat; pooled the-cat:1, cat-sat:2 -> 2/4.
    assert f["p2"] == pytest.approx(0.5)
    # Trigrams the-cat-the, cat-the-cat, the-cat-sat: only the last -> 1/3.
    assert f["p3"] == pytest.approx(1 / 3)
    assert f["p4"] == 0 and f["p5"] == 0
    assert f["len_ratio_min"] == pytest.approx(5 / 6)
    assert f["len_ratio_max"] == pytest.approx(5 / 3)
    # WER: 4 edits against ref 1 (6 words; 3 edits are impossible), 3 against ref 2 (3 words).
    assert f["wer_min"] == pytest.approx(4 / 6)
    # PER: ref 1: max(5,6) - overlap(the 2, cat 1, sat 1) = 2 -> 2/6; ref 2: (5-2)/3 = 1.
    assert f["per_min"] == pytest.approx(2 / 6)


def test_features_of_identical_and_empty_hypotheses():
    ref = "a b c d e f".split()
    f = features(ref, [ref])
    assert f.tolist() == [1, 1, 1, 1, 1, 1, 1, 0, 0]
    f = features([], [ref])
    assert f.tolist() == [0, 0, 0, 0, 0, 0, 0, 1, 1]


def _random_problem(seed=0, n=120):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, len(FEATURE_NAMES)))
    y = (X[:, 0] + 0.5 * X[:, 7] ** 2 + 0.3 * rng.normal(size=n) > 0.4).astype(int)
    return X, y


def test_numpy_decision_function_equals_sklearn():
    X, y = _random_problem()
    mean = X.mean(0)
    scale = X.std(0)
    Z = (X - mean) / scale
    svc = SVC(C=10.0, kernel="rbf", gamma=0.2).fit(Z, y)
    model = LearnedModel(
        support_vectors=svc.support_vectors_, dual_coef=svc.dual_coef_[0], intercept=svc.intercept_[0],
        gamma=0.2, mean=mean, scale=scale,
    )
    X_new, _ = _random_problem(seed=1, n=50)
    np.testing.assert_allclose(
        model.decision_function(X_new), svc.decision_function((X_new - mean) / scale), rtol=1e-9, atol=1e-9
    )
    # Through the JSON form (what the bundle stores) it stays the same.
    again = LearnedModel.from_json(json.loads(json.dumps(model.to_json())))
    np.testing.assert_allclose(again.decision_function(X_new), model.decision_function(X_new), rtol=0, atol=1e-12)


def test_train_learned_grid_search_and_decision_values():
    X, y = _random_problem(seed=3, n=150)
    from mtworkbench.metrics.learned import Examples

    ex = Examples(X, y, np.arange(150) // 2)
    training = train_learned(ex, C_grid=(1.0, 50.0), sigma_grid=(1.0, 10.0), seed=4)
    assert len(training.grid) == 4
    assert training.best.accuracy == max(g.accuracy for g in training.grid)
    assert training.best.gamma == pytest.approx(1 / (2 * training.best.sigma**2))
    assert training.n_train + training.n_validation == 150
    # Refit sklearn with the chosen parameters on the same split: same decision values.
    from mtworkbench.metrics.learned import split_by_segment

    train, _ = split_by_segment(ex.groups, 1 / 3, 4)
    m = training.model
    svc = SVC(C=training.best.C, kernel="rbf", gamma=training.best.gamma).fit((X[train] - m.mean) / m.scale, y[train])
    np.testing.assert_allclose(m.decision_function(X), svc.decision_function((X - m.mean) / m.scale), atol=1e-9)
    assert m.report["accuracy"] == training.best.accuracy


def test_examples_are_references_against_the_other_references():
    refs = [["a b c", "x y"], ["a b d", "x z"], ["a b c d", None]]
    hyps = {"mt": ["a a a", "x"]}
    ex = human_machine_examples(hyps, refs, Tokenisation("none"), balance=False)
    # Segment 0 has 3 references: 3 human + 3 machine examples; segment 1 has 2: 2 + 2.
    assert ex.y.tolist().count(1) == 5 and ex.y.tolist().count(0) == 5
    first_human = ex.X[0]
    expected = features("a b c".split(), ["a b d".split(), "a b c d".split()])
    np.testing.assert_allclose(first_human, expected)
    first_machine = ex.X[1]
    np.testing.assert_allclose(first_machine, features("a a a".split(), ["a b d".split(), "a b c d".split()]))
    balanced = human_machine_examples({"m1": hyps["mt"], "m2": ["b", "y"]}, refs, Tokenisation("none"))
    assert balanced.y.tolist().count(0) == balanced.y.tolist().count(1) == 5
    with pytest.raises(DataError, match="two references"):
        human_machine_examples(hyps, [["a", "b"]], Tokenisation("none"))


def test_metric_reads_model_file_and_scores_mean_decision(tmp_path):
    X, y = _random_problem()
    svc = SVC(C=1.0, kernel="rbf", gamma=0.5).fit(X, y)
    model = LearnedModel(svc.support_vectors_, svc.dual_coef_[0], svc.intercept_[0], 0.5,
                         np.zeros(9), np.ones(9))
    path = tmp_path / "model.json"
    path.write_text(json.dumps(model.to_json()))
    metric = create_metric(f"learned:model={path}")
    assert isinstance(metric, LearnedMetric)
    data = ScoringInput(
        hypotheses=["the cat sat on the mat .", "a dog"],
        references=[["the cat sat on the mat .", "the dog barked"], ["a cat sat on a mat .", None]],
    )
    score = metric.score(data)
    tok = Tokenisation()
    feats = np.array([
        features(tok(data.hypotheses[0]), [tok("the cat sat on the mat ."), tok("a cat sat on a mat .")]),
        features(tok(data.hypotheses[1]), [tok("the dog barked")]),
    ])
    expected = svc.decision_function(feats)
    np.testing.assert_allclose(score.stats[:, 0], expected, atol=1e-9)
    assert score.stats[:, 1].tolist() == [1.0, 1.0]
    assert score.corpus == pytest.approx(expected.mean())


def test_metric_without_model_and_bad_model_file(tmp_path):
    data = ScoringInput(hypotheses=["a"], references=[["a"]])
    with pytest.raises(MetricError, match="no trained model"):
        create_metric("learned").score(data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"kind": "svc-rbf", "version": 1, "features": list(FEATURE_NAMES)}))
    with pytest.raises(DataError, match="missing field"):
        create_metric(f"learned:model={bad}").score(data)
