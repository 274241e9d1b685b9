"""Pseudo-document reliability: the vectorised run equals a plain loop."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sstats

from mtworkbench.analysis.human_scores import HumanScores
from mtworkbench.analysis.reliability import (
    INTER_JUDGE,
    MetricStats,
    plan_draws,
    reliability,
)
from mtworkbench.core.errors import DataError


def ratio(totals):
    """A metric whose document score is not the mean of segment scores."""
    totals = np.asarray(totals, dtype=float)
    return totals[..., 0] / np.maximum(totals[..., 1], 1.0)


def precision_times_length(totals):
    totals = np.asarray(totals, dtype=float)
    return np.sqrt(totals[..., 0] + 1) * totals[..., 2] / np.maximum(totals[..., 1], 1.0)


def synthetic(n_systems=4, n_segments=30, seed=0, max_judges=3, unrated=()):
    """Random human entries (1..max_judges judges per item) and integer statistics."""
    rng = np.random.default_rng(seed)
    sys_i, seg_i, jud_i, val = [], [], [], []
    for s in range(n_systems):
        for g in range(n_segments):
            if g in unrated:
                continue
            judges = sorted(rng.choice(5, size=rng.integers(1, max_judges + 1), replace=False))
            for j in judges:
                sys_i.append(s)
                seg_i.append(g)
                jud_i.append(j)
                val.append(float(rng.integers(1, 6)) + 0.1 * s)
    human = HumanScores(
        label="h", field="adequacy", z=False,
        systems=[f"S{s}" for s in range(n_systems)], segments=[f"g{g}" for g in range(n_segments)],
        judges=[f"J{j}" for j in range(5)],
        entries_system=np.array(sys_i), entries_segment=np.array(seg_i),
        entries_judge=np.array(jud_i), entries_value=np.array(val),
    )
    stats_a = rng.integers(0, 20, size=(n_systems, n_segments, 2)).astype(float)
    stats_b = rng.integers(0, 20, size=(n_systems, n_segments, 3)).astype(float)
    metrics = [MetricStats("ratio", ratio, stats_a), MetricStats("other", precision_times_length, stats_b)]
    return human, metrics


def cell_values(human: HumanScores, s: int, g: int) -> list[float]:
    return [
        float(v)
        for ss, gg, v in zip(human.entries_system, human.entries_segment, human.entries_value)
        if ss == s and gg == g
    ]


def slow_reliability(metrics, human, lengths, n_docs, seed, systems):
    """Seed 000's procedure written as plain loops over documents and systems."""
    metric_draws, judge_draws, _ = plan_draws(human, systems, lengths, n_docs, seed, True)
    out: dict[str, list[float]] = {m.label: [] for m in metrics}
    out[INTER_JUDGE] = []
    for n in lengths:
        if n not in metric_draws:
            continue
        draw = metric_draws[n]
        per_metric = {m.label: [] for m in metrics}
        for d in range(n_docs):
            segs = [int(draw.eligible[p]) for p in draw.segments[d]]
            human_doc = []
            for si, s in enumerate(systems):
                picks = []
                for pos, g in enumerate(segs):
                    vals = cell_values(human, s, g)
                    i = min(int(draw.pick[si, d, pos] * len(vals)), len(vals) - 1)
                    picks.append(vals[i])
                human_doc.append(sum(picks) / len(picks))
            for m in metrics:
                scores = []
                for s in systems:
                    totals = np.zeros(m.stats.shape[2])
                    for g in segs:
                        totals += m.stats[s, g]
                    scores.append(float(m.aggregate(totals)))
                rho = sstats.spearmanr(scores, human_doc).statistic
                per_metric[m.label].append(rho)
        for label, values in per_metric.items():
            values = [v for v in values if math.isfinite(v)]
            out[label].append(sum(values) / len(values))
        if n in judge_draws:
            jd = judge_draws[n]
            rhos = []
            for d in range(n_docs):
                segs = [int(jd.eligible[p]) for p in jd.segments[d]]
                first_doc, second_doc = [], []
                for si, s in enumerate(systems):
                    a, b = [], []
                    for pos, g in enumerate(segs):
                        vals = cell_values(human, s, g)
                        c = len(vals)
                        i = min(int(jd.pick[si, d, pos] * c), c - 1)
                        j = (i + 1 + min(int(jd.pick_other[si, d, pos] * (c - 1)), c - 2)) % c
                        assert i != j
                        a.append(vals[i])
                        b.append(vals[j])
                    first_doc.append(sum(a) / len(a))
                    second_doc.append(sum(b) / len(b))
                rhos.append(sstats.spearmanr(first_doc, second_doc).statistic)
            rhos = [v for v in rhos if math.isfinite(v)]
            out[INTER_JUDGE].append(sum(rhos) / len(rhos))
    return out


