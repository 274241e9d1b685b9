"""Spreadsheet-safe table cells: a CSV/TSV cell never becomes a formula.

A spreadsheet evaluates a cell that starts with ``=``, ``+``, ``-`` or ``@``
(and, in some, after a leading tab or carriage return), so a text such as
``=HYPERLINK("http://x","y")`` in a judgment comment would run when the export
is opened (OWASP: CSV injection). ``neutralise`` prefixes such cells with an
apostrophe, which spreadsheets show as a plain-text marker; a cell that is a
number (``-1.5``, ``+3``, ``1e-4``) is left alone, and a text that already starts
with an apostrophe gets one more, so that ``restore`` (which removes exactly
one leading apostrophe) gives back every original text exactly.

The project's own readers (judgments CSV/TSV, corpus TSV) call ``restore``;
``--raw`` exports skip ``neutralise`` for pipelines that expect cells unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

QUOTE = "'"
# What a spreadsheet may evaluate when it begins a cell.
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def is_number(cell: str) -> bool:
    """A plain decimal number (what a spreadsheet reads as a value, not a formula)."""
    return _NUMBER.fullmatch(cell) is not None


def neutralise(cell: str) -> str:
    """The cell as written to a CSV/TSV a person may open in a spreadsheet."""
    if cell.startswith(QUOTE):
        return QUOTE + cell
    if cell.startswith(TRIGGERS) and not is_number(cell):
        return QUOTE + cell
    return cell


def restore(cell: str) -> str:
    """The inverse of ``neutralise``: one leading apostrophe is removed."""
    return cell[1:] if cell.startswith(QUOTE) else cell


def format_row(cells: Sequence[str], delimiter: str = ",") -> str:
    """One CSV/TSV row ending in LF; a cell is quoted when it holds the delimiter, a quote, LF or CR.

    (``csv.writer`` with an LF line terminator leaves a lone CR unquoted, which
    splits the row when it is read back.)
    """
    out = []
    for cell in cells:
        if delimiter in cell or any(c in cell for c in '"\n\r'):
            cell = '"' + cell.replace('"', '""') + '"'
        out.append(cell)
    return delimiter.join(out) + "\n"


def table_text(rows: Iterable[Sequence[object]], delimiter: str = ",", raw: bool = False) -> str:
    """CSV (or TSV with ``delimiter='\\t'``) text of the rows, every cell neutralised unless ``raw``.

    Cells are ``str()``-ed first; what the GUI's Copy TSV and Export CSV should call.
    """
    parts = []
    for row in rows:
        cells = ["" if c is None else str(c) for c in row]
        parts.append(format_row(cells if raw else [neutralise(c) for c in cells], delimiter))
    return "".join(parts)
