"""Shared text preparation for the word-level metrics: lowercasing and
sacrebleu's tokenizers, so that tokens are identical to sacrebleu's.

The 13a tokenizer restates sacrebleu 2.6's ``Tokenizer13a`` with the same
patterns, applied faster (a ``str.replace`` per punctuation character present, callable
replacements, patterns skipped when they cannot match; tokenization is most of
BLEU's time) and without importing sacrebleu. tests/metrics/test_tokens.py
checks the output equals sacrebleu's on random and real text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache, partial
from typing import Any

from mtworkbench.metrics.base import MetricError

TOKENIZERS: tuple[str, ...] = ("13a", "intl", "none", "zh", "ja-mecab", "ko-mecab")



# Characters without which a pattern of sacrebleu's 13a post-tokenizer cannot
# match (keyed by the pattern text, so a changed sacrebleu pattern is simply
# always applied).
_TRIGGERS = {
    r"([^0-9])([\.,])": ".,",
    r"([\.,])([^0-9])": ".,",
    r"([0-9])(-)": "-",
}
# what sends a line down the full 13a path (_Fast13aPost.__call__)
_DIGIT_OR_ADJACENT_STOPS = re.compile(r"[0-9]|[.,][.,]")
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


# sacrebleu 2.6's 13a post-tokenizer patterns (sacrebleu.tokenizers.tokenizer_re),
# with their replacement templates. Compiled here so that the BLEU path need not
# import sacrebleu (its package import alone costs a BLEU run 10-20%).
_13A_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"([\{-\~\[-\` -\&\(-\+\:-\@\/])", r" \1 "),
    (r"([^0-9])([\.,])", r"\1 \2 "),
    (r"([\.,])([^0-9])", r" \1 \2"),
    (r"([0-9])(-)", r"\1 \2 "),
)


def _single_char_table(pattern: re.Pattern[str], template: str) -> dict[int, str] | None:
    """A ``str.translate`` table equal to ``pattern.sub(template, ...)`` when the
    pattern is one ASCII character class in a group and the template pads that
    group with literals (sacrebleu's punctuation step); None otherwise."""
    text = pattern.pattern
    if not (text.startswith("([") and text.endswith("])") and pattern.groups == 1 and pattern.flags == re.UNICODE):
        return None
    # ASCII characters and escaped punctuation only, not negated: it matches ASCII only
    if text.startswith("([^") or not text.isascii() or re.search(r"\\[A-Za-z0-9]", text):
        return None
    func = _template_function(template)
    if func is None:
        return None
    table = {}
    for code in range(128):
        match = pattern.fullmatch(chr(code))
        if match:
            table[code] = func(match)
    return table


def _padding_pairs(table: dict[int, str]) -> tuple[tuple[str, str], ...]:
    """The table's (character, replacement) pairs, less a whitespace character
    replaced by whitespace only: the later 13a patterns never match whitespace
    in a group they consume in place of a neighbour, and the final
    ``" ".join(line.split())`` drops the extra spaces, so skipping it changes
    nothing (tests/metrics/test_tokens_fast_path.py checks against sacrebleu)."""
    pairs = tuple(
        (chr(code), text)
        for code, text in table.items()
        if not (chr(code).isspace() and text.isspace())
    )
    # replacing one character after another equals one pass only when no
    # replacement holds another replaced character
    chars = {char for char, _ in pairs}
    if any(set(text) & (chars - {char}) for char, text in pairs):
        raise ValueError("13a punctuation replacements overlap")
    return pairs


def _replace_each(pairs: tuple[tuple[str, str], ...], line: str) -> str:
    """``line`` with every character of ``pairs`` replaced; a ``str.replace``
    per character the line contains beats ``str.translate``'s per-character
    dictionary look-up about tenfold (these characters are rare in text)."""
    for char, text in pairs:
        if char in line:
            line = line.replace(char, text)
    return line


class _Fast13aPost:
    """sacrebleu's 13a post-tokenizer (``TokenizerRegexp``): the punctuation step
    as ``str.replace`` calls (it pads every match of a one-character class), the
    others with callable replacements (Python 3.11 expands template strings in
    Python, match by match), each skipped when the line lacks the character it
    needs. Same output, several times faster."""

    def __init__(self, original: Any = None) -> None:
        pairs = original._re if original is not None else [(re.compile(p), t) for p, t in _13A_PATTERNS]
        self._steps: list[tuple[re.Pattern[str], Callable[[str], str], str | None]] = []
        for pattern, template in pairs:
            table = _single_char_table(pattern, template)
            if table is not None:
                step: Callable[[str], str] = partial(_replace_each, _padding_pairs(table))
            else:
                step = partial(pattern.sub, _template_function(template) or template)
            self._steps.append((pattern, step, _TRIGGERS.get(pattern.pattern)))
        # Lines with no ASCII digit and no two adjacent periods/commas (most
        # lines of prose): sacrebleu's patterns 2-4 then just pad every period
        # and comma, as two str.replace calls do; only for sacrebleu's own patterns.
        self._no_digit_path = [(p.pattern, t) for p, t in pairs] == list(_13A_PATTERNS)

    def __call__(self, line: str) -> str:
        if self._no_digit_path and _DIGIT_OR_ADJACENT_STOPS.search(line) is None:
            line = self._steps[0][1](line)
            return " ".join(line.replace(".", " . ").replace(",", " , ").split())
        for _pattern, step, trigger in self._steps:
            if trigger is None or any(c in line for c in trigger):
                line = step(line)
        return " ".join(line.split())


class _Tokenizer13a:
    """sacrebleu 2.6's ``Tokenizer13a`` (mteval-v13a's tokenization), restated
    without importing sacrebleu; tests/metrics/test_tokens.py checks equal output."""

    def __init__(self) -> None:
        self._post_tokenizer = _Fast13aPost()
        self._cached = lru_cache(maxsize=2**16)(self._tokenize)

    def __call__(self, line: str) -> str:
        return self._cached(line)

    def _tokenize(self, line: str) -> str:
        line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
        if "&" in line:
            line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
        return self._post_tokenizer(f" {line} ")

    def signature(self) -> str:
        return "13a"


@cache
def sacrebleu_tokenizer(name: str) -> Callable[[str], str]:
    """sacrebleu's tokenizer ``name`` (``13a``, ``intl`` or ``none``)."""
    if name == "13a":
        return _Tokenizer13a()
    if name == "intl":
        from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

        return TokenizerV14International()
    if name == "none":
        from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer

        return NoneTokenizer()
    # imported here: core.segmenter's import builds Unicode tables (~20 ms) that
    # the 13a path of a one-shot `score --metric bleu` does not need
    from mtworkbench.core.segmenter import SEGMENTERS, segmenter

    if name in SEGMENTERS:
        return segmenter(name)  # zh, ja-mecab, ko-mecab (core.segmenter)
    raise MetricError(f"unknown tokenizer {name!r}; valid: {', '.join(TOKENIZERS)}")


def tokenizer_signature(name: str) -> str:
    """The tokenizer's name as sacrebleu's signature prints it
    (``ja-mecab-0.996-IPA``, ``ko-mecab-0.996/ko-0.9.2-KO``; others unchanged)."""
    if name in ("ja-mecab", "ko-mecab"):
        try:
            tokenizer = sacrebleu_tokenizer(name)
        except MetricError:
            return name
        from sacrebleu.tokenizers.tokenizer_base import BaseTokenizer  # the MeCab ones are, with a signature

        if isinstance(tokenizer, BaseTokenizer):
            return tokenizer.signature()
    return name


def pretokenize(text: str, tokenizer: str) -> str:
    """``text`` as a word-level metric sees it before splitting on whitespace:
    unchanged for ``none``, else sacrebleu's tokenizer output (for languages
    written without spaces: sacrebleu's ``zh``, ``ja-mecab``, ``ko-mecab``)."""
    if tokenizer == "none":
        return text
    return sacrebleu_tokenizer(tokenizer)(text.rstrip())


def tokenize(text: str, tokenizer: str, lowercase: bool) -> list[str]:
    """sacrebleu's BLEU preprocessing: lowercase, rstrip, tokenize, split."""
    if lowercase:
        text = text.lower()
    return sacrebleu_tokenizer(tokenizer)(text.rstrip()).split()
