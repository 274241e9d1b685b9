"""Error spans (character offsets into the output) mapped onto a view's tokens."""

from __future__ import annotations

from mtworkbench.analysis.error_tokens import ErrorIndex, RaterSpan, token_errors, token_offsets
from mtworkbench.core.model import ErrorSpan, Judgment


def test_token_offsets_follow_the_text_in_order_ignoring_case():
    text = "The dog, the Dog."
    assert token_offsets(text, ["the", "dog", ",", "the", "dog", "."]) == [
        (0, 3), (4, 7), (7, 8), (9, 12), (13, 16), (16, 17)]


def test_a_token_not_in_the_text_is_left_unplaced():
    assert token_offsets("Hello world", ["hello", "&quot;", "world"]) == [(0, 5), None, (6, 11)]


def test_tokens_overlapping_a_span_carry_it():
    text = "Der Hund bellt laut."
    tokens = ["der", "hund", "bellt", "laut", "."]
    span = RaterSpan("r1", text.index("bellt"), text.index("laut") + 2, "Major", "Accuracy", "mqm")
    assert token_errors(text, tokens, [span]) == {2: [span], 3: [span]}


def test_index_skips_omissions_and_qc_copies():
    judgments = [
        Judgment("a", "r1", "s", "1", None, protocol="mqm",
                 errors=(ErrorSpan(0, 3, "Minor", "Fluency"), ErrorSpan(None, None, "Major", "Accuracy/Omission"))),
        Judgment("b", "r2", "s", "1", None, protocol="esa", score=50, errors=(ErrorSpan(4, None, "major"),)),
    ]
    index = ErrorIndex(judgments, {("s", "1"): "abc defgh"})
    spans = index.of("s", "1")
    assert [(x.rater, x.start, x.end) for x in spans] == [("r1", 0, 3), ("r2", 4, 9)]
    assert index.of("s", "2") == []
