"""DA BAD references: seeded degraded copies, and the per-rater one-sided Wilcoxon test."""

from __future__ import annotations

import random

import pytest

from mtworkbench.analysis.quality_control import quality_control
from mtworkbench.core.model import Judgment
from mtworkbench.core.quality_control import degrade, interleave, plan_bad_items, replaced_units, units

TEXTS = [
    "the cat sat on the mat today",
    "a quick brown fox jumps over the lazy dog near the river bank",
    "hello",
    "we were there",
    "今天天气很好",
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty twenty-one twenty-two twenty-three twenty-four",
]


def test_replaced_units_follow_the_length_table():
    assert [replaced_units(n) for n in (1, 2, 5, 6, 8, 9, 15, 16, 20, 21, 24, 40)] == [
        1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 6, 10]


def test_units_are_words_or_characters_without_spaces():
    assert units("we were there") == [(0, 2), (3, 7), (8, 13)]
    assert units("今天天气很好") == [(i, i + 1) for i in range(6)]


@pytest.mark.parametrize("index", range(len(TEXTS)))
def test_degrade_replaces_one_stretch_from_a_donor(index):
    text = TEXTS[index]
    donors = [t for k, t in enumerate(TEXTS) if k != index]
    copy = degrade(text, donors, random.Random(index))
    assert copy is not None and copy.text != text
    phrase = copy.text[copy.start:copy.end]
    assert any(phrase in d for d in donors)
    # Outside the stretch the text is the original's: a prefix and a suffix of it.
    assert text.startswith(copy.text[:copy.start])
    assert text.endswith(copy.text[copy.end:])
    n_replaced = len(text.split()) - len((copy.text[:copy.start] + " " + copy.text[copy.end:]).split())
    if " " in text:
        assert n_replaced == replaced_units(len(units(text)))


def test_plan_is_seeded_and_hides_bad_items_after_their_originals():
    items = [f"item{k}" for k in range(40)]
    texts = [TEXTS[k % len(TEXTS)] + f" {k}" for k in range(40)]
    bad = plan_bad_items(items, texts, rate=0.25, seed=7)
    assert len(bad) == 10
    assert bad == plan_bad_items(items, texts, rate=0.25, seed=7)
    assert bad != plan_bad_items(items, texts, rate=0.25, seed=8)
    order = interleave(items, bad)
    assert len(order) == 50 and [i for i, c in order if c is None] == items
    for b in bad:
        assert order[b.position] == (b.item, b.copy)
        assert b.position > order.index((b.item, None))  # shown after its original
    with pytest.raises(ValueError):
        plan_bad_items(items, texts, rate=1.5, seed=1)


def da(judge, seg, score, qc=""):
    return Judgment(f"{judge}-{seg}-{qc}", judge, "S", str(seg), score=score, scale="da", protocol="da",
                    qc=qc, text="degraded" if qc else None)


def test_wilcoxon_per_rater():
    js = []
    for k in range(10):
        js.append(da("careful", k, 70 + k))
        js.append(da("careful", k, 20 + k, qc="bad"))  # every BAD copy lower
        js.append(da("careless", k, 50 + (k % 3)))
        js.append(da("careless", k, 50 + ((k + 1) % 3), qc="bad"))  # no systematic difference
    js.append(da("nobad", 1, 40))
    careful, careless = quality_control(js)
    assert careful.rater == "careful" and careful.n_bad == careful.n_pairs == 10
    # Exact one-sided signed-rank test, all 10 differences negative: p = 1 / 2**10.
    assert careful.wilcoxon_p == pytest.approx(1 / 1024)
    assert careful.passed is True
    assert careful.mean_bad == pytest.approx(24.5) and careful.mean_original == pytest.approx(74.5)
    assert careless.passed is False and careless.wilcoxon_p > 0.05
    assert careful.mannwhitney_p < 0.05
    assert [c.rater for c in quality_control(js)] == ["careful", "careless"]  # nobad has no BAD items


def test_bad_items_without_originals_are_undefined():
    [c] = quality_control([da("r", 1, 10, qc="bad")])
    assert (c.n_bad, c.n_pairs, c.wilcoxon_p, c.passed) == (1, 0, None, None)
