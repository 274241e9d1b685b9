"""Correlation between metric scores and human scores, with intervals and tests.

Everything here works on plain numpy arrays; :mod:`mtworkbench.analysis.human_scores`
turns a project's judgments into such arrays. The statistics come from
``scipy.stats`` (Pearson, Spearman, Kendall tau-b, Wilcoxon, the t and normal
distributions); this module adds what scipy lacks: Fisher z intervals, seeded
bootstrap intervals evaluated for all resamples at once, and the Williams test
for two dependent correlations that share one variable (the human score).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtworkbench.analysis.resampling import check_resamples, integer_blocks
from mtworkbench.core.jsonable import FINITE, NOT_IN_JSON, JsonFields

METHODS: tuple[str, ...] = ("pearson", "spearman", "kendall")
INTERVALS: tuple[str, ...] = ("fisher", "bootstrap", "none")
DEFAULT_SEED = 12345  # sacrebleu's bootstrap seed; any fixed value makes runs repeatable

# Fisher-z standard error of each coefficient: Pearson's is exact under
# normality; for Spearman and Kendall the usual approximations of Fieller,
# Hartley and Pearson (1957) are used: sqrt(1.06 / (n - 3)), sqrt(0.437 / (n - 4)).
_FISHER_VARIANCE = {"pearson": (1.0, 3), "spearman": (1.06, 3), "kendall": (0.437, 4)}


def _num(x: float | None) -> float | None:
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


def check_method(method: str) -> str:
    if method not in METHODS:
        raise ValueError(f"unknown correlation method {method!r}; expected one of {', '.join(METHODS)}")
    return method


def paired_finite(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pairs where both values are finite (missing human scores are NaN)."""
    xa = np.asarray(x, dtype=float)
    ya = np.asarray(y, dtype=float)
    if xa.shape != ya.shape or xa.ndim != 1:
        raise ValueError(f"need two 1-d arrays of equal length, got {xa.shape} and {ya.shape}")
    keep = np.isfinite(xa) & np.isfinite(ya)
    return xa[keep], ya[keep]


def coefficient(x: np.ndarray, y: np.ndarray, method: str) -> tuple[float, float]:
    """(r, two-sided p) from scipy.stats; NaN when either side is constant or n < 2."""
    check_method(method)
    if len(x) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return math.nan, math.nan
    if method == "pearson":
        from scipy import stats as sstats  # imported when used: scipy.stats is slow to import
        res = sstats.pearsonr(x, y)
    elif method == "spearman":
        from scipy import stats as sstats  # imported when used: scipy.stats is slow to import
        res = sstats.spearmanr(x, y)
    else:
        from scipy import stats as sstats  # imported when used: scipy.stats is slow to import
        res = sstats.kendalltau(x, y)
    return float(res.statistic), float(res.pvalue)


def fisher_interval(r: float, n: int, confidence: float = 0.95, method: str = "pearson") -> tuple[float, float]:
    """Confidence interval from Fisher's z = atanh(r) with a normal approximation."""
    scale, offset = _FISHER_VARIANCE[check_method(method)]
    if not math.isfinite(r) or n <= offset:
        return math.nan, math.nan
    if abs(r) >= 1.0:
        return r, r
    z = math.atanh(r)
    from scipy import stats as sstats  # imported when used: scipy.stats is slow to import
    half = sstats.norm.ppf(0.5 + confidence / 2) * math.sqrt(scale / (n - offset))
    return math.tanh(z - half), math.tanh(z + half)


