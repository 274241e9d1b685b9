"""Agreement between human judges, and per-judge normalisation (no Qt).

Quantities: LDC ``adequacy`` and ``fluency`` (1-5), and numeric ``score``s
imported from other scales (DA z-scores, MQM) for pseudo-judges.

* Items are (system, segment) pairs. Two judges share an item when both rated
  it, whatever reference each was shown (Turian, Shen & Melamed 2003's judges rated one candidate
  against different references).
* A judge who rated an item more than once (the queue's repeats) enters the
  inter-judge statistics with their first rating, in the order given; the
  later ones only feed intra-judge consistency, compared with that first one.
* Spearman and Pearson come from ``scipy.stats``; the quadratic-weighted
  Cohen's kappa from ``sklearn.metrics.cohen_kappa_score`` with the labels
  fixed to 1..5, so the weights are the distance on the scale, not between
  the categories that happen to occur.
* A pseudo-judge with numeric scores only (imported DA or MQM) is set
  against another judge's adequacy and fluency by its score (correlations
  only); two such pseudo-judges meet under ``score``.
* A statistic that is undefined (fewer than two items, a constant rater) is
  None, written as JSON null.
* DA, ESA and MQM (``score_agreement``): per protocol, two raters' segment scores
  on the items both scored (first score each): Pearson, Spearman and the mean
  absolute difference; and each rater's first score against their repeats. DA and
  ESA give a 0-100 score; an MQM score is the judgment's own (imported) or minus its
  weighted errors (``mqm_weights``, Google's by default). The mean absolute
  difference is None when the scores compared are on different scales (DA 0-100
  against an imported ``da-z``).
* Relative ranking: WMT's kappa over pairwise comparisons (``ranking_agreement``).
* The LDC part (``pairs``, ``intra``) leaves out rankings (a rank is no quality
  score), MQM span judgments without a score of their own, and the DA/ESA/MQM scores
  of a judge who also gave 1-5 ratings (``ldc_part``); quality-control (BAD) copies
  take part nowhere.
* Per-judge z-scores (Turian, Shen & Melamed 2003): each judge's ratings minus their mean,
  divided by their standard deviation with ddof=0 ("zero mean and unit
  variance"); a judge whose ratings are all equal carries no ranking
  information and gets 0 (as ``human_scores`` does when pooling).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from mtworkbench.analysis.human_scores import z_transform
from mtworkbench.analysis.mqm_weights import GOOGLE_WEIGHTS, MqmWeights
from mtworkbench.analysis.ranking_agreement import RankingAgreement, ranking_agreement
from mtworkbench.core.jsonable import NOT_IN_JSON, OMIT_IF_NONE, JsonFields, json_name
from mtworkbench.core.model import Judgment

QUANTITIES = ("adequacy", "fluency", "score")
SCORE_PROTOCOLS = ("da", "esa", "mqm")  # a segment score per judgment: 0-100, or MQM's weighted errors
# The sections of a report, in the order the tab and the command show them.
REPORT_PROTOCOLS = ("ldc", "da", "esa", "mqm", "rank")
LDC_QUANTITIES = ("adequacy", "fluency")
LDC_LABELS = [1, 2, 3, 4, 5]

Item = tuple[str, str]  # (system, segment)


def _finite_or_none(value: float | None) -> float | None:
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _value(j: Judgment, quantity: str) -> float | None:
    value = getattr(j, quantity)
    return None if value is None else float(value)


def spearman(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float | None:
    if len(a) < 2:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant input: undefined, reported as None
        from scipy import stats  # imported when used: it costs the app's start a second

        return _finite_or_none(stats.spearmanr(a, b).statistic)


def pearson(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float | None:
    if len(a) < 2:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from scipy import stats

        return _finite_or_none(stats.pearsonr(a, b).statistic)


def kappa_quadratic(a: Sequence[int] | np.ndarray, b: Sequence[int] | np.ndarray) -> float | None:
    """Quadratic-weighted Cohen's kappa of two raters on the 1-5 scale.

    Undefined (None) for fewer than two shared items, like the correlations:
    one item's "agreement beyond chance" is 0 or 0/0 by construction, not a finding.
    """
    if len(a) < 2:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 0/0 when both raters use one category
        from sklearn.metrics import cohen_kappa_score  # imported when used, as scipy

        return _finite_or_none(cohen_kappa_score(list(a), list(b), labels=LDC_LABELS, weights="quadratic"))


@dataclass(frozen=True)
class ScaleAgreement(JsonFields):
    """Agreement of two raters on one quantity over the items both rated."""

    n: int
    spearman: float | None
    pearson: float | None
    kappa_quadratic: float | None


@dataclass(frozen=True)
class PairedValues:
    """Two judges' values on the items both rated: what the scatter plot draws."""

    items: list[Item]
    a: np.ndarray
    b: np.ndarray


