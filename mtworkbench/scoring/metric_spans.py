"""A span-marking metric's (xCOMET's) spans over a whole project, and their agreement with
the raters: scored the way every metric is (``run_scoring``: the cache and the project's
score file first), then compared by :mod:`mtworkbench.analysis.metric_span_agreement`.
The command line (``agreement --metric-spans``) and the Analysis workspace both call it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mtworkbench.analysis.metric_span_agreement import metric_rater_span_agreement, metric_span_judgments
from mtworkbench.analysis.mqm_weights import GOOGLE_WEIGHTS, MqmWeights
from mtworkbench.analysis.span_agreement import SpanPairAgreement
from mtworkbench.core.jobs import CancelCheck, ProgressCallback
from mtworkbench.core.model import Judgment, Project
from mtworkbench.core.scoring_input import MetricError
from mtworkbench.scoring.cache import ScoreCache
from mtworkbench.scoring.job import ScoringRequest, run_scoring


@dataclass
class MetricSpanReport:
    spec: str
    judge: str  # the name the metric's spans go by in the rows
    n_systems: int
    n_spans: int
    rows: list[SpanPairAgreement]

    def to_json(self) -> dict[str, Any]:
        return {"metric": self.spec, "judge": self.judge, "systems": self.n_systems, "metric_spans": self.n_spans,
                "raters": [r.to_json() for r in self.rows]}


def scored_spans(project: Project, spec: str, cache: ScoreCache | None = None,
                 progress: ProgressCallback | None = None, cancel: CancelCheck | None = None
                 ) -> tuple[dict[str, list], dict[str, list[float]]]:
    """(system -> per-segment error spans, system -> segment scores) of ``spec`` on every system."""
    cache = cache if cache is not None else ScoreCache()
    request = ScoringRequest(specs=(spec,), systems=tuple(s.id for s in project.systems), ci_samples=0,
                             use_processes=False)
    outcome = run_scoring(project, cache, request, progress=progress, cancel=cancel)
    if spec in outcome.failures:
        raise outcome.failures[spec]
    spans: dict[str, list] = {}
    scores: dict[str, list[float]] = {}
    for item in outcome.items:
        cache.store(item.system, item.spec, item.fingerprint, item.entry, item.generation)
        rows = item.entry.score.extras.get("error_spans")
        if isinstance(rows, list):
            spans[item.system] = rows
            scores[item.system] = [float(x) for x in item.entry.score.segments]
    if not spans:
        raise MetricError(f"{spec} marks no error spans (only xCOMET-style checkpoints do); choose an xCOMET "
                          "checkpoint's model")
    return spans, scores


def metric_span_report(project: Project, spec: str, weights: MqmWeights = GOOGLE_WEIGHTS, judge: str = "xCOMET",
                       cache: ScoreCache | None = None, progress: ProgressCallback | None = None,
                       cancel: CancelCheck | None = None) -> MetricSpanReport:
    """Span agreement of ``spec``'s spans with each MQM/ESA rater of the project."""
    spans, scores = scored_spans(project, spec, cache, progress, cancel)
    metric = metric_span_judgments(project.segment_ids, spans, judge, scores)

    def text_length(j: Judgment) -> int:
        return len(j.text if j.text is not None else project.system_text(j.system, j.segment))

    rows = metric_rater_span_agreement(project.judgments, metric, weights, text_length, cancel=cancel)
    n_spans = sum(len(seg) for rows_ in spans.values() for seg in rows_)
    return MetricSpanReport(spec, judge, len(spans), n_spans, rows)
