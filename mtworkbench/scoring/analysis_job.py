"""The Analysis workspace's job: plain Python, no Qt.

``run_analysis`` scores the rated systems with each metric (through the scoring
service's ``run_scoring``, the one the Metrics workspace uses, so results already in the project's score cache are
reused and new ones are shared back), then correlates every metric with the
human score at the chosen level, builds the scatter summaries and, on request,
the reliability curves (Turian, Shen & Melamed 2003, figure 4). It reports ``progress(done, total)``
in thousandths of the whole job and honours ``cancel()`` like every core job.

The human scores are collected on the GUI thread before the job starts
(``collect_human_scores`` is fast), so the job reads only texts from the project.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from mtworkbench.analysis.correlation import (
    CorrelationResult,
    ScatterSummary,
    WilliamsResult,
    correlate,
    scatter_summary,
    williams_from_scores,
)
from mtworkbench.analysis.human_scores import HumanScores, level_pairs
from mtworkbench.analysis.meta_eval import MetaEvalData
from mtworkbench.analysis.meta_table import MetaRow, meta_row
from mtworkbench.analysis.reliability import (
    DEFAULT_DOCS,
    DEFAULT_LENGTHS,
    MetricStats,
    ReliabilityResult,
    reliability,
)
from mtworkbench.core.errors import DataError
from mtworkbench.core.jobs import CancelCheck, ProgressCallback, check_cancel, report
from mtworkbench.core.model import Project
from mtworkbench.scoring.cache import ScoreCache
from mtworkbench.scoring.job import (
    DEFAULT_CI_SAMPLES,
    ScoredItem,
    ScoringRequest,
    run_scoring,
)

LEVELS: tuple[str, ...] = ("segment", "system")
# Share of the progress bar that scoring takes; the statistics take the rest.
SCORING_SHARE = 0.8
TOTAL = 1000


@dataclass(frozen=True)
class AnalysisRequest:
    human_spec: str
    z: bool
    specs: tuple[str, ...]
    level: str = "segment"
    method: str = "pearson"
    interval: str = "fisher"
    confidence: float = 0.95
    n_bootstrap: int = 1000
    seed: int = 12345
    with_reliability: bool = True
    reliability_docs: int = DEFAULT_DOCS
    reliability_lengths: tuple[int, ...] = DEFAULT_LENGTHS
    with_meta: bool = True  # pairwise accuracy, SPA, acc-eq and item-grouped correlation


@dataclass
class MetricLayout:
    """One metric's scores laid out by project system (rows follow ``HumanScores.systems``)."""

    spec: str
    segments: np.ndarray  # (n_systems, n_segments), NaN for systems not scored
    corpus: np.ndarray  # (n_systems,)
    stats: np.ndarray  # (n_systems, n_segments, k), zeros for systems not scored


@dataclass
class AnalysisOutcome:
    """Everything the workspace draws, computed off the GUI thread."""

    request: AnalysisRequest
    human_label: str
    systems: list[str]  # the rated systems that were scored
    correlations: list[CorrelationResult] = field(default_factory=list)
    scatters: dict[str, ScatterSummary] = field(default_factory=dict)
    # Point labels of the system-level scatter (the system ids, in point order).
    point_labels: dict[str, list[str]] = field(default_factory=dict)
    reliability: ReliabilityResult | None = None
    reliability_error: str = ""
    errors: dict[str, str] = field(default_factory=dict)  # spec -> why it could not be scored
    # spec -> Metric.higher_is_better: for error rates (WER, TER) agreement shows as a negative r.
    higher_is_better: dict[str, bool] = field(default_factory=dict)
    meta: list[MetaRow] = field(default_factory=list)  # one per correlated metric
    # The metric agreeing most with the humans, and the Williams test of every
    # other metric against it (same items; error rates sign-flipped first).
    best: str | None = None
    williams: dict[str, WilliamsResult] = field(default_factory=dict)
    scored_items: list[ScoredItem] = field(default_factory=list)


def _scaled(progress: ProgressCallback | None, start: float, share: float) -> Callable[[int, int], None]:
    def inner(done: int, total: int) -> None:
        fraction = done / total if total else 1.0
        report(progress, int(TOTAL * (start + share * fraction)), TOTAL)

    return inner


