"""Word overlap between a candidate translation and the reference shown with it.

Used for the judge workspace's optional highlighting: the result is the
character spans of the words in each string that also occur in the other.
Words are matched case-insensitively as a multiset: the k-th occurrence of a
word in one string is highlighted only if the other string has at least k
occurrences, so a word repeated in the candidate is not all lit up by a
single occurrence in the reference. Punctuation is not highlighted.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

# A word: letters/digits, with inner hyphens or apostrophes ("well-known", "don't").
_WORD = re.compile(r"\w+(?:[-'\u2019]\w+)*")


@dataclass(frozen=True)
class Token:
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Overlap:
    """Spans ``[start, end)`` of the shared words in each string, in order."""

    candidate_spans: list[tuple[int, int]]
    reference_spans: list[tuple[int, int]]
    candidate_words: int
    reference_words: int

    @property
    def matched(self) -> int:
        """Number of matched words (the same on both sides)."""
        return len(self.candidate_spans)


def words(text: str) -> list[Token]:
    return [Token(m.start(), m.end(), m.group()) for m in _WORD.finditer(text)]


def _key(token: Token, case_sensitive: bool) -> str:
    return token.text if case_sensitive else token.text.casefold()


def _matched_spans(tokens: list[Token], available: Counter[str], case_sensitive: bool) -> list[tuple[int, int]]:
    left = Counter(available)
    spans = []
    for token in tokens:
        key = _key(token, case_sensitive)
        if left[key] > 0:
            left[key] -= 1
            spans.append((token.start, token.end))
    return spans


def word_overlap(candidate: str, reference: str, case_sensitive: bool = False) -> Overlap:
    cand_tokens = words(candidate)
    ref_tokens = words(reference)
    cand_counts = Counter(_key(t, case_sensitive) for t in cand_tokens)
    ref_counts = Counter(_key(t, case_sensitive) for t in ref_tokens)
    return Overlap(
        candidate_spans=_matched_spans(cand_tokens, ref_counts, case_sensitive),
        reference_spans=_matched_spans(ref_tokens, cand_counts, case_sensitive),
        candidate_words=len(cand_tokens),
        reference_words=len(ref_tokens),
    )
