"""Where a span-marking metric (xCOMET) and the raters agree: the raters' own span
agreement (:mod:`mtworkbench.analysis.span_agreement`), with the metric as one more rater.

The metric's spans come as judgments (``metrics.neural.spans.as_judgments``), one per
(system, segment) it scored; each rater of a span protocol (MQM, ESA) is compared with
them on the items both marked, exactly as two raters are compared (exact-span F1,
character-overlap F1, severity agreement and kappa, score correlation).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

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
