"""Entity annotations as JSON Lines, one segment per line:

    {"segment": "s1", "text": "Chirac visited Bonn.", "entities":
     [{"start": 0, "end": 6, "type": "PERSON", "text": "Chirac"}, ...]}

``segment`` (a segment id) is optional: without it records are matched to
segments by position. ``start``/``end`` are character offsets (Python string
indices, i.e. code points) into ``text``; an entity's ``text`` is optional but
must equal the slice when given. Blank lines are skipped.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mtworkbench.core.scoring_input import EntityMention
from mtworkbench.io.annotations.entity_records import (
    AnnotatedText,
    FormatError,
    check_graphemes,
    check_mentions,
    read_utf8,
    split_lines,
)


def parse_record(line: str, lineno: int | None = None, path: str | Path | None = None) -> AnnotatedText:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise FormatError(f"invalid JSON: {exc.msg}", path, lineno, exc.colno) from None

    def fail(message: str, key: str | None = None) -> FormatError:
        # Point at the key in the line where we can find it.
        column = line.find(f'"{key}"') + 1 if key else 1
        return FormatError(message, path, lineno, max(column, 1))

    if not isinstance(obj, dict):
        return_type = type(obj).__name__
        raise fail(f"expected a JSON object, got {return_type}")
    unknown = sorted(set(obj) - {"segment", "text", "entities"})
    if unknown:
        raise fail(f"unknown key {unknown[0]!r}; expected segment, text, entities", unknown[0])
    text = obj.get("text")
    if not isinstance(text, str):
        raise fail("'text' must be a string", "text" if "text" in obj else None)
    segment = obj.get("segment")
    if segment is not None and not isinstance(segment, str):
        raise fail("'segment' must be a string", "segment")
    entities = obj.get("entities", [])
    if not isinstance(entities, list):
        raise fail("'entities' must be a list", "entities")
    mentions = []
    for i, e in enumerate(entities):
        mentions.append(_mention(e, i, text, fail))
    record = AnnotatedText(text, mentions, segment=segment, line=lineno or 0)
    try:
        check_mentions(record)
        check_graphemes(record)
    except FormatError as exc:
        raise fail(exc.detail, "entities") from None
    return record


def _mention(e: Any, i: int, text: str, fail: Any) -> EntityMention:
    where = f"entities[{i}]"
    if not isinstance(e, dict):
        raise fail(f"{where} must be an object", "entities")
    for key in ("start", "end"):
        if not isinstance(e.get(key), int) or isinstance(e.get(key), bool):
            raise fail(f"{where}.{key} must be an integer", key if key in e else "entities")
    if not isinstance(e.get("type"), str) or not e["type"]:
        raise fail(f"{where}.type must be a non-empty string", "type" if "type" in e else "entities")
    extra = sorted(set(e) - {"start", "end", "type", "text"})
    if extra:
        raise fail(f"{where}: unknown key {extra[0]!r}", extra[0])
    start, end = e["start"], e["end"]
    if not 0 <= start < end <= len(text):
        raise fail(f"{where}: span {start}-{end} is empty or outside the text (0-{len(text)})", "start")
    if "text" in e and e["text"] != text[start:end]:
        raise fail(f"{where}.text {e['text']!r} differs from the text at {start}-{end} ({text[start:end]!r})", "entities")
    return EntityMention(start, end, e["type"])


def read_entities_jsonl(path: str | Path) -> list[AnnotatedText]:
    return [
        parse_record(line, lineno, path)
        for lineno, line in enumerate(split_lines(read_utf8(path)), 1)
        if line.strip()
    ]


def format_record(record: AnnotatedText) -> str:
    check_mentions(record)
    obj: dict[str, Any] = {}
    if record.segment is not None:
        obj["segment"] = record.segment
    obj["text"] = record.text
    obj["entities"] = [
        {"start": m.start, "end": m.end, "type": m.type, "text": record.text[m.start : m.end]}
        for m in sorted(record.mentions, key=lambda m: m.start)
    ]
    return json.dumps(obj, ensure_ascii=False)


def write_entities_jsonl(path: str | Path, records: Sequence[AnnotatedText]) -> None:
    from mtworkbench.core.output import write_output

    write_output(path, "".join(format_record(r) + "\n" for r in records))
