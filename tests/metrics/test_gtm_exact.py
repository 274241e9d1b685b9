"""GTM exact mode against brute force on small random grids."""

from __future__ import annotations

import math
import random

import pytest

from mtworkbench.metrics.base import ScoringInput
from mtworkbench.metrics.gtm import GTM, score_segment
from mtworkbench.metrics.gtm_exact import EXACT_MAX_SIDE


def sub_runs(hyp: list[str], refs: list[list[str]]) -> list[tuple[int, int, int]]:
    """Every diagonal run of hits (i, j, length), barriers between references."""
    axis: list[str | None] = []
    for ref in refs:
        axis += ref + [None]
    out = []
    for i in range(len(hyp)):
        for j in range(len(axis)):
            length = 0
            while i + length < len(hyp) and j + length < len(axis) and axis[j + length] == hyp[i + length]:
                length += 1
                out.append((i, j, length))
    return out


def brute_force(hyp: list[str], refs: list[list[str]], e: float) -> float:
    """The best sum of length ** e over row- and column-disjoint runs, capped
    as GTM caps: at most B cells' worth, where with a fractional B one run may
    occupy c cells but count c - (ceil(B) - B)."""
    cap = min(len(hyp), sum(map(len, refs)) / len(refs))
    runs = sub_runs(hyp, refs)
    cut = math.ceil(cap) - cap
    best = 0.0

    def value(chosen: list[int]) -> float:
        cells = sum(chosen)
        full = sum(c**e for c in chosen)
        if cells <= cap:
            return full
        if cut > 0 and cells == math.ceil(cap):
            return max(full - c**e + (c - cut) ** e for c in chosen)
        return -1.0

    def search(k: int, rows: frozenset, cols: frozenset, chosen: list[int]) -> None:
        nonlocal best
        best = max(best, value(chosen))
        if sum(chosen) >= cap:
            return
        for q in range(k, len(runs)):
            i, j, c = runs[q]
            r = frozenset(range(i, i + c))
            s = frozenset(range(j, j + c))
            if rows.isdisjoint(r) and cols.isdisjoint(s):
                search(q + 1, rows | r, cols | s, chosen + [c])

    search(0, frozenset(), frozenset(), [])
    return best


@pytest.mark.parametrize("seed", range(4))
def test_exact_mode_equals_brute_force(seed):
    rng = random.Random(seed)
    for _ in range(60):
        alphabet = "abc"[: rng.randint(1, 3)]
        hyp = [rng.choice(alphabet) for _ in range(rng.randint(0, 6))]
        refs = [[rng.choice(alphabet) for _ in range(rng.randint(0, 5))] for _ in range(rng.randint(1, 3))]
        e = rng.choice([1.0, 2.0, 3.0, 1.5])
        expected = brute_force(hyp, refs, e)
        out = score_segment(" ".join(hyp), [" ".join(r) for r in refs], e, mode="exact")
        assert not out.fell_back
        assert out.selection.score == pytest.approx(expected, rel=1e-9, abs=1e-12), (hyp, refs, e)
        greedy = score_segment(" ".join(hyp), [" ".join(r) for r in refs], e).selection.score
        assert greedy <= expected * (1 + 1e-12)


def test_greedy_misses_the_maximum_and_exact_finds_it():
    # hyp c b c c, ref c c c b b (worked by hand): the length-2 candidates in
    # GTM's order are (2,1) "c c", (2,0) "c c", (0,2) "c b"; the greedy takes
    # (2,1), which blocks both others, then two single cells: 4 + 1 + 1 = 6.
    # (0,2) "c b" + (2,0) "c c" are disjoint: 4 + 4 = 8.
    hyp, ref = "c b c c", "c c c b b"
    g = score_segment(hyp, [ref], 2.0)
    x = score_segment(hyp, [ref], 2.0, mode="exact")
    assert g.selection.score == 6.0
    assert x.selection.score == 8.0 == brute_force(hyp.split(), [ref.split()], 2.0)
    assert sorted((b.hyp_start, b.ref_start, b.cells) for b in x.selection.blocks) == [(0, 2, 2), (2, 0, 2)]


