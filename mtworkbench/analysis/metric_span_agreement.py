"""Where a span-marking metric (xCOMET) and the raters agree: the raters' own span
agreement (:mod:`mtworkbench.analysis.span_agreement`), with the metric as one more rater.

The metric's spans come as judgments (``metrics.neural.spans.as_judgments``), one per
(system, segment) it scored; each rater of a span protocol (MQM, ESA) is compared with
them on the items both marked, exactly as two raters are compared (exact-span F1,
character-overlap F1, severity agreement and kappa, score correlation).
``metric_span_judgments`` builds those judgments from a project's scored spans.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mtworkbench.analysis.mqm_weights import GOOGLE_WEIGHTS, MqmWeights
from mtworkbench.analysis.span_agreement import Item, SpanPairAgreement, span_pair_agreement
from mtworkbench.core.jobs import CancelCheck, ProgressCallback, check_cancel, report
from mtworkbench.core.model import SPAN_PROTOCOLS, Judgment


def metric_rater_span_agreement(
    judgments: Sequence[Judgment],
    metric_judgments: Sequence[Judgment],
    weights: MqmWeights = GOOGLE_WEIGHTS,
    text_length: Callable[[Judgment], int] | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> list[SpanPairAgreement]:
    """One row per rater of a span protocol who shares items with the metric: judges are
    (metric, rater), the metric's spans first."""
    metric: dict[Item, Judgment] = {}
    for j in metric_judgments:
        metric.setdefault((j.system, j.segment), j)
    name = next(iter(metric.values())).judge if metric else "metric"
    raters: list[tuple[str, str, dict[Item, Judgment]]] = []
    for protocol in SPAN_PROTOCOLS:
        first: dict[str, dict[Item, Judgment]] = {}
        for j in judgments:
            if j.protocol == protocol and not j.qc:
                first.setdefault(j.judge, {}).setdefault((j.system, j.segment), j)
        raters += [(protocol, judge, items) for judge, items in first.items() if any(i in metric for i in items)]
    out = []
    for done, (protocol, judge, items) in enumerate(raters):
        check_cancel(cancel)
        report(progress, done, len(raters))
        out.append(span_pair_agreement(metric, items, (name, judge), protocol, weights, text_length))
    report(progress, len(raters), len(raters))
    return out


def metric_span_judgments(
    segment_ids: Sequence[str],
    spans_by_system: Mapping[str, Sequence[Sequence[dict[str, Any]]]],
    judge: str = "xCOMET",
    scores_by_system: Mapping[str, Sequence[float]] | None = None,
) -> list[Judgment]:
    """The metric's judgments from each system's scored ``error_spans`` (one list per segment,
    in ``segment_ids`` order, as a score's extras hold them)."""
    from mtworkbench.metrics.neural.spans import as_judgments, spans_from_json

    out: list[Judgment] = []
    for system, rows in spans_by_system.items():
        if len(rows) != len(segment_ids):
            raise ValueError(f"{judge}: system {system} has error spans for {len(rows)} segments, the project "
                             f"{len(segment_ids)}; score it again")
        scores = None if scores_by_system is None else scores_by_system.get(system)
        out += as_judgments(spans_from_json(rows), system, segment_ids, judge=judge, scores=scores)
    return out
