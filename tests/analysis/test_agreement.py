"""Inter-/intra-judge agreement and per-judge z-scores: hand-derived values, scipy/sklearn cross-checks."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import cohen_kappa_score

from mtworkbench.analysis.agreement import (
    agreement,
    jitter,
    kappa_quadratic,
    paired_values,
    z_scores,
)
from mtworkbench.core.model import Judgment


def J(jid, judge, system, segment, adequacy=None, fluency=None, score=None, scale=None) -> Judgment:
    return Judgment(jid, judge, system, segment, adequacy=adequacy, fluency=fluency, score=score, scale=scale)


def two_judges() -> list[Judgment]:
    # ann and bob share five items (system A, segments 1-5); bob has one more.
    ann = [1, 2, 3, 4, 5]
    bob = [2, 1, 4, 3, 5]
    out = [J(f"a{i}", "ann", "A", str(i), adequacy=x, fluency=x) for i, x in enumerate(ann, 1)]
    out += [J(f"b{i}", "bob", "A", str(i), adequacy=y, fluency=6 - y) for i, y in enumerate(bob, 1)]
    out.append(J("b6", "bob", "A", "6", adequacy=1, fluency=1))
    return out


def test_hand_computed_pair():
    report = agreement(two_judges())
    assert report.judges == ["ann", "bob"]
    [pair] = report.pairs
    assert pair.judges == ("ann", "bob") and pair.n == 5
    # Deviations (-2,-1,0,1,2) and (-1,-2,1,0,2): sum of products 8, sums of squares 10 -> r = 0.8;
    # the values are their own ranks, so Spearman is 0.8 too.
    assert pair.adequacy.pearson == pytest.approx(0.8)
    assert pair.adequacy.spearman == pytest.approx(0.8)
    # Quadratic kappa, weights d^2/16: observed 4 pairs at d=1 -> 4/16; uniform marginals give
    # expected 0.2 * sum_{i,j}(i-j)^2 / 16 = 0.2 * 100/16 -> kappa = 1 - 4/20 = 0.8.
    assert pair.adequacy.kappa_quadratic == pytest.approx(0.8)
    # bob's fluency is 6 - his adequacy: a perfect reversal of ranks -> -0.8.
    assert pair.fluency.pearson == pytest.approx(-0.8)
    assert pair.fluency.spearman == pytest.approx(-0.8)
    assert pair.fluency.n == 5
    assert pair.score is None


def test_kappa_weights_are_distances_on_the_scale():
    # Only categories 1, 2, 5 occur. With weights (d/4)^2 on the 1-5 scale:
    # observed (1,2),(2,1),(5,5),(5,2) -> (1+1+0+9)/16 = 11/16;
    # expected sum a_i b_j d^2 / (n*16) = 96/64 = 24/16  ->  kappa = 1 - 11/24 = 13/24.
    a, b = [1, 2, 5, 5], [2, 1, 5, 2]
    assert kappa_quadratic(a, b) == pytest.approx(13 / 24)
    assert kappa_quadratic([4], [3]) is None  # one shared item: undefined, not 0
    # sklearn without the labels would weight by category index and give 0.4: not what we want.
    assert cohen_kappa_score(a, b, weights="quadratic") == pytest.approx(0.4)


def _kappa_by_formula(a: np.ndarray, b: np.ndarray) -> float:
    observed = np.zeros((5, 5))
    for x, y in zip(a, b):
        observed[x - 1, y - 1] += 1
    observed /= observed.sum()
    expected = np.outer(observed.sum(1), observed.sum(0))
    i, j = np.indices((5, 5))
    w = (i - j) ** 2 / 16
    return 1 - (w * observed).sum() / (w * expected).sum()


def test_cross_check_with_scipy_and_sklearn():
    rng = np.random.default_rng(11)
    judgments = []
    truth = rng.integers(1, 6, size=80)
    for k, judge in enumerate(["p", "q", "r"]):
        noisy = np.clip(truth + rng.integers(-1, 2, size=80), 1, 5)
        for i in range(80):
            if (i + k) % 4:  # each judge skips a different quarter: partial overlap
                judgments.append(J(f"{judge}{i}", judge, "S", str(i), adequacy=int(noisy[i]), fluency=int(6 - noisy[i])))
    report = agreement(judgments)
    assert [p.judges for p in report.pairs] == [("p", "q"), ("p", "r"), ("q", "r")]
    for pair in report.pairs:
        a_name, b_name = pair.judges
        va = {j.segment: j.adequacy for j in judgments if j.judge == a_name}
        vb = {j.segment: j.adequacy for j in judgments if j.judge == b_name}
        shared = sorted(set(va) & set(vb), key=int)
        x = np.array([va[s] for s in shared])
        y = np.array([vb[s] for s in shared])
        assert pair.n == len(shared) == pair.adequacy.n
        assert pair.adequacy.spearman == pytest.approx(stats.spearmanr(x, y).statistic)
        assert pair.adequacy.pearson == pytest.approx(stats.pearsonr(x, y).statistic)
        assert pair.adequacy.kappa_quadratic == pytest.approx(_kappa_by_formula(x, y))
        assert pair.adequacy.kappa_quadratic == pytest.approx(
            cohen_kappa_score(x, y, labels=[1, 2, 3, 4, 5], weights="quadratic")
        )


def test_repeats_feed_intra_not_inter():
    judgments = two_judges() + [
        J("a1r", "ann", "A", "1", adequacy=2, fluency=1),  # repeat of a1 (1, 1)
        J("a2r", "ann", "A", "2", adequacy=2, fluency=2),  # repeat of a2 (2, 2): identical
    ]
    report = agreement(judgments)
    # Inter-judge statistics unchanged: the first rating of each item counts.
    assert report.pairs[0].adequacy.pearson == pytest.approx(0.8)
    assert list(report.intra) == ["ann"]
    intra = report.intra["ann"]
    assert intra.n == 2
    assert intra.adequacy.exact == 0.5  # (1 -> 2) differs, (2 -> 2) equal
    assert intra.adequacy.mean_abs_diff == 0.5
    assert intra.fluency.exact == 1.0 and intra.fluency.mean_abs_diff == 0.0
    # Repeats (1,2),(2,2): observed weight (1/16)/2; marginals a=(1/2,1/2) on 1,2, b=(0,1) on 2:
    # expected (1/2)(1/16) -> kappa = 1 - (1/32)/(1/32) = 0.
    assert intra.adequacy.kappa_quadratic == pytest.approx(0.0)


def test_undefined_statistics_are_null():
    judgments = [
        J("a1", "ann", "A", "1", adequacy=3), J("a2", "ann", "A", "2", adequacy=3),
        J("b1", "bob", "A", "1", adequacy=3), J("b2", "bob", "A", "2", adequacy=3),
        J("c1", "cy", "A", "1", adequacy=4),
    ]
    report = agreement(judgments)
    ab = report.pair("ann", "bob")
    assert ab.adequacy.spearman is None and ab.adequacy.pearson is None
    assert ab.adequacy.kappa_quadratic is None  # both raters in one category: 0/0
    assert ab.fluency.n == 0 and ab.fluency.spearman is None
    ac = report.pair("cy", "ann")
    assert ac.n == 1 and ac.adequacy.pearson is None  # one item: no correlation
    text = json.dumps(report.to_json(), allow_nan=False)  # no NaN leaks into the JSON
    assert "null" in text


def test_json_shape_matches_the_issue():
    judgments = two_judges() + [J("a1r", "ann", "A", "1", adequacy=1, fluency=2)]
    data = json.loads(json.dumps(agreement(judgments).to_json()))
    assert data["judges"] == ["ann", "bob"]
    [pair] = data["pairs"]
    assert pair["judges"] == ["ann", "bob"] and pair["n"] == 5
    for scale in ("adequacy", "fluency"):
        assert {"spearman", "pearson", "kappa_quadratic"} <= set(pair[scale])
    assert pair["adequacy"]["kappa_quadratic"] == pytest.approx(0.8)
    assert set(data["intra"]) == {"ann"}
    assert data["intra"]["ann"]["n"] == 1
    assert data["intra"]["ann"]["adequacy"]["exact"] == 1.0
    assert data["intra"]["ann"]["fluency"]["exact"] == 0.0


def test_z_scores_per_judge():
    judgments = [
        J("a1", "ann", "A", "1", adequacy=1), J("a2", "ann", "A", "2", adequacy=2), J("a3", "ann", "A", "3", adequacy=3),
        J("b1", "bob", "A", "1", adequacy=4), J("b2", "bob", "A", "2", adequacy=4),
        J("c1", "cy", "A", "1", adequacy=2), J("c2", "cy", "A", "2", adequacy=4),
    ]
    z = z_scores(judgments, "adequacy")
    # ann: mean 2, variance (1+0+1)/3 -> sd sqrt(2/3); z = -/+ 1/sqrt(2/3) = -/+ sqrt(1.5).
    assert z["a1"] == pytest.approx(-math.sqrt(1.5))
    assert z["a2"] == pytest.approx(0.0)
    assert z["a3"] == pytest.approx(math.sqrt(1.5))
    assert z["b1"] == z["b2"] == 0.0  # no spread
    assert (z["c1"], z["c2"]) == (pytest.approx(-1.0), pytest.approx(1.0))
    summary = agreement(judgments).summaries["ann"]
    assert summary.moments["adequacy"].mean == 2.0
    assert summary.moments["adequacy"].sd == pytest.approx(math.sqrt(2 / 3))
    with pytest.raises(ValueError):
        z_scores(judgments, "accuracy")


def test_pseudo_judges_scores_compared_without_kappa():
    judgments = [J(f"d{i}", "da", "A", str(i), score=s, scale="da-z") for i, s in enumerate([0.5, -1.2, 0.1, 2.0], 1)]
    judgments += [J(f"m{i}", "mqm", "A", str(i), score=s, scale="mqm") for i, s in enumerate([-0.1, -5.0, -1.0, 0.0], 1)]
    judgments += [J("h1", "ann", "A", "1", adequacy=4, fluency=5)]
    report = agreement(judgments)
    pair = report.pair("da", "mqm")
    assert pair.n == 4 and pair.adequacy.n == 0
    # Same order of the four items on both scales: Spearman 1.
    assert pair.score.spearman == pytest.approx(1.0)
    assert pair.score.pearson == pytest.approx(stats.pearsonr([0.5, -1.2, 0.1, 2.0], [-0.1, -5.0, -1.0, 0.0]).statistic)
    assert pair.score.kappa_quadratic is None
    assert "score" in pair.to_json() and "score" not in report.pair("da", "ann").to_json()
    assert report.summaries["mqm"].scales == ["mqm"]


def test_paired_values_and_jitter_for_the_scatter():
    pv = paired_values(two_judges(), "ann", "bob", "adequacy")
    assert pv.items == [("A", str(i)) for i in range(1, 6)]
    assert pv.a.tolist() == [1, 2, 3, 4, 5] and pv.b.tolist() == [2, 1, 4, 3, 5]
    jittered = jitter(pv.a, 0.2, seed=1)
    assert np.all(np.abs(jittered - pv.a) <= 0.2) and not np.array_equal(jittered, pv.a)
    assert np.array_equal(jittered, jitter(pv.a, 0.2, seed=1))


def test_score_only_pseudo_judge_is_set_against_adequacy_and_fluency():
    da = [0.5, -1.2, 0.1, 2.0]
    judgments = [J(f"d{i}", "da", "A", str(i), score=s, scale="da-z") for i, s in enumerate(da, 1)]
    ann_adequacy = [4, 1, 3, 5]  # ranks the four items as the DA scores do
    ann_fluency = [1, 2, 3, 4]
    judgments += [J(f"a{i}", "ann", "A", str(i), adequacy=x, fluency=y) for i, (x, y) in enumerate(zip(ann_adequacy, ann_fluency), 1)]
    pair = agreement(judgments).pair("da", "ann")
    assert pair.adequacy.n == 4 and pair.adequacy.spearman == pytest.approx(1.0)
    assert pair.adequacy.pearson == pytest.approx(stats.pearsonr(da, ann_adequacy).statistic)
    assert pair.adequacy.kappa_quadratic is None  # DA is not a 1-5 rater
    # DA ranks: 3,1,2,4 against 1,2,3,4: d^2 = 4+1+1+0 = 6 -> rho = 1 - 6*6/(4*15) = 0.4.
    assert pair.fluency.spearman == pytest.approx(0.4)
    assert pair.score is None
