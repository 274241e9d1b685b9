"""aligner=exact against brute force; aligner=meteor never beats it; synonym candidates
from a toy WordNet table (base-form rules and exceptions as SPECS.md states them)."""

from __future__ import annotations

import random

import pytest

from mtworkbench.metrics.meteor.exact_aligner import (
    exact_search,
    exact_search_with_status,
    objective,
)
from mtworkbench.metrics.meteor.matchers import CandidateFinder, Candidates
from mtworkbench.metrics.meteor.search import meteor_search
from mtworkbench.metrics.wordnet_data import SynonymTables

# Small vocabulary: repeats, stem pairs (walk/walks/walked), synonym pairs via the toy table.
VOCAB = ["the", "the", "a", "walk", "walks", "walked", "car", "auto", "cars", "big",
         "large", "went", "go", "x", "y", ","]
TOY = SynonymTables.from_sets(
    {"car": {1}, "auto": {1}, "big": {2, 3}, "large": {3}, "go": {4}, "walk": {5}},
    {"went": ("go",)},
)


def brute_force(cands: Candidates) -> tuple[int, int, int]:
    """Best (matches, chunks, distance) over every one-to-one subset of candidates."""
    rows = [sorted({i for i, _ in row}) for row in cands.by_ref]
    best = None

    def walk(j: int, used: frozenset[int], links: list[tuple[int, int, int]]) -> None:
        nonlocal best
        if j == len(rows):
            m, c, d = objective(links)
            key = (m, -c, -d)
            if best is None or key > best[0]:
                best = (key, (m, c, d))
            return
        walk(j + 1, used, links)
        for i in rows[j]:
            if i not in used:
                links.append((i, j, 0))
                walk(j + 1, used | {i}, links)
                links.pop()

    walk(0, frozenset(), [])
    assert best is not None
    return best[1]


def random_pair(rng: random.Random) -> tuple[list[str], list[str]]:
    ref = [rng.choice(VOCAB) for _ in range(rng.randint(0, 8))]
    hyp = [w if rng.random() < 0.6 else rng.choice(VOCAB) for w in ref]
    if rng.random() < 0.5:
        rng.shuffle(hyp)
    hyp = hyp[: rng.randint(0, 8)] + [rng.choice(VOCAB) for _ in range(rng.randint(0, 2))]
    return hyp[:8], ref


@pytest.mark.parametrize("seed", range(6))
def test_exact_aligner_matches_brute_force(seed):
    rng = random.Random(seed)
    finder = CandidateFinder(("exact", "stem", "synonym"), TOY)
    checked = 0
    for _ in range(60):
        hyp, ref = random_pair(rng)
        cands = finder.find(hyp, ref)
        links = exact_search(cands)
        # Valid: one-to-one, each link a candidate with its first module.
        assert len({i for i, _, _ in links}) == len(links) == len({j for _, j, _ in links})
        for i, j, slot in links:
            assert slot == min(s for h, s in cands.by_ref[j] if h == i)
        assert objective(links) == brute_force(cands), (hyp, ref)
        meteor = meteor_search(cands, (1.0, 0.5, 0.5))
        m_obj, e_obj = objective(meteor), objective(links)
        assert (m_obj[0], -m_obj[1], -m_obj[2]) <= (e_obj[0], -e_obj[1], -e_obj[2])
        checked += 1
    assert checked == 60


@pytest.mark.parametrize("seed", range(2))
def test_integer_program_fallback_matches_brute_force(seed):
    # max_states=1 makes the DP give up at once, so HiGHS solves every case.
    rng = random.Random(100 + seed)
    finder = CandidateFinder(("exact", "stem", "synonym"), TOY)
    for _ in range(25):
        hyp, ref = random_pair(rng)
        cands = finder.find(hyp, ref)
        links, proven = exact_search_with_status(cands, max_states=1)
        assert proven
        assert objective(links) == brute_force(cands), (hyp, ref)


def test_pathological_repeats_stay_fast_and_exact():
    finder = CandidateFinder(("exact",))
    links, proven = exact_search_with_status(finder.find(["a"] * 40, ["a"] * 40))
    assert proven and objective(links) == (40, 1, 0)
    # "a ," x 20 against ", a x" x 15: 30 matches in 15 chunks at best.
    links, proven = exact_search_with_status(finder.find(["a", ","] * 20, [",", "a", "x"] * 15))
    assert proven and objective(links)[:2] == (30, 15)


def test_synonym_candidates_use_base_forms_and_exceptions():
    finder = CandidateFinder(("exact", "stem", "synonym"), TOY)
    # cars -> car by the suffix rule "s -> ''"; car ~ auto share synset 1.
    assert (0, 0, 2) in finder.find(["cars"], ["auto"]).pairs()
    # went -> go by the exception list, so "went" shares go's synset 4.
    assert finder.find(["went"], ["go"]).pairs() == [(0, 0, 2)]
    # big and large intersect in synset 3.
    assert finder.find(["big"], ["large"]).pairs() == [(0, 0, 2)]
    # Equal words are never stem or synonym candidates.
    assert finder.find(["car", "x"], ["car", "y"]).pairs() == [(0, 0, 0)]


def test_candidates_are_ordered_by_module_then_hyp_position():
    finder = CandidateFinder(("exact", "stem", "synonym"), TOY)
    cands = finder.find(["walks", "walk", "walked"], ["walk"])
    # exact (hyp 1) first, then stem (hyp 0, hyp 2), then synonym: "walks" and "walked"
    # reach synset 5 through their base form "walk" (rules "s -> ''" and "ed -> ''").
    assert cands.by_ref[0][:3] == [(1, 0), (0, 1), (2, 1)]
    assert [s for _, s in cands.by_ref[0][3:]] == [2, 2]
    assert cands.ref_coverage == [5] and cands.hyp_coverage == [2, 1, 2]


def test_base_form_rules():
    tables = SynonymTables.from_sets(
        {"dog": {1}, "church": {2}, "glass": {3}, "fly": {4}, "make": {5}, "run": {6}, "big": {7}},
        {},
    )
    assert tables.base_form("dogs") == "dog"
    assert tables.base_form("churches") == "church"
    assert tables.base_form("glasses") == "glass"
    assert tables.base_form("flies") == "fly"
    assert tables.base_form("making") == "make"
    assert tables.base_form("bigger") is None  # "bigg" and "bigge" are not words
    assert tables.base_form("grass") == "grass"  # ends in ss: the word itself
    assert tables.base_form("ox") == "ox"  # <= 2 characters: the word itself
    assert tables.base_form("zzzs") is None
