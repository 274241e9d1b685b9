"""BLEU prediction error by maximum n-gram order."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mtworkbench.analysis.prediction_error import curve_from_scores, prediction_error_curve
from mtworkbench.core.scoring_input import ScoringInput
from mtworkbench.metrics.registry import create_metric

REFS = [
    "the quick brown fox jumps over the lazy dog near the river bank today",
    "a small cat sat quietly on the warm mat in the old kitchen",
]
HYPS = {
    "good": ["the quick brown fox jumps over the lazy dog near the river bank today",
             "a small cat sat quietly on the warm mat in the old house"],
    "mid": ["the quick fox jumps over a lazy dog near a river bank today",
            "a cat sat quietly on the mat in the old kitchen today"],
    "poor": ["quick the fox brown over jumps dog lazy the near bank river today",
             "cat small a quietly sat the on warm mat kitchen old the in"],
    "bad": ["fox dog river", "cat mat kitchen"],
}
HUMAN = [4.8, 3.9, 2.1, 1.0]


def inputs():
    return [ScoringInput(hypotheses=HYPS[s], references=[REFS]) for s in HYPS]


def test_per_order_scores_equal_rescoring_each_order():
    curve = prediction_error_curve(inputs(), HUMAN, list(HYPS), max_order=8, options={"tokenize": "none"})
    assert not curve.rescored
    assert curve.orders == list(range(1, 9))
    for n in curve.orders:
        metric = create_metric(f"bleu:tokenize=none,max_order={n}")
        direct = [metric.score(d).corpus for d in inputs()]
        assert curve.bleu[n] == pytest.approx(direct, abs=1e-9), n


def test_order_one_by_hand():
    # "bad" system: 6 hypothesis words, all in the references -> p1 = 1; lengths 6 vs 27
    # -> BP = exp(1 - 27/6). BLEU-1 = 100 * exp(1 - 4.5).
    curve = prediction_error_curve(inputs(), HUMAN, list(HYPS), max_order=2, options={"tokenize": "none"})
    assert curve.bleu[1][3] == pytest.approx(100 * math.exp(1 - 27 / 6), rel=1e-9)
    # "good": 14 + 13 words, all but "house" in the references -> p1 = 26/27, BP = 1.
    assert curve.bleu[1][0] == pytest.approx(100 * 26 / 27, rel=1e-9)


def test_prediction_error_is_one_minus_r_squared():
    per_order = {1: np.array([10.0, 20.0, 30.0, 40.0]), 2: np.array([40.0, 10.0, 30.0, 20.0])}
    human = np.array([1.0, 2.0, 3.0, 5.0])
    curve = curve_from_scores(per_order, human, ["a", "b", "c", "d"], "h")
    # Order 1: x = 10..40, y = 1,2,3,5: dx = -15,-5,5,15; dy = -1.75,-.75,.25,2.25;
    # sxy = 26.25+3.75+1.25+33.75 = 65; sxx = 500; syy = 3.0625+.5625+.0625+5.0625 = 8.75.
    r = 65 / math.sqrt(500 * 8.75)
    assert curve.r[0] == pytest.approx(r)
    assert curve.prediction_error[0] == pytest.approx(1 - r * r)
    assert curve.to_csv().splitlines()[0] == "max_order,r,prediction_error"
