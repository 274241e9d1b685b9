"""DA quality control: "BAD references", degraded copies hidden among the items.

A BAD item is a copy of an item's text with one stretch replaced by a stretch
of the same length from another item's text (Graham et al. 2013/2017, WMT): a
rater paying attention must score it clearly lower than the original. How much
is replaced grows with the length, as in WMT's campaigns: 1 unit of a 1-unit
text, 2 of 2-5, 3 of 6-8, 4 of 9-15, 5 of 16-20, and a quarter (rounded down)
of a longer one.

Units are whitespace-separated words, except in scripts written without
spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Burmese...): there
every character - a grapheme, with its vowel signs and tone marks, so a Thai
cluster is never cut apart - is a unit, and a run of other characters inside
such text (a Latin name, digits) stays one unit. The script decides, not a
language code, so no language is assumed and mixed text works.

Everything is seeded and drawn from ``random.Random.random()`` alone (the one
draw CPython promises to repeat across versions): the same items, rate and
seed give the same BAD items at the same places.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Generic, TypeVar

import regex

T = TypeVar("T")
# Scripts written without spaces between words (Script_Extensions, so the Japanese
# long-vowel mark and CJK punctuation count with their scripts).
_UNSPACED = r"\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}" \
    r"\p{scx=Myanmar}\p{scx=Tibetan}\p{scx=Javanese}\p{scx=Balinese}\p{scx=Yi}\p{scx=Tai_Le}" \
    r"\p{scx=New_Tai_Lue}\p{scx=Tai_Tham}\p{scx=Tai_Viet}"
# One unit: a grapheme of an unspaced script, or a run of other non-space characters.
_UNIT = regex.compile(rf"(?=[{_UNSPACED}])\X|(?:(?![{_UNSPACED}])\S)+")


@dataclass(frozen=True)
class BadCopy:
    """The degraded text and where the replaced stretch now is: characters ``[start, end)``."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class BadItem(Generic[T]):
    """A BAD copy of ``item`` to be shown at ``position`` of the final order."""

    item: T
    copy: BadCopy
    position: int


def replaced_units(n: int) -> int:
    """How many units of an n-unit text a BAD copy replaces (WMT's table)."""
    if n <= 1:
        return n
    if n <= 5:
        return 2
    if n <= 8:
        return 3
    if n <= 15:
        return 4
    if n <= 20:
        return 5
    return n // 4


def units(text: str) -> list[tuple[int, int]]:
    """Character spans ``[start, end)`` of the text's units: words, or in scripts
    written without spaces, characters (graphemes)."""
    return [m.span() for m in _UNIT.finditer(text)]


def below(rng: random.Random, n: int) -> int:
    """A draw from ``range(n)`` using only ``random()`` (stable across Python versions)."""
    return min(int(rng.random() * n), n - 1)


def degrade(text: str, donors: Sequence[str], rng: random.Random, attempts: int = 20) -> BadCopy | None:
    """A BAD copy of ``text`` with a stretch taken from one of ``donors``; None when the
    text is empty or no donor yields a different text."""
    return _degrade(text, lambda: donors[below(rng, len(donors))] if donors else "", rng, attempts)


def _degrade(text: str, draw_donor: Callable[[], str], rng: random.Random, attempts: int,
             forbidden: AbstractSet[str] = frozenset()) -> BadCopy | None:
    """As ``degrade``; a result in ``forbidden`` (another system's translation of the same
    segment: no error at all) is drawn again."""
    own = units(text)
    if not own:
        return None
    k = replaced_units(len(own))
    for _ in range(attempts):
        donor = draw_donor()
        theirs = units(donor)
        if len(theirs) < k:
            continue
        at = below(rng, len(own) - k + 1)
        take = below(rng, len(theirs) - k + 1)
        start, end = own[at][0], own[at + k - 1][1]
        phrase = donor[theirs[take][0]:theirs[take + k - 1][1]]
        degraded = text[:start] + phrase + text[end:]
        if degraded != text and degraded not in forbidden:
            return BadCopy(degraded, start, start + len(phrase))
    return None


def plan_bad_items(items: Sequence[T], texts: Sequence[str], rate: float, seed: int | str, *,
                   groups: Sequence[Hashable] | None = None, eligible: Sequence[bool] | None = None,
                   min_gap: int = 0) -> list[BadItem[T]]:
    """BAD copies of a share ``rate`` (0-1) of the eligible items, each placed after its original.

    ``texts[i]`` is the text shown for ``items[i]``. Donors of the replacing
    stretch are the other items' texts, except those of the same group
    (``groups[i]``, e.g. the segment: another system's translation of the same
    source would make a paraphrase, not an error). Only ``eligible`` items (all
    by default; a queue leaves out its repeats) get a BAD copy, and ``rate``
    is a share of them. Positions index the final order (items plus BAD
    items), ascending. Each BAD item comes at a random place after its
    original, at least ``min_gap`` items later where the list is long enough,
    so that it does not stand next to the text it was made from.
    """
    if not 0 <= rate <= 1:
        raise ValueError(f"rate must be between 0 and 1, not {rate!r}")
    if len(items) != len(texts):
        raise ValueError("one text per item")
    if min_gap < 0:
        raise ValueError("the gap must not be negative")
    groups = list(range(len(items))) if groups is None else list(groups)
    ok = [True] * len(items) if eligible is None else list(eligible)
    if len(groups) != len(items) or len(ok) != len(items):
        raise ValueError("one group and one eligibility flag per item")
    rng = random.Random(seed)
    candidates = [i for i in range(len(items)) if ok[i]]
    n_bad = round(rate * len(candidates))
    # A partial Fisher-Yates shuffle: the first n_bad of the candidates, drawn with random().
    for k in range(n_bad):
        j = k + below(rng, len(candidates) - k)
        candidates[k], candidates[j] = candidates[j], candidates[k]
    chosen = sorted(candidates[:n_bad])
    with_text = [i for i, t in enumerate(texts) if t.strip()]
    same_group: dict[Hashable, set[str]] = {}
    for group, text in zip(groups, texts):
        same_group.setdefault(group, set()).add(text)
    copies: list[tuple[int, BadCopy]] = []
    for i in chosen:
        def donor(i: int = i) -> str:
            if not with_text:
                return ""
            d = with_text[below(rng, len(with_text))]
            return "" if groups[d] == groups[i] else texts[d]

        copy = _degrade(texts[i], donor, rng, attempts=40, forbidden=same_group[groups[i]])
        if copy is not None:
            copies.append((i, copy))
    # Item i sorts at i; a BAD copy of item p goes just before item t (t = n: at the end),
    # t drawn from [p + 1 + gap, n], so at least ``gap`` items lie between them if possible.
    n = len(items)
    slots = []
    for k, (p, copy) in enumerate(copies):
        low = min(p + 1 + min_gap, n)
        slots.append((low + below(rng, n - low + 1), k, p, copy))
    slots.sort(key=lambda s: (s[0], s[1]))
    out: list[BadItem[T]] = []
    for shift, (t, _, p, copy) in enumerate(slots):
        out.append(BadItem(items[p], copy, t + shift))
    return out


def interleave(items: Sequence[T], bad: Sequence[BadItem[T]]) -> list[tuple[T, BadCopy | None]]:
    """The final order: (item, None) for an original, (item, copy) for a BAD item."""
    out: list[tuple[T, BadCopy | None]] = [(item, None) for item in items]
    for b in sorted(bad, key=lambda b: b.position):
        out.insert(b.position, (b.item, b.copy))
    return out