def layout_scores(items: list[ScoredItem], spec: str, systems: list[str], n_segments: int) -> MetricLayout | None:
    """Collect one spec's per-system results into arrays; None when nothing was scored."""
    mine = {item.system: item.entry.score for item in items if item.spec == spec}
    if not mine:
        return None
    k = next(iter(mine.values())).stats.shape[1]
    segments = np.full((len(systems), n_segments), np.nan)
    corpus = np.full(len(systems), np.nan)
    stats = np.zeros((len(systems), n_segments, k))
    for row, system in enumerate(systems):
        score = mine.get(system)
        if score is not None:
            segments[row] = np.asarray(score.segments, dtype=float)
            corpus[row] = float(score.corpus)
            stats[row] = np.asarray(score.stats, dtype=float)
    return MetricLayout(spec, segments, corpus, stats)


def oriented(r: float, higher_is_better: bool) -> float:
    """Agreement with the humans: r, or -r for error rates (lower is better)."""
    return r if higher_is_better else -r


def compare_with_best(outcome: AnalysisOutcome, pairs: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
    """Williams test (two-tailed) of each metric's correlation against the best one's."""
    finite = [(c.metric, c.r) for c in outcome.correlations if c.metric is not None and np.isfinite(c.r)]
    if len(finite) < 2:
        return
    best, _ = max(finite, key=lambda mr: oriented(mr[1], outcome.higher_is_better.get(mr[0], True)))
    outcome.best = best
    sign = {spec: 1.0 if up else -1.0 for spec, up in outcome.higher_is_better.items()}
    m_best, h = pairs[best]
    if len(h) <= 3:
        return  # the test needs n > 3
    for metric, _ in finite:
        if metric == best:
            continue
        m_other, _ = pairs[metric]
        outcome.williams[metric] = williams_from_scores(
            h, sign[best] * m_best, sign[metric] * m_other, outcome.request.method
        )


def run_analysis(
    project: Project,
    cache: ScoreCache,
    human: HumanScores,
    request: AnalysisRequest,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> AnalysisOutcome:
    rated = human.rated_systems()
    if not rated:
        raise DataError(f"no system has human scores {human.label!r}")
    rows = [human.systems.index(s) for s in rated]
    outcome = AnalysisOutcome(request=request, human_label=human.label, systems=rated)
    scoring = ScoringRequest(
        specs=request.specs, systems=tuple(rated), baseline=None,
        # The same intervals the Metrics workspace computes, so cache entries serve both.
        ci_samples=DEFAULT_CI_SAMPLES,
    )
    scored = run_scoring(project, cache, scoring, progress=_scaled(progress, 0.0, SCORING_SHARE), cancel=cancel)
    outcome.scored_items = scored.items
    outcome.errors = dict(scored.errors)

    layouts: list[MetricLayout] = []
    pairs: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for spec in request.specs:
        check_cancel(cancel)
        if spec in outcome.errors:
            continue
        layout = layout_scores(scored.items, spec, human.systems, len(human.segments))
        if layout is None:
            outcome.errors[spec] = "no system could be scored"
            continue
        layouts.append(layout)
        outcome.higher_is_better[spec] = bool(scored.metrics[spec].higher_is_better)
        m, h = level_pairs(layout.segments, layout.corpus, human, request.level, rows)
        pairs[spec] = (m, h)
        outcome.correlations.append(
            correlate(m, h, request.method, request.interval, request.confidence, request.n_bootstrap,
                      request.seed, metric=spec, human=human.label, level=request.level)
        )
        outcome.scatters[spec] = scatter_summary(m, h, x_label=spec, y_label=human.label)
        if request.level == "system":
            # level_pairs keeps the rated systems in row order; the scatter drops non-finite pairs.
            keep = np.isfinite(m) & np.isfinite(h)
            outcome.point_labels[spec] = [s for s, ok in zip(rated, keep) if ok]
    compare_with_best(outcome, pairs)
    if request.with_meta:
        human_segments, human_systems = human.matrix[rows], human.system_scores()[rows]
        for layout in layouts:
            check_cancel(cancel)
            data = MetaEvalData(human_segments, human_systems, layout.segments[rows], layout.corpus[rows],
                                outcome.higher_is_better[layout.spec])
            outcome.meta.append(meta_row(layout.spec, data, request.method))
    report(progress, int(TOTAL * (SCORING_SHARE + 0.05)), TOTAL)

    if request.with_reliability and layouts:
        metrics = [
            MetricStats(layout.spec, scored.metrics[layout.spec].aggregate, layout.stats)
            for layout in layouts
        ]
        try:
            outcome.reliability = reliability(
                metrics, human, lengths=request.reliability_lengths, n_docs=request.reliability_docs,
                seed=request.seed, system_rows=rows,
                progress=_scaled(progress, SCORING_SHARE + 0.05, 1 - SCORING_SHARE - 0.05), cancel=cancel,
            )
        except DataError as exc:
            outcome.reliability_error = str(exc)
    report(progress, TOTAL, TOTAL)
    return outcome
