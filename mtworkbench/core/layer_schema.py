"""A project's annotation schema as one value: its span layers, their types, and the
relation layers (their types, the span layers they connect, their direction) (no Qt).

The Annotate workspace's "Layers and types" dialog and ``mtworkbench entities
layer-add`` both build a new :class:`LayerSchema`, check it against the project with
:func:`check_schema` and install it with :func:`apply_schema`, which returns the old
schema, so one undo command takes the whole change back.

What a change may not do: lose the type of a span or relation that uses it, or rename,
remove, move to other text or loosen the rules of a layer that already holds spans
(its spans would be stranded or break the new rules).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from mtworkbench.core.layers import check_layer_definition
from mtworkbench.core.records import ENTITIES, LAYER_TARGETS, EntityTypeStyle, ModelError, RelationLayer, SpanLayer
from mtworkbench.core.wording import plural

# Colours given to new types in turn (Sasha Trubetskoy's twenty distinct colours, the
# ones the default entity types do not use first).
PALETTE: tuple[str, ...] = (
    "#ffe119", "#42d4f4", "#f032e6", "#bfef45", "#fabed4", "#dcbeff", "#aaffc3", "#808000",
    "#ffd8b1", "#000075", "#a9a9a9", "#800000", "#e6194b", "#4363d8", "#3cb44b", "#f58231",
)
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


@dataclass
class LayerSchema:
    """Everything the schema dialog edits. ``entity_types`` are the entities layer's types."""

    entity_types: list[EntityTypeStyle]
    span_layers: list[SpanLayer]
    relation_layers: list[RelationLayer]

    def types_of(self, layer: str) -> list[EntityTypeStyle]:
        if layer == ENTITIES:
            return self.entity_types
        for span_layer in self.span_layers:
            if span_layer.name == layer:
                return span_layer.types
        raise ModelError(f"unknown span layer {layer!r}")


def schema_of(settings: Any) -> LayerSchema:
    """A deep copy of the settings' schema (editing it leaves the project alone)."""
    return LayerSchema(
        [replace(t) for t in settings.entity_types],
        [replace(s, types=[replace(t) for t in s.types]) for s in settings.span_layers],
        [replace(r, types=[replace(t) for t in r.types]) for r in settings.relation_layers],
    )


def span_counts(project: Any) -> Counter[str]:
    """Spans per span layer (every annotator and text)."""
    return Counter(s.layer for s in project.spans)


def _relation_keys(schema: LayerSchema) -> dict[str, str]:
    return {t.key.upper(): t.name for r in schema.relation_layers for t in r.types if t.key}


def check_types(types: list[EntityTypeStyle], where: str, reserved: Mapping[str, str], need_keys: bool = True,
                is_colour: Any = None) -> None:
    """Names unique without spaces; keys one letter or digit, unique, and not a key the
    editor already gives a command (``reserved``: key -> what it does); colours valid."""
    if not types:
        raise ModelError(f"{where}: keep at least one type")
    names: set[str] = set()
    keys: set[str] = set()
    colour_ok = is_colour or (lambda c: bool(_HEX.fullmatch(c)))
    for style in types:
        if not style.name or any(ch.isspace() for ch in style.name):
            raise ModelError(f"{where}: type name {style.name!r}: a name is needed, without spaces")
        if style.name in names:
            raise ModelError(f"{where}: type {style.name!r} appears twice")
        names.add(style.name)
        if style.key or need_keys:
            if len(style.key) != 1 or not style.key.isalnum():
                raise ModelError(f"{where}: type {style.name}: the key must be one letter or digit, not {style.key!r}")
            key = style.key.upper()
            if key in keys:
                raise ModelError(f"{where}: key {key} is used by two types")
            if key in reserved:
                raise ModelError(f"{where}: type {style.name}: key {key} is taken by {reserved[key]}")
            keys.add(key)
        if not colour_ok(style.color):
            raise ModelError(f"{where}: type {style.name}: {style.color!r} is not a colour (expected #rrggbb)")


