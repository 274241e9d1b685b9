"""metrics.ter_fast against sacrebleu 2.6's own TER code, on generated inputs.

Token level: ``translation_edits`` must equal ``lib_ter.translation_edit_rate``
edit for edit - random pairs, near-copies with moved blocks (the shift search's
real work), tiny vocabularies (repeated words, many equal-cost alignments, the
trace's tie-breaking), very different lengths (the beam binds), empty sides and
long lines. Text level: the TER metric's per-segment statistics and corpus score
must equal sacrebleu.TER's for every option, with punctuation and CJK text.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.lib_ter import translation_edit_rate

from mtworkbench.metrics.base import ScoringInput
from mtworkbench.metrics.edit import TER
from mtworkbench.metrics.ter_fast import translation_edits

FAST = settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def sacrebleu_edits(hyp: list[int], ref: list[int]) -> int:
    return translation_edit_rate([str(w) for w in hyp], [str(w) for w in ref])[0]


def edited(draw, ref: list[int], vocab: int, n_edits: int) -> list[int]:
    """``ref`` with deletions, insertions, substitutions and moved blocks."""
    hyp = list(ref)
    for _ in range(n_edits):
        op = draw(st.integers(0, 3))
        if op == 0 and hyp:
            del hyp[draw(st.integers(0, len(hyp) - 1))]
        elif op == 1:
            hyp.insert(draw(st.integers(0, len(hyp))), draw(st.integers(0, vocab - 1)))
        elif op == 2 and hyp:
            hyp[draw(st.integers(0, len(hyp) - 1))] = draw(st.integers(0, vocab - 1))
        elif hyp:
            start = draw(st.integers(0, len(hyp) - 1))
            block = hyp[start : start + draw(st.integers(1, 8))]
            del hyp[start : start + len(block)]
            at = draw(st.integers(0, len(hyp)))
            hyp[at:at] = block
    return hyp


@st.composite
def token_pairs(draw, max_len: int = 40):
    vocab = draw(st.sampled_from([1, 2, 3, 5, 12, 100]))
    words = st.lists(st.integers(0, vocab - 1), max_size=max_len)
    ref = draw(words)
    if draw(st.booleans()):
        return edited(draw, ref, vocab, draw(st.integers(0, 12))), ref
    return draw(words), ref


@FAST
@given(token_pairs())
def test_random_and_near_copy_pairs(pair):
    hyp, ref = pair
    assert translation_edits(hyp, ref) == sacrebleu_edits(hyp, ref)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_lengths_far_apart_where_the_beam_binds(data):
    vocab = data.draw(st.sampled_from([2, 4, 30]))
    short = data.draw(st.lists(st.integers(0, vocab - 1), min_size=1, max_size=12))
    long = data.draw(st.lists(st.integers(0, vocab - 1), min_size=60, max_size=160))
    hyp, ref = (short, long) if data.draw(st.booleans()) else (long, short)
    assert translation_edits(hyp, ref) == sacrebleu_edits(hyp, ref)


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_long_lines_many_edits(data):
    """200-260 tokens with 20-80 edits: plain distances past the beam's
    guarantee, so the beam matrix itself decides costs and traces (sacrebleu
    takes seconds per example here)."""
    vocab = data.draw(st.sampled_from([3, 20, 500]))
    ref = data.draw(st.lists(st.integers(0, vocab - 1), min_size=200, max_size=260))
    hyp = edited(data.draw, ref, vocab, data.draw(st.integers(20, 80)))
    assert translation_edits(hyp, ref) == sacrebleu_edits(hyp, ref)


@pytest.mark.slow
def test_2000_token_near_copy():
    rng = random.Random(2000)
    ref = [rng.randrange(300) for _ in range(2000)]
    hyp = list(ref)
    for _ in range(4):  # a few moved blocks and substitutions
        start = rng.randrange(len(hyp) - 10)
        block = hyp[start : start + 5]
        del hyp[start : start + 5]
        at = rng.randrange(len(hyp))
        hyp[at:at] = block
        hyp[rng.randrange(len(hyp))] = rng.randrange(300)
    assert translation_edits(hyp, ref) == sacrebleu_edits(hyp, ref)


def test_empty_sides():
    assert translation_edits([], []) == sacrebleu_edits([], [])
    assert translation_edits([1, 2, 3], []) == sacrebleu_edits([1, 2, 3], []) == 3
    assert translation_edits([], [1, 2]) == sacrebleu_edits([], [1, 2]) == 2


def test_one_shift_counts_as_one_edit():
    ref = [1, 2, 3, 4, 5, 6]
    hyp = [4, 5, 6, 1, 2, 3]
    assert translation_edits(hyp, ref) == sacrebleu_edits(hyp, ref) == 1


# --- the metric, on text ------------------------------------------------------------
WORDS = ["the", "The", "cat", "cat.", "a", "sat", "on", "mat", "mat,", "it's", "U.S.", "1,000", "3.5",
         "(a)", "x", "!", "?", "\"q\"", "&quot;", "&amp;", "naïve", "Über", "über", "-", "'s",
         "東京", "日本語", "です", "カタカナ", "ひらがな", "。", "、", "（括弧）", "ｘ", "한국어"]


@st.composite
def corpora(draw):
    n = draw(st.integers(1, 6))
    line = st.lists(st.sampled_from(WORDS), max_size=14).map(" ".join)
    hyps = draw(st.lists(line, min_size=n, max_size=n))
    n_refs = draw(st.integers(1, 3))
    refs = [draw(st.lists(line, min_size=n, max_size=n)) for _ in range(n_refs)]
    # near-copies give shifts something to do
    refs[0] = [h if draw(st.booleans()) else r for h, r in zip(hyps, refs[0])]
    hyps = [" ".join(reversed(h.split())) if draw(st.booleans()) else h for h in hyps]
    options = {
        "normalized": draw(st.booleans()),
        "no_punct": draw(st.booleans()),
        "asian_support": draw(st.booleans()),
        "case_sensitive": draw(st.booleans()),
    }
    return hyps, refs, options


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora())
def test_metric_equals_sacrebleu_for_every_option(corpus):
    hyps, refs, options = corpus
    ours = TER(**options).score(ScoringInput(hyps, refs))
    theirs = sacrebleu.TER(**options)
    assert ours.corpus == pytest.approx(theirs.corpus_score(hyps, refs).score, abs=1e-12)
    for i, hyp in enumerate(hyps):
        expected = theirs.sentence_score(hyp, [r[i] for r in refs])
        assert ours.stats[i].tolist() == [expected.num_edits, expected.ref_length], (i, hyp)
    np.testing.assert_allclose(
        ours.segments, [theirs.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)],
        rtol=0, atol=1e-12,
    )
