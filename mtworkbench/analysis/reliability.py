"""Reliability by document length with pseudo-documents (Turian, Shen & Melamed 2003, figure 4).

A pseudo-document of length n is n segments drawn at random (without
replacement). For every system its metric score is the metric's ``aggregate``
of the *summed* sufficient statistics of those segments (a document score, not
a mean of segment scores), and its human score is the mean of one randomly
chosen judgment per segment. For each n, ``n_docs`` pseudo-documents are drawn.

Two ways to correlate, chosen by ``mode``:

* ``systems`` (Turian, Shen & Melamed 2003): per pseudo-document, Spearman across the systems
  (needs >= 3 rated systems); the curve is the mean over pseudo-documents, and
  the per-document values are the paired samples for the Wilcoxon test.
* ``documents``: one Spearman across all (system, pseudo-document) pairs. This
  is what a single-system corpus (e.g. MLQE with one MT output) allows.

``auto`` picks ``systems`` when at least 3 systems are rated, else ``documents``.

Judge-vs-judge: on segments where every system has ratings from >= 2 distinct
judges, two different judges' ratings are drawn per segment and the two mean
scores are correlated the same way.

Everything is vectorised: the pseudo-documents of one length are an index
matrix (n_docs, n), turned into a 0/1 membership matrix (n_docs, n_segments),
so the statistics of all documents and systems are one (sparse) matrix product.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from scipy import sparse

from mtworkbench.analysis.correlation import (
    DEFAULT_SEED,
    WilcoxonResult,
    coefficient,
    rowwise_coefficients,
    wilcoxon_correlations,
)
from mtworkbench.analysis.human_scores import HumanScores
from mtworkbench.core.errors import DataError
from mtworkbench.core.jobs import CancelCheck, ProgressCallback, check_cancel, report

DEFAULT_LENGTHS: tuple[int, ...] = (1, 2, 3, 5, 7, 10, 15, 25, 50, 1000)
DEFAULT_DOCS = 1000
INTER_JUDGE = "inter-judge"
MODES = ("auto", "systems", "documents")


@dataclass
class MetricStats:
    """A metric's sufficient statistics on every system: (n_systems, n_segments, k).

    Rows follow ``HumanScores.systems``; ``aggregate`` is the metric's
    vectorised aggregation (``Metric.aggregate``).
    """

    label: str
    aggregate: Callable[[np.ndarray], Any]
    stats: np.ndarray


@dataclass
class Draw:
    """The random choices for one length n (shared by every metric).

    ``segments`` (n_docs, n): positions into ``eligible``; ``pick`` (S, n_docs, n)
    uniforms choosing a judgment per segment; ``pick_other`` chooses the second,
    different judge (judge-vs-judge draws only).
    """

    n: int
    eligible: np.ndarray
    segments: np.ndarray
    pick: np.ndarray
    pick_other: np.ndarray | None = None


@dataclass
class ReliabilityCurve:
    label: str
    lengths: list[int]
    mean: list[float]
    # Per-pseudo-document correlations for each n (systems mode only): Wilcoxon input.
    samples: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    # Pseudo-documents whose correlation was defined (systems mode).
    defined: list[int] = field(default_factory=list)


@dataclass
class ReliabilityResult:
    """Mean Spearman correlation with human scores per pseudo-document length."""

    human: str
    mode: str
    n_docs: int
    seed: int
    systems: list[str]
    curves: list[ReliabilityCurve]
    skipped: dict[int, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def curve(self, label: str) -> ReliabilityCurve:
        for c in self.curves:
            if c.label == label:
                return c
        raise KeyError(label)

    def wilcoxon(self, a: str, b: str, n: int) -> WilcoxonResult:
        """Wilcoxon signed-rank between two curves' per-document correlations at length n."""
        if self.mode != "systems":
            raise DataError("the Wilcoxon test needs per-document correlations (mode 'systems')")
        ca, cb = self.curve(a), self.curve(b)
        return wilcoxon_correlations(ca.samples[n], cb.samples[n], a, b)

    def to_json(self) -> dict[str, Any]:
        return {
            "human": self.human,
            "mode": self.mode,
            "n_docs": self.n_docs,
            "seed": self.seed,
            "systems": self.systems,
            "skipped": {str(k): v for k, v in self.skipped.items()},
            "notes": self.notes,
            "curves": [
                {
                    "label": c.label,
                    "lengths": c.lengths,
                    "mean_spearman": [None if not math.isfinite(v) else v for v in c.mean],
                    **({"defined": c.defined} if c.defined else {}),
                }
                for c in self.curves
            ],
        }

    def to_csv(self, raw: bool = False) -> str:
        """Long format: label,n,mean_spearman (what a plot or spreadsheet reads).

        Labels carry judge and metric names: cells a spreadsheet would evaluate
        are neutralised unless ``raw`` (``core.spreadsheet``).
        """
        from mtworkbench.core.spreadsheet import table_text

        rows: list[list[object]] = [["label", "n", "mean_spearman"]]
        for c in self.curves:
            for n, v in zip(c.lengths, c.mean):
                rows.append([c.label, n, "" if not math.isfinite(v) else repr(float(v))])
        return table_text(rows, raw=raw)


