"""``mtworkbench entities``: import, export, list and compare entity annotations.

    mtworkbench entities import BUNDLE FILE --reference ID --annotator NAME [--format muc|conll|brat|jsonl]
    mtworkbench entities export BUNDLE FILE --reference ID [--annotator NAME] [--format ...]
    mtworkbench entities list BUNDLE
    mtworkbench entities compare BUNDLE --reference ID A B [--json]
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
    imp.add_argument("--format", choices=formats, help=fmt_help)
    imp.add_argument("--create-types", action="store_true", help="add entity types the project does not know yet")
    imp.add_argument("--replace", action="store_true", help="replace the annotator's spans on this reference")
    imp.add_argument("-o", "--output", help="write the changed project here instead")
    imp.set_defaults(func=run_import)

    exp = sub.add_parser("export", help="write an annotator's entities to a file")
    exp.add_argument("bundle")
    exp.add_argument("file", help="file to write (brat: writes FILE.txt and FILE.ann)")
    exp.add_argument("--reference", required=True)
    exp.add_argument("--annotator", help="whose spans (default: the only annotator of the reference)")
    exp.add_argument("--format", choices=formats, help=fmt_help)
    exp.set_defaults(func=run_export)

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
    cmp.add_argument("--json", action="store_true", help="print one JSON object")
    cmp.set_defaults(func=run_compare)

    p.set_defaults(func=lambda args: _usage(p))


def _usage(parser: argparse.ArgumentParser) -> int:
    raise UsageError("name an action: import, export, list or compare")


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
    print(
        f"imported {summary.spans} entities in {summary.segments} segments as "
        f"{summary.annotator} on {summary.reference}{extra}; wrote {out}"
    )
    return 0


def run_export(args: argparse.Namespace) -> int:
    from mtworkbench.core.output import describe_target, to_stdout
    from mtworkbench.io.annotations.annotations import default_annotator, export_entities
    from mtworkbench.io.bundle.bundle import load_bundle

    fmt = _format(args)
    with cli_progress(args, "Reading"):
        project = load_bundle(args.bundle)
    annotator = args.annotator or default_annotator(project, args.reference)
    written = export_entities(project, args.reference, annotator, fmt, args.file)
    count = sum(1 for s in project.spans if s.reference == args.reference and s.annotator == annotator)
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


def _scope(args: argparse.Namespace, cmp) -> str:
    """Which segments were compared, in words."""
    if args.all_segments:
        return "all"
    return cmp.scope if cmp.scope == "both annotated" else "shared by the campaign"
