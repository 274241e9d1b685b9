"""``mtworkbench metrics``: metric scores computed elsewhere (COMET, MetricX, ...) in a bundle."""

from __future__ import annotations

import argparse

from mtworkbench.cli import UsageError
from mtworkbench.cli.progress import cli_progress
from mtworkbench.core.wording import plural


def register(subparsers: argparse._SubParsersAction) -> None:
    from mtworkbench.io.formats import METRIC_SCORE_FORMATS

    p = subparsers.add_parser(
        "metrics",
        help="import metric scores computed elsewhere",
        description="Store metric scores computed by other tools in a bundle; they are then used as "
                    "metric ext:NAME everywhere (score, correlate, reliability, the app).",
    )
    sub = p.add_subparsers(dest="metrics_command", metavar="ACTION")
    imp = sub.add_parser(
        "import-scores",
        help="add a metric's scores from files",
        description=(
            "Add scores to BUNDLE (saved in place) with their provenance (file name, sha256, date). "
            "--format lines: FILE has one segment score per line in segment order, for --system ID. "
            "--format mt-metrics-eval: FILEs are NAME-REF.seg.score (a block of SYSTEM<TAB>SCORE lines per "
            "system) and/or NAME-REF.sys.score (one line per system); systems the bundle lacks are skipped. "
            "The metric is NAME (default for mt-metrics-eval: the file name without .seg.score/.sys.score)."
        ),
    )
    imp.add_argument("bundle")
    imp.add_argument("files", nargs="+", metavar="FILE")
    imp.add_argument("--metric", metavar="NAME", help="the metric's name (used as ext:NAME)")
    imp.add_argument("--system", metavar="ID", help="the system the scores belong to (--format lines)")
    imp.add_argument("--format", choices=METRIC_SCORE_FORMATS.readable(), default="lines",
                     help=METRIC_SCORE_FORMATS.help())
    imp.add_argument("--higher-is-better", choices=("yes", "no"), default=None,
                     help="whether higher scores are better (default yes; kept when re-importing)")
    imp.set_defaults(func=run_import)
    lst = sub.add_parser("list", help="list a bundle's imported metrics",
                         description="Each imported metric, its systems and the files it came from.")
    lst.add_argument("bundle")
    lst.set_defaults(func=run_list)
    p.set_defaults(func=_missing_action)


def _missing_action(args: argparse.Namespace) -> int:
    raise UsageError("choose an action: import-scores or list")


def run_import(args: argparse.Namespace) -> int:
    from mtworkbench.io.bundle.bundle import bundle_transaction
    from mtworkbench.io.formats import METRIC_SCORE_FORMATS
    from mtworkbench.io.scores.external_scores import default_metric_name

    higher = None if args.higher_is_better is None else args.higher_is_better == "yes"
    if args.format == "lines":
        if not args.metric or not args.system:
            raise UsageError("--format lines needs --metric NAME and --system ID")
        if len(args.files) != 1:
            raise UsageError("--format lines takes one FILE (the scores of one system)")
    elif args.system:
        raise UsageError("--system only applies to --format lines (mt-metrics-eval files name their systems)")
    reports = []
    read = METRIC_SCORE_FORMATS.get(args.format).read
    # Locked read-modify-write: a concurrent writer's update is not lost; on an error nothing is saved.
    with bundle_transaction(args.bundle) as project:
        for path in args.files:
            reports.append(read(project, args.metric or default_metric_name(path), path, args.system, higher))
    for path, rep in zip(args.files, reports):
        skipped = f"; skipped (not in the bundle): {', '.join(rep.skipped)}" if rep.skipped else ""
        print(f"{args.bundle}: ext:{rep.metric} {rep.level} scores of {plural(len(rep.systems), 'system')} "
              f"from {path}{skipped}")
    return 0


def run_list(args: argparse.Namespace) -> int:
    from mtworkbench.io.bundle.bundle import load_bundle

    with cli_progress(args, "Reading"):
        project = load_bundle(args.bundle)
    if not project.external_scores:
        print(f"{args.bundle}: no imported metric scores")
        return 0
    for name, rec in project.external_scores.items():
        direction = "higher is better" if rec.get("higher_is_better", True) else "lower is better"
        print(f"ext:{name}  ({direction}; systems: {', '.join(rec.get('systems', {}))})")
        for p in rec.get("provenance", []):
            print(f"  {p.get('level')}  {p.get('file')}  sha256 {p.get('sha256')}  {p.get('date')}")
    return 0
