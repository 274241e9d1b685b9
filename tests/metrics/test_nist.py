"""NIST against SPECS.md vectors, mteval-v13a's own WMT15 report and a
brute-force restatement of the SPECS definition."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest

from mtworkbench.metrics.base import MetricError, ScoringInput
from mtworkbench.metrics.nist import NIST

from .corpora import random_corpus

HYP = "It is a guide to action which ensures that the military always obeys the commands of the party"
REFS = [
    "It is a guide to action that ensures that the military will forever heed Party commands",
    "It is the guiding principle which guarantees the military forces always being under the command of the Party",
    "It is the practical guide for the army always to heed the directions of the party",
]


def test_specs_vector_case_sensitive() -> None:
    data = ScoringInput([HYP], [[r] for r in REFS])
    assert NIST().score(data).corpus == pytest.approx(5.03792016875168, rel=1e-12)


def test_specs_vector_lowercased() -> None:
    data = ScoringInput([HYP], [[r] for r in REFS])
    assert NIST(lowercase=True).score(data).corpus == pytest.approx(4.82854316707763, rel=1e-12)


@pytest.mark.shared
def test_mteval_wmt15_report(shared_dir) -> None:
    """mteval-v13a.pl (no -c) on 100 WMT15 en-ru segments: NIST = 5.0564."""
    folder = shared_dir / "data" / "wmt15-en-ru-mteval"
    hyps = (folder / "google.ru").read_text(encoding="utf-8").split("\n")[:-1]
    refs = (folder / "newstest-2015-100sents.en-ru.ref.ru").read_text(encoding="utf-8").split("\n")
    assert len(hyps) == len(refs) == 100
    metric = NIST(lowercase=True)
    result = metric.score(ScoringInput(hyps, [refs]))
    assert round(result.corpus, 4) == 5.0564
    individual = metric.per_order(result.stats.sum(axis=0))
    assert [round(x, 4) for x in individual] == [4.4488, 0.5554, 0.0477, 0.0045, 0.0]
    cumulative = [round(float(np.sum(individual[: n + 1])), 4) for n in range(5)]
    assert cumulative == [4.4488, 5.0043, 5.0520, 5.0564, 5.0564]
    totals = result.stats.sum(axis=0)
    assert (totals[0], totals[1]) == (1998, 1862)


# --- a brute-force restatement of SPECS.md's NIST --------------------------------------
def _ngrams(tokens: list[str], n: int) -> list[tuple[str, ...]]:
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def _oracle(hyps: list[list[str]], refs: list[list[list[str]]], quirk: bool = True, N: int = 5):
    """Segment and system NIST from SPECS.md, by plain lists and loops."""
    count: Counter = Counter()
    total_tokens = 0
    for seg_refs in refs:
        for r in seg_refs:
            total_tokens += len(r)
            for n in range(1, N + 1):
                count.update(_ngrams(r, n))

    def info(g):
        if len(g) == 1 or (quirk and len(g) == 2 and g[0] == "0"):
            return math.log2(total_tokens / count[g])
        return math.log2(count[g[:-1]] / count[g])

    def bp(c, r):
        if c >= r:
            return 1.0
        if c <= 0:
            return 0.0
        beta = -math.log(0.5) / math.log(1.5) ** 2
        return math.exp(-beta * math.log(c / r) ** 2)

    seg_scores, pooled_info, pooled_n, sys_len, ref_len = [], [0.0] * N, [0] * N, 0, 0.0
    for hyp, seg_refs in zip(hyps, refs):
        score = 0.0
        for n in range(1, N + 1):
            grams = _ngrams(hyp, n)
            gained = 0.0
            for g in set(grams):
                clip = max(_ngrams(r, n).count(g) for r in seg_refs)
                if clip:
                    gained += info(g) * min(grams.count(g), clip)
            if grams:
                score += gained / len(grams)
            pooled_info[n - 1] += gained
            pooled_n[n - 1] += len(grams)
        mean_ref = sum(len(r) for r in seg_refs) / len(seg_refs)
        seg_scores.append(score * bp(len(hyp), mean_ref))
        sys_len += len(hyp)
        ref_len += mean_ref
    system = sum(i / c for i, c in zip(pooled_info, pooled_n) if c) * bp(sys_len, ref_len)
    return seg_scores, system


@pytest.mark.parametrize("quirk", [True, False])
def test_random_corpora_match_the_definition(quirk: bool) -> None:
    metric = NIST(tokenize="none", zero_quirk=quirk)
    for seed in range(60):
        hyps, refs = random_corpus(seed, variable_refs=False)
        # every segment needs a non-empty reference for NIST
        refs[0] = [r if r and r.strip() else "0 a 0 b" for r in refs[0]]
        result = metric.score(ScoringInput(hyps, refs))
        seg, system = _oracle(
            [h.split() for h in hyps], [[s[i].split() for s in refs] for i in range(len(hyps))], quirk
        )
        np.testing.assert_allclose(result.segments, seg, rtol=1e-12, atol=1e-12)
        assert result.corpus == pytest.approx(system, rel=1e-12, abs=1e-12)


def test_zero_quirk_changes_bigram_weight() -> None:
    # refs: "0 x 0 y" -> total 4 tokens; count("0") = 2, count("0 x") = 1
    data = ScoringInput(["0 x"], [["0 x 0 y"]])
    with_quirk = NIST(tokenize="none").explain(data, 0)
    without = NIST(tokenize="none", zero_quirk=False).explain(data, 0)
    bigram = lambda e: [m.info for m in e.matches if m.order == 2][0]  # noqa: E731
    assert bigram(with_quirk) == pytest.approx(math.log2(4 / 1))
    assert bigram(without) == pytest.approx(math.log2(2 / 1))


def test_identical_references_count_twice() -> None:
    # streams r1, r1, r2 weigh r1's n-grams twice in the information counts
    hyp = ["a b c"]
    r1, r2 = "a b d", "c c b"
    info = lambda refs: NIST(tokenize="none").explain(ScoringInput(hyp, refs), 0)  # noqa: E731
    twice = info([[r1], [r1], [r2]])
    once = info([[r1], [r2]])
    a_twice = [m.info for m in twice.matches if m.tokens == ("a",)][0]
    a_once = [m.info for m in once.matches if m.tokens == ("a",)][0]
    assert a_twice == pytest.approx(math.log2(9 / 2))  # 9 tokens, "a" twice
    assert a_once == pytest.approx(math.log2(6 / 1))


def test_system_score_pools_statistics_not_mean_of_segments() -> None:
    data = ScoringInput(["a b c d", "a"], [["a b c d", "a b c"]])
    result = NIST(tokenize="none").score(data)
    seg, system = _oracle([["a", "b", "c", "d"], ["a"]], [[["a", "b", "c", "d"]], [["a", "b", "c"]]])
    assert result.corpus == pytest.approx(system, rel=1e-12)
    assert result.corpus != pytest.approx(float(np.mean(result.segments)))


def test_explain_info_sums_to_statistics() -> None:
    data = ScoringInput([HYP], [[r] for r in REFS])
    metric = NIST()
    exp = metric.explain(data, 0)
    stats = metric.segment_statistics(data)[0]
    np.testing.assert_allclose(exp.info, stats[2:7], rtol=1e-12)
    assert exp.score == pytest.approx(5.03792016875168, rel=1e-12)
    assert all(m.info >= 0 for m in exp.matches)


def test_aggregate_vectorised() -> None:
    data = ScoringInput([HYP, "It is a guide"], [REFS[:2], REFS[1:]])
    metric = NIST()
    stats = metric.segment_statistics(data)
    scores = metric.aggregate(np.stack([stats.sum(0), stats[0], stats[1]]))
    assert scores.shape == (3,)
    np.testing.assert_allclose(scores[1:], metric.score(data).segments, rtol=1e-15)


# --- bad input ----------------------------------------------------------------
def test_all_empty_references_is_a_clear_error() -> None:
    with pytest.raises(MetricError, match="segment 2 has no non-empty reference"):
        NIST().score(ScoringInput(["a b", "c"], [["a b", ""], ["a", "  "]]))


def test_missing_references_everywhere_is_an_error() -> None:
    with pytest.raises(MetricError, match="segment 1"):
        NIST().score(ScoringInput(["a"], [[None]]))


def test_empty_hypothesis_scores_zero() -> None:
    result = NIST().score(ScoringInput(["", "   ", "a b"], [["a", "b", "a b"]]))
    assert list(result.segments[:2]) == [0.0, 0.0]
    assert result.segments[2] > 0


def test_10000_token_lines() -> None:
    rng = random.Random(3)
    ref = " ".join(rng.choice("abcdefgh") for _ in range(10_000))
    hyp = " ".join(rng.choice("abcdefgh") for _ in range(10_000))
    result = NIST(tokenize="none").score(ScoringInput([hyp], [[ref]]))
    assert math.isfinite(result.corpus) and result.corpus > 0


def test_empty_corpus_scores_zero() -> None:
    result = NIST().score(ScoringInput([], [[]]))
    assert result.corpus == 0.0 and result.stats.shape == (0, 12)