def test_exact_e1_is_a_maximum_bipartite_matching_capped():
    # GTM's greedy at e=1 takes (1,1)... a perfect matching exists.
    hyp, ref = "a b a", "b a b"
    x = score_segment(hyp, [ref], 1.0, mode="exact")
    assert x.selection.score == brute_force(hyp.split(), [ref.split()], 1.0)
    # cap: 3 matchable cells, mean reference length 2.5
    x = score_segment("a b c", ["a b c", "a b"], 1.0, mode="exact")
    assert x.selection.score == 2.5 and sum(b.weight for b in x.selection.blocks) == 2.5


def test_exact_40_by_40_per_reference_is_exact_and_large_grids_fall_back():
    rng = random.Random(11)
    hyp = " ".join(rng.choice("abcdefgh") for _ in range(40))
    refs = [" ".join(rng.choice("abcdefgh") for _ in range(40)) for _ in range(2)]
    out = score_segment(hyp, refs, 2.0, mode="exact")
    assert not out.fell_back
    assert out.selection.score >= score_segment(hyp, refs, 2.0).selection.score
    big = " ".join(["w"] * (EXACT_MAX_SIDE + 1))
    metric = GTM(e="2", mode="exact")
    data = ScoringInput([big, "a b"], [[big, "a b"]])
    score = metric.score(data)
    assert score.extras["exact_fallback_segments"] == [0]
    assert metric.explain(data, 0).exact_fell_back
    assert score.segments[0] == pytest.approx(1.0)


@pytest.mark.parametrize("e", [2.0, 3.0])
def test_exact_with_a_fractional_cap_that_binds(e):
    # cap 3.5: the length-4 run into reference 2 counts 3.5 (brute force agrees)
    hyp, refs = "a b c d e", ["a b c", "a b c d"]
    out = score_segment(hyp, refs, e, mode="exact")
    assert out.selection.score == pytest.approx(3.5**e) == brute_force(hyp.split(), [r.split() for r in refs], e)
    assert [b.weight for b in out.selection.blocks] == [3.5]


def test_explain_in_exact_mode():
    data = ScoringInput(["c b c c"], [["c c c b b"]])
    res = GTM(e="2", mode="exact").explain(data, 0)
    assert sorted((b.hyp_start, b.ref_start, b.cells, b.weight) for b in res.chosen) == [(0, 2, 2, 2.0), (2, 0, 2, 2.0)]
    assert res.rejected == [] and not res.exact_fell_back and res.mode == "exact"
    assert res.score == 8.0 and res.mms == pytest.approx(math.sqrt(8))
    # P = sqrt(8)/4, R = sqrt(8)/5
    assert (res.precision, res.recall) == pytest.approx((math.sqrt(8) / 4, math.sqrt(8) / 5))
    res1 = GTM(e="1", mode="exact").explain(data, 0)
    assert sum(b.cells for b in res1.chosen) == 4 == res1.score  # a perfect matching of the 4 rows


def test_repetitive_40_by_40_grids_stay_exact():
    # hyp a^40, refs a^39 b (twice): no 40-run exists, the cap is 40 cells, so
    # by convexity the best is one 39-run plus one cell: 39^2 + 1 = 1522.
    hyp = " ".join(["a"] * 40)
    ref = " ".join(["a"] * 39 + ["b"])
    out = score_segment(hyp, [ref, ref], 2.0, mode="exact")
    assert not out.fell_back and out.selection.score == 1522.0
    # random two-letter 40 x 40 grids (the integer program has to work)
    rng = random.Random(5)
    for _ in range(3):
        hyp = " ".join(rng.choice("ab") for _ in range(40))
        refs = [" ".join(rng.choice("ab") for _ in range(40)) for _ in range(2)]
        out = score_segment(hyp, refs, 2.0, mode="exact")
        assert not out.fell_back
        assert out.selection.score >= score_segment(hyp, refs, 2.0).selection.score
