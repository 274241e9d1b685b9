"""WebAnno TSV 3 (INCEpTION's exchange format), spans and relations.

    #FORMAT=WebAnno TSV 3.3
    #T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value
    #T_RL=webanno.custom.Relation|label|BT_de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity


    #Text=Peking University is in Beijing .
    1-1	0-6	Peking	*[1]|*[2]	ORG[1]|LOC[2]	_	_
    1-2	7-17	University	*[1]	ORG[1]	part-of	1-1[2_1]

Each sentence is a segment (a ``#Text=`` line, then one row per token: id
``sentence-token``, document offsets ``begin-end``, the token, then one column per
feature of each layer in header order). A cell lists the annotations on its row,
``|`` between stacked ones, ``_`` for none, ``*`` for an annotation without a
value; an annotation over several rows, or stacked with another, carries a number
``[N]`` that is the same on all its rows. A relation sits on the first row of its
target; its ``BT_`` column names the source's first row, with ``[source_target]``
annotation numbers (0 for an annotation without one) when either needs it.

Reading takes the span layer with a ``value`` feature (else the first span layer)
and the first relation layer; other layers are read past. Writing splits tokens
at every span boundary so each span covers whole rows; WebAnno TSV has no
discontinuous spans, so those are refused.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.scoring_input import EntityMention
from mtworkbench.core.text import TOKEN_RE
from mtworkbench.io.annotations.entity_records import (
    AnnotatedText,
    FormatError,
    MentionLink,
    check_graphemes,
    check_ranges,
    read_utf8,
    split_lines,
)

HEADER = "#FORMAT=WebAnno TSV 3.3"
SPAN_LAYER = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
RELATION_LAYER = "webanno.custom.Relation"
_ESCAPES = {"\\": "\\\\", "[": "\\[", "]": "\\]", "|": "\\|", "_": "\\_", "*": "\\*", "->": "\\->", ";": "\\;",
            "\t": "\\t", "\n": "\\n", "\r": "\\r"}
_ITEM_RE = re.compile(r"^(.*?)(?:\[(\d+)\])?$", re.S)
_BT_RE = re.compile(r"^(\d+-\d+(?:\.\d+)?)(?:\[(\d+)_(\d+)\])?$")


def escape(value: str) -> str:
    return re.sub(r"->|[\\\[\]|_*;\t\n\r]", lambda m: _ESCAPES[m.group()], value)


def unescape(value: str) -> str:
    out = []
    i = 0
    table = {"t": "\t", "n": "\n", "r": "\r"}
    while i < len(value):
        ch = value[i]
        if ch == "\\" and i + 1 < len(value):
            nxt = value[i + 1]
            out.append(table.get(nxt, nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _split_cell(cell: str) -> list[str]:
    """The items of a cell split at unescaped ``|``."""
    items, current, i = [], [], 0
    while i < len(cell):
        if cell[i] == "\\" and i + 1 < len(cell):
            current.append(cell[i:i + 2])
            i += 2
            continue
        if cell[i] == "|":
            items.append("".join(current))
            current = []
        else:
            current.append(cell[i])
        i += 1
    items.append("".join(current))
    return items


@dataclass
class _Sentence:
    text: str
    line: int
    rows: list[tuple[str, int, int, list[str]]] = field(default_factory=list)  # id, begin, end, cells


def _parse(path: Path) -> tuple[list[tuple[str, list[str]]], list[_Sentence]]:
    lines = split_lines(read_utf8(path))
    if not lines or not lines[0].startswith("#FORMAT=WebAnno TSV 3"):
        raise FormatError(f"expected the first line {HEADER!r}", path, 1, 1)
    layers: list[tuple[str, list[str]]] = []  # kind:name, features
    sentences: list[_Sentence] = []
    for n, line in enumerate(lines[1:], 2):
        if line.startswith(("#T_SP=", "#T_RL=", "#T_CH=")):
            name, *features = line[6:].split("|")
            layers.append((line[3:5] + ":" + name, features))
        elif line.startswith("#Text="):
            if sentences and not sentences[-1].rows and sentences[-1].line == n - 1:
                sentences[-1].text += "\n" + unescape(line[6:])  # a sentence with a line break
            else:
                sentences.append(_Sentence(unescape(line[6:]), n))
        elif line.startswith("#") or not line.strip():
            continue
        else:
            if not sentences:
                raise FormatError("a token row before any '#Text=' line", path, n, 1)
            cells = line.split("\t")
            if cells and cells[-1] == "":
                cells.pop()  # rows end with a tab
            width = 3 + sum(len(f) for _, f in layers)
            if len(cells) != width:
                raise FormatError(f"expected {width} tab-separated columns, found {len(cells)}", path, n, 1)
            m = re.fullmatch(r"(\d+)-(\d+)", cells[1])
            if m is None:
                raise FormatError(f"expected offsets 'begin-end', found {cells[1]!r}", path, n, len(cells[0]) + 2)
            sentences[-1].rows.append((cells[0], int(m.group(1)), int(m.group(2)), cells[3:]))
    return layers, sentences


def read_webanno(path: str | Path) -> tuple[list[AnnotatedText], list[MentionLink]]:
    path = Path(path)
    layers, sentences = _parse(path)
    spans = [(i, name, f) for i, (name, f) in enumerate(layers) if name.startswith("SP:")]
    if not spans:
        return [AnnotatedText(s.text, [], line=s.line) for s in sentences], []
    rel = next(((i, f) for i, (name, f) in enumerate(layers) if name.startswith("RL:")), None)
    chosen = _entity_layer(spans, rel[1] if rel else [])
    starts = [3 + sum(len(f) for _, f in layers[:i]) for i in range(len(layers))]
    features = chosen[2]
    feature = next((f for f in ("value", "label") if f in features), features[0] if features else "")
    if not features:
        raise FormatError(f"span layer {chosen[1][3:]} has no feature column to read a type from", path, 2)
    type_col = starts[chosen[0]] - 3 + features.index(feature)
    records: list[AnnotatedText] = []
    # (sentence, annotation key) -> mention index; key is ("id", N) or ("row", row id, k)
    found: dict[tuple[str, ...], tuple[int, int]] = {}
    by_row: dict[str, list[tuple[str, ...]]] = {}
    for si, sent in enumerate(sentences):
        record = AnnotatedText(sent.text, [], line=sent.line)
        records.append(record)
        if not sent.rows:
            continue
        base = sent.rows[0][1] - _first_token_offset(sent)
        extents: dict[tuple[str, ...], list[int]] = {}
        kinds: dict[tuple[str, ...], str] = {}
        for row_id, begin, end, cells in sent.rows:
            cell = cells[type_col]
            if cell == "_":
                continue
            for k, item in enumerate(_split_cell(cell)):
                m = _ITEM_RE.match(item)
                assert m is not None
                value, number = m.group(1), m.group(2)
                key: tuple[str, ...] = ("id", number) if number else ("row", row_id, str(k))
                ext = extents.setdefault(key, [begin, end])
                ext[0], ext[1] = min(ext[0], begin), max(ext[1], end)
                kinds[key] = "" if value == "*" else unescape(value)
                by_row.setdefault(row_id, []).append(key)
        for key, (begin, end) in extents.items():
            found[key] = (si, len(record.mentions))
            record.mentions.append(EntityMention(begin - base, end - base, kinds[key]))
    links: list[MentionLink] = []
    if rel is not None:
        label_col = starts[rel[0]] - 3
        bt_col = label_col + len(rel[1]) - 1
        for sent in sentences:
            for row_id, _b, _e, cells in sent.rows:
                if cells[label_col] == "_" and cells[bt_col] == "_":
                    continue
                for label, source in zip(_split_cell(cells[label_col]), _split_cell(cells[bt_col]), strict=False):
                    m = _BT_RE.match(source)
                    if m is None:
                        raise FormatError(f"expected a source row like '1-2' or '1-2[3_4]', found {source!r}",
                                          path, sent.line)
                    src = _annotation(by_row, m.group(1), m.group(2), found, path, sent.line)
                    tgt = _annotation(by_row, row_id, m.group(3), found, path, sent.line)
                    name = _ITEM_RE.match(label).group(1)  # type: ignore[union-attr]  # some writers number labels
                    links.append(MentionLink(src, tgt, "" if name == "*" else unescape(name)))
    for r in records:
        check_ranges(r, path)
        check_graphemes(r, path)
    return records, links


def _entity_layer(spans: list[tuple[int, str, list[str]]], relation_features: list[str]) -> tuple[int, str, list[str]]:
    """The span layer whose annotations become spans: one with a ``value`` feature (the
    named-entity layer), else the one the first relation layer links (``BT_<layer>``),
    else one whose name says entity, else the first."""
    linked = {f[3:] for f in relation_features if f.startswith("BT_")}
    for test in (lambda t: "value" in t[2], lambda t: t[1][3:] in linked, lambda t: "entity" in t[1].lower()):
        found = next((t for t in spans if test(t)), None)
        if found is not None:
            return found
    return spans[0]


def _first_token_offset(sent: _Sentence) -> int:
    """Where the sentence's first token starts in its ``#Text`` (sentences rarely start with space)."""
    return len(sent.text) - len(sent.text.lstrip())


