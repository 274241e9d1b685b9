"""Agreement for DA, ESA, MQM and relative ranking: hand-computed values (issue 15, item 8)."""

from __future__ import annotations

import json
import math

import pytest
from scipy import stats

from mtworkbench.analysis.agreement import agreement, score_agreement
from mtworkbench.analysis.mqm_weights import parse_weights
from mtworkbench.analysis.ranking_agreement import chance_agreement, pairwise_kappa, ranking_agreement
from mtworkbench.analysis.span_agreement import span_agreement
from mtworkbench.core.model import ErrorSpan, Judgment
from mtworkbench.core.ranking import Ranking


def da(jid, judge, segment, score, scale="da", qc="", protocol="da"):
    return Judgment(jid, judge, "A", str(segment), score=score, scale=scale, protocol=protocol, qc=qc,
                    text="degraded" if qc else None)


def mqm(jid, judge, segment, *errors):
    return Judgment(jid, judge, "A", str(segment), protocol="mqm",
                    errors=tuple(ErrorSpan(k, k + 1, sev, cat) for k, (sev, cat) in enumerate(errors)))


def da_project() -> list[Judgment]:
    ann = [10, 20, 30, 40]
    bob = [20, 20, 50, 40]
    out = [da(f"a{i}", "ann", i, s) for i, s in enumerate(ann, 1)]
    out += [da(f"b{i}", "bob", i, s) for i, s in enumerate(bob, 1)]
    out += [da("a1r", "ann", 1, 14), da("a2r", "ann", 2, 20)]  # ann's repeats of items 1 and 2
    out.append(da("bad3", "ann", 3, 0, qc="bad"))  # a BAD copy: quality control, no rating
    return out


def test_da_scores_between_raters_hand_computed():
    report = agreement(da_project())
    assert report.protocols == ["da"]
    [pair] = report.score_pairs("da")
    assert pair.judges == ("ann", "bob") and pair.n == 4  # the BAD copy and the repeats left out
    # |10-20| + 0 + |30-50| + 0 = 30 over 4 items.
    assert pair.mean_abs_diff == 7.5
    # Deviations (-15,-5,5,15) and (-12.5,-12.5,17.5,7.5): products 450, squares 500 and 675 -> r^2 = 0.6.
    assert pair.pearson == pytest.approx(math.sqrt(0.6))
    # Ranks (1,2,3,4) and (1.5,1.5,4,3): products 3.5, squares 5 and 4.5.
    assert pair.spearman == pytest.approx(3.5 / math.sqrt(22.5))
    assert pair.paired.a.tolist() == [10, 20, 30, 40] and pair.paired.b.tolist() == [20, 20, 50, 40]
    # Nothing left in the LDC part: no adequacy/fluency pairs to show.
    assert report.ldc_pairs() == [] and report.ranking is None


def test_da_repeats_against_the_first_score():
    [repeat] = agreement(da_project()).score_intra("da")
    assert (repeat.judge, repeat.n) == ("ann", 2)
    assert repeat.mean_abs_diff == 2.0  # (10 -> 14), (20 -> 20)
    assert repeat.pearson == pytest.approx(1.0) and repeat.spearman == pytest.approx(1.0)


def test_scores_on_different_scales_have_no_mean_difference():
    judgments = da_project() + [da(f"z{i}", "da-z", i, z, scale="da-z") for i, z in enumerate([-1.0, 0.0, 1.0], 1)]
    pair = next(p for p in agreement(judgments).score_pairs("da") if p.judges == ("ann", "da-z"))
    assert pair.n == 3 and pair.mean_abs_diff is None
    assert pair.pearson == pytest.approx(1.0)


def test_esa_scores_are_compared_apart_from_da():
    judgments = da_project() + [
        da("e1", "ann", 1, 70, scale="esa", protocol="esa"), da("e2", "ann", 2, 90, scale="esa", protocol="esa"),
        da("f1", "cy", 1, 60, scale="esa", protocol="esa"), da("f2", "cy", 2, 95, scale="esa", protocol="esa"),
    ]
    report = agreement(judgments)
    assert report.protocols == ["da", "esa"]
    [esa] = report.score_pairs("esa")
    assert esa.judges == ("ann", "cy") and esa.n == 2 and esa.mean_abs_diff == 7.5
    assert [p.judges for p in report.score_pairs("da")] == [("ann", "bob")]  # cy did no DA


def test_mqm_segment_scores_from_the_weights():
    judgments = [
        mqm("r1a", "r1", 1, ("Major", "Accuracy/Mistranslation")),
        mqm("r1b", "r1", 2),  # rated, no errors: 0
        mqm("r1c", "r1", 3, ("Minor", "Fluency/Grammar"), ("Minor", "Style/Awkward")),
        mqm("r2a", "r2", 1, ("Minor", "Fluency/Grammar")),
        mqm("r2b", "r2", 2, ("Minor", "Fluency/Punctuation")),
        mqm("r2c", "r2", 3, ("Major", "Accuracy/Omission"), ("Minor", "Fluency/Spelling")),
    ]
    report = agreement(judgments)
    assert report.protocols == ["mqm"]
    [pair] = report.score_pairs("mqm")
    # Google's weights: r1 -5, 0, -2; r2 -1, -0.1, -6.
    assert pair.paired.a.tolist() == [-5.0, 0.0, -2.0] and pair.paired.b.tolist() == [-1.0, -0.1, -6.0]
    assert pair.mean_abs_diff == pytest.approx((4 + 0.1 + 4) / 3)
    assert pair.spearman == pytest.approx(0.5)  # ranks (1,3,2) and (2,3,1): d^2 = 2 -> 1 - 12/24
    assert pair.pearson == pytest.approx(stats.pearsonr([-5, 0, -2], [-1, -0.1, -6]).statistic)
    # The same correlation the span table shows for the pair.
    [spans] = span_agreement(judgments)
    assert (spans.pearson, spans.spearman) == (pytest.approx(pair.pearson), pytest.approx(pair.spearman))
    # Other weights, other scores: minor = 2 -> r1 -5, 0, -4.
    pairs, _ = score_agreement(judgments, parse_weights("minor=2"))
    assert pairs[0].paired.a.tolist() == [-5.0, 0.0, -4.0]


