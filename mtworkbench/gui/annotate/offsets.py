"""Python string offsets (code points) versus Qt text positions (UTF-16 units).

The project stores entity offsets as Python ``str`` indices; Qt's text cursor
and text layout count UTF-16 code units, which differ after any character
outside the Basic Multilingual Plane (emoji, some CJK). Texts shown in a
block must also stay one line, so line breaks are shown as spaces.
"""

from __future__ import annotations

import re

_ASTRAL = "\U00010000"
_LINE_BREAKS = str.maketrans({"\n": " ", "\r": " ", "\u2028": " ", "\u2029": " ", "\x0b": " ", "\x0c": " "})


_ANY_LINE_BREAK = re.compile("[\n\r\u2028\u2029\x0b\x0c]")


def display_text(text: str) -> str:
    """``text`` with line breaks shown as spaces (same length, so offsets hold)."""
    # Most texts have none: a search is many times quicker than ``translate`` (a page of
    # 2,000 segments is laid out in the turns after a project is shown).
    return text.translate(_LINE_BREAKS) if _ANY_LINE_BREAK.search(text) else text


def _bmp_only(text: str) -> bool:
    return not text or max(text) < _ASTRAL


def to_utf16(text: str, index: int) -> int:
    """The Qt position of Python index ``index`` in ``text``."""
    if _bmp_only(text):
        return index
    return index + sum(1 for ch in text[:index] if ch >= _ASTRAL)


def from_utf16(text: str, position: int) -> int:
    """The Python index of Qt position ``position`` in ``text`` (a position inside
    a surrogate pair rounds down to the character's start)."""
    if _bmp_only(text):
        return min(position, len(text))
    units = 0
    for i, ch in enumerate(text):
        width = 2 if ch >= _ASTRAL else 1
        if units + width > position:
            return i
        units += width
    return len(text)
