"""The Agreement tab's "all judges at once" table: alpha and AC1/AC2 rows of the chosen protocol.

One row per statistic of each quantity (LDC adequacy and fluency; DA, ESA, MQM scores), from
``analysis.judge_reliability``; the rows come from the tab's background job.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mtworkbench.analysis.judge_reliability import QuantityReliability
from mtworkbench.analysis.multi_rater import AgreementStat
from mtworkbench.gui.judge.agreement_tables import Column, fmt

STAT_NAMES = {
    "alpha:nominal": "α nominal",
    "alpha:ordinal": "α ordinal",
    "alpha:interval": "α interval",
    "alpha:ratio": "α ratio",
    "ac1": "AC1",
    "ac2:quadratic": "AC2 quadratic",
}
QUANTITY_NAMES = {"adequacy": "Adequacy", "fluency": "Fluency", "score": "Score"}


@dataclass(frozen=True)
class ReliabilityRow:
    quantity: str
    judges: int
    stat: AgreementStat | None
    note: str = ""


def reliability_rows(results: list[QuantityReliability], protocol: str) -> list[ReliabilityRow]:
    rows: list[ReliabilityRow] = []
    for r in results:
        if r.protocol != protocol:
            continue
        rows += [ReliabilityRow(r.quantity, len(r.judges), s) for s in r.stats]
        rows += [ReliabilityRow(r.quantity, len(r.judges), None, note) for note in r.notes]
    return rows


def _value(row: ReliabilityRow) -> str:
    if row.stat is None:
        return "—"
    return "—" if math.isnan(row.stat.value) else fmt(row.stat.value)


def _interval(row: ReliabilityRow) -> str:
    s = row.stat
    if s is None or s.low is None or s.high is None:
        return "—"
    return f"[{fmt(s.low)}, {fmt(s.high)}]"


def _name(row: ReliabilityRow) -> str:
    what = QUANTITY_NAMES.get(row.quantity, row.quantity)
    return f"{what}: {STAT_NAMES.get(row.stat.stat, row.stat.stat) if row.stat else row.note}"


RELIABILITY_COLUMNS: tuple[Column, ...] = (
    ("Statistic", _name,
     "Krippendorff's α: 1 − observed / expected disagreement, missing ratings allowed (ordinal, interval: "
     "its difference functions); Gwet's AC1 (identity weights) and AC2 (quadratic weights)"),
    ("Judges", lambda r: str(r.judges), "Judges with a rating of this quantity"),
    ("Value", _value, "A dash: undefined (e.g. every rating the same)"),
    ("95% CI", _interval, "Percentile bootstrap over items (1000 resamples)"),
    ("Items", lambda r: str(r.stat.n_pairable_items) if r.stat else "—",
     "Items (system, segment) rated by two or more judges"),
)
