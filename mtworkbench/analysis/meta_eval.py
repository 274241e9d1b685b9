"""WMT meta-evaluation statistics next to correlations (mt-metrics-eval's definitions).

* **System-level pairwise accuracy** (Kocmi et al. 2021): over every pair of
  systems with a human score, the share where the metric orders the pair as the
  humans do (``sign(dh) == sign(dm)``; a pair tied in both counts as agreeing).
* **Pairwise accuracy with tie calibration, acc-eq** (Deutsch et al. 2023): a
  pair of translations counts when metric and humans agree on its order, or when
  the humans tie it and the metric difference is at most epsilon. Epsilon is the
  candidate threshold (0 or any metric difference of a pair) that maximises the
  accuracy; the smallest such threshold wins. Pairs are formed within groups
  (WMT23/24 segment level: the systems' translations of one segment, ``item``)
  and the accuracy is the mean over groups that have at least one pair.
* **Soft pairwise accuracy, SPA** (Thompson et al. 2024): for each pair of
  systems, a one-sided paired-permutation p-value that system i beats system j,
  from human segment scores and from metric segment scores (one seeded set of
  segment swaps shared by both); SPA = 1 - mean |p_human - p_metric|.
* **Significance clusters, PERM-BOTH** (Deutsch et al. 2021): metrics sorted by
  their statistic; for each pair a permutation test that swaps the two metrics'
  (z-normalised) scores item by item; a metric starts a new cluster (rank) when a
  metric ranked above it within the current cluster beats it with p <= alpha.

Metric scores where lower is better are negated before any of these statistics
(correlations keep the raw scores, as ``correlate`` always has). Missing scores are
NaN. Everything is numpy; nothing here imports Qt.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtworkbench.analysis.correlation import METHODS, coefficient, paired_finite

STATS: tuple[str, ...] = METHODS + ("pairwise-accuracy", "acc-eq", "spa")
GROUPINGS: tuple[str, ...] = ("item", "system", "none")
SPA_SEED = 4  # the seed mt-metrics-eval's SPA uses; any fixed seed makes runs repeatable
SPA_PERMUTATIONS = 1000


# --- pairwise accuracy -------------------------------------------------------------------
@dataclass
class PairwiseAccuracy:
    accuracy: float
    agree: int
    n_pairs: int


def pairwise_accuracy(human: Sequence[float], metric: Sequence[float]) -> PairwiseAccuracy:
    """Share of pairs (both scores finite) that metric and humans order alike."""
    m, h = paired_finite(metric, human)
    i, j = np.triu_indices(len(h), 1)
    agree = int(np.sum(np.sign(h[i] - h[j]) == np.sign(m[i] - m[j])))
    n = len(i)
    return PairwiseAccuracy(agree / n if n else math.nan, agree, n)


# --- acc-eq ------------------------------------------------------------------------------
@dataclass
class TieCalibratedAccuracy:
    accuracy: float
    epsilon: float
    n_groups: int
    n_pairs: int
    # The accuracy at epsilon 0 (no ties introduced): plain pairwise accuracy of the groups.
    accuracy_at_zero: float


def group_rows(human: np.ndarray, metric: np.ndarray, group_by: str) -> tuple[np.ndarray, np.ndarray]:
    """(n_systems, n_segments) matrices as rows of comparable items.

    ``item``: one row per segment (pairs of systems on the same segment);
    ``system``: one row per system; ``none``: all items in one row.
    """
    human = np.asarray(human, float)
    metric = np.asarray(metric, float)
    if group_by == "item":
        return human.T, metric.T
    if group_by == "system":
        return human, metric
    if group_by == "none":
        return human.reshape(1, -1), metric.reshape(1, -1)
    raise ValueError(f"unknown grouping {group_by!r}; expected one of {', '.join(GROUPINGS)}")


_PAIR_CACHE: dict[tuple, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def _pair_index(present: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row, flat index a, flat index b) of every pair of present items within each row.

    Cached on the presence pattern: permutation tests call this with the same
    pattern thousands of times.
    """
    key = (present.shape, np.packbits(present).tobytes())
    hit = _PAIR_CACHE.get(key)
    if hit is not None:
        return hit
    rows, a, b = [], [], []
    width = present.shape[1]
    for r, mask in enumerate(present):
        cols = np.flatnonzero(mask)
        i, j = np.triu_indices(len(cols), 1)
        if len(i):
            rows.append(np.full(len(i), r))
            a.append(r * width + cols[i])
            b.append(r * width + cols[j])
    out = ((np.concatenate(rows), np.concatenate(a), np.concatenate(b)) if rows
           else (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)))
    _PAIR_CACHE.clear()  # one pattern at a time is all a test needs
    _PAIR_CACHE[key] = out
    return out


