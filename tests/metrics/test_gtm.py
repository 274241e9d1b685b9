"""GTM: SPECS vectors, golden GTM 1.4 runs, the greedy against a literal
reading of SPECS, aggregation, the grid result, bad input and properties."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtworkbench.io.corpora.gtm_inputs import read_gtm_plain
from mtworkbench.metrics.base import MetricSpecError, ScoringInput
from mtworkbench.metrics.gtm import GTM, GTMResult, gtm_tokens, score_segment
from mtworkbench.metrics.gtm_grid import Block
from mtworkbench.metrics.registry import create_metric


def gtm_f(hyp: str, refs: list[str], spec: str = "gtm") -> float:
    return create_metric(spec).score(ScoringInput([hyp], [[r] for r in refs])).corpus


# --- SPECS.md vectors (GTM 1.4, -t plain text) ---------------------------------
SPECS_VECTORS = [
    ("a b c d e f", ["d e f a b c"], 1, 1.0),
    ("a b c d e f", ["d e f a b c"], 2, 0.7071067811865475),
    ("on the mat sat the cat", ["the cat sat on the mat"], 1, 1.0),
    ("on the mat sat the cat", ["the cat sat on the mat"], 2, 0.6236095644623235),
    ("on the mat sat the cat", ["the cat sat on the mat"], 3, 0.5503212081491043),
    ("on the mat sat the cat", ["the cat sat on the mat", "there is a cat on the mat"], 1, 0.9600000000000001),
    ("on the mat sat the cat", ["the cat sat on the mat", "there is a cat on the mat"], 2, 0.5986651818838307),
    ("the the the the", ["the cat sat on the mat"], 1, 0.4),
    ("the the the the", ["the cat sat on the mat"], 2, 0.282842712474619),
    ("A B C D", ["a b c d"], 1, 0.0),
    ("a b c d e", ["a b c", "a b c d"], 1, 0.8235294117647058),
    ("", ["a b c"], 1, 0.0),
]


@pytest.mark.parametrize(("hyp", "refs", "e", "expected"), SPECS_VECTORS)
def test_specs_vectors(hyp, refs, e, expected):
    assert gtm_f(hyp, refs, f"gtm:e={e}") == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_tokens_split_like_java_string_tokenizer():
    # NBSP, BOM and ZWSP stay inside tokens; tab, CR, LF, FF separate; trim drops
    # other control characters at the ends only.
    assert gtm_tokens("a\u00a0b c\tx\r\ny\fz") == ["a\u00a0b", "c", "x", "y", "z"]
    assert gtm_tokens("\ufeffthe cat") == ["\ufeffthe", "cat"]
    assert gtm_tokens("\x0b a\x0bb \x01") == ["a\x0bb"]
    assert gtm_tokens("   ") == []


def test_case_sensitive_and_nbsp_never_matches_space():
    assert gtm_f("The cat", ["the cat"]) == pytest.approx(0.5)
    assert gtm_f("a\u00a0b", ["a b"]) == 0.0


# --- golden GTM 1.4 runs on MLQE-PE et-en ---------------------------------------
@pytest.mark.shared
@pytest.mark.parametrize("e", [1, 2, 3])
def test_golden_mlqe(shared_dir, e):
    golden = json.loads((shared_dir / "golden" / "gtm" / f"mlqe-et-en.mt.vs-ref1.e{e}.json").read_text())
    data_dir = shared_dir / "data" / "mlqe-et-en"
    hyp = [s.text for s in read_gtm_plain(data_dir / "mt.en")]
    ref = [s.text for s in read_gtm_plain(data_dir / "ref-1.en")]
    score = GTM(e=str(e)).score(ScoringInput(hyp, [ref]))
    np.testing.assert_allclose(score.segments, golden["segments"], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(score.stats[:, 0], golden["segment_mms"], rtol=1e-12)
    np.testing.assert_array_equal(score.stats[:, 1], golden["segment_hyp_len"])
    np.testing.assert_array_equal(score.stats[:, 2], golden["segment_mean_ref_len"])
    np.testing.assert_allclose(score.extras["precision"], golden["segment_precision"], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(score.extras["recall"], golden["segment_recall"], rtol=1e-12, atol=1e-15)
    doc = golden["document"]
    assert score.corpus == pytest.approx(golden["corpus"], rel=1e-12)
    assert score.extras["corpus_precision"] == pytest.approx(doc["precision"], rel=1e-12)
    assert score.extras["corpus_recall"] == pytest.approx(doc["recall"], rel=1e-12)
    np.testing.assert_allclose(
        score.stats.sum(axis=0), [doc["mms_sum"], doc["hyp_len_sum"], doc["mean_ref_len_sum"]], rtol=1e-12
    )


# --- the greedy against SPECS read literally ------------------------------------
def literal_greedy(hyp: list[str], refs: list[list[str]], e: float) -> float:
    """SPECS.md steps 2-5 as written: list every candidate, sort, walk."""
    axis: list[str | None] = []
    for ref in refs:
        axis.extend(ref)
        axis.append(None)
    width = len(axis)

    def hit(i: int, j: int) -> bool:
        return i < len(hyp) and j < width and axis[j] is not None and hyp[i] == axis[j]

    candidates = []
    for i in range(len(hyp)):
        for j in range(width):
            if hit(i, j):
                length = 1
                while hit(i + length, j + length):
                    length += 1
                candidates += [(l, i * width + j, i, j) for l in range(1, length + 1)]
    candidates.sort(key=lambda c: (-c[0], -c[1]))
    mean_ref = sum(len(r) for r in refs) / len(refs) if refs else 0.0
    budget = min(float(len(hyp)), mean_ref)
    rows, cols = set(), set()
    score = 0.0
    for l, _, i, j in candidates:
        if budget <= 0:
            break
        length = min(l, budget)
        cells = math.ceil(length)
        if any(i + q in rows or j + q in cols for q in range(cells)):
            continue
        rows.update(range(i, i + cells))
        cols.update(range(j, j + cells))
        budget -= length
        score += length**e
    return score


def random_segment(rng: random.Random, max_len: int, alphabet: str) -> list[str]:
    return [rng.choice(alphabet) for _ in range(rng.randint(0, max_len))]


@pytest.mark.parametrize("seed", range(6))
def test_greedy_equals_literal_reading_of_specs(seed):
    rng = random.Random(seed)
    for _ in range(400):
        alphabet = "abcdef"[: rng.randint(1, 4)]
        hyp = random_segment(rng, 16, alphabet)
        refs = []
        for _ in range(rng.randint(1, 4)):
            if rng.random() < 0.6 and hyp:
                # a piece of the hypothesis: long runs, and caps the runs exceed
                a = rng.randint(0, len(hyp))
                b = rng.randint(a, len(hyp))
                refs.append(hyp[a:b] + random_segment(rng, 3, alphabet))
            else:
                refs.append(random_segment(rng, 10, alphabet))
        e = rng.choice([1.0, 2.0, 3.0, 2.5, 1.37])
        ours = score_segment(" ".join(hyp), [" ".join(r) for r in refs], e).selection.score
        assert ours == literal_greedy(hyp, refs, e), (hyp, refs, e)


# --- aggregation on raw statistics ----------------------------------------------
def test_aggregate_from_summed_statistics_not_mean_of_f():
    metric = GTM()
    stats = np.array([[2.0, 4.0, 6.0], [3.0, 3.0, 3.0]])
    # P = 5/7, R = 5/9, F = 2PR/(P+R) = 10/16
    assert metric.corpus_score(stats) == pytest.approx(0.625, rel=1e-15)
    np.testing.assert_allclose(metric.aggregate(stats), [0.4, 1.0])
    # vectorised over leading axes (bootstrap)
    assert metric.aggregate(np.stack([stats, stats])).shape == (2, 2)
    # zero denominators give 0, not NaN
    np.testing.assert_array_equal(metric.aggregate(np.array([[0.0, 0.0, 0.0], [0.0, 3.0, 0.0]])), [0.0, 0.0])


def test_extras_carry_precision_and_recall():
    data = ScoringInput(["a b c d", "x y"], [["a b c", "x y z w"]])
    score = GTM().score(data)
    np.testing.assert_allclose(score.extras["precision"], [0.75, 1.0])
    np.testing.assert_allclose(score.extras["recall"], [1.0, 0.5])
    assert score.extras["corpus_precision"] == pytest.approx(5 / 6)
    assert score.extras["corpus_recall"] == pytest.approx(5 / 7)
    entry = score.to_json()
    assert entry["precision"] == [0.75, 1.0] and entry["recall"] == [1.0, 0.5]
    assert entry["segments"] == pytest.approx([2 * 0.75 / 1.75, 2 * 0.5 / 1.5])
    assert score.stat_names == ("mms", "hyp_len", "mean_ref_len")


# --- the grid result --------------------------------------------------------------
def test_explain_two_swapped_blocks():
    res = GTM(e="2").explain(ScoringInput(["a b c d e f"], [["d e f a b c"]]), 0)
    assert isinstance(res, GTMResult)
    assert res.hyp_tokens == list("abcdef")
    assert res.ref_tokens == ["d", "e", "f", "a", "b", "c", ""]
    assert res.barriers == (6,)
    assert res.hits.shape == (6, 7) and res.hits.sum() == 6 and res.hits[3, 0] and res.hits[0, 3]
    # both length-3 runs; the larger i*X+j first: (3, 0) before (0, 3)
    assert res.chosen == [Block(3, 0, 3, 3.0), Block(0, 3, 3, 3.0)]
    assert res.rejected == []
    assert res.score == 18.0 and res.mms == pytest.approx(math.sqrt(18))
    assert res.cap == 6.0 and res.cap_reached
    assert res.f == pytest.approx(0.7071067811865475, rel=1e-12)


def test_explain_conflicts_are_recorded():
    res = GTM().explain(ScoringInput(["the the the the"], [["the cat sat on the mat"]]), 0)
    # key order: (3,4) taken, (3,0) row clash, (2,4) column clash, (2,0) taken, rest clash
    assert res.chosen == [Block(3, 4, 1, 1.0), Block(2, 0, 1, 1.0)]
    assert [(r.hyp_start, r.ref_start) for r in res.rejected] == [(3, 0), (2, 4), (1, 4), (1, 0), (0, 4), (0, 0)]
    assert res.rejected[0].blocked_at == (3, 0)
    assert (res.precision, res.recall, res.f) == pytest.approx((0.5, 1 / 3, 0.4))
    assert not res.cap_reached


def test_explain_fractional_cap():
    res = GTM().explain(ScoringInput(["a b c d e"], [["a b c"], ["a b c d"]]), 0)
    assert res.ref_tokens == ["a", "b", "c", "", "a", "b", "c", "d", ""]
    assert res.barriers == (3, 8)
    assert res.cap == 3.5 and res.cap_reached
    # the length-4 run into reference 2 is cut to 3.5 and occupies 4 cells
    assert res.chosen == [Block(0, 4, 4, 3.5)]
    assert res.mms == 3.5 and res.f == pytest.approx(0.8235294117647058, rel=1e-12)


def test_explain_large_grid_is_sparse():
    from scipy import sparse

    hyp = " ".join(f"w{i}" for i in range(600))
    res = GTM().explain(ScoringInput([hyp], [[hyp]]), 0)
    assert sparse.issparse(res.hits) and res.hits.shape == (600, 601) and res.hits.nnz == 600
    assert res.chosen == [Block(0, 0, 600, 600.0)] and res.f == 1.0


# --- bad input -------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["greedy", "exact"])
@pytest.mark.parametrize(
    ("hyp", "refs", "stats"),
    [
        ("", ["a b"], (0.0, 0.0, 2.0)),  # empty hypothesis
        ("a b", [""], (0.0, 2.0, 0.0)),  # empty reference
        ("a b", ["", ""], (0.0, 2.0, 0.0)),  # every reference empty
        ("", [""], (0.0, 0.0, 0.0)),
        ("a", ["a"], (1.0, 1.0, 1.0)),  # one token
        ("a", ["b"], (0.0, 1.0, 1.0)),
        ("a b", ["a b c", ""], (1.5, 2.0, 1.5)),  # an empty reference counts in the mean
    ],
)
def test_degenerate_segments(mode, hyp, refs, stats):
    for e in ("1", "2"):
        score = GTM(e=e, mode=mode).score(ScoringInput([hyp], [[r] for r in refs]))
        np.testing.assert_allclose(score.stats[0], stats, rtol=1e-12)
        assert 0.0 <= score.corpus <= 1.0 and not math.isnan(score.segments[0])


def test_missing_reference_is_not_an_empty_one():
    score = GTM().score(ScoringInput(["a b", "a b"], [["a b", "a b"], [None, "x y z w"]]))
    np.testing.assert_allclose(score.stats, [[2.0, 2.0, 2.0], [2.0, 2.0, 3.0]])
    assert score.segments[0] == 1.0


def test_no_segments():
    score = GTM().score(ScoringInput([], [[]]))
    assert score.corpus == 0.0 and len(score.segments) == 0 and list(score.extras["precision"]) == []


@pytest.mark.parametrize("e", ["1", "2", "3"])
def test_thousand_token_segments(e):
    rng = random.Random(7)
    words = [rng.choice(["the", "a", "of", "cat", "x", "y"]) for _ in range(1000)]
    hyp = " ".join(words)
    other = " ".join(reversed(words))
    metric = GTM(e=e)
    score = metric.score(ScoringInput([hyp, hyp, "the " * 1000], [[hyp, other, "the " * 1000]]))
    assert score.segments[[0, 2]] == pytest.approx([1.0, 1.0], rel=1e-12)
    if e == "1":  # a reordering of the same tokens matches every token
        assert score.segments[1] == 1.0
    else:
        assert 0.0 < score.segments[1] < 1.0
    assert score.stats[1, 1] == 1000


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("gtm:e=abc", "must be a number >= 1"),
        ("gtm:e=0.5", ">= 1"),
        ("gtm:e=0", ">= 1"),
        ("gtm:e=-2", ">= 1"),
        ("gtm:e=nan", ">= 1"),
        ("gtm:e=inf", ">= 1"),
        ("gtm:e=", "must be a number"),
        ("gtm:mode=fast", "greedy, exact"),
        ("gtm:exponent=2", "unknown option"),
    ],
)
def test_bad_options(spec, message):
    with pytest.raises(MetricSpecError, match=message):
        create_metric(spec)


def test_signature_and_spec():
    metric = create_metric("gtm:e=2,mode=exact")
    assert metric.options == {"e": 2.0, "mode": "exact", "tokenize": "none"}
    assert metric.signature(2).startswith("gtm|nrefs:2|e:2.0|mode:exact|tok:none|version:")
    assert metric.spec() == "gtm:e=2.0,mode=exact"


# --- properties -----------------------------------------------------------------------
words = st.lists(st.sampled_from(["a", "b", "c", "d", "the", "A"]), max_size=12).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(hyp=words, refs=st.lists(words, min_size=1, max_size=3), e=st.sampled_from(["1", "2", "3", "1.5"]))
def test_f_between_zero_and_one_and_exact_at_least_greedy(hyp, refs, e):
    data = ScoringInput([hyp], [[r] for r in refs])
    greedy = GTM(e=e).score(data)
    exact = GTM(e=e, mode="exact").score(data)
    for score in (greedy, exact):
        assert 0.0 <= score.corpus <= 1.0
        assert 0.0 <= score.extras["precision"][0] <= 1.0 and 0.0 <= score.extras["recall"][0] <= 1.0
    assert exact.stats[0, 0] >= greedy.stats[0, 0] * (1 - 1e-12)


@settings(max_examples=100, deadline=None)
@given(text=words.filter(lambda s: s != ""), copies=st.integers(1, 3), e=st.sampled_from(["1", "2", "3"]))
def test_identical_input_scores_one(text, copies, e):
    data = ScoringInput([text], [[text]] * copies)
    for mode in ("greedy", "exact"):
        assert GTM(e=e, mode=mode).score(data).corpus == pytest.approx(1.0, rel=1e-12)


def test_vectorised_grid_equals_python_grid():
    from mtworkbench.metrics import gtm_grid

    rng = random.Random(3)
    for _ in range(30):
        hyp = random_segment(rng, 40, "abcd")
        refs = [random_segment(rng, 40, "abcde") for _ in range(rng.randint(1, 3))]
        small = gtm_grid.build_grid(hyp, refs) if len(hyp) * sum(len(r) + 1 for r in refs) <= 20_000 else None
        big = gtm_grid._build_grid_numpy(hyp, refs)
        assert small is not None
        assert (big.run_i, big.run_j, big.run_len, big.width, big.barriers) == (
            small.run_i, small.run_j, small.run_len, small.width, small.barriers
        )
