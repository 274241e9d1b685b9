"""System scores from relative rankings, as WMT 2013-2016 reported them.

Every ranking (one rater, one segment, 2-5 systems side by side) gives a pairwise
comparison for each pair of systems on it: the system with the lower rank wins,
equal ranks tie. Over all rankings, ``wins(A, B)`` counts A's wins over B. Then
(ties are left out of both):

* **expected wins** (the WMT 2013 "Findings", Bojar et al. 2013, after Koehn 2012): the
  mean, over the systems B that A was compared with decisively (at least one win or
  loss), of ``wins(A, B) / (wins(A, B) + wins(B, A))`` -- the chance that A beats an
  opponent drawn at random in a non-tied comparison. Every opponent weighs the same,
  however often it met A. This is the score ``human-scores --protocol rank --level
  system`` prints and ``correlate`` uses at system level.
* **ratio of wins**: ``wins / (wins + losses)``, A's wins over all its non-tied
  comparisons pooled, so frequent opponents weigh more.

A system with no decisive comparison has neither score (NaN). Rankings of one system
give no pairs. Identical outputs of two systems are compared like any others (WMT
2013+ collapsed them first; this does not).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from mtworkbench.core.ranking import Ranking


@dataclass(frozen=True)
class RankingSystemScore:
    """One system's record over the rankings (``expected_wins`` and ``wins_ratio`` NaN
    without a decisive comparison)."""

    system: str
    expected_wins: float
    wins_ratio: float
    wins: int
    losses: int
    ties: int
    opponents: int  # systems it met decisively (the expected-wins denominator)
    segments: int  # segments on which it was ranked with another system
    raters: int

    def to_json(self) -> dict[str, object]:
        def num(v: float) -> float | None:
            return None if math.isnan(v) else v + 0.0

        return {"system": self.system, "score": num(self.expected_wins), "expected_wins": num(self.expected_wins),
                "wins_ratio": num(self.wins_ratio), "wins": self.wins, "losses": self.losses, "ties": self.ties,
                "opponents": self.opponents, "segments": self.segments, "raters": self.raters}


@dataclass
class PairwiseCounts:
    """``wins[(a, b)]``: how often a ranked above b; ``ties[(a, b)]`` (a < b by name): equal ranks."""

    wins: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    ties: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    segments: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    raters: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))

    def add(self, ranking: Ranking) -> None:
        pairs = list(zip(ranking.systems, ranking.ranks))
        for i, (a, ra) in enumerate(pairs):
            for b, rb in pairs[i + 1:]:
                if ra < rb:
                    self.wins[(a, b)] += 1
                elif rb < ra:
                    self.wins[(b, a)] += 1
                else:
                    self.ties[tuple(sorted((a, b)))] += 1  # type: ignore[index]
                for s in (a, b):
                    self.segments[s].add(ranking.segment)
                    self.raters[s].add(ranking.judge)


def pairwise_counts(rankings: Iterable[Ranking]) -> PairwiseCounts:
    counts = PairwiseCounts()
    for ranking in rankings:
        counts.add(ranking)
    return counts


def system_scores(rankings: Iterable[Ranking], systems: Sequence[str] | None = None) -> list[RankingSystemScore]:
    """Expected wins and ratio of wins of every system (``systems``: these, in this order;
    default: every ranked system, by name)."""
    counts = pairwise_counts(rankings)
    if systems is None:
        systems = sorted(counts.segments)
    out = []
    for a in systems:
        opponents = {b for (x, b) in counts.wins if x == a} | {x for (x, b) in counts.wins if b == a}
        shares = []
        wins = losses = 0
        for b in sorted(opponents):
            w, lost = counts.wins.get((a, b), 0), counts.wins.get((b, a), 0)
            wins, losses = wins + w, losses + lost
            shares.append(w / (w + lost))
        ties = sum(n for pair, n in counts.ties.items() if a in pair)
        out.append(RankingSystemScore(
            system=a,
            expected_wins=sum(shares) / len(shares) if shares else math.nan,
            wins_ratio=wins / (wins + losses) if wins + losses else math.nan,
            wins=wins, losses=losses, ties=ties, opponents=len(shares),
            segments=len(counts.segments.get(a, ())), raters=len(counts.raters.get(a, ())),
        ))
    return out
