"""Metrics: per-segment sufficient statistics plus a pure aggregation."""

from mtworkbench.metrics.base import Metric, MetricError, MetricScore, MetricSpecError, ScoringInput
from mtworkbench.metrics.registry import create_metric, metric_class, metric_names

__all__ = [
    "Metric",
    "MetricError",
    "MetricScore",
    "MetricSpecError",
    "ScoringInput",
    "create_metric",
    "metric_class",
    "metric_names",
]
