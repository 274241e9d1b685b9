"""Word overlap between candidate and reference, for highlighting."""

from __future__ import annotations

from mtworkbench.core.overlap import word_overlap


def spans_text(text: str, spans: list[tuple[int, int]]) -> list[str]:
    return [text[a:b] for a, b in spans]


def test_overlap_spans_in_both_strings():
    cand = "The cat sat on the mat."
    ref = "A cat was on the mat"
    ov = word_overlap(cand, ref)
    # "the" occurs once in the reference: only the candidate's first "The" is lit.
    assert ov.candidate_spans == [(0, 3), (4, 7), (12, 14), (19, 22)]
    assert spans_text(cand, ov.candidate_spans) == ["The", "cat", "on", "mat"]
    assert ov.reference_spans == [(2, 5), (10, 12), (13, 16), (17, 20)]
    assert (ov.matched, ov.candidate_words, ov.reference_words) == (4, 6, 6)


def test_case_sensitive_punctuation_and_inner_hyphens():
    ov = word_overlap("Well-known, don't!", "well-known , dont", case_sensitive=True)
    assert ov.candidate_spans == [] and ov.reference_spans == []
    ov = word_overlap("Well-known, don't!", "well-known , don't")
    assert spans_text("Well-known, don't!", ov.candidate_spans) == ["Well-known", "don't"]
    assert spans_text("well-known , don't", ov.reference_spans) == ["well-known", "don't"]


def test_non_ascii_and_empty():
    ov = word_overlap("Größe über alles", "über die Größe")
    assert spans_text("Größe über alles", ov.candidate_spans) == ["Größe", "über"]
    assert word_overlap("", "x").candidate_spans == []