def _group_pairs(human_rows: np.ndarray, metric_rows: np.ndarray):
    """Every pair within each row where both scores are finite: (row, h1, h2, m1, m2)."""
    h = np.atleast_2d(np.asarray(human_rows, float))
    m = np.atleast_2d(np.asarray(metric_rows, float))
    row, a, b = _pair_index(np.isfinite(h) & np.isfinite(m))
    hf, mf = h.ravel(), m.ravel()
    return row, hf[a], hf[b], mf[a], mf[b]


def acc_eq(human_rows: np.ndarray, metric_rows: np.ndarray) -> TieCalibratedAccuracy:
    """Tie-calibrated pairwise accuracy over rows of comparable items (see module doc).

    Each pair contributes, to its row's accuracy, 1 when concordant or tied in
    both, else 0; once the threshold reaches its metric difference the pair is a
    metric tie and contributes 1 exactly when the humans tie it. The overall value
    is the mean of the rows' accuracies, so a pair weighs 1 / (pairs in its row x rows).
    """
    row, h1, h2, m1, m2 = _group_pairs(human_rows, metric_rows)
    if len(row) == 0:
        return TieCalibratedAccuracy(math.nan, 0.0, 0, 0, math.nan)
    used, row = np.unique(row, return_inverse=True)
    n_groups = len(used)
    per_row = np.bincount(row)
    weight = 1.0 / (per_row[row] * n_groups)
    human_tie = h1 == h2
    metric_tie = m1 == m2
    same_order = ((h1 > h2) & (m1 > m2)) | ((h1 < h2) & (m1 < m2))
    as_is = (same_order | (human_tie & metric_tie)).astype(float)
    as_tie = human_tie.astype(float)
    diff = np.abs(m1 - m2)
    base = float(np.sum(weight * as_is))
    order = np.argsort(diff, kind="stable")
    gain = np.cumsum((weight * (as_tie - as_is))[order])
    sorted_diff = diff[order]
    # The value at threshold t counts every pair with diff <= t as a tie: take the
    # cumulative gain at the last pair of each distinct difference.
    last = np.r_[sorted_diff[1:] != sorted_diff[:-1], True]
    thresholds = np.r_[0.0, sorted_diff[last]]
    values = np.r_[base, base + gain[last]]
    if sorted_diff[0] == 0.0:  # metric ties already count as ties at threshold 0
        thresholds, values = thresholds[1:], values[1:]
    # The first (smallest) threshold within rounding of the maximum.
    best = int(np.flatnonzero(values >= values.max() - 1e-12)[0])
    return TieCalibratedAccuracy(float(values[best]), float(thresholds[best]), n_groups, len(row), base)


def grouped_pairwise_accuracy(human_rows: np.ndarray, metric_rows: np.ndarray) -> TieCalibratedAccuracy:
    """Pairwise accuracy within groups without tie calibration (epsilon = 0)."""
    res = acc_eq(human_rows, metric_rows)
    return TieCalibratedAccuracy(res.accuracy_at_zero, 0.0, res.n_groups, res.n_pairs, res.accuracy_at_zero)


# --- soft pairwise accuracy --------------------------------------------------------------
def permutation_signs(n_segments: int, n_permutations: int = SPA_PERMUTATIONS, seed: int = SPA_SEED) -> np.ndarray:
    """(n_permutations, n_segments) of +1 (keep) / -1 (swap), each with probability 1/2."""
    key = (n_segments, n_permutations, seed)
    if key not in _SIGN_CACHE:
        rng = np.random.default_rng(seed)
        _SIGN_CACHE.clear()
        # Drawn as mt-metrics-eval draws them (float32 uniforms, > 0.5 keeps), so that the
        # same seed gives the same permutations and the same SPA.
        uniform = rng.random((n_permutations, n_segments), dtype=np.float32)
        _SIGN_CACHE[key] = np.where(uniform > 0.5, 1.0, -1.0)
    return _SIGN_CACHE[key]


_SIGN_CACHE: dict[tuple[int, int, int], np.ndarray] = {}


def pairwise_p_values(segment_scores: np.ndarray, signs: np.ndarray) -> np.ndarray:
    """p[i, j] (i < j): share of swaps whose score difference of i over j reaches the observed one.

    Swapping the two systems' scores on the segments where the sign is -1 turns
    the difference of sums into ``signs @ (s_i - s_j)``.
    """
    seg = np.asarray(segment_scores, float)
    n = len(seg)
    p = np.full((n, n), np.nan)
    partial = signs @ seg.T  # (n_permutations, n_systems)
    totals = seg.sum(axis=1)
    for i in range(n):
        for j in range(i + 1, n):
            p[i, j] = np.mean(partial[:, i] - partial[:, j] >= totals[i] - totals[j])
    return p


@dataclass
class SoftPairwiseAccuracy:
    spa: float
    n_systems: int
    n_segments: int
    n_permutations: int


