"""Agreement of all the judges of a protocol at once: Krippendorff's alpha and Gwet's AC1/AC2.

Pairwise statistics (``agreement``) say how two judges agree; a campaign with many judges, each
rating some of the items, needs one coefficient over all of them with missing ratings allowed.
An item is a (system, segment) pair; a judge enters with their first rating of it (repeats feed
intra-judge consistency elsewhere); quality-control (BAD) copies take no part.

* LDC adequacy and fluency (1-5): alpha at the ordinal and interval levels, AC1 (identity
  weights) and AC2 with quadratic weights.
* DA and ESA scores (0-100) and MQM segment scores (minus the weighted errors, or the
  judgment's own score): alpha at the interval level and AC2 with quadratic weights. AC1 treats
  every distinct score as its own category, which says little about a 0-100 slider, so it is
  not reported for them. Scores on different scales within a protocol (DA 0-100 beside an
  imported ``da-z``) are not comparable and give no coefficient, with a note saying so.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mtworkbench.analysis.agreement import SCORE_PROTOCOLS, ldc_part, scored_items
from mtworkbench.analysis.mqm_weights import GOOGLE_WEIGHTS, MqmWeights
from mtworkbench.analysis.multi_rater import DEFAULT_BOOTSTRAP, AgreementStat, agreement_stats, ratings_table
from mtworkbench.core.jobs import CancelCheck, check_cancel
from mtworkbench.core.model import Judgment

LDC_STATS = ("alpha:ordinal", "alpha:interval", "ac1", "ac2:quadratic")
SCORE_STATS = ("alpha:interval", "ac2:quadratic")


@dataclass(frozen=True)
class QuantityReliability:
    """All judges' agreement on one quantity of one protocol (e.g. LDC adequacy, DA score)."""

    protocol: str
    quantity: str
    judges: tuple[str, ...]
    stats: tuple[AgreementStat, ...]
    notes: tuple[str, ...] = ()

    def stat(self, name: str) -> AgreementStat | None:
        return next((s for s in self.stats if s.stat == name), None)

    def to_json(self) -> dict:
        return {"protocol": self.protocol, "quantity": self.quantity, "judges": list(self.judges),
                "stats": [s.to_json() for s in self.stats], "notes": list(self.notes)}


def _item_name(item: tuple[str, str]) -> str:
    return f"{item[0]}\t{item[1]}"


def _ldc_rows(judgments: Iterable[Judgment], quantity: str) -> list[tuple[str, str, float]]:
    seen: set[tuple[str, tuple[str, str]]] = set()
    rows = []
    for j in ldc_part(judgments):
        value = getattr(j, quantity)
        key = (j.judge, (j.system, j.segment))
        if value is None or key in seen:
            continue
        seen.add(key)
        rows.append((j.judge, _item_name(key[1]), float(value)))
    return rows


def _reliability(protocol: str, quantity: str, rows: Sequence[tuple[str, str, float]], stats: Sequence[str],
                 bootstrap: int, seed: int, notes: Sequence[str] = ()) -> QuantityReliability:
    table = ratings_table(rows)
    results = agreement_stats(table, stats, bootstrap, seed) if len(table.raters) >= 2 else []
    extra = list(notes)
    if len(table.raters) < 2:
        extra.append("fewer than two judges: no agreement to measure")
    return QuantityReliability(protocol, quantity, table.raters, tuple(results), tuple(extra))


def judge_reliability(judgments: Sequence[Judgment], weights: MqmWeights = GOOGLE_WEIGHTS,
                      bootstrap: int = DEFAULT_BOOTSTRAP, seed: int = 12345,
                      cancelled: CancelCheck | None = None) -> list[QuantityReliability]:
    """Alpha and AC1/AC2 over all judges, per protocol and quantity that two or more judges rated."""
    out: list[QuantityReliability] = []
    for quantity in ("adequacy", "fluency"):
        check_cancel(cancelled)
        rows = _ldc_rows(judgments, quantity)
        if len({r[0] for r in rows}) >= 2:
            out.append(_reliability("ldc", quantity, rows, LDC_STATS, bootstrap, seed))
    by_protocol = scored_items(judgments, weights)
    for protocol in SCORE_PROTOCOLS:
        check_cancel(cancelled)
        raters = by_protocol.get(protocol, {})
        if len(raters) < 2:
            continue
        scales = sorted({scored[0][1] for items in raters.values() for scored in items.values()})
        if len(scales) > 1:
            out.append(QuantityReliability(protocol, "score", tuple(raters), (), (
                f"scores on different scales ({', '.join(scales)}) are not comparable: no coefficient",)))
            continue
        rows = [(judge, _item_name(item), scored[0][0]) for judge, items in raters.items()
                for item, scored in items.items()]
        out.append(_reliability(protocol, "score", rows, SCORE_STATS, bootstrap, seed))
    return out