# --- drawing --------------------------------------------------------------------------


def draw_pseudo_documents(
    rng: np.random.Generator, eligible: np.ndarray, n: int, n_docs: int, n_systems: int, two_judges: bool
) -> Draw:
    """Draw n_docs pseudo-documents of n distinct eligible segments, and judgment picks."""
    base = np.broadcast_to(np.arange(len(eligible)), (n_docs, len(eligible)))
    segments = rng.permuted(base, axis=1)[:, :n]
    pick = rng.random((n_systems, n_docs, n))
    other = rng.random((n_systems, n_docs, n)) if two_judges else None
    return Draw(n, eligible, segments, pick, other)


def plan_draws(
    human: HumanScores,
    system_rows: Sequence[int],
    lengths: Sequence[int],
    n_docs: int,
    seed: int,
    inter_judge: bool,
) -> tuple[dict[int, Draw], dict[int, Draw], dict[int, str]]:
    """Every random choice of a run, in a fixed order (so a slow loop can replay it)."""
    counts = human.counts[list(system_rows)]
    metric_eligible = np.flatnonzero((counts >= 1).all(axis=0))
    judge_eligible = np.flatnonzero((counts >= 2).all(axis=0))
    rng = np.random.default_rng(seed)
    metric_draws: dict[int, Draw] = {}
    judge_draws: dict[int, Draw] = {}
    skipped: dict[int, str] = {}
    for n in lengths:
        if n > len(metric_eligible):
            skipped[n] = f"only {len(metric_eligible)} segments are rated for every system"
            continue
        metric_draws[n] = draw_pseudo_documents(rng, metric_eligible, n, n_docs, len(system_rows), False)
        if inter_judge and n <= len(judge_eligible):
            judge_draws[n] = draw_pseudo_documents(rng, judge_eligible, n, n_docs, len(system_rows), True)
    return metric_draws, judge_draws, skipped


# --- evaluating -----------------------------------------------------------------------


def _membership(draw: Draw, n_segments: int) -> sparse.csr_matrix:
    """0/1 matrix (n_docs, n_segments): which segments each pseudo-document holds.

    Sparse, so that memory grows with n_docs * n, not with the corpus size.
    """
    n_docs = draw.segments.shape[0]
    rows = np.repeat(np.arange(n_docs), draw.n)
    cols = draw.eligible[draw.segments].ravel()
    from scipy import sparse  # imported when used: scipy is slow to import

    return sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n_docs, n_segments))


def document_metric_scores(
    stats: np.ndarray, aggregate: Callable, draw: Draw, member: sparse.csr_matrix | None = None
) -> np.ndarray:
    """Metric score of every (system, pseudo-document): aggregate of summed stats, (S, D).

    ``member`` is the draw's membership matrix, when the caller already built it.
    """
    if member is None:
        member = _membership(draw, stats.shape[1])
    n_sys, n_seg, k = stats.shape
    # One matrix product for all systems: (D, N) @ (N, S*k) -> (D, S, k) -> (S, D, k).
    flat = np.ascontiguousarray(stats.transpose(1, 0, 2)).reshape(n_seg, n_sys * k)
    totals = np.asarray(member @ flat).reshape(-1, n_sys, k).transpose(1, 0, 2)
    return np.asarray(aggregate(totals), dtype=float)


def document_human_scores(
    human: HumanScores, system_rows: Sequence[int], draw: Draw, second: bool = False
) -> np.ndarray:
    """Mean of one drawn judgment per segment for every (system, pseudo-document), (S, D).

    With ``second`` the judgment of a different judge than the first pick is used.
    """
    starts, counts = human.cell_offsets()
    seg = draw.eligible[draw.segments]  # (D, n)
    out = np.empty((len(system_rows), seg.shape[0]))
    # One system at a time keeps the temporaries (D, n) small enough to stay in cache.
    for i, row in enumerate(system_rows):
        off = starts[row][seg]
        cnt = counts[row][seg]
        first = np.minimum((draw.pick[i] * cnt).astype(np.int64), cnt - 1)
        if second:
            assert draw.pick_other is not None
            shift = 1 + np.minimum((draw.pick_other[i] * (cnt - 1)).astype(np.int64), cnt - 2)
            first = (first + shift) % cnt
        out[i] = human.entries_value[off + first].mean(axis=-1)
    return out