def _types_changed(new: list[EntityTypeStyle], old: list[EntityTypeStyle] | None) -> bool:
    return old is None or [(t.name, t.key.upper(), t.color) for t in new] != [(t.name, t.key.upper(), t.color) for t in old]


def check_schema(project: Any, new: LayerSchema, is_colour: Any = None) -> None:
    """Raise ModelError saying what is wrong with installing ``new`` in ``project``."""
    old = schema_of(project.settings)
    counts = span_counts(project)
    names = [s.name for s in new.span_layers]
    if ENTITIES not in names:
        raise ModelError(f"the {ENTITIES!r} layer cannot be removed or renamed")
    for name, n in Counter(names + [r.name for r in new.relation_layers]).items():
        if n > 1:
            raise ModelError(f"two layers are called {name!r}")
    old_layers = {s.name: s for s in old.span_layers}
    for gone in (name for name in old_layers if name not in names):
        if counts[gone]:
            raise ModelError(f"layer {gone!r} holds {counts[gone]} span{'s' if counts[gone] != 1 else ''}: "
                             "remove them before renaming or removing the layer")
    relation_keys = _relation_keys(new)
    reserved_for_spans = {k: f"the relation {name}" for k, name in relation_keys.items()}
    for layer in new.span_layers:
        check_layer_definition(layer)
        before = old_layers.get(layer.name)
        if before is not None and counts[layer.name]:
            rules = (before.on, before.nesting, before.overlap) != (layer.on, layer.nesting, layer.overlap)
            if rules:
                raise ModelError(f"layer {layer.name!r} holds {counts[layer.name]} spans: its text and its nesting "
                                 "and overlap rules stay as they are")
        types = new.types_of(layer.name)
        if _types_changed(types, old.types_of(layer.name) if before is not None else None):
            check_types(types, f"layer {layer.name}", reserved_for_spans, is_colour=is_colour)
            used = {s.type for s in project.spans if s.layer == layer.name}
            lost = sorted(used - {t.name for t in types})
            if lost:
                raise ModelError(f"layer {layer.name}: spans of type {', '.join(lost)} exist: retype or remove "
                                 "them before removing or renaming the type")
    old_relations = {r.name: r for r in old.relation_layers}
    span_keys = {t.key.upper(): f"the {t.name} type of layer {s.name}"
                 for s in new.span_layers for t in new.types_of(s.name) if t.key}
    relation_keys_seen: dict[str, str] = {}
    for rel in new.relation_layers:
        if not rel.name or any(ch.isspace() for ch in rel.name):
            raise ModelError(f"a layer name must be non-empty without spaces, found {rel.name!r}")
        unknown = [x for x in rel.connects if x not in names]
        if unknown:
            raise ModelError(f"relation layer {rel.name}: no span layer {', '.join(map(repr, unknown))} to connect")
        before_rel = old_relations.get(rel.name)
        held = sum(1 for r in project.relations if r.layer == rel.name)
        if before_rel is not None and held and (set(before_rel.connects) != set(rel.connects)
                                                or before_rel.directed != rel.directed):
            raise ModelError(f"relation layer {rel.name!r} holds {plural(held, 'relation')}: the span layers it connects "
                             "and its direction stay as they are")
        # One key starts one relation type in the editor, whichever layer it is in.
        for style in rel.types:
            key = style.key.upper()
            if key and key in relation_keys_seen and relation_keys_seen[key] != rel.name:
                raise ModelError(f"relation layer {rel.name}: key {key} is taken by relation layer "
                                 f"{relation_keys_seen[key]}")
            if key:
                relation_keys_seen[key] = rel.name
        if not _types_changed(rel.types, before_rel.types if before_rel else None):
            continue
        check_types(rel.types, f"relation layer {rel.name}", span_keys, need_keys=False, is_colour=is_colour)
        used = {r.type for r in project.relations if r.layer == rel.name}
        lost = sorted(used - {t.name for t in rel.types})
        if lost:
            raise ModelError(f"relation layer {rel.name}: relations of type {', '.join(lost)} exist: "
                             "remove them before removing or renaming the type")
    for gone in (name for name in old_relations if name not in {r.name for r in new.relation_layers}):
        n = sum(1 for r in project.relations if r.layer == gone)
        if n:
            raise ModelError(f"relation layer {gone!r} holds {plural(n, 'relation')}: remove them first")


