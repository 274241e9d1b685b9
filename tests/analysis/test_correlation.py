"""Correlations, intervals and tests checked against hand-derived values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sstats

from mtworkbench.analysis.correlation import (
    bootstrap_interval,
    bootstrap_samples,
    correlate,
    fisher_interval,
    rowwise_coefficients,
    scatter_summary,
    wilcoxon_correlations,
    williams_from_scores,
    williams_test,
)

# x = 1..5, y = 2,1,4,3,5. Deviations from the mean 3: dx = -2,-1,0,1,2 and
# dy = -1,-2,1,0,2; sum dx*dy = 2+2+0+0+4 = 8, sum dx^2 = sum dy^2 = 10 -> r = 0.8.
# The values are their own ranks, so Spearman is 0.8 too. Of the 10 pairs only
# (1,2) and (3,4) are discordant: tau = (8 - 2) / 10 = 0.6.
X = [1, 2, 3, 4, 5]
Y = [2, 1, 4, 3, 5]


def test_hand_computed_coefficients():
    assert correlate(X, Y, "pearson").r == pytest.approx(0.8, abs=1e-12)
    assert correlate(X, Y, "spearman").r == pytest.approx(0.8, abs=1e-12)
    assert correlate(X, Y, "kendall").r == pytest.approx(0.6, abs=1e-12)


def test_pearson_p_value_from_t_distribution():
    # t = r sqrt(n-2) / sqrt(1-r^2) = 0.8 sqrt(3) / 0.6, df = 3, two-sided.
    t = 0.8 * math.sqrt(3) / 0.6
    res = correlate(X, Y, "pearson")
    assert res.p == pytest.approx(2 * sstats.t.sf(t, 3), rel=1e-9)


def test_kendall_exact_p_value_by_counting_permutations():
    # Permutations of 5 with <= 2 inversions: 1 + 4 + 9 = 14 of 120 (Mahonian
    # numbers); S = 6 is as extreme, two-sided p = 2 * 14 / 120.
    assert correlate(X, Y, "kendall").p == pytest.approx(28 / 120, rel=1e-9)


def test_spearman_with_ties_uses_average_ranks():
    # x ranks: 1, 2.5, 2.5, 4 ; y ranks: 1..4. Deviations from 2.5: x -1.5,0,0,1.5;
    # y -1.5,-0.5,0.5,1.5. cov = 2.25+2.25 = 4.5; var_x = 4.5, var_y = 5.
    r = correlate([1, 2, 2, 3], [10, 20, 30, 40], "spearman").r
    assert r == pytest.approx(4.5 / math.sqrt(4.5 * 5), abs=1e-12)


def test_missing_values_are_dropped_pairwise():
    res = correlate([1, 2, math.nan, 3, 4, 5], [2, 1, 7, 4, 3, 5], "pearson")
    assert res.n == 5
    assert res.r == pytest.approx(0.8)
    res = correlate(X + [9], Y + [math.nan], "pearson")
    assert res.n == 5 and res.r == pytest.approx(0.8)


def test_constant_input_gives_undefined_correlation():
    res = correlate([1, 1, 1], [1, 2, 3], "pearson")
    assert math.isnan(res.r)
    assert res.to_json()["r"] is None


def test_fisher_interval_by_hand():
    # z = atanh(0.8) = 0.5 ln 9 = 1.0986123; se = 1/sqrt(5-3); z_{0.975} = 1.959964.
    z = 0.5 * math.log(9)
    half = 1.959963984540054 / math.sqrt(2)
    lo, hi = fisher_interval(0.8, 5, 0.95, "pearson")
    assert lo == pytest.approx(math.tanh(z - half), abs=1e-9)
    assert hi == pytest.approx(math.tanh(z + half), abs=1e-9)
    assert lo == pytest.approx(-0.27960, abs=1e-4)
    assert hi == pytest.approx(0.98621, abs=1e-4)


def test_fisher_interval_spearman_and_kendall_variances():
    z = math.atanh(0.5)
    q = 1.959963984540054
    lo, hi = fisher_interval(0.5, 50, 0.95, "spearman")
    assert lo == pytest.approx(math.tanh(z - q * math.sqrt(1.06 / 47)), abs=1e-9)
    lo, hi = fisher_interval(0.5, 50, 0.95, "kendall")
    assert hi == pytest.approx(math.tanh(z + q * math.sqrt(0.437 / 46)), abs=1e-9)


def test_correlate_result_json_shape():
    res = correlate(X, Y, "pearson", metric="bleu", human="da", level="segment")
    out = res.to_json()
    assert out["metric"] == "bleu" and out["human"] == "da" and out["level"] == "segment"
    assert out["n"] == 5 and len(out["ci"]) == 2 and out["ci"][0] < 0.8 < out["ci"][1]


def test_rowwise_coefficients_match_one_by_one():
    rng = np.random.default_rng(0)
    a = rng.normal(size=(7, 12))
    b = a + rng.normal(size=(7, 12))
    b[3, 5] = b[3, 6]  # a tie
    for method in ("pearson", "spearman", "kendall"):
        rows = rowwise_coefficients(a, b, method)
        for i in range(7):
            assert rows[i] == pytest.approx(correlate(a[i], b[i], method).r, abs=1e-12)


def test_bootstrap_is_seeded_and_resamples_pairs():
    rng = np.random.default_rng(1)
    x = rng.normal(size=40)
    y = x + rng.normal(size=40)
    a = bootstrap_interval(x, y, "pearson", seed=7)
    b = bootstrap_interval(x, y, "pearson", seed=7)
    assert a == b
    assert a != bootstrap_interval(x, y, "pearson", seed=8)
    # Replay the resampling by hand for a few samples.
    samples = bootstrap_samples(x, y, "pearson", n_samples=5, seed=3)
    idx = np.random.default_rng(3).integers(0, 40, size=(5, 40))
    for s in range(5):
        assert samples[s] == pytest.approx(np.corrcoef(x[idx[s]], y[idx[s]])[0, 1], abs=1e-12)
    r = correlate(x, y).r
    assert a[0] < r < a[1]


def test_williams_by_hand_and_published_example():
    # Steiger (1980) example as in the R psych package's r.test(103, .4, .5, .1):
    # K = 1 - .16 - .25 - .01 + 2(.4)(.5)(.1) = 0.62;
    # t = -0.1 sqrt(102 * 1.1) / sqrt(2 * 0.62 * 102/100 + 0.45^2 * 0.9^3) = -0.8913, df 100.
    res = williams_test(0.4, 0.5, 0.1, 103)
    expected_t = -0.1 * math.sqrt(112.2) / math.sqrt(1.2648 + 0.2025 * 0.729)
    assert res.t == pytest.approx(expected_t, abs=1e-12)
    assert round(res.t, 2) == -0.89
    assert res.df == 100
    assert res.p == pytest.approx(2 * sstats.t.sf(0.8912799, 100), abs=1e-6)
    assert round(res.p, 2) == 0.37
    one = williams_test(0.5, 0.4, 0.1, 103, two_tailed=False)
    assert one.p == pytest.approx(res.p / 2, abs=1e-12)


def test_williams_from_scores_uses_the_three_correlations():
    rng = np.random.default_rng(2)
    h = rng.normal(size=60)
    a = h + rng.normal(size=60) * 0.5
    b = h + rng.normal(size=60) * 2.0
    res = williams_from_scores(h, a, b)
    assert res.r12 == pytest.approx(np.corrcoef(h, a)[0, 1])
    assert res.r13 == pytest.approx(np.corrcoef(h, b)[0, 1])
    assert res.r23 == pytest.approx(np.corrcoef(a, b)[0, 1])
    assert res.n == 60 and res.t > 0


def test_wilcoxon_on_paired_correlations_by_hand():
    # Differences 0.1, 0.2, -0.05, 0.3, 0.15: |d| ranks 2,4,1,5,3; W- = 1, W+ = 14.
    # Exact two-sided p: subsets of {1..5} with rank sum <= 1 are {} and {1}:
    # p = 2 * 2 / 32 = 0.125.
    a = [0.5, 0.6, 0.3, 0.7, 0.45]
    b = [0.4, 0.4, 0.35, 0.4, 0.30]
    res = wilcoxon_correlations(a, b, "gtm", "bleu")
    assert res.statistic == pytest.approx(1.0)
    assert res.p == pytest.approx(0.125)
    assert res.mean_a == pytest.approx(np.mean(a))
    assert res.to_json()["a"] == "gtm"


def test_scatter_summary_line_by_hand():
    # Least squares on x = 1..5, y = 2,1,4,3,5: slope = sxy / sxx = 8 / 10, intercept = 3 - 0.8 * 3.
    s = scatter_summary(X, Y, "bleu", "da")
    assert s.slope == pytest.approx(0.8)
    assert s.intercept == pytest.approx(0.6)
    assert (s.pearson, s.spearman, s.kendall) == pytest.approx((0.8, 0.8, 0.6))
    assert s.to_json()["n"] == 5


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3)), min_size=3, max_size=30),
    st.sampled_from(["pearson", "spearman", "kendall"]),
)
def test_coefficients_are_bounded_and_symmetric(pairs, method):
    x = np.array([p[0] for p in pairs])
    y = np.array([p[1] for p in pairs])
    res = correlate(x, y, method)
    if math.isnan(res.r):
        return
    assert -1 - 1e-9 <= res.r <= 1 + 1e-9
    assert correlate(y, x, method).r == pytest.approx(res.r, abs=1e-9)
    lo, hi = res.ci
    if math.isfinite(lo):
        assert lo <= res.r + 1e-12 and res.r <= hi + 1e-12


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-50, 50), min_size=4, max_size=25, unique=True),
       st.lists(st.floats(-50, 50), min_size=4, max_size=25))
def test_rank_coefficients_ignore_monotone_transforms(xs, ys):
    n = min(len(xs), len(ys))
    x, y = np.array(xs[:n], dtype=float), np.array(ys[:n])
    for method in ("spearman", "kendall"):
        a = correlate(x, y, method).r
        b = correlate(np.exp(x / 10), y, method).r  # strictly increasing
        if math.isfinite(a):
            assert b == pytest.approx(a, abs=1e-9)
