"""The ``<v>``/``</v>`` error markers of Google's MQM TSV, taken out and put back exactly.

A field holds at most one marked span: ``<v>`` then ``</v>``, or one of them
alone (the span then reaches the text's end or start, and an export writes the
one marker the file had). Anything else - two spans in one row, a ``</v>``
before its ``<v>``, a marker repeated, a marker inside a user-perceived character
(between a letter and its combining accent) - has no exact place in one error
and is refused with the file, line, column and character where it goes wrong.
"""

from __future__ import annotations

import re

from mtworkbench.core.errors import DataError

OPEN, CLOSE = "<v>", "</v>"
_MARKER = re.compile(r"</?v>")


def strip_markers(text: str) -> tuple[str, tuple[int | None, int | None] | None]:
    """The text without ``<v>``/``</v>`` and the marked span in it (None: no markers).

    A missing marker is None in the span (a lone ``<v>`` gives ``(start, None)``).
    Raises ValueError (with the character) where the markers mark no one span.
    """
    if OPEN not in text and CLOSE not in text:
        return text, None
    markers = list(_MARKER.finditer(text))
    kinds = [m.group() for m in markers]
    if kinds not in ([OPEN], [CLOSE], [OPEN, CLOSE]):
        i = 1 if kinds[0] == CLOSE or kinds[1] == OPEN else 2
        at = markers[i].start()
        what = f"a second {kinds[i]}" if kinds[i] in kinds[:i] else f"{kinds[i]} after {CLOSE}"
        if kinds[:i + 1] == [OPEN, CLOSE, OPEN]:
            what += " (a second marked span)"
        raise MarkerError(f"{what} at character {at + 1}; one row marks one error with one "
                          f"{OPEN}...{CLOSE} pair (another error is a row of its own)", at)
    places = []  # (offset in the text without markers, position in the field)
    removed = 0
    for m in markers:
        places.append((m.start() - removed, m.start()))
        removed += len(m.group())
    plain = _MARKER.sub("", text)
    from mtworkbench.io.annotations.entity_records import grapheme_cut

    cut = grapheme_cut(plain, [p for p, _ in places])
    if cut is not None:
        at = next(raw for p, raw in places if p == cut)
        raise MarkerError(f"the marker at character {at + 1} falls inside a character (a letter and its "
                          "combining marks, or one emoji); markers go between whole characters", at)
    start = next((p for (p, _), kind in zip(places, kinds) if kind == OPEN), None)
    end = next((p for (p, _), kind in zip(places, kinds) if kind == CLOSE), None)
    return plain, (start, end)


class MarkerError(ValueError):
    """Markers that mark no one exact span; ``offset`` is where, in the marked field."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


def field_markers(text: str, path: str, line: int, column: str) -> tuple[str, tuple[int | None, int | None] | None]:
    """``strip_markers`` with a refusal naming file, line and column."""
    try:
        return strip_markers(text)
    except MarkerError as exc:
        raise DataError(f"{path}:{line}, column {column!r}: {exc}") from None


def insert_markers(text: str, span: tuple[int | None, int | None] | None) -> str:
    if span is None or span == (None, None):
        return text
    start, end = span
    if end is not None:
        text = f"{text[:end]}{CLOSE}{text[end:]}"
    if start is not None:
        text = f"{text[:start]}{OPEN}{text[start:]}"
    return text
