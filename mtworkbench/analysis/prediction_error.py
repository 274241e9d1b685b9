"""BLEU's prediction error 1 - R^2 against human scores by maximum n-gram order
(Papineni et al. 2002, "Corpus-based Comprehensive and Diagnostic
MT Evaluation", figures 8-9), at system level.

For each maximum order N = 1..16, each system's corpus BLEU with orders 1..N
(uniform weights) is correlated (Pearson R) with the system's human score, and
1 - R^2 is the share of the human score's variance that a linear fit on BLEU
leaves unexplained. Statistics are extracted once with ``max_order=16``; BLEU-N
aggregates the subset of columns it needs (hypothesis and effective reference
lengths do not depend on N, and order-n counts are the same whatever the
maximum order). If a BLEU implementation's statistics were not nested that
way, each order is rescored from the texts instead.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtworkbench.analysis.correlation import coefficient
from mtworkbench.core.errors import DataError
from mtworkbench.core.jobs import CancelCheck, ProgressCallback, check_cancel, report
from mtworkbench.core.scoring_input import ScoringInput
from mtworkbench.metrics.base import Metric
from mtworkbench.metrics.registry import metric_class

MAX_ORDER = 16


@dataclass
class PredictionErrorCurve:
    """Pearson R and 1 - R^2 of system-level BLEU-N vs human scores, N = 1..max."""

    human: str
    systems: list[str]
    human_scores: list[float]
    orders: list[int]
    r: list[float]
    prediction_error: list[float]
    bleu: dict[int, list[float]] = field(default_factory=dict)
    rescored: bool = False

    def to_json(self) -> dict[str, Any]:
        fin = lambda v: None if not math.isfinite(v) else float(v)  # noqa: E731
        return {
            "human": self.human,
            "systems": self.systems,
            "human_scores": [fin(v) for v in self.human_scores],
            "orders": self.orders,
            "r": [fin(v) for v in self.r],
            "prediction_error": [fin(v) for v in self.prediction_error],
            "bleu": {str(n): [fin(v) for v in vals] for n, vals in self.bleu.items()},
            "rescored": self.rescored,
        }

    def to_csv(self) -> str:
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["max_order", "r", "prediction_error"])
        for n, r, e in zip(self.orders, self.r, self.prediction_error):
            w.writerow([n, "" if not math.isfinite(r) else repr(r), "" if not math.isfinite(e) else repr(e)])
        return out.getvalue()


def _bleu(options: dict[str, Any], order: int) -> Metric:
    opts = {k: v for k, v in options.items() if k not in ("max_order", "weights")}
    return metric_class("bleu")(**opts, max_order=order)


def order_scores_from_stats(
    stats: np.ndarray, options: dict[str, Any], max_order: int = MAX_ORDER
) -> dict[int, np.ndarray] | None:
    """Corpus BLEU-N of every system from (n_systems, n_segments, k) statistics taken
    with ``max_order``; None when the statistics are not nested by order."""
    full = _bleu(options, max_order)
    names = list(full.stat_names)
    if stats.shape[-1] != len(names):
        raise DataError(f"expected {len(names)} BLEU statistics, got {stats.shape[-1]}")
    totals = stats.sum(axis=1)  # (S, k)
    out: dict[int, np.ndarray] = {}
    for n in range(1, max_order + 1):
        metric = _bleu(options, n)
        want = list(metric.stat_names)
        if not set(want) <= set(names):
            return None
        cols = [names.index(s) for s in want]
        out[n] = np.asarray(metric.aggregate(totals[:, cols]), dtype=float).reshape(-1)
    return out


def prediction_error_curve(
    inputs: Sequence[ScoringInput],
    human_scores: Sequence[float] | np.ndarray,
    systems: Sequence[str],
    human_label: str = "human",
    max_order: int = MAX_ORDER,
    options: dict[str, Any] | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> PredictionErrorCurve:
    """1 - R^2 of system BLEU-N against ``human_scores`` (one per system), N = 1..max_order."""
    options = dict(options or {})
    if len(inputs) != len(human_scores) or len(inputs) != len(systems):
        raise DataError("need one scoring input and one human score per system")
    h = np.asarray(human_scores, dtype=float)
    if np.sum(np.isfinite(h)) < 3:
        raise DataError("the prediction error needs at least 3 systems with human scores")
    full = _bleu(options, max_order)
    stats = []
    for i, data in enumerate(inputs):
        check_cancel(cancel)
        stats.append(full.segment_statistics(data))
        report(progress, i + 1, len(inputs) + 1)
    per_order = order_scores_from_stats(np.stack(stats), options, max_order)
    rescored = per_order is None
    if per_order is None:
        per_order = {
            n: np.array([_bleu(options, n).score(d).corpus for d in inputs]) for n in range(1, max_order + 1)
        }
    return curve_from_scores(per_order, h, list(systems), human_label, rescored)


def curve_from_scores(
    per_order: dict[int, np.ndarray], human: np.ndarray, systems: list[str], label: str, rescored: bool = False
) -> PredictionErrorCurve:
    keep = np.isfinite(human)
    orders = sorted(per_order)
    rs, errs = [], []
    for n in orders:
        r, _ = coefficient(per_order[n][keep], human[keep], "pearson")
        rs.append(r)
        errs.append(1.0 - r * r if math.isfinite(r) else math.nan)
    return PredictionErrorCurve(
        human=label,
        systems=systems,
        human_scores=human.tolist(),
        orders=orders,
        r=rs,
        prediction_error=errs,
        bleu={n: per_order[n].tolist() for n in orders},
        rescored=rescored,
    )


def project_prediction_error(
    project: Any, human: Any, max_order: int = MAX_ORDER, options: dict[str, Any] | None = None,
    progress: ProgressCallback | None = None, cancel: CancelCheck | None = None,
) -> PredictionErrorCurve:
    """The curve for a project's systems that have human scores (``human``: HumanScores)."""
    from mtworkbench.core.project_input import scoring_input

    sys_scores = human.system_scores()
    rows = [i for i, v in enumerate(sys_scores) if math.isfinite(v)]
    systems = [human.systems[i] for i in rows]
    inputs = [scoring_input(project, s) for s in systems]
    return prediction_error_curve(inputs, sys_scores[rows], systems, human.label, max_order, options,
                                  progress, cancel)
