"""``mtworkbench entities``: import, export, list and compare entity annotations.

    mtworkbench entities import BUNDLE FILE --reference ID --annotator NAME [--format muc|conll|brat|jsonl|webanno|json]
    mtworkbench entities export BUNDLE FILE --reference ID [--annotator NAME] [--format ...]
    mtworkbench entities import-sources BUNDLE source-entities.all.json --annotator NAME [--layer NAME]
    mtworkbench entities list BUNDLE
    mtworkbench entities layers BUNDLE [--json]
    mtworkbench entities layer-add BUNDLE NAME --on reference|source|output --types TYPE[=KEY],... [--no-nesting] [--no-overlap]
    mtworkbench entities relation-layer-add BUNDLE NAME --types TYPE[=KEY],... [--connects LAYER,...] [--undirected]
    mtworkbench entities compare BUNDLE --reference ID A B [--json]
    mtworkbench entities compare BUNDLE --reference ID --annotator A --annotator B --annotator C ... [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from mtworkbench.cli import UsageError
from mtworkbench.cli.progress import cli_progress
from mtworkbench.core.errors import DataError


def register(subparsers: argparse._SubParsersAction) -> None:
    from mtworkbench.io.formats import ANNOTATION_FORMATS

    formats = ANNOTATION_FORMATS.names

    p = subparsers.add_parser(
        "entities",
        help="import, export, list and compare named-entity annotations",
        description="Named-entity annotations of a project's references (they feed NEE).",
    )
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    suffixes = ", ".join("/".join(f.suffixes) for f in ANNOTATION_FORMATS)
    fmt_help = f"annotation format (default: from the file name: {suffixes})"

    imp = sub.add_parser("import", help="add an annotator's entities from a file")
    imp.add_argument("bundle", help="project bundle (*.mtwb.json); saved in place unless -o")
    imp.add_argument("file", help="annotation file (brat: the .ann, .txt or their stem)")
    imp.add_argument("--reference", required=True, help="reference id (created when the project has none by that id)")
    imp.add_argument("--annotator", required=True, help="who annotated")
    imp.add_argument("--format", type=_format_name, choices=formats, help=fmt_help)
    imp.add_argument("--create-types", action="store_true", help="add entity types the project does not know yet")
    imp.add_argument("--replace", action="store_true", help="replace the annotator's spans on this reference")
    imp.add_argument("--layer", default="entities", help="span layer to import into (default: entities)")
    imp.add_argument("-o", "--output", help="write the changed project here instead")
    imp.set_defaults(func=run_import)

    exp = sub.add_parser("export", help="write an annotator's entities to a file")
    exp.add_argument("bundle")
    exp.add_argument("file", help="file to write (brat: writes FILE.txt and FILE.ann)")
    exp.add_argument("--reference", required=True)
    exp.add_argument("--annotator", help="whose spans (default: the only annotator of the reference)")
    exp.add_argument("--format", type=_format_name, choices=formats, help=fmt_help)
    exp.add_argument("--layer", default="entities", help="span layer to export (default: entities)")
    exp.set_defaults(func=run_export)

    src = sub.add_parser("import-sources", help="add the mtme-zh-mwe source annotation "
                                                "(source-entities.all.json) as a span layer on the sources")
    src.add_argument("bundle")
    src.add_argument("file", help="source-entities.all.json")
    src.add_argument("--annotator", required=True)
    src.add_argument("--layer", default="source-entities", help="span layer on sources (created when absent)")
    src.add_argument("-o", "--output", help="write the changed project here instead")
    src.set_defaults(func=run_import_sources)

    lst = sub.add_parser("list", help="annotators and span counts per reference")
    lst.add_argument("bundle")
    lst.set_defaults(func=run_list)

    cmp = sub.add_parser("compare", help="agreement of two annotators: exact-span F1 and kappa over the "
                                          "language's units, on the segments both annotated")
    cmp.add_argument("bundle")
    cmp.add_argument("annotator_a", nargs="?", help="default: the layer with the most spans on the reference")
    cmp.add_argument("annotator_b", nargs="?", help="default: the layer with the next most spans")
    cmp.add_argument("--reference", required=True)
    cmp.add_argument("--all-segments", action="store_true",
                     help="compare every segment of the reference, not only those both annotated")
    cmp.add_argument("--annotator", action="append", metavar="NAME",
                     help="a layer to compare; repeat for two or more: Krippendorff's alpha and Gwet's AC1 on "
                          "the units' labels over all of them, overall, per type and per document")
    cmp.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                     help="with --annotator: resamples of the units for the 95%% intervals (0: none)")
    cmp.add_argument("--seed", type=int, default=12345, help="with --annotator: the bootstrap's seed")
    cmp.add_argument("--json", action="store_true", help="print one JSON object")
    cmp.set_defaults(func=run_compare)

    from mtworkbench.cli import entities_suggest

    entities_suggest.register(sub)
    from mtworkbench.cli import entity_layers

    entity_layers.register(sub)
    p.set_defaults(func=lambda args: _usage(p))


# Other names the span formats go by.
_FORMAT_ALIASES = {"webanno-tsv": "webanno", "webanno_tsv": "webanno", "tsv3": "webanno", "webanno3": "webanno",
                   "inception": "webanno", "spans-json": "json", "standoff": "brat"}


def _format_name(value: str) -> str:
    name = value.strip().lower()
    return _FORMAT_ALIASES.get(name, name)


def _usage(parser: argparse.ArgumentParser) -> int:
    raise UsageError("name an action: import, export, list, compare, suggest, layers, layer-add or relation-layer-add")


def _format(args: argparse.Namespace) -> str:
    from mtworkbench.io.annotations.annotations import guess_format

    fmt = args.format or guess_format(args.file)
    if fmt is None:
        raise UsageError(f"cannot tell the format of {args.file} from its name; give --format")
    return fmt


def run_import(args: argparse.Namespace) -> int:
    from mtworkbench.io.annotations.annotations import import_entities
    from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
    from mtworkbench.io.bundle.locking import bundle_locks

    fmt = _format(args)
    out = Path(args.output or args.bundle)
    # Locked from read to write (the bundle, and the output when it is another file).
    with bundle_locks(args.bundle, out):
        with cli_progress(args, "Reading"):
            project = load_bundle(args.bundle)
        summary = import_entities(
            project,
            args.file,
            fmt,
            args.reference,
            args.annotator,
            create_types=args.create_types,
            replace_existing=args.replace,
            layer=args.layer,
        )
        with cli_progress(args, "Writing"):
            save_bundle(project, out)
    notes = []
    if summary.created_reference:
        notes.append(f"created reference {summary.reference}")
    if summary.texts_set:
        notes.append(f"set {summary.texts_set} reference texts")
    if summary.created_types:
        notes.append(f"new types: {', '.join(summary.created_types)}")
    extra = f" ({'; '.join(notes)})" if notes else ""
    if summary.relations:
        notes.append(f"{len(summary.relations)} relations")
    print(
        f"imported {summary.spans} entities in {summary.segments} segments as "
        f"{summary.annotator} on {summary.reference}{extra}; wrote {out}"
    )
    return 0


def run_import_sources(args: argparse.Namespace) -> int:
    from mtworkbench.io.annotations.source_entities import import_source_entities
    from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
    from mtworkbench.io.bundle.locking import bundle_locks

    out = Path(args.output or args.bundle)
    with bundle_locks(args.bundle, out):
        project = load_bundle(args.bundle)
        result = import_source_entities(project, args.file, args.annotator, args.layer)
        save_bundle(project, out)
    print(f"imported {len(result.added)} source spans into layer {result.layer} ({result.relocated} relocated to "
          f"their value, {len(result.skipped)} skipped: value not in the segment); wrote {out}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    from mtworkbench.core.output import describe_target, to_stdout
    from mtworkbench.io.annotations.annotations import default_annotator, export_entities
    from mtworkbench.io.bundle.bundle import load_bundle

    fmt = _format(args)
    with cli_progress(args, "Reading"):
        project = load_bundle(args.bundle)
    annotator = args.annotator or default_annotator(project, args.reference)
    written = export_entities(project, args.reference, annotator, fmt, args.file, layer=args.layer)
    count = sum(1 for s in project.spans
                if s.reference == args.reference and s.annotator == annotator and s.layer == args.layer)
    print(f"wrote {count} entities of {annotator} on {args.reference} to {', '.join(map(describe_target, written))}",
          file=sys.stderr if to_stdout(args.file) else sys.stdout)  # not into the data on stdout
    return 0


def run_list(args: argparse.Namespace) -> int:
    from mtworkbench.io.bundle.bundle import load_bundle

    with cli_progress(args, "Reading"):
        project = load_bundle(args.bundle)
    counts: dict[tuple[str, str], int] = {}
    for s in project.spans:
        counts[(s.reference, s.annotator)] = counts.get((s.reference, s.annotator), 0) + 1
    if not counts:
        print("no entity annotations")
    for (ref, who), n in sorted(counts.items()):
        print(f"{ref}\t{who}\t{n}")
    return 0


def run_compare(args: argparse.Namespace) -> int:
    from mtworkbench.core.annotation import compare_annotators, ranked_layers
    from mtworkbench.core.campaign import shared_segments
    from mtworkbench.core.project_input import ADJUDICATED_LAYER
    from mtworkbench.io.bundle.bundle import load_bundle

    with cli_progress(args, "Reading"):
        project = load_bundle(args.bundle)
    if not project.has_reference(args.reference):
        raise DataError(f"{args.bundle}: no reference {args.reference!r}; references: "
                        + ", ".join(r.id for r in project.references))
    if args.annotator:
        return run_compare_many(args, project)
    a, b = args.annotator_a, args.annotator_b
    if a is None or b is None:
        ranked = [n for n in ranked_layers(project, args.reference, last=ADJUDICATED_LAYER) if n != a]
        if a is None:
            a, ranked = (ranked[0], ranked[1:]) if ranked else (None, ranked)
        b = ranked[0] if ranked else None
        if a is None or b is None:
            raise DataError(f"{args.bundle}: reference {args.reference!r} needs two annotator layers to compare")
    segments: list[str] | None
    if args.all_segments:
        segments = [sid for sid in project.segment_ids if sid in project.reference(args.reference).texts]
    else:  # a campaign's annotators: the segments it gave to both; else where both annotated
        segments = shared_segments(project, args.reference, a, b)
    cmp = compare_annotators(project, args.reference, a, b, segments)
    num = lambda x: None if isinstance(x, float) and math.isnan(x) else x  # noqa: E731
    if args.json:
        print(json.dumps({
            "reference": cmp.reference,
            "annotators": [cmp.annotator_a, cmp.annotator_b],
            "entities": [cmp.count_a, cmp.count_b],
            "matched": cmp.matched,
            "f1": num(cmp.f1),
            "untyped_f1": num(cmp.untyped_f1),
            "kappa": num(cmp.kappa),
            "tokens": cmp.n_tokens,
            "unit": cmp.unit,
            "units": cmp.n_tokens,
            "segments": len(cmp.segments),
            "reference_segments": cmp.n_reference_segments,
            "segment_scope": _scope(args, cmp),
            "by_type": {t: {"a": a.count_a, "b": a.count_b, "matched": a.matched, "f1": num(a.f1)} for t, a in cmp.by_type.items()},
        }, indent=2))
        return 0
    fmt = lambda x: "-" if isinstance(x, float) and math.isnan(x) else f"{x:.4f}"  # noqa: E731
    print(f"{cmp.annotator_a}: {cmp.count_a} entities, {cmp.annotator_b}: {cmp.count_b}, identical: {cmp.matched}")
    print(f"compared on {len(cmp.segments)} of {cmp.n_reference_segments} segments"
          + f" ({_scope(args, cmp)})")
    print(f"exact-span F1 {fmt(cmp.f1)}  (ignoring type {fmt(cmp.untyped_f1)})  kappa {fmt(cmp.kappa)} "
          f"over {cmp.n_tokens} {cmp.unit}")
    for t, a in cmp.by_type.items():
        print(f"  {t}\t{a.count_a}\t{a.count_b}\t{a.matched}\tF1 {fmt(a.f1)}")
    return 0


def run_compare_many(args: argparse.Namespace, project) -> int:
    """Two or more layers named by --annotator: alpha and AC1 on unit labels over all of them."""
    from mtworkbench.analysis.span_reliability import span_reliability

    layers = list(dict.fromkeys(args.annotator + [n for n in (args.annotator_a, args.annotator_b) if n]))
    unknown = [n for n in layers if n not in project.annotators]
    if unknown:
        raise DataError(f"{args.bundle}: no annotator layer {unknown[0]!r}; layers: "
                        + ", ".join(project.annotators))
    if len(layers) < 2:
        raise UsageError("name two or more different layers with --annotator")
    if not 0 <= args.bootstrap <= 1_000_000:
        raise UsageError(f"--bootstrap must be between 0 and 1000000, not {args.bootstrap}")
    rel = span_reliability(project, args.reference, layers, args.all_segments,
                           bootstrap=args.bootstrap, seed=args.seed)
    if args.json:
        out = rel.to_json()
        out["segment_scope"] = "all" if args.all_segments else "worked on by each layer"
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0

    def row(name: str, stats) -> str:
        cells = []
        for s in stats:
            value = "-" if math.isnan(s.value) else f"{s.value:.4f}"
            ci = "" if s.low is None or s.high is None else f" [{s.low:.3f}, {s.high:.3f}]"
            cells.append(f"{s.stat} {value}{ci}")
        return f"  {name:<16} " + "   ".join(cells)

    print(f"{len(layers)} layers: " + ", ".join(f"{a} ({rel.spans[a]} entities)" for a in layers))
    print(f"{rel.n_units} {rel.unit} in {len(rel.segments)} segments")
    print(row("overall", rel.overall))
    for t, stats in rel.by_type.items():
        print(row(t, stats))
    for d, stats in rel.by_document.items():
        print(row(f"document {d}", stats))
    print(_unitizing_line(rel))
    return 0


def _unitizing_line(rel) -> str:
    """Krippendorff's unitizing alpha (two layers, boundaries to the character), or why not."""
    u = rel.unitizing
    if u is None:
        return rel.unitizing_note
    value = lambda x: "-" if math.isnan(x) else f"{x:.4f}"  # noqa: E731
    types = "   ".join(f"{c} {value(r.alpha)}" for c, r in u.by_category.items())
    return f"unitizing alpha {value(u.alpha)} over {u.length} characters" + (f"   ({types})" if types else "")


def _scope(args: argparse.Namespace, cmp) -> str:
    """Which segments were compared, in words."""
    if args.all_segments:
        return "all"
    return cmp.scope if cmp.scope == "both annotated" else "shared by the campaign"