@dataclass(frozen=True)
class PairAgreement(JsonFields):
    judges: tuple[str, str]
    n: int  # items both judges rated (any quantity)
    adequacy: ScaleAgreement
    fluency: ScaleAgreement
    score: ScaleAgreement | None = field(metadata=OMIT_IF_NONE)  # only when both judges have numeric scores
    paired: dict[str, PairedValues] = field(repr=False, compare=False, default_factory=dict, metadata=NOT_IN_JSON)


@dataclass(frozen=True)
class RepeatConsistency(JsonFields):
    """One judge against themselves on one quantity: first rating vs each repeat."""

    n: int
    exact: float | None  # share of repeats given exactly the first rating
    mean_abs_diff: float | None
    spearman: float | None
    pearson: float | None
    kappa_quadratic: float | None


@dataclass(frozen=True)
class IntraAgreement(JsonFields):
    judge: str = field(metadata=NOT_IN_JSON)  # the report's key
    n: int  # (first, repeat) pairs
    adequacy: RepeatConsistency
    fluency: RepeatConsistency
    score: RepeatConsistency | None = field(metadata=OMIT_IF_NONE)


@dataclass(frozen=True)
class MomentStats(JsonFields):
    n: int
    mean: float | None
    sd: float | None  # ddof=0


@dataclass(frozen=True)
class JudgeSummary:
    """A judge's rating count and the parameters of their z-transform."""

    judge: str
    judgments: int
    items: int
    moments: dict[str, MomentStats]
    scales: list[str]  # names of numeric score scales used

    def to_json(self) -> dict[str, Any]:
        return {
            "judgments": self.judgments,
            "items": self.items,
            **{q: m.to_json() for q, m in self.moments.items()},
            "scales": self.scales,
        }


@dataclass(frozen=True)
class ScorePairAgreement(JsonFields):
    """Two raters' segment scores of one protocol (DA, ESA, MQM) on the items both scored."""

    protocol: str
    judges: tuple[str, str]
    n: int
    pearson: float | None
    spearman: float | None
    mean_abs_diff: float | None
    paired: PairedValues = field(repr=False, compare=False, metadata=NOT_IN_JSON)


@dataclass(frozen=True)
class ScoreRepeatAgreement(JsonFields):
    """One rater's first score of an item against each later score of it (queue repeats)."""

    protocol: str
    judge: str
    n: int
    mean_abs_diff: float | None
    pearson: float | None
    spearman: float | None


