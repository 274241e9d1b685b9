"""DA quality control: "BAD references", degraded copies hidden among the items.

A BAD item is a copy of an item's text with one stretch replaced by a stretch
of the same length from another item's text (Graham et al. 2013/2017, WMT): a
rater paying attention must score it clearly lower than the original. How much
is replaced grows with the length, as in WMT's campaigns: 1 unit of a 1-unit
text, 2 of 2-5, 3 of 6-8, 4 of 9-15, 5 of 16-20, and a quarter (rounded down)
of a longer one.

Units are whitespace-separated words; a text without spaces between its words
(Chinese, Japanese, Thai...) is cut into characters instead, so no language is
assumed. Everything is seeded: the same items, rate and seed give the same BAD
items at the same places.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")
_WORD = re.compile(r"\S+")


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
    """Character spans of the text's units: words, or characters when it has no spaces."""
    words = [m.span() for m in _WORD.finditer(text)]
    if len(words) <= 1 and len(text.strip()) > 1:
        return [(i, i + 1) for i, ch in enumerate(text) if not ch.isspace()]
    return words


def degrade(text: str, donors: Sequence[str], rng: random.Random, attempts: int = 20) -> BadCopy | None:
    """A BAD copy of ``text`` with a stretch taken from one of ``donors``; None when the
    text is empty or no donor yields a different text."""
    own = units(text)
    if not own:
        return None
    k = replaced_units(len(own))
    for _ in range(attempts):
        donor = rng.choice(donors) if donors else ""
        theirs = units(donor)
        if len(theirs) < k:
            continue
        at = rng.randrange(len(own) - k + 1)
        take = rng.randrange(len(theirs) - k + 1)
        start, end = own[at][0], own[at + k - 1][1]
        phrase = donor[theirs[take][0]:theirs[take + k - 1][1]]
        degraded = text[:start] + phrase + text[end:]
        if degraded != text:
            return BadCopy(degraded, start, start + len(phrase))
    return None


def plan_bad_items(items: Sequence[T], texts: Sequence[str], rate: float, seed: int) -> list[BadItem[T]]:
    """BAD copies of a share ``rate`` (0-1) of the items, each placed after its original.

    ``texts[i]`` is the text shown for ``items[i]``; donors are the other items'
    texts. Positions index the final order (items plus BAD items), ascending;
    each BAD item comes at a random place after its original, so that it is
    not recognisable by being adjacent to it.
    """
    if not 0 <= rate <= 1:
        raise ValueError(f"rate must be between 0 and 1, not {rate!r}")
    if len(items) != len(texts):
        raise ValueError("one text per item")
    rng = random.Random(seed)
    n_bad = round(rate * len(items))
    chosen = sorted(rng.sample(range(len(items)), n_bad))
    copies: list[tuple[int, BadCopy]] = []
    for i in chosen:
        donors = [t for k, t in enumerate(texts) if k != i and t.strip()]
        copy = degrade(texts[i], donors, rng)
        if copy is not None:
            copies.append((i, copy))
    # Insert after the original: slot s means "after item s" in the original order.
    slots = sorted((rng.randrange(i, len(items)), i, copy) for i, copy in copies)
    out: list[BadItem[T]] = []
    for shift, (slot, i, copy) in enumerate(slots):
        out.append(BadItem(items[i], copy, slot + 1 + shift))
    return out


def interleave(items: Sequence[T], bad: Sequence[BadItem[T]]) -> list[tuple[T, BadCopy | None]]:
    """The final order: (item, None) for an original, (item, copy) for a BAD item."""
    out: list[tuple[T, BadCopy | None]] = [(item, None) for item in items]
    for b in sorted(bad, key=lambda b: b.position):
        out.insert(b.position, (b.item, b.copy))
    return out
