"""Agreement of relative rankings as WMT 2013-2016 reported it: Cohen's kappa over
pairwise comparisons of systems.

Every ranking (one rater, one segment, 2-5 systems side by side) gives, for each
pair of systems on it, one label: the first system (by id) better (``<``, a lower
rank), worse (``>``) or tied (``=``). A *comparison* is (segment, system, system).

    kappa = (P(A) - P(E)) / (1 - P(E))

* **P(A)**: the share of compared label pairs that are equal.
* **P(E)** (Bojar et al. 2013, "Findings of the 2013 Workshop on Statistical Machine
  Translation", annotator agreement; kept through WMT 2016):
  ``P(A<B)^2 + P(A=B)^2 + P(A>B)^2``, the chance that two independent labels agree,
  with ``P(A=B)`` the observed share of ties and, since the order in which systems
  are shown is random, ``P(A<B) = P(A>B) = (1 - P(A=B)) / 2`` (as the WMT
  organisers' script, Appraise's ``compute_agreement_scores.py``, computes it).
  WMT 2011-2012 took P(E) = 1/3 instead.

Which labels are compared (a choice made here, where WMT's script pooled every label):

* **inter**, two raters: for every comparison both made, each rater's first label
  (their repeats feed intra only, as everywhere in ``agreement``); P(A=B) is the
  share of ties among those labels. The pooled figure (WMT's table) pools the label
  pairs of every pair of raters.
* **intra**, one rater: for every comparison the rater made more than once, the
  first label against each later one; P(A=B) among those labels.

Systems are ordered by id inside a comparison, so a pair shown as B, A and as A, B
is one comparison (WMT's script keyed them by the order shown). Identical outputs
are compared like any others. A kappa with nothing to compare, or with P(E) = 1
(every label a tie), is None.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from mtworkbench.core.jsonable import NOT_IN_JSON, JsonFields
from mtworkbench.core.model import Judgment
from mtworkbench.core.ranking import Ranking, group_ranked, ranking_from_judgments

Comparison = tuple[str, str, str]  # (segment, system, system), systems by id


@dataclass(frozen=True)
class PairwiseKappa(JsonFields):
    """Kappa over pairs of labels; ``n`` label pairs compared."""

    n: int
    p_agree: float | None  # P(A)
    p_tie: float | None  # P(A=B), the share of ties among the labels compared
    p_chance: float | None  # P(E)
    kappa: float | None


@dataclass(frozen=True)
class RankPairAgreement(JsonFields):
    judges: tuple[str, str]
    kappa: PairwiseKappa


@dataclass(frozen=True)
class RankIntraAgreement(JsonFields):
    judge: str
    kappa: PairwiseKappa


@dataclass(frozen=True)
class RankingAgreement(JsonFields):
    """Per pair of raters, per rater against themselves, and both pooled (WMT's table)."""

    inter: PairwiseKappa
    intra: PairwiseKappa
    pairs: list[RankPairAgreement]
    repeats: list[RankIntraAgreement]
    rankings: int = field(default=0, metadata=NOT_IN_JSON)


def label(rank_a: int, rank_b: int) -> str:
    """The label of systems a and b (a's id first): ``<`` a better, ``>`` a worse, ``=`` tied."""
    return "<" if rank_a < rank_b else ">" if rank_a > rank_b else "="


def comparisons(ranking: Ranking) -> dict[Comparison, str]:
    """Every pair of systems on one ranking and its label, systems ordered by id."""
    ranked = sorted(zip(ranking.systems, ranking.ranks))
    return {(ranking.segment, a, b): label(ra, rb) for (a, ra), (b, rb) in combinations(ranked, 2)}


def chance_agreement(p_tie: float) -> float:
    """WMT 2013-2016's P(E) = P(A<B)^2 + P(A=B)^2 + P(A>B)^2 with P(A<B) = P(A>B)."""
    other = (1.0 - p_tie) / 2.0
    return p_tie * p_tie + 2.0 * other * other


def pairwise_kappa(label_pairs: Sequence[tuple[str, str]]) -> PairwiseKappa:
    n = len(label_pairs)
    if n == 0:
        return PairwiseKappa(0, None, None, None, None)
    p_agree = sum(x == y for x, y in label_pairs) / n
    p_tie = sum((x == "=") + (y == "=") for x, y in label_pairs) / (2 * n)
    p_chance = chance_agreement(p_tie)
    kappa = None if p_chance >= 1.0 else (p_agree - p_chance) / (1.0 - p_chance)
    return PairwiseKappa(n, p_agree, p_tie, p_chance, kappa)


def rankings_from(judgments: Iterable[Judgment]) -> list[Ranking]:
    """The rankings stored by ``judgments`` (quality-control copies left out), in order."""
    return [ranking_from_judgments(group) for group in group_ranked(judgments).values()]


def ranking_agreement(judgments: Iterable[Judgment]) -> RankingAgreement | None:
    """Inter- and intra-rater kappa of the relative rankings among ``judgments``; None without any."""
    rankings = rankings_from(judgments)
    if not rankings:
        return None
    # judge -> comparison -> labels in the order given (first, then repeats)
    labels: dict[str, dict[Comparison, list[str]]] = {}
    for ranking in rankings:
        own = labels.setdefault(ranking.judge, {})
        for comparison, lab in comparisons(ranking).items():
            own.setdefault(comparison, []).append(lab)
    pairs, pooled_inter = [], []
    for a, b in combinations(labels, 2):
        shared = [(labels[a][c][0], labels[b][c][0]) for c in labels[a] if c in labels[b]]
        if shared:
            pairs.append(RankPairAgreement((a, b), pairwise_kappa(shared)))
            pooled_inter += shared
    repeats, pooled_intra = [], []
    for judge, own in labels.items():
        again = [(labs[0], later) for labs in own.values() for later in labs[1:]]
        if again:
            repeats.append(RankIntraAgreement(judge, pairwise_kappa(again)))
            pooled_intra += again
    return RankingAgreement(pairwise_kappa(pooled_inter), pairwise_kappa(pooled_intra), pairs, repeats,
                            rankings=len(rankings))
