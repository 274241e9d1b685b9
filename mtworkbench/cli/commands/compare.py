"""``mtworkbench compare``: paired significance tests between systems.

    mtworkbench compare --ref R.txt [--ref ...] --system ID=FILE --system ID=FILE ...
                        [--baseline ID] --metric SPEC --method paired-bs|paired-ar
                        [--n N] [--seed S] [--json]
    mtworkbench compare BUNDLE [--system ID ...] [--baseline ID] --metric SPEC ...

The baseline is the first system unless ``--baseline`` names another; every
other system is compared with it as sacrebleu's ``--paired-bs`` /
``--paired-ar`` do, with the same p-values on the same seed (default 12345).
``mean`` and ``ci`` are the bootstrap mean and 95% half-width (sacrebleu's);
paired-ar reports none (sacrebleu's CLI default), so they are null there.

Bad input: files with different line counts (exit 1, every count named);
empty files (exit 1, "no segments"); fewer than two systems, ``--system``
without ``=``, an unknown ``--baseline``, metric or option, ``--n`` < 1 (exit
2). Empty or whitespace-only lines are segments like any other; what a metric
does with them is in its module (NIST refuses a segment whose references are
all empty, exit 1 naming the segment).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mtworkbench.analysis.significance import DEFAULT_SAMPLES, DEFAULT_SEED, SIGNIFICANCE_LEVEL, paired_test
from mtworkbench.cli import UsageError
from mtworkbench.cli.progress import cli_progress
from mtworkbench.cli.target_language import add_tgt_lang_argument, chosen_language, print_notices
from mtworkbench.core.errors import DataError
from mtworkbench.core.scoring_input import ScoringInput
from mtworkbench.metrics.registry import create_metric, metric_names


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "compare",
        help="paired significance tests between systems",
        description=(
            "Compare systems with a paired bootstrap (paired-bs) or approximate "
            "randomisation (paired-ar) test against a baseline, reproducing sacrebleu's "
            f"p-values. Metrics: {', '.join(metric_names())}."
        ),
    )
    p.add_argument("bundle", nargs="?", help="a project bundle (*.mtwb.json)")
    p.add_argument("--ref", action="append", default=[], help="reference file (repeat for several)")
    p.add_argument(
        "--system",
        action="append",
        default=[],
        metavar="ID=FILE",
        help="a system output as ID=FILE (with a bundle: a system ID); repeatable",
    )
    p.add_argument("--baseline", help="the baseline system (default: the first)")
    p.add_argument("--metric", default="bleu", metavar="SPEC", help="metric spec (default: bleu)")
    p.add_argument("--method", choices=tuple(DEFAULT_SAMPLES), default="paired-bs")
    p.add_argument(
        "--n",
        type=int,
        help="resamples (paired-bs, default 1000) or trials (paired-ar, default 10000)",
    )
    p.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})"
    )
    add_tgt_lang_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.n is not None and args.n < 1:
        raise UsageError(f"--n must be a positive number, got {args.n}")
    project_language = None
    if args.bundle:
        systems, project_language = _bundle_systems(args)
    else:
        systems = _file_systems(args)
    language = chosen_language(args, project_language)
    metric = create_metric(args.metric, language)
    print_notices([metric], "compare")
    for _, data in systems:
        data.target_language = language
    if len(systems) < 2:
        raise UsageError("give at least two systems to compare")
    names = [name for name, _ in systems]
    if args.baseline is not None:
        if args.baseline not in names:
            raise UsageError(
                f"--baseline {args.baseline!r} is not one of the systems: {', '.join(names)}"
            )
        systems.sort(key=lambda item: item[0] != args.baseline)  # stable: baseline first
    if systems[0][1].n_segments == 0:
        raise DataError("no segments to compare (the files are empty)")

    stats = [(name, metric.segment_statistics(data)) for name, data in systems]
    n_samples = args.n or DEFAULT_SAMPLES[args.method]
    result = paired_test(metric, stats, args.method, n_samples, args.seed)
    signature = (
        metric.make_signature(systems[0][1].n_references)
        .with_trailing("seed", args.seed)
        .with_trailing("bs" if args.method == "paired-bs" else "ar", n_samples)
        .format()
    )
    rows = [
        {"system": r.system, "score": r.score, "p_value": r.p_value, "mean": r.mean, "ci": r.ci,
         "identical": r.identical, "significant": r.significant()}
        for r in result.systems
    ]
    if args.json:
        out: dict[str, Any] = {
            "baseline": result.baseline,
            "metric": args.metric,
            "method": args.method,
            "n": n_samples,
            "seed": args.seed,
            "signature": signature,
            "systems": rows,
        }
        json.dump(out, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        _print_table(rows, result.baseline, signature)
    return 0


def _parse_system(value: str) -> tuple[str, str]:
    name, eq, path = value.partition("=")
    if not eq or not name.strip() or not path:
        raise UsageError(f"--system expects ID=FILE, got {value!r}")
    return name.strip(), path


def _file_systems(args: argparse.Namespace) -> list[tuple[str, ScoringInput]]:
    from mtworkbench.io.corpora.plaintext import check_same_length, read_lines

    if not args.ref:
        raise UsageError("give a bundle, or --ref and at least two --system ID=FILE")
    parsed = [_parse_system(v) for v in args.system]
    seen: set[str] = set()
    for name, _ in parsed:
        if name in seen:
            raise UsageError(f"system {name!r} is given twice")
        seen.add(name)
    files: dict[str, list[str]] = {}
    for path in args.ref:
        files[path] = read_lines(path)
    for _, path in parsed:
        if path not in files:
            files[path] = read_lines(path)
    check_same_length(files)
    refs = [files[p] for p in args.ref]
    return [(name, ScoringInput(files[path], refs)) for name, path in parsed]


def _bundle_systems(args: argparse.Namespace) -> tuple[list[tuple[str, ScoringInput]], str | None]:
    from mtworkbench.core.project_input import scoring_input, unscored_reason
    from mtworkbench.io.bundle.bundle import load_bundle

    if args.ref:
        raise UsageError("give either a bundle or --ref files, not both")
    for value in args.system:
        if "=" in value:
            raise UsageError(f"with a bundle, --system takes a system ID, got {value!r}")
    with cli_progress(args, "Reading"):
        project = load_bundle(args.bundle)
    ids = args.system or [s.id for s in project.systems]
    if len(set(ids)) != len(ids):
        raise UsageError("a system is given twice")
    for sid in ids:
        if not project.has_system(sid):
            raise DataError(
                f"{args.bundle}: no system {sid!r}; systems: "
                + ", ".join(s.id for s in project.systems)
            )
    if not project.references:
        raise DataError(f"{args.bundle}: the project has no references")
    for sid in ids:
        why = unscored_reason(project, sid)
        if why:
            raise DataError(f"{args.bundle}: {why}; leave it out (--system)")
    return [(sid, scoring_input(project, sid)) for sid in ids], project.target_language or None


def _fmt(x: float | None, digits: int = 4) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _print_table(rows: list[dict[str, Any]], baseline: str, signature: str) -> None:
    table = [("system", "score", "mean (+/- ci)", "p-value")]
    for r in rows:
        mean = "-" if r["mean"] is None else f"{r['mean']:.4f} (+/- {r['ci']:.4f})"
        p = r["p_value"]
        mark = " *" if r["significant"] else (" (identical to the baseline)" if r["identical"] else "")
        name = f"Baseline: {r['system']}" if r["system"] == baseline else r["system"]
        table.append((name, _fmt(r["score"]), mean, _fmt(p) + mark))
    widths = [max(len(row[i]) for row in table) for i in range(4)]
    for row in table:
        print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip())
    print(f"* p < {SIGNIFICANCE_LEVEL} against the baseline (identical segment statistics: p = 1)\n{signature}")
