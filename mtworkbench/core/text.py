"""Text primitives shared by annotation, the entity readers and the metrics.

A word is a run of letters, digits, underscores and combining marks (text in
NFD keeps its accents inside the word); every other non-space character is a
token of its own, so "dell'Italia" yields "dell", "'", "Italia". The patterns
are built here from their parts, so no caller has to take a regex apart.
"""

from __future__ import annotations

import re
import unicodedata


def _mark_ranges() -> str:
    """Every combining mark (Unicode categories Mn, Mc, Me) as a character-class body:
    Latin accents in NFD, but also Arabic harakat, Hebrew points and the vowel
    signs of Devanagari and other Indic scripts, which Python's \\w leaves out
    (without them "किताब" or a vocalised "مُحَمَّد" would fall apart into pieces)."""
    ranges: list[list[int]] = []
    # Planes 0 and 1 hold every script's marks; plane 14 only variation selectors.
    for code in [*range(0x0300, 0x20000), *range(0xE0100, 0xE01F0)]:
        if unicodedata.category(chr(code)).startswith("M"):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in ranges)


def _known_mark_ranges() -> str | None:
    """The same character-class body from the table made for this Unicode version, if any."""
    from mtworkbench.core import combining_marks

    if combining_marks.UNICODE_VERSION != unicodedata.unidata_version:
        return None
    out = []
    for item in combining_marks.RANGES.split():
        a, _, b = item.partition("-")
        out.append(chr(int(a, 16)) if not b else f"{chr(int(a, 16))}-{chr(int(b, 16))}")
    return "".join(out)


# Combining marks of every script.
COMBINING_MARKS = _known_mark_ranges() or _mark_ranges()
WORD_PATTERN = rf"[\w{COMBINING_MARKS}]+"
PUNCTUATION_PATTERN = rf"[^\w\s{COMBINING_MARKS}]"

WORD_RE = re.compile(WORD_PATTERN)
"""One word: letters, digits, underscores and combining marks."""

TOKEN_RE = re.compile(f"{WORD_PATTERN}|{PUNCTUATION_PATTERN}")
"""A word, or one punctuation character (any other non-space character)."""
