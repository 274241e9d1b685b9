"""The meta-evaluation statistics the Analysis workspace shows beside its
correlations, one row per metric: system-level pairwise accuracy and soft
pairwise accuracy (SPA), segment-level acc-eq (tie-calibrated pairwise accuracy
within items) and the item-grouped correlation (the mean over items of the
correlation across systems, as WMT23's "grouped by item" segment level).

The accuracies are :mod:`analysis.meta_eval`'s, the code ``correlate --stat``
runs, so the app and the command line give the same numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mtworkbench.analysis.correlation import coefficient
from mtworkbench.analysis.meta_eval import MetaEvalData, compute_stat, oriented

STAT_TITLES: dict[str, str] = {
    "pairwise-accuracy": "pairwise accuracy (system)",
    "spa": "SPA (system)",
    "acc-eq": "acc-eq (segment, by item)",
    "item-grouped": "item-grouped r (segment)",
}


@dataclass
class MetaRow:
    """One metric's statistics; NaN where a statistic has too few systems or items."""

    metric: str
    values: dict[str, float]
    counts: dict[str, int]  # pairs, systems or items each value rests on


def item_grouped_correlation(human: np.ndarray, metric: np.ndarray, method: str) -> tuple[float, int]:
    """Mean over items (segments) of the correlation across systems; items with fewer
    than three scored systems, or a constant column, are left out. (mean, items used)."""
    values = []
    for column in range(human.shape[1]):
        h, m = human[:, column], metric[:, column]
        keep = np.isfinite(h) & np.isfinite(m)
        if keep.sum() < 3 or np.ptp(h[keep]) == 0 or np.ptp(m[keep]) == 0:
            continue
        r, _p = coefficient(m[keep], h[keep], method)
        if math.isfinite(r):
            values.append(r)
    return (float(np.mean(values)) if values else math.nan), len(values)


def meta_row(spec: str, data: MetaEvalData, method: str) -> MetaRow:
    values: dict[str, float] = {}
    counts: dict[str, int] = {}
    n_systems = int(np.isfinite(data.human_systems).sum())
    for stat, level in (("pairwise-accuracy", "system"), ("spa", "system"), ("acc-eq", "segment")):
        if level == "system" and n_systems < 2:
            values[stat], counts[stat] = math.nan, n_systems
            continue
        human, metric = oriented(data, stat, level)
        try:
            result = compute_stat(stat, level, human, metric, group_by="item")
        except (ValueError, ZeroDivisionError):
            values[stat], counts[stat] = math.nan, 0
            continue
        values[stat], counts[stat] = float(result.value), int(result.n)
    human, metric = oriented(data, method, "segment")
    values["item-grouped"], counts["item-grouped"] = item_grouped_correlation(human, metric, method)
    return MetaRow(spec, values, counts)