def test_vectorised_equals_slow_loop():
    human, metrics = synthetic(unrated=(4,))
    lengths = [1, 2, 5, 29, 40]
    systems = [0, 1, 2, 3]
    res = reliability(metrics, human, lengths=lengths, n_docs=25, seed=3, mode="systems")
    slow = slow_reliability(metrics, human, lengths, 25, 3, systems)
    assert res.mode == "systems"
    assert 40 in res.skipped  # only 29 segments are rated for every system
    for label in ("ratio", "other", INTER_JUDGE):
        curve = res.curve(label)
        assert curve.mean == pytest.approx(slow[label], abs=1e-12), label
    assert res.curve("ratio").lengths == [1, 2, 5, 29]
    # The inter-judge curve only uses segments every system has 2+ judges for.
    two_judges = int((human.counts[systems] >= 2).all(axis=0).sum())
    assert 2 <= two_judges < 29
    assert res.curve(INTER_JUDGE).lengths == [n for n in [1, 2, 5, 29] if n <= two_judges]


def test_same_seed_same_result_and_wilcoxon_on_samples():
    human, metrics = synthetic(seed=5)
    a = reliability(metrics, human, lengths=[3, 10], n_docs=50, seed=9)
    b = reliability(metrics, human, lengths=[3, 10], n_docs=50, seed=9)
    assert a.to_json() == b.to_json()
    w = a.wilcoxon("ratio", "other", 3)
    both = np.isfinite(a.curve("ratio").samples[3]) & np.isfinite(a.curve("other").samples[3])
    assert w.n == int(both.sum()) > 0
    assert w.mean_a == pytest.approx(np.mean(a.curve("ratio").samples[3][both]))
    assert 0 <= w.p <= 1
    csv_text = a.to_csv()
    assert csv_text.splitlines()[0] == "label,n,mean_spearman"
    assert len(csv_text.splitlines()) == 1 + sum(len(c.lengths) for c in a.curves)


def test_documents_mode_single_system():
    human, metrics = synthetic(n_systems=1, n_segments=20, seed=2)
    res = reliability(metrics, human, lengths=[1, 5, 20], n_docs=40, seed=1)
    assert res.mode == "documents"
    ratio_curve = res.curve("ratio")
    # n = 20 takes every segment: all documents would be equal, so it is skipped.
    assert ratio_curve.lengths == [1, 5]
    assert "all 20 rated segments" in res.skipped[20]
    # n = 1 in documents mode: Spearman between metric and human over the 40 draws.
    from mtworkbench.analysis.reliability import document_human_scores, document_metric_scores

    draws, _, _ = plan_draws(human, [0], [1, 5, 20], 40, 1, True)
    m = document_metric_scores(metrics[0].stats[[0]], ratio, draws[1])
    h = document_human_scores(human, [0], draws[1])
    assert ratio_curve.mean[0] == pytest.approx(sstats.spearmanr(m.ravel(), h.ravel()).statistic)
    with pytest.raises(DataError):
        res.wilcoxon("ratio", "other", 1)


def test_perfect_metric_has_correlation_one():
    # A metric whose document score is exactly the mean human score of single-judge items.
    human, _ = synthetic(n_systems=5, n_segments=12, seed=4, max_judges=1)
    stats = np.zeros((5, 12, 2))
    stats[human.entries_system, human.entries_segment, 0] = human.entries_value
    stats[..., 1] = 1.0
    res = reliability([MetricStats("oracle", ratio, stats)], human, lengths=[1, 3, 12], n_docs=30, seed=0)
    assert all(v == pytest.approx(1.0) for v in res.curve("oracle").mean)
    assert "no inter-judge curve" in res.notes[0]


def test_bad_shapes_are_refused():
    human, metrics = synthetic()
    bad = MetricStats("bad", ratio, np.zeros((2, 3, 2)))
    with pytest.raises(DataError, match="statistics must be"):
        reliability([bad], human)