def apply_schema(project: Any, new: LayerSchema) -> LayerSchema:
    """Install ``new`` (each changed setting through ``project.set_setting``, so views
    hear of it); returns the schema it replaced, whose installing undoes this."""
    old = schema_of(project.settings)
    for name in ("entity_types", "span_layers", "relation_layers"):
        if getattr(old, name) != getattr(new, name):
            project.set_setting(name, getattr(schema_of(new), name))
    return old


# --- a new layer from a short description (the CLI's) ------------------------------------
def parse_types(spec: str, taken: Iterable[str] = ()) -> list[EntityTypeStyle]:
    """``NAME[=KEY],...`` to types; a type without a key gets the first letter of its name
    that is still free (then any free letter or digit), colours from :data:`PALETTE`."""
    used = {k.upper() for k in taken}
    pairs: list[tuple[str, str]] = []
    for item in (part.strip() for part in spec.split(",")):
        if not item:
            continue
        name, _, key = item.partition("=")
        pairs.append((name.strip(), key.strip().upper()))
        if key.strip():
            used.add(key.strip().upper())
    if not pairs:
        raise ModelError(f"--types: expected NAME[=KEY],... , found {spec!r}")
    out = []
    for i, (name, key) in enumerate(pairs):
        if not key:
            # Cased letters only: a Chinese or Japanese character is typed through an input
            # method, never with one key press.
            pool = [c.upper() for c in name if c.isalpha() and c.upper() != c.lower()]
            pool += list("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
            key = next((c for c in pool if c not in used and len(c) == 1), "")
            if not key:
                raise ModelError(f"--types: no free key left for type {name!r}; give one as {name}=KEY")
            used.add(key)
        out.append(EntityTypeStyle(name, key, PALETTE[i % len(PALETTE)]))
    return out


def with_new_layer(project: Any, name: str, on: str, types_spec: str, nesting: bool = True,
                   overlap: bool = True) -> LayerSchema:
    """The project's schema plus a new span layer, checked (ModelError says what is wrong)."""
    if on not in LAYER_TARGETS:
        raise ModelError(f"--on must be one of {', '.join(LAYER_TARGETS)}, not {on!r}")
    schema = schema_of(project.settings)
    if any(s.name == name for s in schema.span_layers):
        raise ModelError(f"the project already has a span layer {name!r}")
    relation_keys = _relation_keys(schema)
    types = parse_types(types_spec, relation_keys)
    schema.span_layers.append(SpanLayer(name, on, types, nesting=nesting, overlap=overlap and nesting))
    check_schema(project, schema)
    return schema


def with_new_relation_layer(project: Any, name: str, types_spec: str, connects: Iterable[str] = (),
                            directed: bool = True) -> LayerSchema:
    """The project's schema plus a new relation layer linking spans of ``connects`` (every
    span layer when empty), checked (ModelError says what is wrong)."""
    schema = schema_of(project.settings)
    if any(r.name == name for r in schema.relation_layers):
        raise ModelError(f"the project already has a relation layer {name!r}")
    taken = [t.key for s in schema.span_layers for t in schema.types_of(s.name)] + list(_relation_keys(schema))
    schema.relation_layers.append(RelationLayer(name, parse_types(types_spec, taken), list(connects), directed))
    check_schema(project, schema)
    return schema


__all__ = ["PALETTE", "LayerSchema", "apply_schema", "check_schema", "check_types", "parse_types", "schema_of",
           "span_counts", "with_new_layer", "with_new_relation_layer"]
