"""WER and PER against hand-derived values and a plain dynamic programme; TER,
chrF and chrF++ against sacrebleu (golden files and random corpora)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
import sacrebleu

from mtworkbench.metrics.base import MetricError, ScoringInput
from mtworkbench.metrics.edit import (
    CHRF,
    PER,
    TER,
    WER,
    CHRFPlusPlus,
    levenshtein,
    position_independent_errors,
)
from mtworkbench.metrics.registry import create_metric

from .corpora import random_corpus


def _dp(a: list[str], b: list[str]) -> int:
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y))
        prev = cur
    return prev[-1]


def test_levenshtein_equals_dynamic_programme() -> None:
    rng = random.Random(1)
    for _ in range(2000):
        a = [rng.choice("abc") for _ in range(rng.randint(0, 15))]
        b = [rng.choice("abcd") for _ in range(rng.randint(0, 15))]
        assert levenshtein(a, b) == _dp(a, b)
    # word boundaries of the bit vector (> 64 positions)
    a = [rng.choice("ab") for _ in range(150)]
    b = [rng.choice("abc") for _ in range(130)]
    assert levenshtein(a, b) == _dp(a, b)


# --- WER / PER hand-derived --------------------------------------------------------
def test_wer_hand_derived() -> None:
    data = ScoringInput(["the cat sat on mat", "a b"], [["the cat sat on the mat", "b a c"]])
    result = WER().score(data)
    # 1 deletion / 6; "a b" -> "b a c": 2 edits ... min is 2 / 3
    np.testing.assert_allclose(result.segments, [1 / 6, 2 / 3], rtol=1e-15)
    assert result.corpus == pytest.approx(3 / 9, rel=1e-15)


def test_per_hand_derived() -> None:
    assert position_independent_errors("a b c".split(), "c b a".split()) == 0
    # max(3, 4) - overlap 2 = 2
    assert position_independent_errors("a a b".split(), "a b c d".split()) == 2
    data = ScoringInput(["a a b", "c b a"], [["a b c d", "a b c"]])
    result = PER().score(data)
    np.testing.assert_allclose(result.segments, [0.5, 0.0])
    assert result.corpus == pytest.approx(2 / 7)


def test_minimum_over_references_and_corpus_of_chosen() -> None:
    # ref 1: 2 edits / 2 = 1.0; ref 2: 1 edit / 4 = 0.25 -> ref 2 chosen
    data = ScoringInput(["a b c"], [["x y"], ["a b c d"]])
    result = WER().score(data)
    assert result.segments[0] == 0.25
    assert list(result.stats[0]) == [1, 4]


def test_ties_go_to_the_first_reference() -> None:
    # 1/5 and 2/10 tie: the first stream's statistics are used
    data = ScoringInput(["a b c d e"], [["a b c d f"], ["a b c d e f g h i j"]])
    assert list(WER().segment_statistics(data)[0]) == [1, 5]


def test_tokenize_and_lowercase_options() -> None:
    data = ScoringInput(["The cat."], [["the cat ."]])
    # whitespace tokens: The->the, cat.->cat, insert "." = 3 edits / 3
    assert WER().score(data).corpus == 1.0
    assert WER(tokenize="13a").score(data).corpus == pytest.approx(1 / 3)
    assert create_metric("wer:tokenize=13a,lowercase=yes").score(data).corpus == 0.0


def test_empty_lines() -> None:
    data = ScoringInput(["", "a", "", "  "], [["a b", "", "", "x"]])
    for metric in (WER(), PER()):
        result = metric.score(data)
        # empty hyp vs 2 words: 1; hyp vs empty ref: 1 (TER's convention); both empty: 0
        assert list(result.segments) == [1.0, 1.0, 0.0, 1.0]
        assert result.corpus == pytest.approx(4 / 3)


def test_empty_corpus() -> None:
    for metric in (WER(), PER(), TER(), CHRF()):
        result = metric.score(ScoringInput([], [[]]))
        assert result.corpus == 0.0 and len(result.segments) == 0
        assert result.stats.shape == (0, len(metric.stat_names))
    # (sacrebleu itself raises IndexError on an empty corpus)


def test_no_reference_is_an_error() -> None:
    for metric in (WER(), PER(), TER(), CHRF()):
        with pytest.raises(MetricError, match="segment 1 has no reference"):
            metric.score(ScoringInput(["a"], [[None]]))


def test_10000_token_lines_wer_per_chrf() -> None:
    rng = random.Random(5)
    ref = " ".join(rng.choice("abcdefgh") for _ in range(10_000))
    hyp = " ".join(rng.choice("abcdefgh") for _ in range(10_000))
    data = ScoringInput([hyp], [[ref]])
    wer = WER().score(data)
    assert 0 < wer.corpus < 1 and wer.stats[0, 1] == 10_000
    assert 0 <= PER().score(data).corpus < 1
    assert CHRF().score(data).corpus == pytest.approx(sacrebleu.corpus_chrf([hyp], [[ref]]).score, abs=1e-9)


def test_ter_scores_very_long_lines() -> None:
    """No length refusal any more: 10,000-token lines are scored (the shift search
    spends its candidate budget in the first round and stops)."""
    rng = random.Random(6)
    ref = " ".join(rng.choice("abcdefgh") for _ in range(10_000))
    hyp = " ".join(rng.choice("abcdefgh") for _ in range(10_000))
    result = TER().score(ScoringInput([hyp, " ".join(["a"] * 10_000)], [[ref, "a b"]]))
    assert result.stats[0, 1] == 10_000 and 0 < result.stats[0, 0] < 10_000
    assert result.stats[1].tolist() == [9_999, 2]  # 9,998 deletions and "a" -> "b"; no shift helps


# --- sacrebleu parity ------------------------------------------------------------
def _golden(shared_dir, name):
    record = json.loads((shared_dir / "golden" / "sacrebleu" / name).read_text(encoding="utf-8"))

    def read(rel: str) -> list[str]:
        lines = (shared_dir.parent / rel).read_text(encoding="utf-8").split("\n")
        if lines[-1] == "":
            lines.pop()
        return [line.rstrip() for line in lines]

    return record, ScoringInput(read(record["hyp"]), [read(r) for r in record["refs"]])


@pytest.mark.shared
@pytest.mark.parametrize(
    "name, metric",
    [
        ("wmt21-en-de.Facebook-AI.vs-refA-refC-refD.chrf.json", CHRF),
        pytest.param(
            "wmt21-en-de.Facebook-AI.vs-refA-refC-refD.ter.json", TER, marks=pytest.mark.slow
        ),
    ],
)
def test_golden_sacrebleu(shared_dir, name, metric) -> None:
    record, data = _golden(shared_dir, name)
    result = metric().score(data)
    assert result.corpus == pytest.approx(record["corpus"], rel=1e-12)
    np.testing.assert_allclose(result.segments, record["segments"], rtol=0, atol=1e-9)
    sacre = record["options"]["signature_corpus"].rsplit("|version", 1)[0]
    if metric is TER:
        assert result.stats[:, 0].sum() == record["corpus_details"]["num_edits"]
    for field in sacre.split("|"):
        assert field in result.signature


def _chrf_options(rng: random.Random) -> dict:
    return {
        "char_order": rng.choice([1, 3, 6, 6]),
        "word_order": rng.choice([0, 0, 1, 2]),
        "beta": rng.choice([1, 2, 2, 3]),
        "lowercase": rng.random() < 0.3,
        "whitespace": rng.random() < 0.3,
        "eps_smoothing": rng.random() < 0.3,
    }


def test_random_corpora_chrf_match_sacrebleu() -> None:
    for seed in range(200):
        hyps, refs = random_corpus(seed)
        opts = _chrf_options(random.Random(seed + 99))
        result = CHRF(**opts).score(ScoringInput(hyps, refs))
        theirs = sacrebleu.CHRF(**opts)
        assert result.corpus == pytest.approx(theirs.corpus_score(hyps, refs).score, abs=1e-9), seed
        expected = [
            theirs.sentence_score(h, [r[i] for r in refs if r[i] is not None]).score
            for i, h in enumerate(hyps)
        ]
        np.testing.assert_allclose(result.segments, expected, rtol=0, atol=1e-9, err_msg=str(seed))


def test_random_corpora_ter_match_sacrebleu() -> None:
    for seed in range(200):
        hyps, refs = random_corpus(seed)
        rng = random.Random(seed + 7)
        opts = {
            "normalized": rng.random() < 0.3,
            "no_punct": rng.random() < 0.3,
            "case_sensitive": rng.random() < 0.5,
        }
        result = TER(**opts).score(ScoringInput(hyps, refs))
        theirs = sacrebleu.TER(**opts)
        assert result.corpus == pytest.approx(theirs.corpus_score(hyps, refs).score, abs=1e-9), seed
        if seed < 40:  # segments come from sacrebleu's sentence_score; spot-check them
            expected = [
                theirs.sentence_score(h, [r[i] for r in refs if r[i] is not None]).score
                for i, h in enumerate(hyps)
            ]
            np.testing.assert_allclose(result.segments, expected, rtol=0, atol=1e-9)


def test_chrf_plus_plus_is_word_order_two() -> None:
    hyps, refs = random_corpus(3)
    ours = CHRFPlusPlus().score(ScoringInput(hyps, refs))
    assert ours.corpus == pytest.approx(
        sacrebleu.CHRF(word_order=2).corpus_score(hyps, refs).score, abs=1e-9
    )
    assert "nw:2" in ours.signature and ours.metric == "chrf++"


def test_chrf_aggregate_is_vectorised() -> None:
    hyps, refs = random_corpus(11)
    metric = CHRF()
    stats = metric.segment_statistics(ScoringInput(hyps, refs))
    rng = np.random.default_rng(0)
    weights = rng.integers(0, 3, size=(5, len(hyps))).astype(float)
    batch = metric.aggregate(weights @ stats)
    assert batch.shape == (5,)
    for row, w in zip(batch, weights):
        assert row == pytest.approx(metric.aggregate(w @ stats), abs=1e-12)


# --- invariants (hypothesis) ---------------------------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_line = st.lists(st.sampled_from(["a", "b", "c", "the", "0", "x."]), min_size=1, max_size=12).map(" ".join)


@settings(max_examples=40, deadline=None)
@given(st.lists(_line, min_size=1, max_size=5))
def test_identical_input_is_perfect(lines: list[str]) -> None:
    data = ScoringInput(lines, [lines])
    assert WER().score(data).corpus == 0.0
    assert PER().score(data).corpus == 0.0
    assert TER().score(data).corpus == 0.0
    assert CHRF().score(data).corpus == pytest.approx(100.0)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(_line, _line), min_size=1, max_size=5))
def test_rates_are_bounded_and_per_not_above_wer(pairs) -> None:
    data = ScoringInput([h for h, _ in pairs], [[r for _, r in pairs]])
    wer, per = WER().score(data), PER().score(data)
    assert np.all(per.segments <= wer.segments + 1e-12)
    assert np.all(per.segments >= 0)
    chrf = CHRF().score(data)
    assert 0.0 <= chrf.corpus <= 100.0


def test_progress_and_cancel_for_every_metric() -> None:
    from mtworkbench.core.jobs import Cancelled
    from mtworkbench.metrics.bleu import BLEU
    from mtworkbench.metrics.nist import NIST

    hyps, refs = random_corpus(21)
    refs[0] = [r if r and r.strip() else "a b" for r in refs[0]]
    data = ScoringInput(hyps, refs)
    for metric in (BLEU(), NIST(), WER(), PER(), TER(), CHRF()):
        calls = []
        metric.segment_statistics(data, progress=lambda done, total: calls.append((done, total)))  # noqa: B023
        assert calls[-1] == (len(hyps), len(hyps)), metric.name
        with pytest.raises(Cancelled):
            type(metric)().segment_statistics(data, cancel=lambda: True)


def test_wer_explanation_alignment() -> None:
    from mtworkbench.metrics.edit import levenshtein_alignment

    data = ScoringInput(["the cat sat on mat", "x"], [["a dog", "y"], ["the cat sat on the mat", None]])
    exp = WER().explain(data, 0)
    assert exp.reference == 1 and exp.errors == 1 and exp.rate == pytest.approx(1 / 6)
    assert [o.op for o in exp.operations].count("delete") == 1
    deleted = [o for o in exp.operations if o.op == "delete"][0]
    assert exp.ref_tokens[deleted.ref] == "the" and deleted.ref == 4
    rng = random.Random(4)
    for _ in range(300):
        a = [rng.choice("abc") for _ in range(rng.randint(0, 9))]
        b = [rng.choice("abcd") for _ in range(rng.randint(0, 9))]
        ops = levenshtein_alignment(a, b)
        assert sum(o.op != "equal" for o in ops) == _dp(a, b)
        # the script covers every token once, in order
        assert [o.hyp for o in ops if o.hyp is not None] == list(range(len(a)))
        assert [o.ref for o in ops if o.ref is not None] == list(range(len(b)))
        assert all(a[o.hyp] == b[o.ref] for o in ops if o.op == "equal")


def test_all_empty_references_ter_chrf_follow_sacrebleu() -> None:
    hyps = ["a b", "", "c"]
    refs = [["", "", "c"], ["  ", None, "c d"]]
    for ours, theirs in ((TER(), sacrebleu.TER()), (CHRF(), sacrebleu.CHRF())):
        result = ours.score(ScoringInput(hyps, refs))
        assert result.corpus == pytest.approx(theirs.corpus_score(hyps, refs).score, abs=1e-12)
        expected = [theirs.sentence_score(h, [r[i] for r in refs if r[i] is not None]).score
                    for i, h in enumerate(hyps)]
        np.testing.assert_allclose(result.segments, expected, atol=1e-12)
    # TER's convention: edits against an empty reference give 100
    assert TER().score(ScoringInput(["a b"], [[""]])).corpus == 100.0
