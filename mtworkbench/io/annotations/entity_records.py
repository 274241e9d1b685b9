"""What the entity-annotation formats (MUC, CoNLL, brat, JSONL) read and write:
a text with its entity mentions, plus errors that point at file, line and column."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtworkbench.core.errors import DataError
from mtworkbench.core.scoring_input import EntityMention


@dataclass
class AnnotatedText:
    """One segment's text and its entity mentions (character offsets into ``text``).

    ``segment`` is the segment id where the format carries one (JSONL), else None
    (the record's position gives the segment). ``line`` is where the record
    starts in its file, for error messages.
    """

    text: str
    mentions: list[EntityMention] = field(default_factory=list)
    segment: str | None = None
    line: int = 0


class FormatError(DataError):
    """Malformed annotation input; the message names file, line and column."""

    def __init__(self, message: str, file: str | Path | None = None, line: int | None = None, column: int | None = None):
        self.file = None if file is None else str(file)
        self.line = line
        self.column = column
        self.detail = message
        where = []
        if file is not None:
            where.append(str(file))
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column {column}")
        super().__init__(", ".join(where) + (": " if where else "") + message)

    def at(self, file: str | Path | None = None, line: int | None = None, column_offset: int = 0) -> FormatError:
        """The same error placed in a file (and line), columns shifted by ``column_offset``."""
        column = None if self.column is None else self.column + column_offset
        return FormatError(
            self.detail,
            file if file is not None else self.file,
            line if line is not None else self.line,
            column,
        )


def read_utf8(path: str | Path) -> str:
    """A file's text; invalid UTF-8 is refused with its line and column."""
    from mtworkbench.core.files import read_regular_bytes
    from mtworkbench.io.corpora.plaintext import check_line_text, check_not_utf16_32

    data = read_regular_bytes(path)
    check_not_utf16_32(data, path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        line = data.count(b"\n", 0, exc.start) + 1
        column = len(data[line_start : exc.start].decode("utf-8", errors="replace")) + 1
        raise FormatError(f"invalid UTF-8 byte 0x{data[exc.start]:02x}", path, line, column) from None
    check_line_text(text, path)
    return text[1:] if text.startswith("\ufeff") else text


def split_lines(text: str) -> list[str]:
    """Lines without their LF / CRLF ending; a final newline ends the last line."""
    if text == "":
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def check_mentions(record: AnnotatedText, file: str | Path | None = None) -> None:
    """Mentions must lie inside the text, be non-empty and not overlap."""
    previous: EntityMention | None = None
    for m in sorted(record.mentions, key=lambda m: (m.start, m.end)):
        if not (0 <= m.start < m.end <= len(record.text)):
            raise FormatError(
                f"entity {m.start}-{m.end} lies outside the text (0-{len(record.text)})",
                file,
                record.line or None,
            )
        if previous is not None and m.start < previous.end:
            raise FormatError(
                f"entity {m.start}-{m.end} overlaps entity {previous.start}-{previous.end}",
                file,
                record.line or None,
            )
        previous = m


@dataclass(frozen=True)
class MentionLink:
    """A typed, directed relation between two mentions of a file, each named by
    (record index, mention index)."""

    source: tuple[int, int]
    target: tuple[int, int]
    type: str
    origin: Any = None  # its id and line in a standoff file (``core.records.FileOrigin``)


def mention_parts(m: EntityMention) -> tuple[tuple[int, int], ...]:
    return m.fragments or ((m.start, m.end),)


def check_ranges(record: AnnotatedText, file: str | Path | None = None) -> None:
    """Mentions (and their fragments) must lie inside the text and be non-empty;
    they may nest and overlap (the project's layer decides whether it takes them)."""
    for m in record.mentions:
        previous_end = -1
        for a, b in mention_parts(m):
            if not (0 <= a < b <= len(record.text)) or a <= previous_end:
                raise FormatError(
                    f"entity {a}-{b} is empty, out of order or outside the text (0-{len(record.text)})",
                    file,
                    record.line or None,
                )
            previous_end = b


def grapheme_cut(text: str, offsets: Sequence[int]) -> int | None:
    """The first of ``offsets`` that falls inside a user-perceived character (a letter and
    its combining accents, an emoji sequence, a Hangul syllable in jamo); None when all
    lie on grapheme boundaries. A span ending inside ``e`` + U+0301 would cut the accent off."""
    import regex

    inside = [k for k in offsets if 0 < k < len(text)]
    if not inside:
        return None
    bounds = {m.end() for m in regex.finditer(r"\X", text)}
    return next((k for k in inside if k not in bounds), None)


def check_graphemes(record: AnnotatedText, file: str | Path | None = None) -> None:
    """An imported mention must start and end between user-perceived characters: it is
    refused (naming its offsets) rather than silently moved, since which way to move it
    is the annotator's call."""
    import regex

    for m in record.mentions:
        cut = grapheme_cut(record.text, [k for part in mention_parts(m) for k in part])
        if cut is not None:
            k = cut
            while k > 0 and grapheme_cut(record.text, (k,)) is not None:
                k -= 1
            found = regex.match(r"\X", record.text[k:])
            cluster = found.group() if found else ""
            raise FormatError(
                f"entity {m.start}-{m.end} cuts the character {cluster!r} at offset {cut} (a letter with "
                f"its combining marks, or one emoji); expected offsets between whole characters "
                f"({k} or {k + len(cluster)})",
                file,
                record.line or None,
            )


def check_one_line(records: Sequence[AnnotatedText], what: str) -> None:
    """Line-based formats cannot hold a text with a line break."""
    for i, r in enumerate(records, 1):
        if "\n" in r.text or "\r" in r.text:
            label = f"segment {r.segment}" if r.segment else f"record {i}"
            raise DataError(f"{label} contains a line break and cannot be written as {what}")