@dataclass(frozen=True)
class AgreementReport(JsonFields):
    judges: list[str]
    pairs: list[PairAgreement]
    intra: dict[str, IntraAgreement]
    summaries: dict[str, JudgeSummary] = field(metadata=json_name("normalisation"))
    protocols: list[str] = field(default_factory=list)  # sections with ratings, in REPORT_PROTOCOLS order
    scores: list[ScorePairAgreement] = field(default_factory=list)
    score_repeats: list[ScoreRepeatAgreement] = field(default_factory=list, metadata=json_name("score_intra"))
    ranking: RankingAgreement | None = field(default=None, metadata=OMIT_IF_NONE)

    def ldc_pairs(self) -> list[PairAgreement]:
        """Pairs with adequacy or fluency to compare (a pseudo-judge's score counts against them)."""
        return [p for p in self.pairs if p.adequacy.n or p.fluency.n]

    def ldc_intra(self) -> list[IntraAgreement]:
        return [i for i in self.intra.values() if i.adequacy.n or i.fluency.n]

    def score_pairs(self, protocol: str) -> list[ScorePairAgreement]:
        return [p for p in self.scores if p.protocol == protocol]

    def score_intra(self, protocol: str) -> list[ScoreRepeatAgreement]:
        return [r for r in self.score_repeats if r.protocol == protocol]

    def pair(self, a: str, b: str) -> PairAgreement | None:
        for p in self.pairs:
            if p.judges in ((a, b), (b, a)):
                return p
        return None



# --- grouping -------------------------------------------------------------------------
class JudgmentIndex:
    """Judgments grouped once by judge and item, so a report over many pairs
    does not scan the whole list for each. Every function below accepts
    either this or a plain sequence of judgments."""

    def __init__(self, judgments: Iterable[Judgment]) -> None:
        self.judgments = list(judgments)
        self.by_judge: dict[str, list[Judgment]] = {}
        self.items: dict[str, dict[Item, list[Judgment]]] = {}
        for j in self.judgments:
            self.by_judge.setdefault(j.judge, []).append(j)
            self.items.setdefault(j.judge, {}).setdefault((j.system, j.segment), []).append(j)
        self.judges = list(self.by_judge)
        self.first: dict[str, dict[Item, Judgment]] = {
            judge: {item: js[0] for item, js in grouped.items()} for judge, grouped in self.items.items()
        }

    def own(self, judge: str) -> list[Judgment]:
        return self.by_judge.get(judge, [])

    def score_only(self, judge: str) -> bool:
        own = self.own(judge)
        return all(j.adequacy is None and j.fluency is None for j in own) and any(j.score is not None for j in own)


JudgmentsLike = Sequence[Judgment] | JudgmentIndex


def _index(judgments: JudgmentsLike) -> JudgmentIndex:
    return judgments if isinstance(judgments, JudgmentIndex) else JudgmentIndex(judgments)


def paired_values(
    judgments: JudgmentsLike, a: str, b: str, quantity: str, quantity_b: str | None = None
) -> PairedValues:
    """Both judges' first values on the items both gave one, in a's order:
    a's ``quantity`` against b's ``quantity_b`` (the same by default)."""
    index = _index(judgments)
    quantity_b = quantity_b or quantity
    first_b = index.first.get(b, {})
    items, va, vb = [], [], []
    for item, ja in index.first.get(a, {}).items():
        jb = first_b.get(item)
        if jb is None:
            continue
        x, y = _value(ja, quantity), _value(jb, quantity_b)
        if x is not None and y is not None:
            items.append(item)
            va.append(x)
            vb.append(y)
    return PairedValues(items, np.asarray(va, dtype=float), np.asarray(vb, dtype=float))


def _is_ldc(values: np.ndarray) -> bool:
    return bool(np.all((values >= 1) & (values <= 5) & (values == np.round(values))))


def scale_agreement(a: np.ndarray, b: np.ndarray, quantity: str) -> ScaleAgreement:
    n = len(a)
    kappa = None
    if quantity in LDC_QUANTITIES and n and _is_ldc(a) and _is_ldc(b):
        kappa = kappa_quadratic(a.astype(int), b.astype(int))
    return ScaleAgreement(n, spearman(a, b), pearson(a, b), kappa)


