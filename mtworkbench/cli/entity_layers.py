"""``mtworkbench entities layers``, ``entities layer-add`` and ``entities relation-layer-add``:
list and define span and relation layers.

    mtworkbench entities layers BUNDLE [--json]
    mtworkbench entities layer-add BUNDLE NAME --on reference|source|output --types TYPE[=KEY],...
                                   [--no-nesting] [--no-overlap] [-o OUT]
    mtworkbench entities relation-layer-add BUNDLE NAME --types TYPE[=KEY],... [--connects LAYER,...]
                                            [--undirected] [-o OUT]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mtworkbench.core.errors import DataError
from mtworkbench.core.records import LAYER_TARGETS


def register(sub: argparse._SubParsersAction) -> None:
    lay = sub.add_parser("layers", help="the project's span and relation layers: text, rules, types and span counts")
    lay.add_argument("bundle")
    lay.add_argument("--json", action="store_true", help="print one JSON object")
    lay.set_defaults(func=run_layers)

    add = sub.add_parser("layer-add", help="add a span layer with its types")
    add.add_argument("bundle", help="project bundle (*.mtwb.json); saved in place unless -o")
    add.add_argument("name", help="the layer's name (no spaces)")
    add.add_argument("--on", required=True, choices=LAYER_TARGETS, help="the text its spans sit on")
    add.add_argument("--types", required=True, metavar="TYPE[=KEY],...",
                     help="its types, each with its editor key (default: the first free letter of its name)")
    add.add_argument("--no-nesting", action="store_true", help="spans may not lie inside one another (nor overlap)")
    add.add_argument("--no-overlap", action="store_true", help="spans may nest but not cross")
    add.add_argument("-o", "--output", help="write the changed project here instead")
    add.set_defaults(func=run_layer_add)

    rel = sub.add_parser("relation-layer-add", help="add a relation layer with its types")
    rel.add_argument("bundle", help="project bundle (*.mtwb.json); saved in place unless -o")
    rel.add_argument("name", help="the layer's name (no spaces)")
    rel.add_argument("--types", required=True, metavar="TYPE[=KEY],...",
                     help="its relation types, each with its editor key (default: the first free letter of its name)")
    rel.add_argument("--connects", default="", metavar="LAYER,...",
                     help="the span layers whose spans its relations link (default: any)")
    rel.add_argument("--undirected", action="store_true", help="a relation links its two spans either way round")
    rel.add_argument("-o", "--output", help="write the changed project here instead")
    rel.set_defaults(func=run_relation_layer_add)


def layers_json(project) -> dict:
    from mtworkbench.core.layer_schema import schema_of, span_counts

    schema = schema_of(project.settings)
    counts = span_counts(project)
    style = lambda t: {"name": t.name, "key": t.key, "color": t.color}  # noqa: E731
    return {
        "span_layers": [{"name": s.name, "on": s.on, "nesting": s.nesting, "overlap": s.overlap,
                         "spans": counts[s.name], "types": [style(t) for t in schema.types_of(s.name)]}
                        for s in schema.span_layers],
        "relation_layers": [{"name": r.name, "relations": sum(1 for x in project.relations if x.layer == r.name),
                             "connects": list(r.connects), "directed": r.directed,
                             "types": [style(t) for t in r.types]} for r in schema.relation_layers],
    }


def run_layers(args: argparse.Namespace) -> int:
    from mtworkbench.io.bundle.bundle import load_bundle

    data = layers_json(load_bundle(args.bundle))
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    for s in data["span_layers"]:
        rules = "nesting and overlap" if s["overlap"] else "nesting" if s["nesting"] else "flat"
        types = " ".join(f"{t['name']}={t['key']}" for t in s["types"])
        print(f"{s['name']}\ton {s['on']}\t{rules}\t{s['spans']} spans\t{types}")
    for r in data["relation_layers"]:
        types = " ".join(f"{t['name']}={t['key']}" if t["key"] else t["name"] for t in r["types"])
        links = f"links {', '.join(r['connects'])}" if r["connects"] else "links any layer"
        print(f"{r['name']}\trelations\t{links}, {'directed' if r['directed'] else 'undirected'}\t"
              f"{r['relations']} relations\t{types}")
    return 0


def _with_schema_change(args: argparse.Namespace, change: Callable[[Any], Any]) -> tuple[Any, Path]:
    """Read the bundle under its lock (and the output's), apply the layer schema ``change(project)``
    makes, save, and return the schema and where it was written; a refused change names the bundle."""
    from mtworkbench.core.layer_schema import apply_schema
    from mtworkbench.core.model import ModelError
    from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
    from mtworkbench.io.bundle.locking import bundle_locks

    out = Path(args.output or args.bundle)
    with bundle_locks(args.bundle, out):
        project = load_bundle(args.bundle)
        try:
            schema = change(project)
        except ModelError as exc:
            raise DataError(f"{args.bundle}: {exc}") from exc
        apply_schema(project, schema)
        save_bundle(project, out)
    return schema, out


def run_layer_add(args: argparse.Namespace) -> int:
    from mtworkbench.core.layer_schema import with_new_layer

    schema, out = _with_schema_change(args, lambda project: with_new_layer(
        project, args.name, args.on, args.types,
        nesting=not args.no_nesting, overlap=not (args.no_overlap or args.no_nesting)))
    layer = schema.span_layers[-1]
    types = ", ".join(f"{t.name} ({t.key})" for t in layer.types)
    print(f"added layer {layer.name} on {layer.on}s with types {types}; wrote {out}")
    return 0


def run_relation_layer_add(args: argparse.Namespace) -> int:
    from mtworkbench.core.layer_schema import with_new_relation_layer

    connects = [x.strip() for x in args.connects.split(",") if x.strip()]
    schema, out = _with_schema_change(args, lambda project: with_new_relation_layer(
        project, args.name, args.types, connects, not args.undirected))
    layer = schema.relation_layers[-1]
    types = ", ".join(f"{t.name} ({t.key})" for t in layer.types)
    links = ", ".join(layer.connects) or "any span layer"
    print(f"added relation layer {layer.name} ({'directed' if layer.directed else 'undirected'}, linking {links}) "
          f"with types {types}; wrote {out}")
    return 0
