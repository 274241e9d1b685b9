"""BLEU against SPECS.md vectors, sacrebleu's golden files and the installed
sacrebleu on random corpora."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest
import sacrebleu

from mtworkbench.metrics.base import MetricError, MetricSpecError, ScoringInput
from mtworkbench.metrics.bleu import BLEU
from mtworkbench.metrics.registry import create_metric

from .corpora import random_corpus

HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REF1 = ["The dog bit the man.", "It was not unexpected.", "The man bit him first."]
REF2 = ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]
SPEC_DATA = ScoringInput(HYPS, [REF1, REF2])


# --- SPECS.md vectors ---------------------------------------------------------
@pytest.mark.parametrize(
    "spec, expected",
    [("bleu", 48.530827), ("bleu:tokenize=none", 49.1919566), ("bleu:tokenize=intl", 43.91623493)],
)
def test_specs_tokenizer_vectors(spec: str, expected: float) -> None:
    assert create_metric(spec).score(SPEC_DATA).corpus == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize(
    "order, expected", [(1, 77.65), (2, 60.50), (3, 53.93), (4, 48.53), (5, 46.14), (6, 43.28)]
)
def test_specs_max_order_vectors(order: int, expected: float) -> None:
    assert round(BLEU(max_order=order).score(SPEC_DATA).corpus, 2) == expected


def test_specs_aggregation_vector() -> None:
    # compute_bleu(correct=[9,7,5,3], total=[10,8,6,4], sys_len=11, ref_len=11)
    stats = np.array([11, 11, 9, 7, 5, 3, 10, 8, 6, 4], dtype=float)
    assert BLEU().aggregate(stats) == pytest.approx(83.75922397, abs=1e-8)


def test_specs_mteval_segment_vector() -> None:
    data = ScoringInput(["the dog sat"], [["the cat sat on the mat"]])
    mteval = BLEU(mteval=True).score(data).segments[0]
    assert mteval == pytest.approx(100 * 0.166208300064693, rel=1e-12)
    assert BLEU().score(data).segments[0] == pytest.approx(12.7537, abs=5e-5)


def test_aggregate_is_vectorised_over_leading_axes() -> None:
    metric = BLEU()
    stats = metric.segment_statistics(SPEC_DATA)
    stacked = np.stack([stats, stats[::-1]])  # (2, 3, k)
    both = metric.aggregate(stacked.sum(axis=1))
    assert both.shape == (2,)
    assert both[0] == pytest.approx(metric.corpus_score(stats), abs=1e-12)
    per_seg = metric.aggregate(stacked)
    assert per_seg.shape == (2, 3)


def test_no_match_is_zero_whatever_smoothing() -> None:
    data = ScoringInput(["a b c d"], [["w x y z"]])
    for smooth in ("exp", "floor", "add-k", "none"):
        assert BLEU(smooth=smooth).score(data).corpus == 0.0


# --- golden files -------------------------------------------------------------
def _golden(shared_dir, name):
    record = json.loads((shared_dir / "golden" / "sacrebleu" / name).read_text(encoding="utf-8"))
    root = shared_dir.parent

    def read(rel: str) -> list[str]:
        text = (root / rel).read_text(encoding="utf-8")
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        return [line.rstrip() for line in lines]

    return record, ScoringInput(read(record["hyp"]), [read(r) for r in record["refs"]])


@pytest.mark.shared
@pytest.mark.parametrize(
    "name, spec",
    [
        ("wmt21-en-de.Facebook-AI.vs-refA-refC-refD.bleu-13a.json", "bleu"),
        ("wmt21-en-de.Facebook-AI.vs-refA-refC-refD.bleu-none.json", "bleu:tokenize=none"),
    ],
)
def test_golden_sacrebleu(shared_dir, name: str, spec: str) -> None:
    record, data = _golden(shared_dir, name)
    metric = create_metric(spec)
    result = metric.score(data)
    assert result.corpus == pytest.approx(record["corpus"], rel=1e-12)
    np.testing.assert_allclose(result.segments, record["segments"], rtol=0, atol=1e-9)
    totals = result.stats.sum(axis=0)
    details = record["corpus_details"]
    assert totals[0] == details["sys_len"] and totals[1] == details["ref_len"]
    assert list(totals[2:6]) == details["counts"] and list(totals[6:10]) == details["totals"]
    assert result.extras["corpus_precisions"] == pytest.approx(details["precisions"], abs=1e-12)
    assert result.extras["corpus_bp"] == details["bp"]
    assert (result.extras["corpus_sys_len"], result.extras["corpus_ref_len"]) == (
        details["sys_len"], details["ref_len"]
    )
    # our signature carries sacrebleu's fields in sacrebleu's order
    sacre = record["options"]["signature_corpus"].rsplit("|version", 1)[0]
    assert sacre in result.signature


# --- randomised comparison with sacrebleu --------------------------------------------
def _random_options(rng: random.Random) -> dict:
    smooth = rng.choice(["exp", "floor", "add-k", "none"])
    value = None
    if smooth in ("floor", "add-k") and rng.random() < 0.5:
        value = rng.choice([0.01, 0.5, 1.0, 2.0])
    return {
        "tokenize": rng.choice(["13a", "intl", "none"]),
        "lowercase": rng.random() < 0.3,
        "smooth": smooth,
        "smooth_value": value,
        "max_order": rng.choice([1, 2, 3, 4, 4, 4, 5, 6, 16]),
    }


@pytest.mark.parametrize("block", range(4))
def test_random_corpora_match_sacrebleu(block: int) -> None:
    """>= 200 corpora (4 x 60): corpus and sentence BLEU to 1e-9 with random options."""
    for seed in range(block * 60, block * 60 + 60):
        hyps, refs = random_corpus(seed)
        rng = random.Random(10_000 + seed)
        opts = _random_options(rng)
        eff = rng.choice(["sentence", "yes", "no"])
        ours = BLEU(**opts, effective_order=eff)
        kwargs = dict(
            tokenize=opts["tokenize"],
            lowercase=opts["lowercase"],
            smooth_method=opts["smooth"],
            smooth_value=opts["smooth_value"],
            max_ngram_order=opts["max_order"],
        )
        result = ours.score(ScoringInput(hyps, refs))
        corpus = sacrebleu.BLEU(**kwargs, effective_order=eff == "yes").corpus_score(hyps, refs)
        assert result.corpus == pytest.approx(corpus.score, abs=1e-9), (seed, opts, eff)
        sentence = sacrebleu.BLEU(**kwargs, effective_order=eff != "no")
        expected = [
            sentence.sentence_score(h, [r[i] for r in refs if r[i] is not None]).score
            for i, h in enumerate(hyps)
        ]
        np.testing.assert_allclose(result.segments, expected, rtol=0, atol=1e-9, err_msg=str(seed))


def test_random_statistics_equal_sacrebleu_statistics() -> None:
    for seed in range(300, 340):
        hyps, refs = random_corpus(seed)
        ours = BLEU(tokenize="13a").segment_statistics(ScoringInput(hyps, refs))
        theirs = sacrebleu.BLEU()._extract_corpus_statistics(hyps, refs)
        np.testing.assert_array_equal(ours, np.array(theirs, dtype=float))


# --- weights, mteval ---------------------------------------------------------------
def test_uniform_weights_equal_default_and_custom_weights_follow_formula() -> None:
    base = BLEU().score(SPEC_DATA).corpus
    assert BLEU(weights="1+1+1+1").score(SPEC_DATA).corpus == pytest.approx(base, rel=1e-12)
    totals = BLEU().segment_statistics(SPEC_DATA).sum(axis=0)
    sys_len, ref_len = totals[0], totals[1]
    p = totals[2:6] / totals[6:10]
    bp = 1.0 if sys_len >= ref_len else math.exp(1 - ref_len / sys_len)
    w = np.array([0.4, 0.3, 0.2, 0.1])
    expected = 100 * bp * math.exp(float((w * np.log(p)).sum()))
    assert BLEU(weights="0.4+0.3+0.2+0.1").score(SPEC_DATA).corpus == pytest.approx(expected, rel=1e-12)
    # unigram-only weights = BP * unigram precision
    assert BLEU(weights="1+0+0+0").score(SPEC_DATA).corpus == pytest.approx(100 * bp * p[0], rel=1e-12)


@pytest.mark.parametrize(
    "spec", ["bleu:max_order=0", "bleu:max_order=17", "bleu:weights=1+1", "bleu:smooth=bogus"]
)
def test_bad_options(spec: str) -> None:
    with pytest.raises((MetricError, MetricSpecError)):
        create_metric(spec)


@pytest.mark.shared
def test_mteval_option_reproduces_mteval_report(shared_dir) -> None:
    """mteval-v13a (no -c: ASCII lowercased) on WMT15 en-ru: BLEU 0.2318 and its
    cumulative 1..4-gram figures."""
    folder = shared_dir / "data" / "wmt15-en-ru-mteval"
    lower = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
    hyps = [x.translate(lower) for x in (folder / "google.ru").read_text(encoding="utf-8").split("\n")[:-1]]
    refs = [
        x.translate(lower)
        for x in (folder / "newstest-2015-100sents.en-ru.ref.ru").read_text(encoding="utf-8").split("\n")
    ]
    data = ScoringInput(hyps, [refs])
    for order, expected in [(1, 0.5415), (2, 0.4012), (3, 0.3044), (4, 0.2318)]:
        score = BLEU(mteval=True, max_order=order).score(data).corpus
        assert round(score / 100, 4) == expected
    totals = BLEU(mteval=True).segment_statistics(data).sum(axis=0)
    assert (totals[0], totals[1]) == (1998, 1862)  # "length ratio ... (1998/1862)"


# --- explanation -----------------------------------------------------------------
def test_explain_hand_derived() -> None:
    data = ScoringInput(["the the cat"], [["the cat sat"], ["a the the dog"]])
    exp = BLEU(tokenize="none").explain(data, 0)
    # hyp length 3: refs of length 3 and 4, the closest is stream 0
    assert exp.effective_reference == 0 and exp.ref_len == 3
    unigrams = [o for o in exp.occurrences if o.order == 1]
    # "the" occurs twice in the hyp, at most twice in a single reference (stream 1)
    assert [(o.start, o.count, o.clip, o.matched) for o in unigrams] == [
        (0, 2, 2, True), (1, 2, 2, True), (2, 1, 1, True)
    ]
    bigrams = [(o.tokens, o.matched) for o in exp.occurrences if o.order == 2]
    assert bigrams == [(("the", "the"), True), (("the", "cat"), True)]
    assert exp.correct == [3, 2, 0, 0] and exp.total == [3, 2, 1, 0]
    expected = sacrebleu.sentence_bleu("the the cat", ["the cat sat", "a the the dog"], tokenize="none")
    assert exp.score == pytest.approx(expected.score, abs=1e-9)
    assert exp.precisions == pytest.approx(expected.precisions, abs=1e-9)


# --- bad input ----------------------------------------------------------------
def test_mismatched_line_counts_are_an_error() -> None:
    with pytest.raises(MetricError, match="reference stream 1 has 2 segments"):
        ScoringInput(["a", "b", "c"], [["a", "b"]])


def test_empty_corpus_scores_zero() -> None:
    result = BLEU().score(ScoringInput([], [[]]))
    assert result.corpus == 0.0 and len(result.segments) == 0 and result.stats.shape == (0, 10)


def test_empty_and_whitespace_lines_match_sacrebleu() -> None:
    hyps = ["", "   ", "the cat", "\t"]
    refs = [["the cat", "", "the cat", "   "], ["", None, "a cat", None]]
    result = BLEU().score(ScoringInput(hyps, refs))
    assert result.corpus == pytest.approx(sacrebleu.corpus_bleu(hyps, refs).score, abs=1e-12)
    np.testing.assert_allclose(result.segments, [0.0, 0.0, 100.0, 0.0], rtol=0, atol=1e-12)


def test_all_empty_references_segment() -> None:
    # references present but empty: length 0, nothing can match
    data = ScoringInput(["a b", "a b"], [["", "a b"], ["", "a c"]])
    result = BLEU().score(data)
    assert result.segments[0] == 0.0
    assert result.stats[0, 1] == 0  # effective reference length
    refs = [list(s) for s in data.references]
    assert result.corpus == pytest.approx(sacrebleu.corpus_bleu(list(data.hypotheses), refs).score, abs=1e-12)


def test_segment_without_any_reference_is_a_clear_error() -> None:
    with pytest.raises(MetricError, match="segment 2 has no reference"):
        BLEU().score(ScoringInput(["a", "b"], [["a", None], ["a", None]]))


def test_10000_token_lines() -> None:
    rng = random.Random(7)
    ref = " ".join(rng.choice("abcdefgh") for _ in range(10_000))
    hyp = " ".join(rng.choice("abcdefgh") for _ in range(10_000))
    result = BLEU().score(ScoringInput([hyp], [[ref]]))
    expected = sacrebleu.corpus_bleu([hyp], [[ref]])
    assert result.corpus == pytest.approx(expected.score, abs=1e-9)
    assert result.stats[0, 0] == 10_000


def test_explain_agrees_with_statistics_on_random_corpora() -> None:
    for seed in range(30):
        hyps, refs = random_corpus(seed)
        data = ScoringInput(hyps, refs)
        metric = BLEU(max_order=random.Random(seed).choice([2, 4, 5]))
        result = metric.score(data)
        n = metric.max_order
        for i in range(len(hyps)):
            exp = metric.explain(data, i)
            row = result.stats[i]
            assert exp.correct == list(row[2 : 2 + n]) and exp.total == list(row[2 + n :])
            assert (exp.hyp_len, exp.ref_len) == (row[0], row[1])
            present = [s[i] for s in refs]
            assert present[exp.effective_reference] is not None
            assert exp.score == pytest.approx(result.segments[i], abs=1e-12)


@pytest.mark.shared
@pytest.mark.parametrize("mteval", [False, True])
def test_specs_corpus_vector_mlqe(shared_dir, mteval: bool) -> None:
    """SPECS: at corpus level sacrebleu and mteval agree on MLQE-PE, 2 refs: 38.38798659512972."""
    folder = shared_dir / "data" / "mlqe-et-en"

    def read(name: str) -> list[str]:
        lines = (folder / name).read_bytes().decode("utf-8").split("\n")[:-1]
        return [x[:-1] if x.endswith("\r") else x for x in lines]  # mixed CRLF/LF

    data = ScoringInput(read("mt.en"), [read("ref-1.en"), read("ref-2.en")])
    assert BLEU(mteval=mteval).score(data).corpus == pytest.approx(38.38798659512972, rel=1e-12)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_line = st.lists(st.sampled_from(["a", "b", "c", "the", "0", "x."]), min_size=4, max_size=12).map(" ".join)


@settings(max_examples=40, deadline=None)
@given(st.lists(_line, min_size=1, max_size=5), st.lists(_line, min_size=5, max_size=5))
def test_identical_input_is_100_and_scores_bounded(lines, others) -> None:
    assert BLEU().score(ScoringInput(lines, [lines])).corpus == pytest.approx(100.0)
    result = BLEU().score(ScoringInput(lines, [others[: len(lines)]]))
    assert 0.0 <= result.corpus <= 100.0 + 1e-9
    assert np.all((result.segments >= 0) & (result.segments <= 100.0 + 1e-9))