def pair_agreement(judgments: JudgmentsLike, a: str, b: str) -> PairAgreement:
    """Agreement of judges ``a`` and ``b`` on the items both rated.

    A pseudo-judge with numeric scores only (DA, MQM) is compared on its score
    against the other judge's adequacy and fluency (correlations only; kappa
    needs two 1-5 raters), so imported human scores can be set against
    judges of the panel. Two score-only judges meet under ``score``.
    """
    index = _index(judgments)
    shared = set(index.first.get(a, {})) & set(index.first.get(b, {}))
    score_a, score_b = index.score_only(a), index.score_only(b)
    paired = {}
    for q in QUANTITIES:
        qa = "score" if score_a and q in LDC_QUANTITIES and not score_b else q
        qb = "score" if score_b and q in LDC_QUANTITIES and not score_a else q
        paired[q] = paired_values(index, a, b, qa, qb)
    per_scale = {
        q: scale_agreement(p.a, p.b, q if not (score_a or score_b) else "score") for q, p in paired.items()
    }
    return PairAgreement(
        judges=(a, b),
        n=len(shared),
        adequacy=per_scale["adequacy"],
        fluency=per_scale["fluency"],
        score=per_scale["score"] if per_scale["score"].n else None,
        paired=paired,
    )


def repeat_pairs(judgments: JudgmentsLike, judge: str) -> list[tuple[Judgment, Judgment]]:
    """(first, repeat) for every later judgment of an item the judge rated more than once."""
    grouped = _index(judgments).items.get(judge, {})
    return [(js[0], later) for js in grouped.values() for later in js[1:]]


def _consistency(pairs: list[tuple[Judgment, Judgment]], quantity: str) -> RepeatConsistency:
    values = [(_value(x, quantity), _value(y, quantity)) for x, y in pairs]
    values = [(x, y) for x, y in values if x is not None and y is not None]
    if not values:
        return RepeatConsistency(0, None, None, None, None, None)
    a = np.array([x for x, _ in values])
    b = np.array([y for _, y in values])
    agreement = scale_agreement(a, b, quantity)
    return RepeatConsistency(
        n=len(values),
        exact=float(np.mean(a == b)),
        mean_abs_diff=float(np.mean(np.abs(a - b))),
        spearman=agreement.spearman,
        pearson=agreement.pearson,
        kappa_quadratic=agreement.kappa_quadratic,
    )


def intra_agreement(judgments: JudgmentsLike, judge: str) -> IntraAgreement:
    pairs = repeat_pairs(judgments, judge)
    score = _consistency(pairs, "score")
    return IntraAgreement(
        judge=judge,
        n=len(pairs),
        adequacy=_consistency(pairs, "adequacy"),
        fluency=_consistency(pairs, "fluency"),
        score=score if score.n else None,
    )


# --- normalisation --------------------------------------------------------------------------
def moments(values: Sequence[float]) -> MomentStats:
    if not len(values):
        return MomentStats(0, None, None)
    arr = np.asarray(values, dtype=float)
    return MomentStats(len(arr), float(arr.mean()), float(arr.std(ddof=0)))


def judge_summary(judgments: JudgmentsLike, judge: str, counted: JudgmentsLike | None = None) -> JudgeSummary:
    """Moments of the judge's values in ``judgments``; judgments and items counted in
    ``counted`` (default: the same), so a rater of rankings or spans is counted too."""
    own = _index(judgments).own(judge)
    all_own = own if counted is None else _index(counted).own(judge)
    return JudgeSummary(
        judge=judge,
        judgments=len(all_own),
        items=len({(j.system, j.segment) for j in all_own}),
        moments={q: moments([v for j in own if (v := _value(j, q)) is not None]) for q in QUANTITIES},
        scales=sorted({j.scale for j in own if j.scale}),
    )


