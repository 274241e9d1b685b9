"""Shared text preparation for the word-level metrics: lowercasing and
sacrebleu's tokenizers, so that tokens are identical to sacrebleu's.

The 13a tokenizer is sacrebleu's own ``Tokenizer13a`` object; only its
post-tokenizer step runs sacrebleu's compiled patterns with equivalent
callable replacements and skips patterns that cannot match (tokenization is
most of BLEU's time). tests/metrics/test_tokens.py checks the output equals
sacrebleu's on random and real text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from mtworkbench.metrics.base import MetricError, ScoringInput

TOKENIZERS: tuple[str, ...] = ("13a", "intl", "none")


# Characters without which a pattern of sacrebleu's 13a post-tokenizer cannot
# match (keyed by the pattern text, so a changed sacrebleu pattern is simply
# always applied).
_TRIGGERS = {
    r"([^0-9])([\.,])": ".,",
    r"([\.,])([^0-9])": ".,",
    r"([0-9])(-)": "-",
}
_GROUP_REF = re.compile(r"\\(\d+)")


def _template_function(template: str) -> Callable[[re.Match[str]], str] | None:
    """A function equal to ``re.sub``'s expansion of ``template`` when it holds
    only literal text and ``\\N`` group references; None otherwise."""
    parts = _GROUP_REF.split(template)
    literals, groups = parts[::2], [int(g) for g in parts[1::2]]
    if any("\\" in lit for lit in literals):
        return None

    # specialised closures: a generic loop here costs as much as re's own expansion
    if len(groups) == 1:
        (a, b), (g,) = literals, groups
        return lambda m: a + (m.group(g) or "") + b
    if len(groups) == 2:
        (a, b, c), (g1, g2) = literals, groups
        return lambda m: a + (m.group(g1) or "") + b + (m.group(g2) or "") + c
    return None


class _Fast13aPost:
    """sacrebleu's 13a post-tokenizer (``TokenizerRegexp``) with its own compiled
    patterns, applied with callable replacements (Python 3.11 expands template
    strings in Python, match by match) and skipping a pattern when the line
    lacks the character it needs. Same output; about a third faster."""

    def __init__(self, original: Any) -> None:
        self._steps = [
            (pattern, _template_function(template) or template, _TRIGGERS.get(pattern.pattern))
            for pattern, template in original._re
        ]

    def __call__(self, line: str) -> str:
        for pattern, replacement, trigger in self._steps:
            if trigger is None or any(c in line for c in trigger):
                line = pattern.sub(replacement, line)
        return " ".join(line.split())


@cache
def sacrebleu_tokenizer(name: str) -> Callable[[str], str]:
    """sacrebleu's tokenizer ``name`` (``13a``, ``intl`` or ``none``)."""
    if name == "13a":
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

        tokenizer = Tokenizer13a()
        post = getattr(tokenizer, "_post_tokenizer", None)
        if post is not None and isinstance(getattr(post, "_re", None), list):
            tokenizer._post_tokenizer = _Fast13aPost(post)
        return tokenizer
    if name == "intl":
        from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

        return TokenizerV14International()
    if name == "none":
        from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer

        return NoneTokenizer()
    raise MetricError(f"unknown tokenizer {name!r}; valid: {', '.join(TOKENIZERS)}")


def tokenize(text: str, tokenizer: str, lowercase: bool) -> list[str]:
    """sacrebleu's BLEU preprocessing: lowercase, rstrip, tokenize, split."""
    if lowercase:
        text = text.lower()
    return sacrebleu_tokenizer(tokenizer)(text.rstrip()).split()


def require_references(data: ScoringInput, metric: str) -> None:
    """Every segment needs at least one reference (possibly empty) to be scored."""
    for i in range(data.n_segments):
        if all(stream[i] is None for stream in data.references):
            raise MetricError(f"{metric}: segment {i + 1} has no reference")
