"""brat standoff: ``NAME.txt`` holds the text, one segment per line, and
``NAME.ann`` one text-bound annotation per line, offsets into the whole file:

    T1<TAB>PERSON 0 14<TAB>Jacques Chirac

Only text-bound (``T``) annotations are entities; relations, events, notes and
attributes (R, E, A, M, N, ``#`` lines) are skipped. Discontinuous spans
(``0 5;9 14``) and spans that cross a line break are refused.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.io.annotations.entity_records import (
    AnnotatedText,
    FormatError,
    check_graphemes,
    check_mentions,
    check_one_line,
    read_utf8,
    split_lines,
)
from mtworkbench.core.scoring_input import EntityMention

_T_RE = re.compile(r"T[^\t ]*\t(\S+) (\d+) (\d+)\t(.*)$")


def brat_paths(path: str | Path) -> tuple[Path, Path]:
    """(.txt, .ann) for a path naming either file or their common stem."""
    p = Path(path)
    base = p.with_suffix("") if p.suffix in (".txt", ".ann") else p
    return base.with_name(base.name + ".txt"), base.with_name(base.name + ".ann")


def read_brat(path: str | Path) -> list[AnnotatedText]:
    txt_path, ann_path = brat_paths(path)
    if not txt_path.is_file():
        raise DataError(f"{txt_path}: brat text file not found (it goes with {ann_path.name})")
    raw = read_utf8(txt_path)
    # Offsets count every character of the .txt file, line ends included.
    line_starts = [0] + [i + 1 for i, ch in enumerate(raw) if ch == "\n"]
    if raw.endswith("\n"):
        line_starts.pop()
    texts = split_lines(raw)
    records = [AnnotatedText(t, [], line=i) for i, t in enumerate(texts, 1)]
    if not ann_path.is_file():
        raise DataError(f"{ann_path}: brat annotation file not found")
    for lineno, line in enumerate(split_lines(read_utf8(ann_path)), 1):
        if not line.startswith("T"):
            if line.strip() and line[0] not in "REAMN#*":
                raise FormatError(f"unknown annotation kind {line.split()[0]!r}", ann_path, lineno, 1)
            continue
        m = _T_RE.match(line)
        if m is None:
            fields = line.split("\t")
            if len(fields) >= 2 and ";" in fields[1]:
                column = len(fields[0]) + 1 + fields[1].find(";") + 1
                raise FormatError("discontinuous entity spans are not supported", ann_path, lineno, column)
            column = 1 if len(fields) < 2 else len(fields[0]) + 2
            raise FormatError(
                "expected 'T<id><TAB><type> <start> <end><TAB><text>'", ann_path, lineno, column
            )
        entity_type, start, end, surface = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
        start_col = m.start(2) + 1
        if not start < end <= len(raw):
            raise FormatError(f"span {start}-{end} is empty or outside the text ({len(raw)} characters)", ann_path, lineno, start_col)
        seg = bisect.bisect_right(line_starts, start) - 1
        seg_start = line_starts[seg]
        if end > seg_start + len(texts[seg]):
            raise FormatError(f"span {start}-{end} crosses the end of line {seg + 1} of {txt_path.name}", ann_path, lineno, start_col)
        if raw[start:end] != surface:
            raise FormatError(
                f"the annotation text {surface!r} differs from the text at {start}-{end} ({raw[start:end]!r})",
                ann_path,
                lineno,
                m.start(4) + 1,
            )
        records[seg].mentions.append(EntityMention(start - seg_start, end - seg_start, entity_type))
    for r in records:
        r.mentions.sort(key=lambda x: x.start)
        try:
            check_mentions(r)
            check_graphemes(r)
        except FormatError as exc:
            raise FormatError(f"{exc.detail} (segment on line {r.line} of {txt_path.name})", ann_path) from None
    return records


def format_brat(records: Sequence[AnnotatedText]) -> tuple[str, str]:
    """(.txt text, .ann text) for records, one segment per line."""
    check_one_line(records, "one line of a brat .txt file")
    txt_parts, ann_lines = [], []
    offset, n = 0, 0
    for r in records:
        check_mentions(r)
        for m in sorted(r.mentions, key=lambda m: m.start):
            if not m.type or any(ch.isspace() for ch in m.type):
                raise DataError(f"entity type {m.type!r} cannot be written in brat (it contains whitespace)")
            n += 1
            ann_lines.append(f"T{n}\t{m.type} {offset + m.start} {offset + m.end}\t{r.text[m.start:m.end]}\n")
        txt_parts.append(r.text + "\n")
        offset += len(r.text) + 1
    return "".join(txt_parts), "".join(ann_lines)


def write_brat(path: str | Path, records: Sequence[AnnotatedText]) -> list[Path]:
    from mtworkbench.core.atomic import write_side_file
    from mtworkbench.core.output import write_output

    txt_path, ann_path = brat_paths(path)
    txt, ann = format_brat(records)
    # The file the user named is an output like any other; its companion's name is derived,
    # so a link found there is replaced, never written through.
    for file, text in ((txt_path, txt), (ann_path, ann)):
        if file == Path(path):
            write_output(file, text)
        else:
            write_side_file(file, text)
    return [txt_path, ann_path]