def z_scores(judgments: JudgmentsLike, quantity: str) -> dict[str, float]:
    """Judgment id -> the judge's z-transformed ``quantity`` (Turian, Shen & Melamed 2003).

    Every judgment with a value is included, repeats too. A judge whose values
    are all equal has no spread to divide by: their judgments map to 0.
    """
    if quantity not in QUANTITIES:
        raise ValueError(f"unknown quantity {quantity!r}; expected one of {', '.join(QUANTITIES)}")
    rated = [(j.id, j.judge, v) for j in _index(judgments).judgments if (v := _value(j, quantity)) is not None]
    if not rated:
        return {}
    judges = {judge: k for k, judge in enumerate(dict.fromkeys(judge for _, judge, _ in rated))}
    judge_idx = np.array([judges[judge] for _, judge, _ in rated])
    values = np.array([v for _, _, v in rated], dtype=float)
    z = z_transform(judge_idx, values, len(judges))
    return {jid: float(zv) for (jid, _, _), zv in zip(rated, z)}


# --- DA, ESA, MQM segment scores ------------------------------------------------------------
def segment_score(j: Judgment, weights: MqmWeights = GOOGLE_WEIGHTS) -> float | None:
    """A judgment's segment score: its own score, or for MQM minus its weighted errors."""
    if j.score is not None:
        return float(j.score)
    return weights.score(j.errors) if j.protocol == "mqm" else None


def mean_abs_diff(a: np.ndarray, b: np.ndarray) -> float | None:
    return float(np.mean(np.abs(a - b))) if len(a) else None


ScoredItems = dict[Item, list[tuple[float, str]]]  # item -> (score, scale) in the order given


def scored_items(judgments: Iterable[Judgment], weights: MqmWeights = GOOGLE_WEIGHTS) -> dict[str, dict[str, ScoredItems]]:
    """protocol -> judge -> item -> the judge's scores of it (first, then repeats)."""
    out: dict[str, dict[str, ScoredItems]] = {}
    for j in judgments:
        if j.protocol not in SCORE_PROTOCOLS or j.qc:
            continue
        value = segment_score(j, weights)
        if value is not None:
            scale = (j.scale or j.protocol).strip().lower()
            out.setdefault(j.protocol, {}).setdefault(j.judge, {}).setdefault((j.system, j.segment), []).append((value, scale))
    return out


def _same_scale(scales: Iterable[str]) -> bool:
    return len(set(scales)) <= 1


def score_pair_agreement(protocol: str, judges: tuple[str, str], a: ScoredItems, b: ScoredItems) -> ScorePairAgreement:
    shared = [item for item in a if item in b]
    va = np.array([a[item][0][0] for item in shared], dtype=float)
    vb = np.array([b[item][0][0] for item in shared], dtype=float)
    scales = [a[item][0][1] for item in shared] + [b[item][0][1] for item in shared]
    return ScorePairAgreement(
        protocol=protocol, judges=judges, n=len(shared), pearson=pearson(va, vb), spearman=spearman(va, vb),
        mean_abs_diff=mean_abs_diff(va, vb) if _same_scale(scales) else None,
        paired=PairedValues(shared, va, vb),
    )


def score_repeat_agreement(protocol: str, judge: str, items: ScoredItems) -> ScoreRepeatAgreement:
    pairs = [(scores[0], later) for scores in items.values() for later in scores[1:]]
    first = np.array([x for (x, _), _ in pairs], dtype=float)
    again = np.array([y for _, (y, _) in pairs], dtype=float)
    scales = [s for (_, s), _ in pairs] + [s for _, (_, s) in pairs]
    return ScoreRepeatAgreement(
        protocol=protocol, judge=judge, n=len(pairs),
        mean_abs_diff=mean_abs_diff(first, again) if _same_scale(scales) else None,
        pearson=pearson(first, again), spearman=spearman(first, again),
    )


