"""Span agreement between MQM/ESA raters on hand-made examples with hand-derived values."""

from __future__ import annotations

import pytest
from scipy import stats

from mtworkbench.analysis.span_agreement import span_agreement
from mtworkbench.core.model import ErrorSpan as E
from mtworkbench.core.model import Judgment

TEXTS = {"1": "The hound barks loudly.", "2": "Yes.", "3": "Hello world"}


def mqm(judge, seg, *errors):
    return Judgment(f"{judge}{seg}", judge, "S", seg, protocol="mqm", errors=tuple(errors))


def judgments():
    return [
        mqm("A", "1", E(4, 9, "Minor", "Style/Awkward"), E(10, 15, "Major", "Fluency/Grammar")),
        mqm("B", "1", E(4, 9, "Major", "Accuracy/Mistranslation"), E(16, 22, "Minor", "Style/Awkward")),
        mqm("A", "2"),
        mqm("B", "2"),
        mqm("A", "3", E(0, 5, "Major", "Accuracy/Mistranslation")),
        mqm("B", "3", E(0, 5, "major", "Accuracy/Mistranslation"), E(None, None, "Minor", "Accuracy/Omission")),
        mqm("C", "9", E(0, 1, "Minor")),  # shares nothing with A or B
    ]


def test_hand_derived_pair():
    [pair] = span_agreement(judgments())
    assert pair.judges == ("A", "B") and pair.protocol == "mqm" and pair.n_items == 3
    assert pair.spans == (3, 3)  # B's omission has no place in the translation
    # Exact: (4,9) and (0,5) match; 6 located spans in all.
    assert pair.exact_f1 == pytest.approx(2 * 2 / 6)
    # Characters: item 1 A 10, B 11, common 5; item 3 both 5, common 5.
    assert pair.overlap_f1 == pytest.approx(2 * 10 / 31)
    # Overlapping pairs: (4,9) minor/major, (0,5) major/major (case ignored); (10,15)/(16,22) do not touch.
    assert pair.severity_pairs == 2 and pair.severity_agreement == 0.5
    assert pair.severity_kappa == pytest.approx(0.0)  # p_o = 0.5 = p_e
    # MQM scores: item 1 -6/-6, item 2 0/0, item 3 -5/-6.
    assert pair.pearson == pytest.approx(stats.pearsonr([-6, 0, -5], [-6, 0, -6]).statistic)
    assert pair.spearman == pytest.approx(stats.spearmanr([-6, 0, -5], [-6, 0, -6]).statistic)


def test_identical_raters_agree_fully_and_no_spans_is_undefined():
    same = [mqm("A", "1", E(0, 3, "Minor")), mqm("B", "1", E(0, 3, "minor")),
            mqm("A", "2", E(1, 2, "Major")), mqm("B", "2", E(1, 2, "Major"))]
    [pair] = span_agreement(same)
    assert (pair.exact_f1, pair.overlap_f1, pair.severity_agreement) == (1.0, 1.0, 1.0)
    [empty] = span_agreement([mqm("A", "1"), mqm("B", "1")])
    assert empty.exact_f1 is None and empty.overlap_f1 is None and empty.severity_agreement is None
    assert empty.pearson is None  # one item: no correlation


def test_esa_uses_its_scores_and_lone_ends_need_the_text():
    esa = [
        Judgment("a1", "A", "S", "1", score=80, scale="esa", protocol="esa", errors=(E(4, None, "minor"),)),
        Judgment("b1", "B", "S", "1", score=70, scale="esa", protocol="esa", errors=(E(4, 23, "minor"),)),
        Judgment("a2", "A", "S", "2", score=10, scale="esa", protocol="esa"),
        Judgment("b2", "B", "S", "2", score=20, scale="esa", protocol="esa"),
    ]
    [without] = span_agreement(esa)
    assert without.protocol == "esa" and without.spans == (0, 1)
    assert without.pearson == pytest.approx(1.0)  # two items, same order
    [with_text] = span_agreement(esa, text_length=lambda j: len(TEXTS[j.segment]))
    assert with_text.exact_f1 == 1.0  # the lone "<v>" reaches the end: 4-23


def test_first_judgment_counts_and_protocols_do_not_mix():
    js = judgments() + [mqm("A", "1", E(0, 3, "Minor")).__class__("rep", "A", "S", "1", protocol="mqm")]
    [pair] = span_agreement(js)
    assert pair.exact_f1 == pytest.approx(2 / 3)  # A's repeat of item 1 is left out
    mixed = [mqm("A", "1", E(0, 3, "Minor")),
             Judgment("e", "B", "S", "1", score=50, scale="esa", protocol="esa", errors=(E(0, 3, "minor"),))]
    assert span_agreement(mixed) == []
