"""Counts in messages: "1 reference", "3 references", "2 entities", never "1 references"."""

from __future__ import annotations


def plural(n: int, word: str) -> str:
    """``n`` and ``word`` (an English noun in the singular), its plural when n is not 1."""
    if n == 1:
        return f"1 {word}"
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        return f"{n} {word[:-1]}ies"
    if word.endswith(("s", "x", "ch", "sh")):
        return f"{n} {word}es"
    return f"{n} {word}s"
