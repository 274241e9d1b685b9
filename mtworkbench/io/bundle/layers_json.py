"""The bundle's span layers, relation layers, layered spans and relations (version 3).

``settings.span_layers`` lists every span layer (the "entities" layer without
``types``: its types are ``settings.entity_types``); ``settings.relation_layers``
the relation layers; each entity span names its ``layer`` and, when
discontinuous, its ``fragments`` (``[[start, end], ...]``); ``relations`` lists
``{id, layer, type, source, target, annotator}`` with span ids as ends. A relation layer
may name the span layers it ``connects`` and be ``"directed": false``. A span or relation
imported from a standoff file (brat) carries its ``origin`` there: ``{id, line}`` plus, where
they are not brat's usual ones, a relation's argument ``roles``, and the ``notes`` lines
(attributes, normalisations, annotator notes) about it as ``[[line, text], ...]``.
"""

from __future__ import annotations

from typing import Any

from mtworkbench.core.json_reader import JsonReader
from mtworkbench.core.layers import (
    ENTITIES,
    LAYER_TARGETS,
    Relation,
    RelationLayer,
    SpanLayer,
    check_layer_definition,
)
from mtworkbench.core.model import EntitySpan, ModelError, Project
from mtworkbench.core.records import EntityTypeStyle, FileOrigin, Settings


def _types_json(types: list[EntityTypeStyle]) -> list[dict[str, str]]:
    return [{"name": t.name, "key": t.key, "color": t.color} for t in types]


def layers_to_json(settings: Settings) -> dict[str, Any]:
    return {
        "span_layers": [
            {
                "name": layer.name,
                "on": layer.on,
                "nesting": layer.nesting,
                "overlap": layer.overlap,
                **({} if layer.name == ENTITIES else {"types": _types_json(layer.types)}),
            }
            for layer in settings.span_layers
        ],
        "relation_layers": [
            {
                "name": lay.name,
                "types": _types_json(lay.types),
                # Written only when set, so a bundle without them is byte-identical.
                **({"connects": list(lay.connects)} if lay.connects else {}),
                **({} if lay.directed else {"directed": False}),
            }
            for lay in settings.relation_layers
        ],
    }


def span_to_json(s: EntitySpan) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": s.id, "reference": s.reference, "segment": s.segment, "start": s.start, "end": s.end,
        "type": s.type, "annotator": s.annotator, "layer": s.layer,
    }
    if s.fragments:
        out["fragments"] = [[a, b] for a, b in s.fragments]
    if s.origin is not None:
        out["origin"] = origin_to_json(s.origin)
    return out


def relation_to_json(rel: Relation) -> dict[str, Any]:
    out: dict[str, Any] = {"id": rel.id, "layer": rel.layer, "type": rel.type, "source": rel.source,
                           "target": rel.target, "annotator": rel.annotator}
    if rel.origin is not None:
        out["origin"] = origin_to_json(rel.origin)
    return out


def origin_to_json(o: FileOrigin) -> dict[str, Any]:
    out: dict[str, Any] = {"id": o.id, "line": o.line}
    if o.roles != FileOrigin("").roles:
        out["roles"] = list(o.roles)
    if o.notes:
        out["notes"] = [[line, text] for line, text in o.notes]
    return out


def read_origin(r: JsonReader, value: Any, p: str) -> FileOrigin | None:
    if value is None:
        return None
    r.keys(value, p, {"id", "line"}, {"roles", "notes"})
    roles = r.list(value.get("roles", ["Arg1", "Arg2"]), f"{p}.roles")
    if len(roles) != 2:
        r.fail("expected two argument roles", f"{p}.roles")
    notes = []
    for k, note in enumerate(r.list(value.get("notes", []), f"{p}.notes")):
        pair = r.list(note, f"{p}.notes[{k}]")
        if len(pair) != 2:
            r.fail("expected [line, text]", f"{p}.notes[{k}]")
        notes.append((r.int(pair[0], f"{p}.notes[{k}][0]"), r.str(pair[1], f"{p}.notes[{k}][1]")))
    return FileOrigin(r.str(value["id"], f"{p}.id"), r.int(value["line"], f"{p}.line"),
                      (r.str(roles[0], f"{p}.roles[0]"), r.str(roles[1], f"{p}.roles[1]")), tuple(notes))


