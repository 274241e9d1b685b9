"""WMT meta-evaluation statistics against values derived by hand (derivations in comments)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sstats

from mtworkbench.analysis import meta_eval as me

nan = math.nan


def test_system_pairwise_accuracy_by_hand():
    # i<j pairs of h = 1,2,3,4 and m = 10,30,20,40: sign(h_i-h_j) is always -;
    # m differences: (0,1) -20, (0,2) -10, (0,3) -30, (1,2) +10, (1,3) -10, (2,3) -20:
    # only (1,2) disagrees -> 5/6.
    res = me.pairwise_accuracy([1, 2, 3, 4], [10, 30, 20, 40])
    assert (res.agree, res.n_pairs) == (5, 6)
    assert res.accuracy == pytest.approx(5 / 6)
    # A pair tied in both counts as agreeing; tied in one side only does not:
    # h = 1,1,2 m = 5,5,3: (0,1) 0/0 agree, (0,2) -/+ no, (1,2) -/+ no -> 1/3.
    assert me.pairwise_accuracy([1, 1, 2], [5, 5, 3]).accuracy == pytest.approx(1 / 3)
    # A system without a human score drops out of every pair: 3 systems left, 3 pairs.
    res = me.pairwise_accuracy([1, nan, 2, 3], [1, 9, 2, 3])
    assert (res.agree, res.n_pairs, res.accuracy) == (3, 3, 1.0)


def _two_segments():
    # 3 systems x 3 segments. Segment 0: human 1,1,2; metric 0, .3, 1.
    # Segment 1: human 5,3,- ; metric 1,2,7 (system 2 unrated there).
    # Segment 2: only system 1 rated -> no pair, the group is left out.
    human = np.array([[1, 5, nan], [1, 3, 4], [2, nan, nan]], float)
    metric = np.array([[0.0, 1, 0], [0.3, 2, 0], [1.0, 7, 0]])
    return human, metric


def test_acc_eq_by_hand():
    human, metric = _two_segments()
    # Segment 0 pairs (as is | as a metric tie | metric difference):
    #   (0,1) human tie, metric not: 0 | 1 | 0.3
    #   (0,2) concordant:            1 | 0 | 1.0
    #   (1,2) concordant:            1 | 0 | 0.7
    # accuracy by threshold: 0 -> 2/3, 0.3 -> 3/3, 0.7 -> 2/3, 1.0 -> 1/3.
    # Segment 1: (0,1) human 5>3, metric 1<2: discordant: 0 at every threshold (diff 1).
    # Mean over the two groups: 0 -> 1/3, 0.3 -> 1/2, 0.7 -> 1/3, 1.0 -> 1/6.
    res = me.acc_eq(*me.group_rows(human, metric, "item"))
    assert res.n_groups == 2 and res.n_pairs == 4
    assert res.accuracy == pytest.approx(0.5)
    assert res.epsilon == pytest.approx(0.3)
    assert res.accuracy_at_zero == pytest.approx(1 / 3)
    plain = me.compute_stat("pairwise-accuracy", "segment", human, metric, "item")
    assert plain.value == pytest.approx(1 / 3) and plain.n == 4


def test_acc_eq_keeps_epsilon_zero_when_ties_do_not_help():
    # One group, all human scores distinct and the metric concordant: every
    # introduced tie turns a correct pair into a wrong one, so epsilon stays 0, acc 1.
    res = me.acc_eq(np.array([[1.0, 2, 3]]), np.array([[0.1, 0.5, 0.9]]))
    assert (res.accuracy, res.epsilon) == (1.0, 0.0)


def test_acc_eq_smallest_best_threshold_wins():
    # Human 1,1,1,2 / metric 0, .2, .4, 5. Pairs among the three human ties have
    # metric differences .2, .2, .4 (ties help); pairs with item 3 are concordant
    # with differences 5, 4.8, 4.6 (ties hurt). At 0: 3/6; at .2: 5/6; at .4: 6/6.
    res = me.acc_eq(np.array([[1.0, 1, 1, 2]]), np.array([[0.0, 0.2, 0.4, 5]]))
    assert res.accuracy == pytest.approx(1.0)
    assert res.epsilon == pytest.approx(0.4)


def test_soft_pairwise_accuracy_by_hand():
    # Two systems, two segments. Human: A = 1,1  B = 0,0 -> per-segment differences
    # d = (1, 1), observed sum 2; a permutation flips the sign of each d_k, so the
    # null sum reaches 2 only when neither is flipped: p_h = share(s1 = s2 = +1).
    # Metric: A = 1,0  B = 0,1 -> d = (1, -1), observed 0; the null sum s1 - s2 is
    # below 0 only for s1 = -1, s2 = +1: p_m = 1 - share(s1 = -1, s2 = +1).
    human = np.array([[1.0, 1], [0, 0]])
    metric = np.array([[1.0, 0], [0, 1]])
    signs = me.permutation_signs(2, 1000, 4)
    p_h = np.mean((signs[:, 0] == 1) & (signs[:, 1] == 1))
    p_m = 1 - np.mean((signs[:, 0] == -1) & (signs[:, 1] == 1))
    res = me.soft_pairwise_accuracy(human, metric, 1000, 4)
    assert res.spa == pytest.approx(1 - abs(p_h - p_m))
    # Each sign is a fair coin, so both shares are near 1/4: SPA near 1 - |.25 - .75|.
    assert res.spa == pytest.approx(0.5, abs=0.06)


def test_soft_pairwise_accuracy_is_one_for_a_rescaled_human_score():
    rng = np.random.default_rng(7)
    human = rng.normal(size=(4, 30))
    # p-values compare sums, which a positive scale factor does not change.
    assert me.soft_pairwise_accuracy(human, 3 * human).spa == pytest.approx(1.0)
    # Segments unrated for any system are left out for all systems.
    holed = human.copy()
    holed[2, 5] = nan
    res = me.soft_pairwise_accuracy(holed, 3 * human)
    assert res.n_segments == 29 and res.spa == pytest.approx(1.0)


def test_correlations_equal_scipy():
    rng = np.random.default_rng(3)
    h = rng.normal(size=(5, 20))
    m = h + rng.normal(size=(5, 20))
    h[0, :3] = nan
    keep = np.isfinite(h.ravel())
    x, y = m.ravel()[keep], h.ravel()[keep]
    pearson = me.compute_stat("pearson", "segment", h, m)
    kendall = me.compute_stat("kendall", "segment", h, m)
    assert pearson.value == pytest.approx(sstats.pearsonr(x, y).statistic, abs=1e-12)
    assert kendall.value == pytest.approx(sstats.kendalltau(x, y).statistic, abs=1e-12)
    assert pearson.n == kendall.n == 97


def test_assign_ranks_by_hand():
    # Sorted metrics 0,1,2. p[0,1] = .01 <= .05: metric 1 starts rank 2; from there
    # only p[1,2] = .3 counts: metric 2 stays in rank 2.
    p = np.full((3, 3), nan)
    p[0, 1], p[0, 2], p[1, 2] = 0.01, 0.001, 0.3
    assert me.assign_ranks(p, 0.05) == [1, 2, 2]
    # p[0,1] = .2: metric 1 joins rank 1; p[0,2] = .01: metric 2 starts rank 2.
    p[0, 1], p[0, 2] = 0.2, 0.01
    assert me.assign_ranks(p, 0.05) == [1, 1, 2]


def test_permutation_clusters_separate_a_perfect_metric_from_noise():
    rng = np.random.default_rng(11)
    human = rng.normal(size=12)
    metrics = {"perfect": 2 * human + 1, "copy": 2 * human + 1, "noise": rng.normal(size=12)}

    def accuracy(h, m):
        return me.pairwise_accuracy(h, m).accuracy

    res = me.permutation_clusters(human, metrics, accuracy, permutations=200, seed=1)
    # Equal values sort by name; two identical metrics differ by 0 in every
    # resample, so their p is 1; noise (about half the pairs) falls behind.
    assert res.metrics == ["copy", "perfect", "noise"]
    assert res.values[:2] == [1.0, 1.0]
    assert res.p_values[0][1] == 1.0
    assert res.p_values[0][2] <= 0.05
    assert res.ranks == [1, 1, 2]
