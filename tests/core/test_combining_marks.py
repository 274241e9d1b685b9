"""The combining-mark table used at start-up is exactly what a pass over Unicode finds."""

from __future__ import annotations

import unicodedata

import pytest

from mtworkbench.core import combining_marks, text


def test_the_table_matches_a_pass_over_the_unicode_database():
    if combining_marks.UNICODE_VERSION != unicodedata.unidata_version:
        pytest.skip(f"the table is of Unicode {combining_marks.UNICODE_VERSION}, Python has {unicodedata.unidata_version}")
    assert text._known_mark_ranges() == text._mark_ranges()
    assert text.COMBINING_MARKS == text._mark_ranges()


def test_words_keep_their_marks_in_every_script():
    # Arabic harakat, Devanagari vowel signs, a Latin accent in NFD, a Hebrew point.
    for word in ("مُحَمَّد", "किताब", unicodedata.normalize("NFD", "Größe"), "שָׁלוֹם"):
        assert text.WORD_RE.fullmatch(word), word
    assert [m.group() for m in text.TOKEN_RE.finditer("dell'Italia 東京。")] == ["dell", "'", "Italia", "東京", "。"]


def test_another_unicode_version_falls_back_to_the_pass(monkeypatch):
    monkeypatch.setattr(combining_marks, "UNICODE_VERSION", "0.0.0")
    assert text._known_mark_ranges() is None
