"""A table of ratings, one per row: ``rater,item,value`` (CSV, or TSV by extension or a tab in the header).

Any rater may rate any subset of the items; an empty value (or NA) is a missing rating. Each rater
rates an item at most once: a second row for the same pair is refused, naming both lines.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.spreadsheet import restore
from mtworkbench.io.judgments.judgments import numbered_rows

REQUIRED = ("rater", "item", "value")
MISSING = frozenset({"", "na", "n/a", "nan"})


def read_ratings_rows(path: str | Path) -> list[tuple[str, str, str | None]]:
    """(rater, item, value) per data row; value None where missing. Errors name file, line and column."""
    from mtworkbench.io.corpora.plaintext import read_text

    text = read_text(path, strip_bom=True)
    first = text.split("\n", 1)[0]
    delimiter = "\t" if str(path).lower().endswith(".tsv") or "\t" in first else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        header = [h.strip().lower() for h in next(reader, [])]
    except csv.Error as exc:
        raise DataError(f"{path}:1: {exc}") from None
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise DataError(f"{path}:1: the header needs the columns rater, item and value; missing: "
                        f"{', '.join(missing)} (found: {', '.join(header) or 'nothing'})")
    where = {c: header.index(c) for c in REQUIRED}
    rows: list[tuple[str, str, str | None]] = []
    seen: dict[tuple[str, str], int] = {}
    for start, fields in numbered_rows(reader, path, len(header)):
        rater = restore(fields[where["rater"]].strip())
        item = restore(fields[where["item"]].strip())
        value = restore(fields[where["value"]].strip())
        for column, cell in (("rater", rater), ("item", item)):
            if not cell:
                raise DataError(f"{path}:{start}, column {column!r}: must not be empty")
        if (rater, item) in seen:
            raise DataError(f"{path}:{start}: rater {rater!r} rated item {item!r} already on line "
                            f"{seen[rater, item]}; a rater gives an item one value")
        seen[rater, item] = start
        rows.append((rater, item, None if value.lower() in MISSING else value))
    if not rows:
        raise DataError(f"{path}: no ratings (expected rows of rater, item, value after the header)")
    return rows