def _rowwise_pearson(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pearson r of each row of ``a`` with the same row of ``b`` (NaN if a row is constant)."""
    a = a - a.mean(axis=-1, keepdims=True)
    b = b - b.mean(axis=-1, keepdims=True)
    denom = np.sqrt((a * a).sum(axis=-1) * (b * b).sum(axis=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (a * b).sum(axis=-1) / denom
    return np.where(denom > 0, r, np.nan)


def rowwise_coefficients(a: np.ndarray, b: np.ndarray, method: str) -> np.ndarray:
    """The coefficient of every row pair at once (Kendall falls back to a loop)."""
    check_method(method)
    if method == "pearson":
        return _rowwise_pearson(a, b)
    if method == "spearman":
        # Spearman's rho is Pearson's r of the (average-tie) ranks.
        from scipy import stats as sstats  # imported when used: scipy.stats is slow to import
        return _rowwise_pearson(sstats.rankdata(a, axis=-1), sstats.rankdata(b, axis=-1))
    flat_a = a.reshape(-1, a.shape[-1])
    flat_b = b.reshape(-1, b.shape[-1])
    out = np.array([coefficient(ra, rb, "kendall")[0] for ra, rb in zip(flat_a, flat_b)])
    return out.reshape(a.shape[:-1])


def bootstrap_samples(
    x: np.ndarray, y: np.ndarray, method: str, n_samples: int = 1000, seed: int = DEFAULT_SEED
) -> np.ndarray:
    """The coefficient on ``n_samples`` resamples of the pairs (with replacement)."""
    check_resamples(n_samples, "bootstrap samples")
    rng = np.random.default_rng(seed)
    blocks = [rowwise_coefficients(x[idx], y[idx], method) for idx in integer_blocks(rng, len(x), n_samples)]
    return np.concatenate(blocks) if len(blocks) > 1 else blocks[0]


def bootstrap_interval(
    x: np.ndarray,
    y: np.ndarray,
    method: str,
    confidence: float = 0.95,
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
) -> tuple[float, float]:
    """Percentile interval of the bootstrap distribution (degenerate resamples skipped)."""
    if len(x) < 2:
        return math.nan, math.nan
    samples = bootstrap_samples(x, y, method, n_samples, seed)
    samples = samples[np.isfinite(samples)]
    if len(samples) == 0:
        return math.nan, math.nan
    alpha = (1 - confidence) / 2
    lo, hi = np.quantile(samples, [alpha, 1 - alpha])
    return float(lo), float(hi)


@dataclass
class CorrelationResult:
    """One correlation coefficient with its interval: a table row or a scatter caption."""

    method: str
    r: float
    n: int
    p: float
    ci: tuple[float, float]
    ci_method: str
    confidence: float
    metric: str | None = None
    human: str | None = None
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "human": self.human,
            "level": self.level,
            "method": self.method,
            "r": _num(self.r),
            "n": int(self.n),
            "ci": [_num(self.ci[0]), _num(self.ci[1])],
            "ci_method": self.ci_method,
            "confidence": self.confidence,
            "p": _num(self.p),
        }


def correlate(
    metric_scores: Sequence[float] | np.ndarray,
    human_scores: Sequence[float] | np.ndarray,
    method: str = "pearson",
    interval: str = "fisher",
    confidence: float = 0.95,
    n_bootstrap: int = 1000,
    seed: int = DEFAULT_SEED,
    metric: str | None = None,
    human: str | None = None,
    level: str | None = None,
) -> CorrelationResult:
    """Correlation over the pairs where both scores exist, with an interval.

    ``interval`` is ``fisher`` (Fisher z, as Kulesza & Shieber 2004), ``bootstrap`` (percentile,
    seeded, resampling pairs) or ``none``.
    """
    if interval not in INTERVALS:
        raise ValueError(f"unknown interval {interval!r}; expected one of {', '.join(INTERVALS)}")
    x, y = paired_finite(metric_scores, human_scores)
    r, p = coefficient(x, y, method)
    if interval == "fisher":
        ci = fisher_interval(r, len(x), confidence, method)
    elif interval == "bootstrap":
        ci = bootstrap_interval(x, y, method, confidence, n_bootstrap, seed)
    else:
        ci = (math.nan, math.nan)
    return CorrelationResult(
        method=method, r=r, n=len(x), p=p, ci=ci, ci_method=interval, confidence=confidence,
        metric=metric, human=human, level=level,
    )


def correlation_matrix(
    columns: dict[str, Sequence[float] | np.ndarray], method: str = "pearson"
) -> tuple[list[str], np.ndarray]:
    """Pairwise coefficients over the rows where every column is finite."""
    names = list(columns)
    data = np.column_stack([np.asarray(columns[n], dtype=float) for n in names])
    data = data[np.all(np.isfinite(data), axis=1)]
    out = np.eye(len(names))
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            out[i, j] = out[j, i] = coefficient(data[:, i], data[:, j], method)[0]
    return names, out


# --- Williams test -------------------------------------------------------------------


@dataclass
class WilliamsResult(JsonFields):
    """Williams' t for r12 vs r13 when variables 2 and 3 correlate r23 (df = n - 3)."""

    r12: float = field(metadata=FINITE)
    r13: float = field(metadata=FINITE)
    r23: float = field(metadata=FINITE)
    n: int
    t: float = field(metadata=FINITE)
    df: int
    p: float = field(metadata=FINITE)
    two_tailed: bool


def williams_test(r12: float, r13: float, r23: float, n: int, two_tailed: bool = True) -> WilliamsResult:
    """Williams (1959) test for two dependent correlations sharing variable 1.

    In MT meta-evaluation variable 1 is the human score and 2, 3 are two metrics
    (Graham & Baldwin 2014). One-tailed p tests r12 > r13.
    """
    if n <= 3:
        raise ValueError("the Williams test needs n > 3")
    k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
    mean_r = (r12 + r13) / 2
    denom = 2 * k * (n - 1) / (n - 3) + mean_r**2 * (1 - r23) ** 3
    df = n - 3
    if not denom > 0 or not math.isfinite(denom):
        # e.g. two metrics that agree perfectly (r23 = 1): the test is undefined.
        return WilliamsResult(r12, r13, r23, n, math.nan, df, math.nan, two_tailed)
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23)) / math.sqrt(denom)
    from scipy import stats as sstats  # imported when used: scipy.stats is slow to import
    p = 2 * sstats.t.sf(abs(t), df) if two_tailed else sstats.t.sf(t, df)
    return WilliamsResult(r12=r12, r13=r13, r23=r23, n=n, t=t, df=df, p=float(p), two_tailed=two_tailed)