def score_agreement(
    judgments: Iterable[Judgment], weights: MqmWeights = GOOGLE_WEIGHTS
) -> tuple[list[ScorePairAgreement], list[ScoreRepeatAgreement]]:
    """Per protocol (DA, ESA, MQM): every pair of raters sharing items, every rater with repeats."""
    by_protocol = scored_items(judgments, weights)
    pairs, repeats = [], []
    for protocol in SCORE_PROTOCOLS:
        raters = by_protocol.get(protocol, {})
        for a, b in combinations(raters, 2):
            if any(item in raters[b] for item in raters[a]):
                pairs.append(score_pair_agreement(protocol, (a, b), raters[a], raters[b]))
        for judge, items in raters.items():
            if any(len(scores) > 1 for scores in items.values()):
                repeats.append(score_repeat_agreement(protocol, judge, items))
    return pairs, repeats


def protocols_present(judgments: Iterable[Judgment], weights: MqmWeights = GOOGLE_WEIGHTS) -> list[str]:
    """The report's sections that have ratings: ``ldc`` for adequacy/fluency, then DA, ESA, MQM, ranking."""
    found = set()
    for j in judgments:
        if j.qc:
            continue
        if j.adequacy is not None or j.fluency is not None:
            found.add("ldc")
        elif j.protocol == "rank" and j.ranking:
            found.add("rank")
        elif j.protocol in SCORE_PROTOCOLS and segment_score(j, weights) is not None:
            found.add(j.protocol)
    return [p for p in REPORT_PROTOCOLS if p in found]


# --- the whole report --------------------------------------------------------------------------
def ldc_part(judgments: Iterable[Judgment]) -> list[Judgment]:
    """The judgments the LDC part compares: no BAD copies, no rankings, no MQM spans without
    a score; a judge who gave adequacy or fluency enters with those (and ``scalar`` scores)
    only, so their DA or ESA scores of the same items (compared per protocol) do not take
    the place of their first 1-5 rating. A judge with scores only is a pseudo-judge here."""
    judgments = list(judgments)
    rates_ldc = {j.judge for j in judgments if not j.qc and (j.adequacy is not None or j.fluency is not None)}
    return [j for j in judgments
            if not j.qc and j.protocol != "rank" and not (j.protocol == "mqm" and j.score is None)
            and (j.judge not in rates_ldc or j.adequacy is not None or j.fluency is not None or j.protocol == "scalar")]


def agreement(judgments: JudgmentsLike, weights: MqmWeights = GOOGLE_WEIGHTS) -> AgreementReport:
    """Inter-judge agreement for every pair with shared items, intra-judge consistency
    for every judge with repeats, and each judge's z-transform parameters (LDC and
    pseudo-judges' scores); per protocol, DA/ESA/MQM score agreement; WMT's kappa
    for relative rankings. Quality-control (BAD) copies are left out throughout."""
    every = judgments.judgments if isinstance(judgments, JudgmentIndex) else list(judgments)
    scores, score_repeats = score_agreement(every, weights)
    compared = ldc_part(every)
    index = JudgmentIndex(compared)
    ratings = [j for j in every if not j.qc]
    # Every judge, whatever the protocol (grouped again only when the LDC part left some out).
    rated = index if len(ratings) == len(compared) else JudgmentIndex(ratings)
    judges = rated.judges
    pairs = []
    for a, b in combinations(judges, 2):
        pair = pair_agreement(index, a, b)
        if pair.n:
            pairs.append(pair)
    intra = {}
    for judge in judges:
        result = intra_agreement(index, judge)
        if result.n:
            intra[judge] = result
    summaries = {judge: judge_summary(index, judge, counted=rated) for judge in judges}
    return AgreementReport(judges, pairs, intra, summaries, protocols=protocols_present(every, weights),
                           scores=scores, score_repeats=score_repeats, ranking=ranking_agreement(every))


def jitter(values: np.ndarray, amount: float = 0.2, seed: int = 0) -> np.ndarray:
    """Values plus uniform noise in [-amount, amount], seeded, so a scatter of
    1-5 ratings shows its density (Turian, Shen & Melamed 2003, figure 3, adds 0.20)."""
    rng = np.random.default_rng(seed)
    values = np.asarray(values, dtype=float)
    return values + rng.uniform(-amount, amount, size=values.shape)
