"""Raters' error spans of one (system, segment), and their place on a view's tokens.

Error spans are character offsets into the text the rater saw (the system's
output). Metric views show tokens, which a tokenizer may have lower-cased or
split differently; ``token_offsets`` finds each token in the text in order
(ignoring case), and a token is in error when its characters overlap a span.
A token not found in the text (a tokenizer's rewrite) takes no mark rather
than a wrong one. Qt-free: the views and the benchmark share it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mtworkbench.core.model import SPAN_PROTOCOLS, Judgment


@dataclass(frozen=True)
class RaterSpan:
    rater: str
    start: int
    end: int
    severity: str
    category: str
    protocol: str

    def describe(self) -> str:
        category = f"{self.category}, " if self.category else ""
        return f"{category}{self.severity} ({self.protocol.upper()}, rater {self.rater})"


class ErrorIndex:
    """(system, segment) -> the located error spans of every rater, built once per project."""

    def __init__(self, judgments: Iterable[Judgment], texts: dict[tuple[str, str], str] | None = None) -> None:
        self.spans: dict[tuple[str, str], list[RaterSpan]] = defaultdict(list)
        self.rated: set[tuple[str, str]] = set()
        # Items whose only span judgments are MQM scores without spans (an imported
        # segment score: a rater in the app leaves the score empty and records spans),
        # so "no spans" there means "not recorded", never "no errors".
        self.scored_only: set[tuple[str, str]] = set()
        with_spans: set[tuple[str, str]] = set()
        for j in judgments:
            if j.protocol not in SPAN_PROTOCOLS or j.qc or j.text is not None:
                continue  # a degraded copy's offsets are into another text
            self.rated.add((j.system, j.segment))
            if j.protocol == "mqm" and j.score is not None and not j.errors:
                self.scored_only.add((j.system, j.segment))
            else:
                with_spans.add((j.system, j.segment))
            length = len(texts.get((j.system, j.segment), "")) if texts else None
            for e in j.errors:
                if e.start is None and e.end is None:
                    continue  # an omission has no place in the translation
                start = 0 if e.start is None else e.start
                end = (length or start) if e.end is None else e.end
                self.spans[(j.system, j.segment)].append(
                    RaterSpan(j.judge, start, end, e.severity.strip(), e.category, j.protocol))
        self.scored_only -= with_spans

    def __len__(self) -> int:
        return sum(len(v) for v in self.spans.values())

    def of(self, system: str, segment: str) -> list[RaterSpan]:
        return self.spans.get((system, segment), [])


def token_offsets(text: str, tokens: Sequence[str]) -> list[tuple[int, int] | None]:
    """Each token's ``[start, end)`` in ``text``, searched left to right, case ignored."""
    lower = text.lower()
    out: list[tuple[int, int] | None] = []
    pos = 0
    for tok in tokens:
        t = tok.lower()
        found = lower.find(t, pos) if t else -1
        if found < 0:
            out.append(None)
            continue
        out.append((found, found + len(t)))
        pos = found + len(t)
    return out


def token_errors(text: str, tokens: Sequence[str], spans: Sequence[RaterSpan]) -> dict[int, list[RaterSpan]]:
    """Token index -> the spans covering any of its characters."""
    out: dict[int, list[RaterSpan]] = {}
    if not spans:
        return out
    for i, place in enumerate(token_offsets(text, tokens)):
        if place is None:
            continue
        start, end = place
        hit = [s for s in spans if s.start < end and start < s.end]
        if hit:
            out[i] = hit
    return out