def _correlate(metric: np.ndarray, human: np.ndarray, mode: str) -> tuple[float, np.ndarray | None, int]:
    """(mean Spearman, per-document values or None, number defined)."""
    if mode == "systems":
        per_doc = rowwise_coefficients(metric.T, human.T, "spearman")
        defined = np.isfinite(per_doc)
        mean = float(per_doc[defined].mean()) if defined.any() else math.nan
        return mean, per_doc, int(defined.sum())
    r, _ = coefficient(metric.ravel(), human.ravel(), "spearman")
    return r, None, 1 if math.isfinite(r) else 0


def resolve_mode(mode: str, n_systems: int) -> str:
    if mode not in MODES:
        raise DataError(f"unknown reliability mode {mode!r}; expected one of {', '.join(MODES)}")
    if mode == "auto":
        return "systems" if n_systems >= 3 else "documents"
    if mode == "systems" and n_systems < 3:
        raise DataError(f"mode 'systems' needs at least 3 rated systems, found {n_systems}")
    return mode


def reliability(
    metrics: Sequence[MetricStats],
    human: HumanScores,
    lengths: Sequence[int] = DEFAULT_LENGTHS,
    n_docs: int = DEFAULT_DOCS,
    seed: int = DEFAULT_SEED,
    mode: str = "auto",
    inter_judge: bool = True,
    system_rows: Sequence[int] | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> ReliabilityResult:
    """Mean Spearman correlation per pseudo-document length for each metric (and judges).

    ``system_rows`` picks systems (rows of ``human.systems`` and of each
    ``MetricStats.stats``); by default every system with at least one rating.
    """
    if system_rows is None:
        rated = np.isfinite(human.matrix).any(axis=1)
        system_rows = [int(i) for i in np.flatnonzero(rated)]
    system_rows = list(system_rows)
    if not system_rows:
        raise DataError("no system has human scores")
    for m in metrics:
        if m.stats.ndim != 3 or m.stats.shape[:2] != (len(human.systems), len(human.segments)):
            raise DataError(
                f"{m.label}: statistics must be (systems, segments, k) = "
                f"({len(human.systems)}, {len(human.segments)}, k), got {m.stats.shape}"
            )
    if any(n < 1 for n in lengths):
        raise DataError("pseudo-document lengths must be >= 1")
    mode = resolve_mode(mode, len(system_rows))
    lengths = list(lengths)
    two_judges = inter_judge and bool((human.counts[system_rows] >= 2).any())
    metric_draws, judge_draws, skipped = plan_draws(human, system_rows, lengths, n_docs, seed, two_judges)
    if mode == "documents":
        # Across documents, a length that takes every eligible segment makes all
        # pseudo-documents the same text: nothing varies, no correlation exists.
        for n, draw in list(metric_draws.items()):
            if n >= len(draw.eligible):
                del metric_draws[n]
                judge_draws.pop(n, None)
                skipped[n] = f"every pseudo-document would hold all {len(draw.eligible)} rated segments"
        for n, draw in list(judge_draws.items()):
            if n >= len(draw.eligible):
                del judge_draws[n]
    notes: list[str] = []
    if inter_judge and not judge_draws:
        notes.append("no inter-judge curve: no segment has ratings by two judges for every system")

    done_lengths = [n for n in lengths if n in metric_draws]
    curves = [ReliabilityCurve(m.label, done_lengths, []) for m in metrics]
    judge_curve = ReliabilityCurve(INTER_JUDGE, [n for n in done_lengths if n in judge_draws], [])
    steps = len(done_lengths) * (len(metrics) + 1)
    step = 0
    for n in done_lengths:
        draw = metric_draws[n]
        human_doc = document_human_scores(human, system_rows, draw)
        member = _membership(draw, len(human.segments))
        for m, curve in zip(metrics, curves):
            check_cancel(cancel)
            metric_doc = document_metric_scores(m.stats[system_rows], m.aggregate, draw, member)
            mean, per_doc, defined = _correlate(metric_doc, human_doc, mode)
            curve.mean.append(mean)
            curve.defined.append(defined)
            if per_doc is not None:
                curve.samples[n] = per_doc
            step += 1
            report(progress, step, steps)
        if n in judge_draws:
            jd = judge_draws[n]
            a = document_human_scores(human, system_rows, jd)
            b = document_human_scores(human, system_rows, jd, second=True)
            mean, per_doc, defined = _correlate(a, b, mode)
            judge_curve.mean.append(mean)
            judge_curve.defined.append(defined)
            if per_doc is not None:
                judge_curve.samples[n] = per_doc
        step += 1
        report(progress, step, steps)
    if judge_curve.lengths:
        curves.append(judge_curve)
    return ReliabilityResult(
        human=human.label,
        mode=mode,
        n_docs=n_docs,
        seed=seed,
        systems=[human.systems[i] for i in system_rows],
        curves=curves,
        skipped=skipped,
        notes=notes,
    )