def williams_from_scores(
    human: Sequence[float] | np.ndarray,
    metric_a: Sequence[float] | np.ndarray,
    metric_b: Sequence[float] | np.ndarray,
    method: str = "pearson",
    two_tailed: bool = True,
) -> WilliamsResult:
    """Williams test of corr(human, a) vs corr(human, b) over items where all three exist."""
    _, m = correlation_matrix({"h": human, "a": metric_a, "b": metric_b}, method)
    n = int(np.sum(np.isfinite(np.asarray(human, float)) & np.isfinite(np.asarray(metric_a, float))
                   & np.isfinite(np.asarray(metric_b, float))))
    return williams_test(m[0, 1], m[0, 2], m[1, 2], n, two_tailed)


# --- Wilcoxon signed-rank between correlations across samples (Turian, Shen & Melamed 2003) --------------


@dataclass
class WilcoxonResult(JsonFields):
    """Is metric A's correlation different from B's across paired samples?"""

    a: str
    b: str
    n: int
    mean_a: float = field(metadata=FINITE)
    mean_b: float = field(metadata=FINITE)
    statistic: float = field(metadata=FINITE)
    p: float = field(metadata=FINITE)
    differences: list[float] = field(default_factory=list, repr=False, metadata=NOT_IN_JSON)


def wilcoxon_correlations(
    corr_a: Sequence[float] | np.ndarray, corr_b: Sequence[float] | np.ndarray, a: str = "a", b: str = "b"
) -> WilcoxonResult:
    """Wilcoxon signed-rank test on paired per-sample correlations.

    In Turian, Shen & Melamed 2003 the samples are pseudo-documents: each yields one Spearman
    correlation per metric, and two metrics are compared over the same samples.
    Samples where either correlation is undefined are dropped.
    """
    x, y = paired_finite(corr_a, corr_b)
    if len(x) == 0 or np.all(x == y):
        return WilcoxonResult(a, b, len(x), float(np.mean(x)) if len(x) else math.nan,
                              float(np.mean(y)) if len(y) else math.nan, math.nan, math.nan, [])
    from scipy import stats as sstats  # imported when used: scipy.stats is slow to import
    res = sstats.wilcoxon(x, y)
    return WilcoxonResult(a, b, len(x), float(x.mean()), float(y.mean()), float(res.statistic),
                          float(res.pvalue), list((x - y).tolist()))


# --- what a scatter plot draws ------------------------------------------------------------------


@dataclass
class ScatterSummary:
    """Points, least-squares line and the three coefficients of one metric-vs-human plot."""

    x: np.ndarray
    y: np.ndarray
    slope: float
    intercept: float
    pearson: float
    spearman: float
    kendall: float
    n: int
    x_label: str = ""
    y_label: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "x_label": self.x_label,
            "y_label": self.y_label,
            "n": self.n,
            "slope": _num(self.slope),
            "intercept": _num(self.intercept),
            "pearson": _num(self.pearson),
            "spearman": _num(self.spearman),
            "kendall": _num(self.kendall),
            "x": [_num(v) for v in self.x],
            "y": [_num(v) for v in self.y],
        }


def scatter_summary(
    metric_scores: Sequence[float] | np.ndarray, human_scores: Sequence[float] | np.ndarray, x_label: str = "", y_label: str = ""
) -> ScatterSummary:
    """Metric on x, human on y; the line is y = slope * x + intercept (scipy linregress)."""
    x, y = paired_finite(metric_scores, human_scores)
    if len(x) >= 2 and not np.all(x == x[0]):
        from scipy import stats as sstats  # imported when used: scipy.stats is slow to import
        fit = sstats.linregress(x, y)
        slope, intercept = float(fit.slope), float(fit.intercept)
    else:
        slope = intercept = math.nan
    return ScatterSummary(
        x=x, y=y, slope=slope, intercept=intercept,
        pearson=coefficient(x, y, "pearson")[0],
        spearman=coefficient(x, y, "spearman")[0],
        kendall=coefficient(x, y, "kendall")[0],
        n=len(x), x_label=x_label, y_label=y_label,
    )
