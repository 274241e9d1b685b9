"""Text primitives shared by annotation, the entity readers and the metrics.

A word is a run of letters, digits, underscores and combining marks (text in
NFD keeps its accents inside the word); every other non-space character is a
token of its own, so "dell'Italia" yields "dell", "'", "Italia". The patterns
are built here from their parts, so no caller has to take a regex apart.
"""

from __future__ import annotations

import re

# Combining diacritical marks (basic, extended, supplement, for symbols, half marks).
COMBINING_MARKS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
WORD_PATTERN = rf"[\w{COMBINING_MARKS}]+"
PUNCTUATION_PATTERN = rf"[^\w\s{COMBINING_MARKS}]"

WORD_RE = re.compile(WORD_PATTERN)
"""One word: letters, digits, underscores and combining marks."""

TOKEN_RE = re.compile(f"{WORD_PATTERN}|{PUNCTUATION_PATTERN}")
"""A word, or one punctuation character (any other non-space character)."""
