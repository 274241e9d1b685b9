"""brat standoff: ``NAME.txt`` holds the text, one segment per line, and
``NAME.ann`` one annotation per line, character offsets into the whole file:

    T1<TAB>PERSON 0 14<TAB>Jacques Chirac
    T2<TAB>ORG 20 25;31 38<TAB>Paris Council
    R1<TAB>part-of Arg1:T2 Arg2:T1

Text-bound (``T``) annotations become spans: they may nest and overlap, and a
discontinuous one lists its fragments separated by ``;`` (its text is the
fragments' texts joined by one space, as brat writes it). Relations (``R``) between
two text-bound annotations become relations, the first argument the source.
A span that crosses a line break is refused: a segment is a line.

Each span and relation keeps its id and line (``core.records.FileOrigin``), and the
attribute, normalisation and note lines (A, M, N, ``#``) about it, so writing the file
back keeps its ids and its lines in their order, as brat and INCEpTION users expect: a
round trip is diff-clean. Annotations made since get fresh ids after the highest of
their kind, and their lines follow the kept ones; the notes of a deleted span go with
it. Events and equivalences (E, ``*`` lines) are read past and not written back.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.records import FileOrigin
from mtworkbench.core.scoring_input import EntityMention
from mtworkbench.io.annotations.entity_records import (
    AnnotatedText,
    FormatError,
    MentionLink,
    check_graphemes,
    check_one_line,
    check_ranges,
    mention_parts,
    read_utf8,
    split_lines,
)

_T_RE = re.compile(r"(T[^\t ]*)\t(\S+) (\d+ \d+(?:;\d+ \d+)*)\t(.*)$")
_R_RE = re.compile(r"(R[^\t ]*)\t(\S+) ([^\s:]+):(T\S*) ([^\s:]+):(T\S*)\s*(?:\t.*)?$")
# Attribute, modification, normalisation and note lines name the annotation they are about
# as the second word: "A1<TAB>Negation T3", "#1<TAB>AnnotatorNotes T3<TAB>text".
_NOTE_KINDS = "AMN#"


def brat_paths(path: str | Path) -> tuple[Path, Path]:
    """(.txt, .ann) for a path naming either file or their common stem."""
    p = Path(path)
    base = p.with_suffix("") if p.suffix in (".txt", ".ann") else p
    return base.with_name(base.name + ".txt"), base.with_name(base.name + ".ann")


def read_brat(path: str | Path) -> list[AnnotatedText]:
    return read_brat_with_links(path)[0]


def read_brat_with_links(path: str | Path) -> tuple[list[AnnotatedText], list[MentionLink]]:
    """The records (one per line of the .txt file) and the relations between their mentions."""
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
    where: dict[str, tuple[int, int]] = {}  # T id -> (record, mention index)
    pending: list[tuple[int, str, str, str, str, tuple[str, str]]] = []
    notes: dict[str, list[tuple[int, str]]] = {}  # annotation id -> its attribute and note lines
    for lineno, line in enumerate(split_lines(read_utf8(ann_path)), 1):
        if not line.strip():
            continue
        if line.startswith("R"):
            r = _R_RE.match(line)
            if r is None:
                raise FormatError("expected 'R<id><TAB><type> Arg1:T<id> Arg2:T<id>'", ann_path, lineno, 1)
            pending.append((lineno, r.group(1), r.group(2), r.group(4), r.group(6), (r.group(3), r.group(5))))
            continue
        if not line.startswith("T"):
            if line[0] not in "E*" + _NOTE_KINDS:
                raise FormatError(f"unknown annotation kind {line.split()[0]!r}", ann_path, lineno, 1)
            words = line.split("\t")[1].split() if line[0] in _NOTE_KINDS and "\t" in line else []
            if len(words) > 1:
                notes.setdefault(words[1], []).append((lineno, line))
            continue
        m = _T_RE.match(line)
        if m is None:
            fields = line.split("\t")
            column = 1 if len(fields) < 2 else len(fields[0]) + 2
            raise FormatError(
                "expected 'T<id><TAB><type> <start> <end><TAB><text>' (a discontinuous span: "
                "'<start> <end>;<start> <end>')", ann_path, lineno, column
            )
        tid, entity_type, offsets, surface = m.group(1), m.group(2), m.group(3), m.group(4)
        start_col = m.start(3) + 1
        parts = [tuple(int(x) for x in piece.split()) for piece in offsets.split(";")]
        for a, b in parts:
            if not a < b <= len(raw):
                raise FormatError(f"span {a}-{b} is empty or outside the text ({len(raw)} characters)",
                                  ann_path, lineno, start_col)
        shown = ";".join(f"{a}-{b}" for a, b in parts)
        seg = bisect.bisect_right(line_starts, parts[0][0]) - 1
        seg_start = line_starts[seg]
        if parts[-1][1] > seg_start + len(texts[seg]) or any(a < seg_start for a, _ in parts):
            raise FormatError(f"span {shown} crosses the end of line {seg + 1} of {txt_path.name}",
                              ann_path, lineno, start_col)
        expected = " ".join(raw[a:b] for a, b in parts)
        if surface != expected:
            raise FormatError(f"the annotation text {surface!r} differs from the text at {shown} ({expected!r})",
                              ann_path, lineno, m.start(4) + 1)
        if tid in where:
            raise FormatError(f"duplicate annotation id {tid!r}", ann_path, lineno, 1)
        local = tuple((a - seg_start, b - seg_start) for a, b in parts)
        mention = EntityMention(local[0][0], local[-1][1], entity_type, local if len(local) > 1 else (),
                                origin=FileOrigin(tid, lineno))
        where[tid] = (seg, len(records[seg].mentions))
        records[seg].mentions.append(mention)
    for tid, (seg, k) in where.items():
        if tid in notes:
            found = records[seg].mentions[k]
            records[seg].mentions[k] = replace(found, origin=replace(found.origin, notes=tuple(notes[tid])))
    links = []
    for lineno, rid, rel_type, arg1, arg2, roles in pending:
        for arg in (arg1, arg2):
            if arg not in where:
                raise FormatError(f"relation {rid} names {arg}, which is no text-bound annotation of the file",
                                  ann_path, lineno, 1)
        links.append(MentionLink(where[arg1], where[arg2], rel_type,
                                 FileOrigin(rid, lineno, roles, tuple(notes.get(rid, ())))))
    for rec in records:
        try:
            check_ranges(rec)
            check_graphemes(rec)
        except FormatError as exc:
            raise FormatError(f"{exc.detail} (segment on line {rec.line} of {txt_path.name})", ann_path) from None
    return records, links


def format_brat(records: Sequence[AnnotatedText], links: Sequence[MentionLink] = ()) -> tuple[str, str]:
    """(.txt text, .ann text) for records, one segment per line. Mentions and links read
    from a brat file keep their ids and lines, in the file's order (see the module doc);
    the others are numbered after them in reading order."""
    check_one_line(records, "one line of a brat .txt file")
    txt_parts = []
    placed: list[tuple[int, int, EntityMention, int]] = []  # (record, mention index, mention, record offset)
    offset = 0
    for i, r in enumerate(records):
        check_ranges(r)
        order = sorted(range(len(r.mentions)), key=lambda k: (r.mentions[k].start, -r.mentions[k].end, k))
        placed += [(i, k, r.mentions[k], offset) for k in order]
        txt_parts.append(r.text + "\n")
        offset += len(r.text) + 1
    t_ids = _file_ids([m.origin for _, _, m, _ in placed], "T")
    r_ids = _file_ids([link.origin for link in links], "R")
    lines: list[tuple[tuple[int, int], str]] = []  # (kept line number | after them, order), line
    ids: dict[tuple[int, int], str] = {}
    for (i, k, m, start), (tid, kept) in zip(placed, t_ids):
        if not m.type or any(ch.isspace() for ch in m.type):
            raise DataError(f"entity type {m.type!r} cannot be written in brat (it contains whitespace)")
        ids[(i, k)] = tid
        parts = mention_parts(m)
        where = ";".join(f"{start + a} {start + b}" for a, b in parts)
        surface = " ".join(records[i].text[a:b] for a, b in parts)
        _place(lines, m.origin if kept else None, f"{tid}\t{m.type} {where}\t{surface}\n")
    for link, (rid, kept) in zip(links, r_ids):
        if not link.type or any(ch.isspace() for ch in link.type):
            raise DataError(f"relation type {link.type!r} cannot be written in brat (it contains whitespace)")
        first, second = link.origin.roles if kept else ("Arg1", "Arg2")
        _place(lines, link.origin if kept else None,
               f"{rid}\t{link.type} {first}:{ids[link.source]} {second}:{ids[link.target]}\n")
    lines.sort(key=lambda entry: entry[0])
    return "".join(txt_parts), "".join(line for _, line in lines)


def _file_ids(origins: Sequence[FileOrigin | None], prefix: str) -> list[tuple[str, bool]]:
    """Each annotation's id, and whether it is the one it was read with: the first to claim
    an id of the kind keeps it (a copied span carries its original's), the rest are numbered
    after the highest number kept, so no id is written twice."""
    out: list[tuple[str, bool] | None] = [None] * len(origins)
    kept: set[str] = set()
    for n, origin in enumerate(origins):
        if origin is not None and origin.id.startswith(prefix) and origin.id not in kept:
            kept.add(origin.id)
            out[n] = (origin.id, True)
    top = max((int(x[len(prefix):]) for x in kept if x[len(prefix):].isdigit()), default=0)
    for n, given in enumerate(out):
        if given is None:
            top += 1
            out[n] = (f"{prefix}{top}", False)
    return [given for given in out if given is not None]


def _place(lines: list[tuple[tuple[int, int], str]], origin: FileOrigin | None, line: str) -> None:
    """An annotation's line (and, when it kept its id, the lines about it) at its place in the file."""
    if origin is None:
        lines.append(((1, len(lines)), line))
        return
    lines.append(((0, origin.line), line))
    lines += [((0, number), note + "\n") for number, note in origin.notes]


def write_brat(path: str | Path, records: Sequence[AnnotatedText], links: Sequence[MentionLink] = ()) -> list[Path]:
    from mtworkbench.core.atomic import write_side_file
    from mtworkbench.core.output import write_output

    txt_path, ann_path = brat_paths(path)
    txt, ann = format_brat(records, links)
    # The file the user named is an output like any other; its companion's name is derived,
    # so a link found there is replaced, never written through.
    for file, text in ((txt_path, txt), (ann_path, ann)):
        if file == Path(path):
            write_output(file, text)
        else:
            write_side_file(file, text)
    return [txt_path, ann_path]
