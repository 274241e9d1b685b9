"""MUC-7 inline SGML entity tags, one segment per line:

    <ENAMEX TYPE="PERSON">Jacques Chirac</ENAMEX> visited <ENAMEX TYPE="LOCATION">Bonn</ENAMEX>

ENAMEX (PERSON, ORGANIZATION, LOCATION), TIMEX (DATE, TIME) and NUMEX (MONEY,
PERCENT) elements carry a TYPE attribute; other attributes (STATUS, ALT, MIN)
are read and ignored. The tag-free text is what metrics see; ``&amp;``,
``&lt;``, ``&gt;``, ``&quot;`` and ``&apos;`` are decoded, any other ``&`` and a
``<`` that does not start a tag are literal. Writing escapes ``&``, ``<`` and
``>``. Tags may not nest (entity spans may not overlap). Any type may be
written; DATE and TIME go in TIMEX, MONEY and PERCENT in NUMEX, others in ENAMEX.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.scoring_input import EntityMention
from mtworkbench.core.text_display import clip
from mtworkbench.io.annotations.entity_records import (
    AnnotatedText,
    FormatError,
    check_graphemes,
    check_mentions,
    check_one_line,
    read_utf8,
    split_lines,
)

ELEMENTS = ("ENAMEX", "TIMEX", "NUMEX")
_ELEMENT_OF_TYPE = {"DATE": "TIMEX", "TIME": "TIMEX", "MONEY": "NUMEX", "PERCENT": "NUMEX"}
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}

_ENTITY_RE = re.compile(r"&(amp|lt|gt|quot|apos);")
_TAG_START_RE = re.compile(r"</?[A-Za-z]")
_TAG_RE = re.compile(r"<(/?)([A-Za-z][\w.-]*)([^<>]*)>")
_ATTR_RE = re.compile(r"\s+([A-Za-z][\w.-]*)\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'>]+)")


def element_for(entity_type: str) -> str:
    return _ELEMENT_OF_TYPE.get(entity_type.upper(), "ENAMEX")


def parse_inline(line: str) -> tuple[str, list[EntityMention]]:
    """Tag-free text and the mentions (offsets into that text) of one tagged line.

    Malformed markup raises :class:`FormatError` naming the 1-based column.
    """
    out: list[str] = []
    length = 0  # characters of tag-free text so far
    mentions: list[EntityMention] = []
    open_tag: tuple[str, str, int, int] | None = None  # element, type, text start, column
    pos, n = 0, len(line)
    while pos < n:
        lt = line.find("<", pos)
        amp = line.find("&", pos)
        nxt = min(x for x in (lt, amp, n) if x >= 0)
        if nxt > pos:
            out.append(line[pos:nxt])
            length += nxt - pos
            pos = nxt
            continue
        if line[pos] == "&":
            m = _ENTITY_RE.match(line, pos)
            char = _ENTITIES[m.group(1)] if m else "&"
            out.append(char)
            length += 1
            pos = m.end() if m else pos + 1
            continue
        # line[pos] == "<"
        if not _TAG_START_RE.match(line, pos):
            out.append("<")
            length += 1
            pos += 1
            continue
        column = pos + 1
        tag = _TAG_RE.match(line, pos)
        if tag is None:
            raise FormatError("tag is not closed with '>'", column=column)
        closing, name, attrs = tag.group(1) == "/", tag.group(2).upper(), tag.group(3)
        if name not in ELEMENTS:
            raise FormatError(
                f"unknown tag <{tag.group(1)}{tag.group(2)}>; expected ENAMEX, TIMEX or NUMEX",
                column=column,
            )
        if closing:
            if attrs.strip():
                raise FormatError(f"closing tag </{name}> cannot have attributes", column=column)
            if open_tag is None:
                raise FormatError(f"</{name}> closes no open tag", column=column)
            if open_tag[0] != name:
                raise FormatError(
                    f"</{name}> closes <{open_tag[0]}> opened at column {open_tag[3]}", column=column
                )
            if length == open_tag[2]:
                raise FormatError(f"empty <{name}> entity (opened at column {open_tag[3]})", column=column)
            mentions.append(EntityMention(open_tag[2], length, open_tag[1]))
            open_tag = None
        else:
            if open_tag is not None:
                raise FormatError(
                    f"<{name}> inside <{open_tag[0]}> opened at column {open_tag[3]}: "
                    "nested entities are not supported",
                    column=column,
                )
            open_tag = (name, _entity_type(attrs, name, column), length, column)
        pos = tag.end()
    if open_tag is not None:
        raise FormatError(f"<{open_tag[0]}> is not closed by the end of the line", column=open_tag[3])
    return "".join(out), mentions


def _entity_type(attrs: str, name: str, column: int) -> str:
    values: dict[str, str] = {}
    pos = 0
    stripped_end = len(attrs.rstrip())
    while pos < stripped_end:
        m = _ATTR_RE.match(attrs, pos)
        if m is None:
            raise FormatError(
                f"malformed attributes in <{name}>: {attrs[pos:].strip()!r}",
                column=column + 1 + len(name) + pos + 1,
            )
        value = m.group(2)
        if value[:1] in ("'", '"'):
            value = value[1:-1]
        values[m.group(1).upper()] = _ENTITY_RE.sub(lambda e: _ENTITIES[e.group(1)], value)
        pos = m.end()
    entity_type = values.get("TYPE", "").strip()
    if not entity_type:
        raise FormatError(f"<{name}> needs a TYPE attribute", column=column)
    return entity_type


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _type_attribute(entity_type: str) -> str:
    """The TYPE attribute's value, escaped so that it reads back as ``entity_type``; a type the
    reader would change (blank, spaces at either end, a line break) is refused, naming it."""
    if not entity_type.strip() or entity_type != entity_type.strip() or any(c in entity_type for c in "\n\r"):
        raise DataError(f"entity type {clip(entity_type)} cannot be written in MUC (a TYPE attribute is "
                        "read without spaces at its ends and within one line); rename the type")
    return _escape(entity_type).replace('"', "&quot;")


def format_inline(text: str, mentions: Sequence[EntityMention]) -> str:
    """One line of MUC-7 inline SGML: ``text`` with ``mentions`` tagged."""
    check_mentions(AnnotatedText(text, list(mentions)))
    parts: list[str] = []
    pos = 0
    for m in sorted(mentions, key=lambda m: m.start):
        element = element_for(m.type)
        type_attr = _type_attribute(m.type)
        parts.append(_escape(text[pos : m.start]))
        parts.append(f'<{element} TYPE="{type_attr}">{_escape(text[m.start : m.end])}</{element}>')
        pos = m.end
    parts.append(_escape(text[pos:]))
    return "".join(parts)


def read_muc(path: str | Path) -> list[AnnotatedText]:
    """One record per line of a MUC-7 inline file."""
    records = []
    for lineno, line in enumerate(split_lines(read_utf8(path)), 1):
        try:
            text, mentions = parse_inline(line)
        except FormatError as exc:
            raise exc.at(path, lineno) from None
        record = AnnotatedText(text, mentions, line=lineno)
        check_graphemes(record, path)
        records.append(record)
    return records


def write_muc(path: str | Path, records: Sequence[AnnotatedText]) -> None:
    from mtworkbench.core.output import write_output

    check_one_line(records, "one MUC line")
    write_output(path, "".join(format_inline(r.text, r.mentions) + "\n" for r in records))
