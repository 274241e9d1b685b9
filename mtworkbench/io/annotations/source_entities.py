"""Reader for the mtme-zh-mwe source annotation (``source-entities.all.json``): named
entities (19 OntoNotes types) and multiword expressions (9 types) on the Chinese
sources of WMT22 zh-en, as spans of a layer on sources.

The file is a JSON list (UTF-8, with a byte-order mark) of
``{"index": N, "property": "...", "categories": [{"start", "end", "value", "category"}]}``,
``index`` the 0-based segment. A contiguous span has integer ``start``/``end``; a
discontinuous one (a verb-particle construction such as 运作起 ... 来) has two lists
holding its two fragments, ``start`` the first fragment's ``[start, end]`` and ``end``
the second's, and ``value`` the two fragments' texts.

About 2% of the offsets in the published file are off by a few characters (the
annotation was made on a differently spaced text). Each fragment's ``value`` is
the authority: where the text at the offsets differs, the occurrence of the value
nearest the given start is taken and the span counted as *relocated*; a value not
found in the segment is skipped and counted. Spans may nest and overlap; the
layer allows both.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtworkbench.core.errors import DataError
from mtworkbench.core.json_reader import JsonReader
from mtworkbench.core.layers import SpanLayer, span_layer
from mtworkbench.core.model import EntitySpan, Project
from mtworkbench.io.annotations.annotations import new_type_style
from mtworkbench.io.annotations.entity_records import grapheme_cut, read_utf8

DEFAULT_LAYER = "source-entities"


@dataclass
class SourceImport:
    layer: str
    added: list[EntitySpan] = field(default_factory=list)
    relocated: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (index, value) not found
    created_types: list[str] = field(default_factory=list)


def _nearest(text: str, value: str, near: int) -> tuple[int, int] | None:
    best = None
    pos = text.find(value)
    while pos != -1:
        if best is None or abs(pos - near) < abs(best - near):
            best = pos
        pos = text.find(value, pos + 1)
    return None if best is None else (best, best + len(value))


def _fragments(r: JsonReader, item: Any, p: str) -> tuple[list[tuple[int, int]], list[str]]:
    start, end, value = item["start"], item["end"], item["value"]
    if isinstance(start, list):
        if not (isinstance(end, list) and isinstance(value, list) and len(start) == len(end) == len(value) == 2):
            r.fail("a discontinuous span has 'start' and 'end' as the two fragments' [start, end] and two values", p)
        pairs = [(r.int(start[0], f"{p}.start[0]"), r.int(start[1], f"{p}.start[1]")),
                 (r.int(end[0], f"{p}.end[0]"), r.int(end[1], f"{p}.end[1]"))]
        return pairs, [r.str(v, f"{p}.value") for v in value]
    return [(r.int(start, f"{p}.start"), r.int(end, f"{p}.end"))], [r.str(value, f"{p}.value")]


def import_source_entities(project: Project, path: str | Path, annotator: str,
                           layer: str = DEFAULT_LAYER) -> SourceImport:
    """Add the file's spans as ``annotator``'s spans of ``layer`` (created on sources
    when absent, with a type for every category). Nothing changes when the file is refused."""
    text = read_utf8(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}, line {exc.lineno}, column {exc.colno}: invalid JSON: {exc.msg}") from None
    r = JsonReader(str(path))
    segments = project.segments
    plan: list[tuple[int, str, list[tuple[int, int]]]] = []
    result = SourceImport(layer)
    for i, rec in enumerate(r.list(data, "$")):
        p = f"$[{i}]"
        r.keys(rec, p, {"index", "categories"}, {"property"})
        index = r.int(rec["index"], f"{p}.index")
        if not 0 <= index < len(segments):
            r.fail(f"segment index {index} is outside the project's {len(segments)} segments", f"{p}.index")
        source = segments[index].source
        for k, item in enumerate(r.list(rec["categories"], f"{p}.categories")):
            q = f"{p}.categories[{k}]"
            r.keys(item, q, {"start", "end", "value", "category"})
            category = r.ident(item["category"], f"{q}.category")
            pairs, values = _fragments(r, item, q)
            placed: list[tuple[int, int]] = []
            moved = False
            for (a, b), value in zip(pairs, values, strict=True):
                if source[a:b] != value or not value:
                    found = _nearest(source, value, a) if value else None
                    if found is None:
                        break
                    a, b, moved = found[0], found[1], True
                placed.append((a, b))
            if len(placed) != len(pairs):
                result.skipped.append((index, "".join(values)))
                continue
            placed.sort()
            if len(placed) == 2 and placed[0][1] >= placed[1][0]:  # fragments that touch are one range
                placed = [(placed[0][0], max(placed[0][1], placed[1][1]))]
            if grapheme_cut(source, [x for pair in placed for x in pair]) is not None:
                result.skipped.append((index, "".join(values)))
                continue
            result.relocated += moved
            plan.append((index, category, placed))
    _ensure_layer(project, layer, sorted({c for _, c, _ in plan}), result)
    seen: set[tuple[int, str, tuple[tuple[int, int], ...]]] = set()
    for index, category, placed in plan:
        key = (index, category, tuple(placed))
        if key in seen:  # the file lists a few spans twice
            continue
        seen.add(key)
        span = EntitySpan(project.new_id("e"), "", segments[index].id, placed[0][0], placed[-1][1], category,
                          annotator, layer, tuple(placed) if len(placed) > 1 else ())
        project.add_span(span)
        result.added.append(span)
    return result


def _ensure_layer(project: Project, layer: str, categories: list[str], result: SourceImport) -> None:
    if not any(lay.name == layer for lay in project.settings.span_layers):
        project.set_setting("span_layers", [*project.settings.span_layers, SpanLayer(layer, "source", [])])
    target = span_layer(project.settings, layer)
    if target.on != "source":
        raise DataError(f"layer {layer!r} sits on {target.on}s, not on sources")
    styles = list(target.types)
    for name in categories:
        if name not in {t.name for t in styles}:
            styles.append(new_type_style(styles, name))
            result.created_types.append(name)
    target.types = styles
