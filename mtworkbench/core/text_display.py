"""Data and file names quoted in messages: always printable, never unbounded.

A message quotes what it refuses so the user can find it, but a megabyte-long
token must not become a megabyte-long error line, and a file name whose bytes
are not UTF-8 (from another system) must not make the message itself fail.
"""

from __future__ import annotations

import os
from pathlib import Path

CLIP = 80


def clip(text: str, limit: int = CLIP) -> str:
    """``repr`` of ``text`` cut after ``limit`` characters, saying how many more there were."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}…({len(text) - limit} more)"


def shown(path: str | Path | bytes) -> str:
    """A path as text that can always be printed: bytes that are not UTF-8 appear as
    ``\\xff`` escapes instead of failing the message with a codec error."""
    raw = path if isinstance(path, bytes) else os.fsencode(path)
    return raw.decode("utf-8", "backslashreplace")


def first_difference(expected: str, found: str, context: int = 20) -> str:
    """Where two texts first differ, in words: the character offset and a short snippet of
    each from just before that place (both texts may share a long prefix)."""
    k = next((i for i, (a, b) in enumerate(zip(expected, found)) if a != b), min(len(expected), len(found)))
    start = max(0, k - context // 2)

    def snippet(text: str) -> str:
        part = text[start:k + context]
        if not part:
            return "(the end of the text)"
        return ("…" if start else "") + repr(part) + ("…" if k + context < len(text) else "")

    return f"at character {k + 1}: expected {snippet(expected)}, found {snippet(found)}"


def file_name_text(name: str | Path) -> str:
    """A file name as text to store and use as a file name again: bytes that are not UTF-8
    become U+FFFD (a character every file system takes, unlike the backslash of ``shown``)."""
    raw = os.fsencode(name)
    return raw.decode("utf-8", "replace")
