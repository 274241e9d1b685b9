"""sacrebleu is pinned (pyproject.toml) because mtworkbench reaches into its
private names. Each is checked here by name, so an upgrade that moves one
fails with the attribute it lost rather than with a wrong score somewhere."""

from __future__ import annotations

import re

import pytest


def _require(owner: object, name: str, where: str) -> object:
    if not hasattr(owner, name):
        pytest.fail(f"sacrebleu no longer has {where}.{name}; mtworkbench relies on it (see the pin in pyproject.toml)")
    return getattr(owner, name)


def test_chrf_extract_corpus_statistics_is_there():
    # metrics/edit.py (chrF statistics per segment) and tests/metrics/test_bleu.py.
    from sacrebleu.metrics import BLEU, CHRF

    for cls in (CHRF, BLEU):
        method = _require(cls(), "_extract_corpus_statistics", f"sacrebleu.metrics.{cls.__name__}()")
        assert callable(method)
    rows = CHRF()._extract_corpus_statistics(["a cat"], [["a cat"]])
    assert len(rows) == 1 and len(rows[0]) == 3 * (6 + 0)  # char order 6, word order 0: (hyp, ref, match) each


def test_13a_post_tokenizer_patterns_are_there():
    # metrics/tokens.py replaces Tokenizer13a._post_tokenizer with a faster copy built from its ._re list.
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    from mtworkbench.metrics.tokens import _TRIGGERS

    post = _require(Tokenizer13a(), "_post_tokenizer", "sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a()")
    steps = _require(post, "_re", "Tokenizer13a()._post_tokenizer")
    assert isinstance(steps, list) and steps, "Tokenizer13a()._post_tokenizer._re must be a non-empty list"
    for step in steps:
        pattern, template = step
        assert isinstance(pattern, re.Pattern) and isinstance(template, str)
    # The fast copy skips a pattern on lines lacking its trigger characters, keyed by pattern text.
    missing = set(_TRIGGERS) - {pattern.pattern for pattern, _ in steps}
    assert not missing, f"Tokenizer13a()._post_tokenizer._re no longer has the patterns {sorted(missing)}"


def test_chrf_per_segment_steps_are_there():
    # metrics/edit.py: chrF prepares references once (the metric's reference cache) and scores
    # each hypothesis against them with these three steps of _extract_corpus_statistics.
    from sacrebleu.metrics import CHRF

    chrf = CHRF()
    for name in ("_preprocess_segment", "_extract_reference_info", "_compute_segment_statistics"):
        assert callable(_require(chrf, name, "sacrebleu.metrics.CHRF()"))
    prepared = chrf._extract_reference_info([chrf._preprocess_segment("a cat")])
    row = chrf._compute_segment_statistics(chrf._preprocess_segment("a cat"), prepared)
    assert list(row) == list(chrf._extract_corpus_statistics(["a cat"], [["a cat"]])[0])