def _annotation(by_row: dict[str, list[tuple[str, ...]]], row: str, number: str | None,
                found: dict[tuple[str, ...], tuple[int, int]], path: Path, line: int) -> tuple[int, int]:
    if number and number != "0":
        key: tuple[str, ...] = ("id", number)
        if key in found:
            return found[key]
        raise FormatError(f"a relation names annotation [{number}], which is no span of the file", path, line)
    keys = by_row.get(row, [])
    if len(keys) != 1:
        raise FormatError(f"a relation at row {row} does not say which of its {len(keys)} spans it links", path, line)
    return found[keys[0]]


# --- writing -----------------------------------------------------------------------------
def _tokens(text: str, cuts: set[int]) -> list[tuple[int, int]]:
    """Words and punctuation of ``text``, split again at every span boundary."""
    out = []
    for m in TOKEN_RE.finditer(text):
        a, b = m.span()
        inner = sorted(k for k in cuts if a < k < b)
        for x, y in zip([a, *inner], [*inner, b], strict=True):
            out.append((x, y))
    return out


def format_webanno(records: Sequence[AnnotatedText], links: Sequence[MentionLink] = ()) -> str:
    lines = [HEADER, f"#T_SP={SPAN_LAYER}|identifier|value", f"#T_RL={RELATION_LAYER}|label|BT_{SPAN_LAYER}", "", ""]
    number: dict[tuple[int, int], int] = {}
    rows_of: dict[tuple[int, int], list[str]] = {}
    next_number = 1
    offset = 0
    body: list[tuple[str, list[tuple[str, int, int, str]]]] = []
    row_cells: dict[str, list[list[str]]] = {}
    first_row: dict[tuple[int, int], str] = {}
    for i, r in enumerate(records):
        check_ranges(r)
        for m in r.mentions:
            if m.fragments:
                raise DataError(f"segment {r.segment or i + 1}: WebAnno TSV has no discontinuous spans "
                                f"({m.type} {m.start}-{m.end}); export as brat or json")
            if r.text[m.start:m.end] != r.text[m.start:m.end].strip():
                raise DataError(f"segment {r.segment or i + 1}: the {m.type} span {m.start}-{m.end} starts or ends "
                                "with a space, which WebAnno TSV rows cannot hold")
        cuts = {k for m in r.mentions for k in (m.start, m.end)}
        tokens = _tokens(r.text, cuts)
        sentence_rows: list[tuple[str, int, int, str]] = []
        ids = [f"{i + 1}-{t}" for t in range(1, len(tokens) + 1)]
        for k, m in enumerate(r.mentions):
            rows = [ids[t] for t, (a, b) in enumerate(tokens) if m.start <= a and b <= m.end]
            if not rows:
                raise DataError(f"segment {r.segment or i + 1}: the {m.type} span {m.start}-{m.end} covers no token")
            rows_of[(i, k)] = rows
            first_row[(i, k)] = rows[0]
        stacked: dict[str, int] = {}
        for key, rows in rows_of.items():
            if key[0] == i:
                for row in rows:
                    stacked[row] = stacked.get(row, 0) + 1
        for k in range(len(r.mentions)):
            rows = rows_of[(i, k)]
            if len(rows) > 1 or any(stacked[row] > 1 for row in rows):
                number[(i, k)] = next_number
                next_number += 1
        for t, (a, b) in enumerate(tokens):
            row_cells[ids[t]] = [[], [], [], []]
            sentence_rows.append((ids[t], offset + a, offset + b, r.text[a:b]))
        for k, m in enumerate(r.mentions):
            suffix = f"[{number[(i, k)]}]" if (i, k) in number else ""
            for row in rows_of[(i, k)]:
                row_cells[row][0].append("*" + suffix)
                row_cells[row][1].append((escape(m.type) if m.type else "*") + suffix)
        body.append((f"#Text={escape(r.text)}", sentence_rows))
        offset += len(r.text) + 1
    for link in links:
        row = first_row[link.target]
        src_row = first_row[link.source]
        a, b = number.get(link.source, 0), number.get(link.target, 0)
        row_cells[row][2].append(escape(link.type) if link.type else "*")
        row_cells[row][3].append(src_row + (f"[{a}_{b}]" if a or b else ""))
    for text_line, sentence_rows in body:
        lines.append(text_line)
        for row_id, a, b, token in sentence_rows:
            cells = ["|".join(c) if c else "_" for c in row_cells[row_id]]
            lines.append("\t".join([row_id, f"{a}-{b}", escape(token), *cells]) + "\t")
        lines.append("")
    return "\n".join(lines) + "\n"


def write_webanno(path: str | Path, records: Sequence[AnnotatedText], links: Sequence[MentionLink] = ()) -> None:
    from mtworkbench.core.output import write_output

    write_output(Path(path), format_webanno(records, links))
