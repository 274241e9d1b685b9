"""Number formats shared by the corpus table and the sentence browser (no Qt)."""

from __future__ import annotations

import math
from functools import lru_cache

from mtworkbench.metrics.registry import metric_class
from mtworkbench.metrics.spec import parse_spec


@lru_cache(maxsize=256)
def metric_info(spec: str) -> tuple[str, bool, int]:
    """(scale, higher_is_better, decimals) of the metric a spec names."""
    try:
        cls = metric_class(parse_spec(spec)[0])
    except Exception:  # noqa: BLE001 - an unknown or broken spec still gets a readable format
        return "unbounded", True, 4
    decimals = 2 if cls.scale == "0-100" else 4
    return cls.scale, bool(cls.higher_is_better), decimals


def format_score(value: float, spec: str) -> str:
    if value is None or not math.isfinite(value):
        return "–"
    return f"{value:.{metric_info(spec)[2]}f}"


def score_title(spec: str) -> str:
    """A score column's title: the spec, marked ↓ when lower is better (MetricX's error score)."""
    return spec if metric_info(spec)[1] else f"{spec} ↓"
