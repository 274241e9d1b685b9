"""LEPOR / hLEPOR: the SPECS.md vector (original Perl), components, bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mtworkbench.metrics.base import MetricSpecError, ScoringInput
from mtworkbench.metrics.lepor import HLEPOR, LEPOR, align, length_penalty
from mtworkbench.metrics.registry import create_metric

HYP = "It is a guide to action which ensures that the military always obeys the commands of the party"
REF1 = "It is a guide to action that ensures that the military will forever heed Party commands"
REF3 = "It is the practical guide for the army always to heed the directions of the party"

# SPECS.md, LEPOR section (original Perl): hLEPOR and its three factors.
SPEC_HLEPOR = 0.782474431108977
SPEC_LP = 0.882496902584595
SPEC_HPR = 0.740740740740741
SPEC_NPOSPENAL = 0.940138198294901


def test_specs_vector_hlepor_and_factors():
    res = HLEPOR().explain(ScoringInput([HYP], [[REF1]]), 0)
    assert res.score == pytest.approx(SPEC_HLEPOR, abs=1e-14)
    assert res.lp == pytest.approx(SPEC_LP, abs=1e-14)
    assert res.hpr == pytest.approx(SPEC_HPR, abs=1e-14)
    assert res.npospenal == pytest.approx(SPEC_NPOSPENAL, abs=1e-14)
    assert create_metric("hlepor").score(ScoringInput([HYP], [[REF1]])).corpus == pytest.approx(
        SPEC_HLEPOR, abs=1e-14
    )


def test_lepor_is_the_product_of_the_factors():
    got = create_metric("lepor").score(ScoringInput([HYP], [[REF1]])).corpus
    assert got == pytest.approx(SPEC_LP * SPEC_NPOSPENAL * SPEC_HPR, abs=1e-13)


def test_vector_alignment_by_hand():
    hyp, ref = HYP.lower().split(), REF1.lower().split()
    a = align(hyp, ref)
    # "that" (hyp 8) has two candidates (ref 6, ref 8); only ref 8's left neighbour
    # ("ensures") agrees. All three "the" go to the single reference "the" (ref 9).
    assert a[8] == 8
    assert [a[i] for i in (9, 13, 16)] == [9, 9, 9]
    assert a[17] == 14  # party ~ Party (lowercased)
    assert a[6] is None and a[11] is None and a[12] is None and a[15] is None
    # 12 clipped matches: P = 12/18, R = 12/16, HPR = 10 / (9/R + 1/P).
    res = LEPOR().explain(ScoringInput([HYP], [[REF1]]), 0)
    assert res.precision == pytest.approx(12 / 18) and res.recall == pytest.approx(12 / 16)
    assert res.hpr == pytest.approx(10 / (9 * 16 / 12 + 18 / 12))


def test_nearest_candidate_without_context():
    # "b" has candidates 0 and 3 in the reference, no neighbour agrees: nearest to hyp 2 is 3.
    assert align(["x", "y", "b"], ["b", "p", "q", "b"]) == [None, None, 3]
    # equally near: the leftmost
    assert align(["q", "b", "r"], ["b", "z", "b"]) == [None, 0, None]


def test_length_penalty():
    assert length_penalty(5, 5) == 1.0
    assert length_penalty(4, 5) == pytest.approx(math.exp(1 - 5 / 4))
    assert length_penalty(6, 5) == pytest.approx(math.exp(1 - 6 / 5))
    assert length_penalty(0, 5) == 0.0


def test_system_score_is_the_mean_of_sentence_scores():
    metric = LEPOR()
    data = ScoringInput([HYP, "a b c", "x"], [[REF1, "a b c", "y"]])
    out = metric.score(data)
    assert out.segments[1] == 1.0 and out.segments[2] == 0.0
    assert out.corpus == pytest.approx(out.segments.mean(), abs=1e-15)
    # aggregate on raw statistics, vectorised
    rows = np.array([[0.5, 1, 0, 0, 0], [0.25, 1, 0, 0, 0]])
    assert metric.aggregate(rows.sum(0)) == pytest.approx(0.375)
    assert metric.aggregate(rows).tolist() == [0.5, 0.25]


def test_best_reference_wins_and_result_object():
    metric = HLEPOR()
    data = ScoringInput([HYP], [[REF3], [REF1]])
    res = metric.explain(data, 0)
    assert res.chosen_reference == 1 and res.score == pytest.approx(SPEC_HLEPOR, abs=1e-14)
    assert [r.reference_index for r in res.per_reference] == [0, 1]
    assert res.per_reference[0].score < res.score
    assert len(res.alignment) == len(res.hypothesis_tokens) == 18
    out = metric.score(data)
    assert out.extras["chosen_reference"].tolist() == [1]


def test_bad_input_gives_zero_not_an_error():
    for metric in (LEPOR(), HLEPOR()):
        out = metric.score(ScoringInput(["", "a b", ". ,", "a"], [["a b", "", ". ,", None]]))
        assert out.segments.tolist() == [0.0, 0.0, 1.0, 0.0]


def test_case_and_weights_options():
    data = ScoringInput(["The Cat"], [["the cat"]])
    assert create_metric("lepor").score(data).corpus == 1.0
    assert create_metric("lepor:lowercase=no").score(data).corpus == 0.0
    h = create_metric("hlepor:weights=1+1+1").explain(ScoringInput([HYP], [[REF1]]), 0)
    assert h.score == pytest.approx(3 / (1 / SPEC_LP + 1 / SPEC_NPOSPENAL + 1 / SPEC_HPR), abs=1e-13)
    for spec in ("hlepor:weights=1+2", "lepor:alpha=0", "lepor:tokenize=intl"):
        with pytest.raises(MetricSpecError):
            create_metric(spec)