def _bool(r: JsonReader, value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        r.fail(f"expected true or false, found {value!r}", path)
    return value


def read_types(r: JsonReader, value: Any, path: str) -> list[EntityTypeStyle]:
    types = []
    names: set[str] = set()
    keys: set[str] = set()
    for i, t in enumerate(r.list(value, path)):
        p = f"{path}[{i}]"
        r.keys(t, p, {"name", "key", "color"})
        style = EntityTypeStyle(r.ident(t["name"], f"{p}.name"), r.str(t["key"], f"{p}.key"),
                                r.str(t["color"], f"{p}.color"))
        if style.name in names:
            r.fail(f"duplicate type {style.name!r}", f"{p}.name")
        if len(style.key) > 1 or (style.key and style.key.upper() in keys):
            r.fail(f"key must be one character (or empty) not used by another type, found {style.key!r}", f"{p}.key")
        names.add(style.name)
        if style.key:
            keys.add(style.key.upper())
        types.append(style)
    return types


def read_layers(r: JsonReader, value: dict[str, Any], settings: Settings) -> None:
    """Fill ``settings`` with the layers of a ``settings`` object (defaults where absent)."""
    if "span_layers" in value:
        layers: list[SpanLayer] = []
        for i, item in enumerate(r.list(value["span_layers"], "$.settings.span_layers")):
            p = f"$.settings.span_layers[{i}]"
            r.keys(item, p, {"name", "on", "nesting", "overlap"}, {"types"})
            name = r.ident(item["name"], f"{p}.name")
            on = r.str(item["on"], f"{p}.on")
            if on not in LAYER_TARGETS:
                r.fail(f"expected one of {', '.join(LAYER_TARGETS)}, found {on!r}", f"{p}.on")
            if any(lay.name == name for lay in layers):
                r.fail(f"duplicate span layer {name!r}", f"{p}.name")
            if (name == ENTITIES) == ("types" in item):
                r.fail("the entities layer takes its types from settings.entity_types; every other layer lists "
                       "its own 'types'", p)
            types = read_types(r, item["types"], f"{p}.types") if "types" in item else []
            layer = SpanLayer(name, on, types, _bool(r, item["nesting"], f"{p}.nesting"),
                              _bool(r, item["overlap"], f"{p}.overlap"))
            try:
                check_layer_definition(layer)
            except ModelError as exc:
                r.fail(str(exc), p)
            layers.append(layer)
        if not layers or layers[0].name != ENTITIES:
            r.fail("the first span layer must be 'entities'", "$.settings.span_layers")
        settings.span_layers = layers
    if "relation_layers" in value:
        rel_layers: list[RelationLayer] = []
        for i, item in enumerate(r.list(value["relation_layers"], "$.settings.relation_layers")):
            p = f"$.settings.relation_layers[{i}]"
            r.keys(item, p, {"name", "types"}, {"connects", "directed"})
            name = r.ident(item["name"], f"{p}.name")
            if any(lay.name == name for lay in rel_layers):
                r.fail(f"duplicate relation layer {name!r}", f"{p}.name")
            connects = [r.ident(x, f"{p}.connects[{k}]") for k, x in enumerate(r.list(item.get("connects", []),
                                                                                     f"{p}.connects"))]
            span_names = {lay.name for lay in settings.span_layers}
            for k, x in enumerate(connects):
                if x not in span_names:
                    r.fail(f"unknown span layer {x!r}", f"{p}.connects[{k}]")
            rel_layers.append(RelationLayer(name, read_types(r, item["types"], f"{p}.types"), connects,
                                            _bool(r, item.get("directed", True), f"{p}.directed")))
        settings.relation_layers = rel_layers


def read_span(r: JsonReader, s: Any, p: str, project: Project) -> EntitySpan:
    r.keys(s, p, {"id", "reference", "segment", "start", "end", "type", "annotator"}, {"layer", "fragments", "origin"})
    fragments: list[tuple[int, int]] = []
    for k, f in enumerate(r.list(s.get("fragments", []), f"{p}.fragments")):
        pair = r.list(f, f"{p}.fragments[{k}]")
        if len(pair) != 2:
            r.fail("expected [start, end]", f"{p}.fragments[{k}]")
        fragments.append((r.int(pair[0], f"{p}.fragments[{k}][0]"), r.int(pair[1], f"{p}.fragments[{k}][1]")))
    return EntitySpan(
        id=r.ident(s["id"], f"{p}.id"),
        reference=r.str(s["reference"], f"{p}.reference"),
        segment=r.ref_to(s["segment"], f"{p}.segment", project.has_segment, "segment"),
        start=r.int(s["start"], f"{p}.start"),
        end=r.int(s["end"], f"{p}.end"),
        type=r.str(s["type"], f"{p}.type"),
        annotator=r.ident(s["annotator"], f"{p}.annotator"),
        layer=r.ident(s.get("layer", ENTITIES), f"{p}.layer"),
        fragments=tuple(fragments),
        origin=read_origin(r, s.get("origin"), f"{p}.origin"),
    )


def read_relations(r: JsonReader, value: Any, project: Project) -> None:
    for i, item in enumerate(r.list(value, "$.relations")):
        p = f"$.relations[{i}]"
        r.keys(item, p, {"id", "layer", "type", "source", "target", "annotator"}, {"origin"})
        rel = Relation(
            id=r.ident(item["id"], f"{p}.id"),
            type=r.str(item["type"], f"{p}.type"),
            source=r.ident(item["source"], f"{p}.source"),
            target=r.ident(item["target"], f"{p}.target"),
            annotator=r.ident(item["annotator"], f"{p}.annotator"),
            layer=r.ident(item["layer"], f"{p}.layer"),
            origin=read_origin(r, item.get("origin"), f"{p}.origin"),
        )
        try:
            project.add_relation(rel)
        except ModelError as exc:
            r.fail(str(exc), p)


def v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """Version 3 adds span layers, discontinuous spans and relations. A version-2 span
    belongs to the entities layer on references; the layers themselves are the
    defaults (a missing ``span_layers`` reads as them), so nothing changes."""
    spans = []
    for s in data.get("entity_spans", []):
        if isinstance(s, dict):
            s = {**s, "layer": s.get("layer", ENTITIES)}
        spans.append(s)  # anything malformed is reported by the loader, naming its path
    if "entity_spans" in data:
        data["entity_spans"] = spans
    return data