def ranked(rid, judge, segment, order: dict[str, int]) -> list[Judgment]:
    systems = tuple(order)
    return Ranking(rid, judge, str(segment), None, systems, tuple(order.values()),
                   tuple(f"{rid}-{s}" for s in systems)).judgments()


def ranking_project() -> list[Judgment]:
    return [
        *ranked("r1", "ann", 1, {"A": 1, "B": 2, "C": 2}),  # A<B, A<C, B=C
        *ranked("r2", "bob", 1, {"A": 1, "B": 1, "C": 3}),  # A=B, A<C, B<C
        *ranked("r3", "ann", 2, {"A": 2, "B": 1}),  # A>B
        *ranked("r4", "bob", 2, {"B": 1, "A": 2}),  # A>B, shown the other way round
        *ranked("r5", "ann", 1, {"C": 3, "A": 1, "B": 2}),  # ann's repeat of r1: A<B, A<C, B<C
    ]


def test_ranking_kappa_between_raters_hand_computed():
    result = ranking_agreement(ranking_project())
    [pair] = result.pairs
    assert pair.judges == ("ann", "bob")
    k = pair.kappa
    # Four shared comparisons (ann's first labels): agree on (1,A,C) and (2,A,B) -> P(A) = 1/2.
    assert k.n == 4 and k.p_agree == 0.5
    # Ties among the 8 labels: ann's B=C and bob's A=B -> P(A=B) = 1/4, P(A<B) = P(A>B) = 3/8;
    # P(E) = 1/16 + 2 * 9/64 = 11/32; kappa = (1/2 - 11/32) / (21/32) = 5/21.
    assert k.p_tie == 0.25 and k.p_chance == pytest.approx(11 / 32)
    assert k.kappa == pytest.approx(5 / 21)
    assert result.inter == k  # one pair: the pooled figure is the pair's


def test_ranking_kappa_of_a_rater_against_themselves():
    result = ranking_agreement(ranking_project())
    [repeat] = result.repeats
    assert repeat.judge == "ann"
    k = repeat.kappa
    # First (A<B, A<C, B=C) against the repeat (A<B, A<C, B<C): P(A) = 2/3; one tie in 6 labels:
    # P(E) = 1/36 + 2 * (5/12)^2 = 3/8; kappa = (2/3 - 3/8) / (5/8) = 7/15.
    assert (k.n, k.p_agree, k.p_tie) == (3, pytest.approx(2 / 3), pytest.approx(1 / 6))
    assert k.p_chance == pytest.approx(3 / 8) and k.kappa == pytest.approx(7 / 15)
    assert result.intra == k


def test_ranking_in_the_report_and_its_json():
    report = agreement(ranking_project())
    assert report.protocols == ["rank"]
    assert report.pairs == []  # ranks are not scores: no LDC-style correlation of them
    data = json.loads(json.dumps(report.to_json(), allow_nan=False))
    assert data["ranking"]["inter"]["kappa"] == pytest.approx(5 / 21)
    assert data["ranking"]["pairs"][0]["judges"] == ["ann", "bob"]
    assert data["ranking"]["repeats"][0]["kappa"]["kappa"] == pytest.approx(7 / 15)


def test_chance_agreement_and_undefined_kappa():
    assert chance_agreement(1 / 3) == pytest.approx(1 / 3)  # WMT 2011-2012's fixed value when ties are a third
    assert chance_agreement(0.0) == 0.5
    assert pairwise_kappa([]).kappa is None
    assert pairwise_kappa([("=", "="), ("=", "=")]).kappa is None  # P(E) = 1: nothing beyond chance to measure
    assert pairwise_kappa([("<", "<"), (">", ">")]).kappa == 1.0


def test_a_judge_with_ldc_and_da_ratings_of_the_same_items_is_compared_on_each_apart():
    judgments = []
    for i, (a, b) in enumerate([(1, 2), (3, 3), (5, 4)], 1):  # DA first, then the 1-5 rating of the same item
        judgments += [da(f"da{i}", "ann", i, 20.0 * a), da(f"db{i}", "bob", i, 20.0 * b)]
        judgments += [Judgment(f"la{i}", "ann", "A", str(i), adequacy=a, fluency=a),
                      Judgment(f"lb{i}", "bob", "A", str(i), adequacy=b, fluency=b)]
    report = agreement(judgments)
    assert report.protocols == ["ldc", "da"]
    [pair] = report.ldc_pairs()
    assert pair.adequacy.n == 3 and pair.adequacy.spearman == pytest.approx(stats.spearmanr([1, 3, 5], [2, 3, 4]).statistic)
    assert pair.score is None  # the DA scores are not the LDC part's
    assert report.intra == {}  # a DA score and a 1-5 rating of one item are no repeat
    [da_pair] = report.score_pairs("da")
    assert da_pair.n == 3 and da_pair.mean_abs_diff == pytest.approx(40 / 3)
