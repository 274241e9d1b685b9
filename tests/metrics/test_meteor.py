"""METEOR: formula, statistics, options, quirks of Meteor 1.x's search, bad input.

Expected numbers are derived by hand from SPECS.md's METEOR section.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from mtworkbench.metrics.base import MetricSpecError, ScoringInput
from mtworkbench.metrics.meteor import Meteor, MeteorResult
from mtworkbench.metrics.meteor.matchers import CandidateFinder, tokenize
from mtworkbench.metrics.meteor.scoring import STAT_NAMES, meteor_formula
from mtworkbench.metrics.registry import create_metric


def score_one(spec: str, hyp: str, *refs: str) -> float:
    metric = create_metric(spec)
    return metric.score(ScoringInput([hyp], [[r] for r in refs])).corpus


def row(**values: float) -> np.ndarray:
    out = np.zeros(len(STAT_NAMES))
    for key, value in values.items():
        out[STAT_NAMES.index(key)] = value
    return out


PRESET_2005 = dict(alpha=0.9, beta=3.0, gamma=0.5, delta=0.5)
W1 = {"exact": 1.0, "stem": 1.0, "synonym": 1.0}


# --- formula on raw statistics (sacrebleu's habit: aggregation tested apart) ------


def test_formula_hand_derived_two_chunks():
    # hyp w1 w2 w3 w4 / ref w1 w2 x w3 w4: P = 1, R = 0.8, 2 chunks over 4 matches.
    r = row(tst_len=4, ref_len=5, exact_tst_content=4, exact_ref_content=4,
            chunks=2, tst_word_matches=4, ref_word_matches=4)
    f = meteor_formula(r, weights=W1, module_order=("exact",), **PRESET_2005)
    fmean = 10 * 1.0 * 0.8 / (0.8 + 9 * 1.0)
    assert f["precision"] == 1.0 and f["recall"] == pytest.approx(0.8, abs=1e-15)
    assert f["frag"] == 0.5
    assert f["penalty"] == pytest.approx(0.5 * 0.5**3, abs=1e-15)
    assert f["score"] == pytest.approx(fmean * (1 - 0.0625), abs=1e-12)


def test_formula_function_words_and_module_weights():
    # meteor-1.x-en: delta 0.75; hyp "the cat" ref "the dog", only "the" matched (function).
    r = row(tst_len=2, ref_len=2, tst_function_words=1, ref_function_words=1,
            exact_tst_function=1, exact_ref_function=1, chunks=1,
            tst_word_matches=1, ref_word_matches=1)
    f = meteor_formula(r, alpha=0.85, beta=0.2, gamma=0.6, delta=0.75,
                       weights={"exact": 1.0}, module_order=("exact",))
    assert f["precision"] == pytest.approx(0.25, abs=1e-15)
    assert f["recall"] == pytest.approx(0.25, abs=1e-15)
    assert f["score"] == pytest.approx(0.25 * (1 - 0.6), abs=1e-12)
    # A stem match weighs 0.6 in the numerator only.
    r2 = row(tst_len=1, ref_len=1, stem_tst_content=1, stem_ref_content=1, chunks=1,
             tst_word_matches=1, ref_word_matches=1, perfect=1)
    f2 = meteor_formula(r2, alpha=0.85, beta=0.2, gamma=0.6, delta=0.75,
                        weights={"exact": 1.0, "stem": 0.6}, module_order=("exact", "stem"))
    assert f2["precision"] == pytest.approx(0.6, abs=1e-15)
    assert f2["frag"] == 0.0 and f2["score"] == pytest.approx(0.6, abs=1e-15)


def test_corpus_leaves_out_chunks_of_perfect_segments():
    perfect = row(tst_len=2, ref_len=2, exact_tst_content=2, exact_ref_content=2,
                  chunks=1, tst_word_matches=2, ref_word_matches=2, perfect=1)
    other = row(tst_len=3, ref_len=3, exact_tst_content=2, exact_ref_content=2,
                chunks=2, tst_word_matches=2, ref_word_matches=2)
    metric = Meteor(preset="2005", modules="exact")
    # Sum: P = R = 4/5, Fmean 0.8; effective chunks 2 (not 3) over 4 matches.
    assert metric.aggregate(perfect + other) == pytest.approx(0.8 * (1 - 0.5 * 0.5**3), abs=1e-12)
    assert metric.aggregate(perfect) == 1.0
    both = metric.aggregate(np.stack([perfect, other, perfect + other]))
    assert both.shape == (3,) and both[0] == 1.0


def test_zero_matches_and_empty_give_zero_not_nan():
    metric = Meteor(preset="2005", modules="exact")
    assert metric.aggregate(row(tst_len=3, ref_len=2)) == 0.0
    assert metric.aggregate(row()) == 0.0


# --- whole metric, hand-derived ---------------------------------------------------


def test_sentence_with_gap_hand_derived():
    got = score_one("meteor:preset=2005,modules=exact", "w1 w2 w3 w4", "w1 w2 x w3 w4")
    assert got == pytest.approx(10 * 0.8 / 9.8 * (1 - 0.0625), abs=1e-12)


def test_identical_is_one_and_case_matters_by_default():
    assert score_one("meteor:modules=exact", "The cat sat .", "The cat sat .") == 1.0
    lower = score_one("meteor:modules=exact,lowercase=yes", "The cat", "the cat")
    cased = score_one("meteor:modules=exact", "The cat", "the cat")
    assert lower == 1.0 and cased < 1.0


def test_tokens_split_like_java_stringtokenizer():
    # U+00A0 and U+FEFF are not Meteor delimiters (Python's str.split would split U+00A0).
    assert tokenize("a\u00a0b \ufeffc\td\r\ne\x0cf") == ["a\u00a0b", "\ufeffc", "d", "e", "f"]


def test_meteor_search_distance_quirk():
    # ref "z z a", hyp "a q a": candidates for ref 2 are hyp 0 then hyp 2. Meteor's path
    # for hyp 0 never pays its own distance, the one for hyp 2 pays hyp 0's: hyp 0 wins.
    data = ScoringInput(["a q a"], [["z z a"]])
    meteor = Meteor(modules="exact").explain(data, 0)
    exact = Meteor(modules="exact", aligner="exact").explain(data, 0)
    assert [(l.hyp, l.ref) for l in meteor.links] == [(0, 2)]
    assert [(l.hyp, l.ref) for l in exact.links] == [(2, 2)]


def test_meteor_search_int_truncation_drops_lone_stem_match():
    # "dogs dogs" / "dog": two stem candidates (no definite match); each adds
    # int(0 + 0.5) = 0 matches but a chunk, so the empty path wins in Meteor.
    data = ScoringInput(["dogs dogs"], [["dog"]])
    meteor = Meteor(preset="2005", modules="exact+stem")
    exact = Meteor(preset="2005", modules="exact+stem", aligner="exact")
    assert meteor.explain(data, 0).links == [] and meteor.score(data).corpus == 0.0
    res = exact.explain(data, 0)
    assert [(l.hyp, l.ref, l.module) for l in res.links] == [(0, 0, "stem")]
    # P = 1/2, R = 1, one chunk over one match: frag 1, penalty 0.5.
    assert res.score == pytest.approx(10 * 0.5 / (1 + 4.5) * 0.5, abs=1e-12)


def test_stem_module_uses_snowball_2_2_stems():
    # Porter2 as in snowballstemmer 2.2.0 stems both to "univers" (3.x differs).
    res = Meteor(modules="exact+stem").explain(ScoringInput(["universal"], [["universe"]]), 0)
    assert [(l.hyp, l.ref, l.module) for l in res.links] == [(0, 0, "stem")]


def test_identical_sentences_run_only_the_first_module():
    finder = CandidateFinder(("exact", "stem"))
    cands = finder.find(["walk", "walked"], ["walk", "walked"])
    assert sorted(cands.pairs()) == [(0, 0, 0), (1, 1, 0)]
    cands = finder.find(["walk", "walked"], ["walked", "walk"])
    assert (0, 0, 1) in cands.pairs()  # different lists: stem candidates appear


# --- references ---------------------------------------------------------------------


def test_best_reference_wins_first_on_ties():
    metric = Meteor(preset="2005", modules="exact")
    data = ScoringInput(["w1 w2", "w1 w2"], [["w1 x", "w1 y"], ["w1 w2", "w1 z"]])
    stats = metric.segment_statistics(data)
    extras = metric.extras(data, stats)
    assert extras["chosen_reference"].tolist() == [1, 0]
    res = metric.explain(data, 0)
    assert isinstance(res, MeteorResult)
    assert res.chosen_reference == 1 and res.score == 1.0
    assert [r.reference_index for r in res.per_reference] == [0, 1]
    assert res.per_reference[0].score < 1.0
    only_first = metric.explain(data, 0, ref=0)
    assert only_first.chosen_reference == 0 and only_first.score == res.per_reference[0].score


def test_missing_reference_streams_are_skipped():
    metric = Meteor(preset="2005", modules="exact")
    data = ScoringInput(["w1 w2", "w1"], [["w1 w2", None], [None, "w1"]])
    out = metric.score(data)
    assert out.segments.tolist() == [1.0, 1.0]
    assert out.extras["chosen_reference"].tolist() == [0, 1]


def test_explain_carries_links_chunks_and_components():
    data = ScoringInput(["w1 w2 w3 w4"], [["w1 w2 x w3 w4"]])
    res = Meteor(preset="2005", modules="exact").explain(data, 0)
    assert [(l.hyp, l.ref, l.module) for l in res.links] == [
        (0, 0, "exact"), (1, 1, "exact"), (2, 3, "exact"), (3, 4, "exact")]
    assert [(c.hyp_start, c.hyp_end, c.ref_start, c.ref_end) for c in res.chunks] == [
        (0, 2, 0, 2), (2, 4, 3, 5)]
    assert res.precision == 1.0 and res.recall == pytest.approx(0.8)
    assert res.frag == 0.5 and res.penalty == pytest.approx(0.0625)
    assert res.n_chunks == 2 and res.aligner == "meteor"
    assert res.per_reference[0].statistics["chunks"] == 2


# --- options and specs -----------------------------------------------------------------


def test_presets_and_explicit_parameters_agree(wordnet_cache):
    hyp, ref = "the cats sat on a mat", "a cat is sitting on the rug"
    explicit = ("meteor:modules=exact+stem+synonym,alpha=0.9,beta=3,gamma=0.5,"
                "delta=0.5,weights=1+1+1")
    assert score_one(explicit, hyp, ref) == score_one("meteor:preset=2005", hyp, ref)
    default = create_metric("meteor")
    assert (default.alpha, default.beta, default.gamma, default.delta) == (0.85, 0.2, 0.6, 0.75)
    assert default.weights == {"exact": 1.0, "stem": 0.6, "synonym": 0.8}
    assert "preset:meteor-1.x-en" in default.signature(1)


@pytest.mark.parametrize(
    "spec",
    [
        "meteor:weights=1+0.5",  # 2 weights, 3 modules
        "meteor:modules=exact+paraphrase",
        "meteor:alpha=1.5",
        "meteor:preset=2010",
        "meteor:aligner=greedy",
        "meteor:modules=exact+exact",
    ],
)
def test_bad_specs_are_rejected(spec):
    with pytest.raises(MetricSpecError):
        create_metric(spec)


# --- bad input ----------------------------------------------------------------------------


def test_empty_sides(wordnet_cache):
    metric = create_metric("meteor")
    out = metric.score(ScoringInput(["", "a b", ""], [["a b", "", ""]]))
    assert out.segments.tolist() == [0.0, 0.0, 0.0]
    assert out.stats[0, 0] == 0 and out.stats[0, 1] == 2
    assert math.isfinite(out.corpus)


def test_punctuation_only_and_unknown_words(wordnet_cache):
    assert score_one("meteor", ". , !", ". , !") == 1.0
    assert score_one("meteor", "qwzx blorf", "glorpt znark") == 0.0
    assert 0.0 < score_one("meteor", "qwzx , !", "qwzx ? .") < 1.0


def test_non_english_text_with_synonyms_finds_nothing_extra(wordnet_cache):
    metric = create_metric("meteor")
    hyp, ref = "война и экономическое давление", "экономическое давление и война"
    res = metric.explain(ScoringInput([hyp], [[ref]]), 0)
    assert {l.module for l in res.links} == {"exact"}
    assert len(res.links) == 4
    assert 0.0 < res.score < 1.0


# --- invariants -------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

WORDS = st.lists(st.sampled_from(["the", "cat", "cats", "sat", "sits", ",", ".", "a", "mat", "Cat"]),
                 max_size=10)


@settings(max_examples=60, deadline=None)
@given(hyp=WORDS, ref=WORDS)
def test_scores_are_bounded_and_identity_is_perfect(hyp, ref):
    for aligner in ("meteor", "exact"):
        metric = Meteor(modules="exact+stem", aligner=aligner)
        data = ScoringInput([" ".join(hyp), " ".join(ref)], [[" ".join(ref), " ".join(ref)]])
        out = metric.score(data)
        assert all(0.0 <= s <= 1.0 for s in out.segments)
        assert 0.0 <= out.corpus <= 1.0
        assert out.segments[1] == (1.0 if ref else 0.0)
        # The row is the chosen reference's counts: matches never exceed lengths.
        assert (out.stats[:, 21] <= out.stats[:, 0]).all() and (out.stats[:, 22] <= out.stats[:, 1]).all()
