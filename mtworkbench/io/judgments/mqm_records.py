"""The records of Google's MQM TSV: raw tab-separated lines, or csv-quoted fields.

Most releases are raw text with no quoting, where a text may start with or contain
``"``; the newstest2020 releases quote fields the way Python's csv module does. A
file is read as quoted only when every field that starts with ``"`` is such a
well-formed quoted field, or when every field is in quotes (csv's QUOTE_ALL).
"""

from __future__ import annotations

import csv
import io


def _well_quoted(value: str) -> bool:
    """A field as csv's minimal quoting writes it: wrapped in quotes, its own quotes
    doubled, and quoted because it has one (so a raw ``"Thank you."`` is not)."""
    inner = value[1:-1]
    return len(value) >= 2 and value[0] == '"' and value[-1] == '"' and '""' in inner \
        and '"' not in inner.replace('""', "")


def split_records(text: str, path: str) -> tuple[list[tuple[int, list[str]]], str]:
    """(line number, fields) per non-empty record, and the file's quoting: ``""`` (raw
    text), ``"csv"`` (csv's minimal quoting) or ``"csv-all"`` (every field quoted)."""
    lines = text.split("\n")
    raw = [(i, line[:-1] if line.endswith("\r") else line) for i, line in enumerate(lines, 1)]
    records = [(i, line.split("\t")) for i, line in raw if line.strip()]
    if records:
        records[0] = (records[0][0], _header_without_notes(records[0][1]))
    starting = [f for _, fields in records for f in fields if f.startswith('"')]
    ragged = not _even(records)
    every = bool(records) and len(starting) == sum(len(fields) for _, fields in records) \
        and all(len(f) >= 2 and f.endswith('"') for f in starting)
    if starting and (every or all(_well_quoted(f) for f in starting) or ragged):
        quoted = _csv_records(text)
        if quoted is not None and _even(quoted):
            return quoted, "csv-all" if every else "csv"
    return records, ""


def _even(records: list[tuple[int, list[str]]]) -> bool:
    """Every row one width, and the header that width or one less (a last column the
    header does not name, as in Unbabel's files)."""
    if not records:
        return True
    widths = {len(fields) for _, fields in records[1:]}
    if not widths:
        return True
    if len(widths) > 1:
        return False
    width = widths.pop()
    return len(records[0][1]) in (width, width - 1)


def _header_without_notes(header: list[str]) -> list[str]:
    """The header without trailing ``# ...`` fields: the 2023 side-by-side releases end
    the header with a ``# Documentation: URL`` note that no row has a field for."""
    names = list(header)
    while len(names) > 1 and names[-1].lstrip().startswith("#"):
        names.pop()
    return names


def _csv_records(text: str) -> list[tuple[int, list[str]]] | None:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t", quotechar='"', strict=True)
    out: list[tuple[int, list[str]]] = []
    line = 0
    try:
        for fields in reader:
            start = line + 1
            line = reader.line_num
            if fields and any(f.strip() for f in fields):
                out.append((start, _header_without_notes(fields) if not out else fields))
    except csv.Error:
        return None
    return out
