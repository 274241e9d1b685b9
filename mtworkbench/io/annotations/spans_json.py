"""Spans and relations as one JSON document (``.spans.json``):

    {"format": "mtworkbench-spans", "segments": [
       {"segment": "s1", "text": "Peking University", "spans": [
          {"id": "T1", "type": "ORG", "start": 0, "end": 17},
          {"id": "T2", "type": "LOC", "start": 0, "end": 6},
          {"id": "T3", "type": "X", "fragments": [[0, 6], [7, 17]]}]}],
     "relations": [{"type": "part-of", "source": "T2", "target": "T1"}]}

Offsets are code points into the segment's ``text``; spans may nest, overlap and
be discontinuous (``fragments``); span ids are unique in the file and relations
name them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mtworkbench.core.errors import DataError
from mtworkbench.core.json_reader import JsonReader
from mtworkbench.core.scoring_input import EntityMention
from mtworkbench.io.annotations.entity_records import (
    AnnotatedText,
    MentionLink,
    check_graphemes,
    check_ranges,
    mention_parts,
    read_utf8,
)

FORMAT = "mtworkbench-spans"


def read_spans_json(path: str | Path) -> tuple[list[AnnotatedText], list[MentionLink]]:
    try:
        data = json.loads(read_utf8(path))
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}, line {exc.lineno}, column {exc.colno}: invalid JSON: {exc.msg}") from None
    r = JsonReader(str(path))
    r.keys(data, "$", {"format", "segments"}, {"relations"})
    if data["format"] != FORMAT:
        r.fail(f"expected {FORMAT!r}, found {data['format']!r}", "$.format")
    records: list[AnnotatedText] = []
    where: dict[str, tuple[int, int]] = {}
    for i, seg in enumerate(r.list(data["segments"], "$.segments")):
        p = f"$.segments[{i}]"
        r.keys(seg, p, {"text", "spans"}, {"segment"})
        record = AnnotatedText(r.str(seg["text"], f"{p}.text"), [],
                               r.str(seg["segment"], f"{p}.segment") if "segment" in seg else None, line=i + 1)
        for k, s in enumerate(r.list(seg["spans"], f"{p}.spans")):
            q = f"{p}.spans[{k}]"
            r.keys(s, q, {"id", "type"}, {"start", "end", "fragments"})
            if "fragments" in s:
                parts = [tuple(r.int(x, f"{q}.fragments") for x in r.list(f, f"{q}.fragments"))
                         for f in r.list(s["fragments"], f"{q}.fragments")]
                if any(len(x) != 2 for x in parts) or len(parts) < 2:
                    r.fail("expected two [start, end] pairs or more", f"{q}.fragments")
                mention = EntityMention(parts[0][0], parts[-1][1], r.str(s["type"], f"{q}.type"),
                                        tuple((a, b) for a, b in parts))
            else:
                mention = EntityMention(r.int(s.get("start"), f"{q}.start"), r.int(s.get("end"), f"{q}.end"),
                                        r.str(s["type"], f"{q}.type"))
            span_id = r.str(s["id"], f"{q}.id")
            if span_id in where:
                r.fail(f"duplicate span id {span_id!r}", f"{q}.id")
            where[span_id] = (i, len(record.mentions))
            record.mentions.append(mention)
        check_ranges(record, path)
        check_graphemes(record, path)
        records.append(record)
    links = []
    for j, rel in enumerate(r.list(data.get("relations", []), "$.relations")):
        p = f"$.relations[{j}]"
        r.keys(rel, p, {"type", "source", "target"})
        ends = []
        for end in ("source", "target"):
            name = r.str(rel[end], f"{p}.{end}")
            if name not in where:
                r.fail(f"no span with id {name!r}", f"{p}.{end}")
            ends.append(where[name])
        links.append(MentionLink(ends[0], ends[1], r.str(rel["type"], f"{p}.type")))
    return records, links


def format_spans_json(records: Sequence[AnnotatedText], links: Sequence[MentionLink] = ()) -> str:
    segments: list[dict[str, Any]] = []
    ids: dict[tuple[int, int], str] = {}
    n = 0
    for i, rec in enumerate(records):
        spans = []
        for k, m in enumerate(rec.mentions):
            n += 1
            ids[(i, k)] = f"T{n}"
            item: dict[str, Any] = {"id": f"T{n}", "type": m.type}
            if m.fragments:
                item["fragments"] = [[a, b] for a, b in mention_parts(m)]
            else:
                item["start"], item["end"] = m.start, m.end
            spans.append(item)
        segments.append({**({"segment": rec.segment} if rec.segment is not None else {}), "text": rec.text,
                         "spans": spans})
    relations = [{"type": k.type, "source": ids[k.source], "target": ids[k.target]} for k in links]
    return json.dumps({"format": FORMAT, "segments": segments, "relations": relations}, ensure_ascii=False,
                      indent=1) + "\n"


def write_spans_json(path: str | Path, records: Sequence[AnnotatedText], links: Sequence[MentionLink] = ()) -> None:
    from mtworkbench.core.output import write_output

    write_output(Path(path), format_spans_json(records, links))