def complete_columns(*matrices: np.ndarray) -> np.ndarray:
    """Segments (columns) where every given matrix is finite for every system."""
    keep = np.ones(np.asarray(matrices[0]).shape[1], dtype=bool)
    for m in matrices:
        keep &= np.isfinite(np.asarray(m, float)).all(axis=0)
    return keep


def soft_pairwise_accuracy(
    human_segments: np.ndarray,
    metric_segments: np.ndarray,
    n_permutations: int = SPA_PERMUTATIONS,
    seed: int = SPA_SEED,
) -> SoftPairwiseAccuracy:
    """SPA over the segments every system has both a human and a metric score for."""
    h = np.asarray(human_segments, float)
    m = np.asarray(metric_segments, float)
    keep = complete_columns(h, m)
    h, m = h[:, keep], m[:, keep]
    n_sys, n_seg = h.shape
    if n_sys < 2 or n_seg == 0:
        return SoftPairwiseAccuracy(math.nan, n_sys, n_seg, n_permutations)
    signs = permutation_signs(n_seg, n_permutations, seed)
    ph, pm = pairwise_p_values(h, signs), pairwise_p_values(m, signs)
    upper = np.triu_indices(n_sys, 1)
    return SoftPairwiseAccuracy(float(1.0 - np.mean(np.abs(ph - pm)[upper])), n_sys, n_seg, n_permutations)


# --- one entry point for every statistic ------------------------------------------------
@dataclass
class MetaEvalData:
    """Human and metric scores of the selected systems, rows aligned.

    ``*_segments`` are (n_systems, n_segments), ``*_systems`` (n_systems,); NaN = missing.
    """

    human_segments: np.ndarray
    human_systems: np.ndarray
    metric_segments: np.ndarray
    metric_systems: np.ndarray
    higher_is_better: bool = True


@dataclass
class StatResult:
    stat: str
    level: str
    value: float
    n: int  # pairs for accuracies, items for correlations, systems for SPA
    p: float | None = None
    details: dict[str, Any] = field(default_factory=dict)


def uses_segments(stat: str, level: str) -> bool:
    """Whether the statistic reads segment scores (else corpus scores)."""
    return level == "segment" or stat == "spa"


def check_stat(stat: str, level: str) -> None:
    if stat not in STATS:
        raise ValueError(f"unknown statistic {stat!r}; expected one of {', '.join(STATS)}")
    if stat == "spa" and level != "system":
        raise ValueError("spa is a system-level statistic (it compares systems from their segment scores)")


def compute_stat(
    stat: str,
    level: str,
    human: np.ndarray,
    metric: np.ndarray,
    group_by: str = "item",
    spa_permutations: int = SPA_PERMUTATIONS,
    spa_seed: int = SPA_SEED,
) -> StatResult:
    """One statistic on metric scores already oriented (higher = better for accuracies).

    ``human``/``metric`` are segment matrices when :func:`uses_segments`, else
    system vectors. Segment-level correlations pool every item (WMT's no grouping).
    """
    check_stat(stat, level)
    human = np.asarray(human, float)
    metric = np.asarray(metric, float)
    if stat in METHODS:
        m, h = paired_finite(metric.ravel(), human.ravel())
        r, p = coefficient(m, h, stat)
        return StatResult(stat, level, r, len(m), p)
    if stat == "spa":
        soft = soft_pairwise_accuracy(human, metric, spa_permutations, spa_seed)
        return StatResult(stat, level, soft.spa, soft.n_systems,
                          details={"segments": soft.n_segments, "permutations": soft.n_permutations})
    if level == "system":
        if stat == "pairwise-accuracy":
            acc = pairwise_accuracy(list(human), list(metric))
            return StatResult(stat, level, acc.accuracy, acc.n_pairs, details={"agree": acc.agree})
        tc = acc_eq(human.reshape(1, -1), metric.reshape(1, -1))
        return StatResult(stat, level, tc.accuracy, tc.n_pairs, details={"epsilon": tc.epsilon})
    hr, mr = group_rows(human, metric, group_by)
    tc = acc_eq(hr, mr) if stat == "acc-eq" else grouped_pairwise_accuracy(hr, mr)
    details = {"group_by": group_by, "groups": tc.n_groups}
    if stat == "acc-eq":
        details["epsilon"] = tc.epsilon
    return StatResult(stat, level, tc.accuracy, tc.n_pairs, details=details)


def oriented(data: MetaEvalData, stat: str, level: str, always: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(human, metric) arrays the statistic reads; accuracies (and, with ``always``,
    correlations) see lower-is-better metrics negated."""
    if uses_segments(stat, level):
        h, m = data.human_segments, data.metric_segments
    else:
        h, m = data.human_systems, data.metric_systems
    m = np.asarray(m, float)
    if (always or stat not in METHODS) and not data.higher_is_better:
        m = -m
    return np.asarray(h, float), m


# --- PERM-BOTH significance clusters ----------------------------------------------------
@dataclass
class MetricClusters:
    """Metrics in decreasing order of the statistic, with their significance rank."""

    metrics: list[str]
    values: list[float]
    ranks: list[int]
    # p_values[i][j] (i < j in this order): p that metric i is not better than metric j.
    p_values: list[list[float | None]]
    alpha: float
    permutations: int

    def to_json(self) -> dict[str, Any]:
        return {
            "alpha": self.alpha,
            "permutations": self.permutations,
            "metrics": [
                {"metric": m, "value": _num(v), "rank": r}
                for m, v, r in zip(self.metrics, self.values, self.ranks)
            ],
            "p_values": self.p_values,
        }


def _num(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)


def _zscore(values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    out = np.array(values, float)
    sel = out[keep]
    sd = sel.std()
    out[keep] = (sel - sel.mean()) / (sd if sd > 0 else 1.0)
    return out


def assign_ranks(p_values: np.ndarray, alpha: float) -> list[int]:
    """WMT's ranks: a metric opens a new rank when some metric above it, since the
    current rank began, is significantly better (p <= alpha)."""
    n = len(p_values)
    ranks, rank, start = [], 1, 0
    for i in range(n):
        if any(p_values[k, i] <= alpha for k in range(start, i)):
            rank += 1
            start = i
        ranks.append(rank)
    return ranks


def permutation_clusters(
    human: np.ndarray,
    metrics: dict[str, np.ndarray],
    statistic: Callable[[np.ndarray, np.ndarray], float],
    permutations: int = 1000,
    seed: int = 12345,
    alpha: float = 0.05,
) -> MetricClusters:
    """Rank metrics into significance clusters with the PERM-BOTH test.

    ``metrics`` maps names to score arrays shaped like ``human`` (already oriented
    so that higher is better); ``statistic(human, metric)`` computes the value.
    Each metric's scores are z-normalised over the items with a human score, then
    for each resample every item's two scores are swapped with probability 1/2.
    p = share of resamples whose difference (upper minus lower metric) reaches
    the observed difference.
    """
    human = np.asarray(human, float)
    keep = np.isfinite(human)
    for m in metrics.values():
        keep &= np.isfinite(np.asarray(m, float))
    values = {name: statistic(human, np.asarray(m, float)) for name, m in metrics.items()}
    order = sorted(metrics, key=lambda n: (-(values[n] if math.isfinite(values[n]) else -math.inf), n))
    z = {name: _zscore(np.asarray(metrics[name], float), keep) for name in order}
    rng = np.random.default_rng(seed)
    n = len(order)
    p = np.full((n, n), np.nan)
    for i in range(n):
        for j in range(i + 1, n):
            upper, lower = z[order[i]], z[order[j]]
            observed = statistic(human, upper) - statistic(human, lower)
            hits = 0
            for _ in range(permutations):
                swap = (rng.random(human.shape) < 0.5) & keep
                a = np.where(swap, lower, upper)
                b = np.where(swap, upper, lower)
                if statistic(human, a) - statistic(human, b) >= observed:
                    hits += 1
            p[i, j] = hits / permutations
    ranks = assign_ranks(p, alpha)
    p_list = [[None if not math.isfinite(x) else float(x) for x in row] for row in p]
    return MetricClusters(order, [values[m] for m in order], ranks, p_list, alpha, permutations)


# --- metrics of a project against one human score ---------------------------------------
@dataclass
class MetaEvaluation:
    results: list[StatResult]
    metrics: list[str]
    clusters: MetricClusters | None = None


def evaluate_metrics(
    data: dict[str, MetaEvalData],
    stat: str,
    level: str,
    group_by: str = "item",
    clusters: bool = False,
    permutations: int = 1000,
    seed: int = 12345,
    alpha: float = 0.05,
) -> MetaEvaluation:
    """``stat`` for each metric (name -> its data), optionally with PERM-BOTH clusters."""
    check_stat(stat, level)
    results = []
    arrays: dict[str, np.ndarray] = {}
    human = None
    for name, d in data.items():
        h, m = oriented(d, stat, level)
        human = h
        # Clusters compare metrics, so every metric is oriented there (TER's correlation counts
        # as agreement); the reported correlations keep their raw sign.
        arrays[name] = oriented(d, stat, level, always=True)[1]
        results.append(compute_stat(stat, level, h, m, group_by))
    out = MetaEvaluation(results, list(data))
    if clusters and human is not None:
        def value(h: np.ndarray, m: np.ndarray) -> float:
            return compute_stat(stat, level, h, m, group_by).value

        out.clusters = permutation_clusters(human, arrays, value, permutations, seed, alpha)
    return out
