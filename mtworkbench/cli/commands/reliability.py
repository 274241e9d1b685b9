"""``mtworkbench reliability``: mean Spearman correlation by pseudo-document length (Turian, Shen & Melamed 2003)."""

from __future__ import annotations

import argparse
import json
import math
from itertools import combinations

from mtworkbench.cli import UsageError
from mtworkbench.cli.progress import cli_progress
from mtworkbench.cli.scheduler import add_scheduler_argument, chosen_scheduler


def _lengths(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from None
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError("lengths must be integers >= 1")
    return values


# How a judge name with ':' is written (analysis.human_scores.parse_human_spec).
HUMAN_HELP = (
    "the human score NAME[:FIELD]; a name containing ':' works as is (judge a:b: 'a:b:adequacy'); "
    "a name that itself ends in :adequacy, :fluency or :score goes in double quotes: '\"x:score\":fluency'"
)

def register(subparsers: argparse._SubParsersAction) -> None:
    from mtworkbench.analysis.reliability import DEFAULT_DOCS, DEFAULT_LENGTHS, MODES

    p = subparsers.add_parser(
        "reliability",
        help="metric reliability by pseudo-document length",
        description=(
            "For each length n, draw pseudo-documents of n random segments; a metric's document "
            "score comes from summed sufficient statistics, the human score is the mean of one "
            "random judgment per segment. Prints the mean Spearman correlation per n for each "
            "metric and, where two judges rated the same items, judge vs judge. Mode 'systems' "
            "correlates across systems per document (needs 3+ systems), 'documents' across "
            "documents; 'auto' picks."
        ),
    )
    p.add_argument("bundle", help="a project bundle (*.mtwb.json)")
    p.add_argument("--human", required=True, metavar="NAME[:FIELD]",
                   help=HUMAN_HELP)
    p.add_argument("--metric", action="append", required=True, metavar="SPEC", help="metric spec (repeatable)")
    p.add_argument("--z", action="store_true", help="z-normalise each judge's scores")
    p.add_argument("--lengths", type=_lengths, default=list(DEFAULT_LENGTHS), metavar="N,N,...",
                   help=f"pseudo-document lengths (default {','.join(map(str, DEFAULT_LENGTHS))})")
    p.add_argument("--docs", type=int, default=DEFAULT_DOCS, help="pseudo-documents per length")
    p.add_argument("--seed", type=int, default=12345)
    p.add_argument("--mode", choices=MODES, default="auto")
    p.add_argument("--no-inter-judge", action="store_true", help="skip the judge-vs-judge curve")
    p.add_argument("--wilcoxon", action="store_true",
                   help="Wilcoxon signed-rank test between each pair of curves at each length (mode systems)")
    p.add_argument("--csv", metavar="FILE", help="also write the curves as CSV (label,n,mean_spearman); "
                   "labels a spreadsheet would run as formulas get a leading ' (see --raw)")
    p.add_argument("--raw", action="store_true", help="--csv: write cells unchanged (no leading ' on =, +, -, @)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_scheduler_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtworkbench.analysis.human_scores import collect_human_scores
    from mtworkbench.analysis.reliability import MetricStats, reliability
    from mtworkbench.scoring.project_scores import score_project
    from mtworkbench.scoring.store import load_project

    if args.docs < 2:
        raise UsageError("--docs must be at least 2")
    scheduler = chosen_scheduler(args)  # a cluster starts while the bundle is read
    with cli_progress(args, "Reading"):
        project = load_project(args.bundle)  # with its persisted scores
    human = collect_human_scores(project, args.human, z=args.z)
    rated = human.rated_systems()
    with cli_progress(args, "Scoring", unit="scores", scale=1000) as progress:  # thousandths of a score
        scored = score_project(project, args.metric, rated, progress=progress,
                               scheduler=scheduler)
    metrics = [MetricStats(s.spec, s.metric.aggregate, s.stats) for s in scored]
    result = reliability(
        metrics, human, lengths=args.lengths, n_docs=args.docs, seed=args.seed, mode=args.mode,
        inter_judge=not args.no_inter_judge,
    )
    payload = result.to_json()
    if args.wilcoxon:
        if result.mode != "systems":
            raise UsageError("--wilcoxon needs mode 'systems' (3+ rated systems)")
        tests = []
        for a, b in combinations([c.label for c in result.curves], 2):
            for n in result.curve(a).lengths:
                if n in result.curve(b).samples:
                    # "length": pseudo-document length; "n": paired samples used.
                    tests.append({"length": n, **result.wilcoxon(a, b, n).to_json()})
        payload["wilcoxon"] = tests
    if args.csv:
        from mtworkbench.core.output import write_output

        write_output(args.csv, result.to_csv(raw=args.raw))
    if args.json:
        print(json.dumps(payload, ensure_ascii=False))
        return 0
    print(f"{result.human} vs metrics: mean Spearman by pseudo-document length "
          f"({result.n_docs} documents per length, mode {result.mode}, seed {result.seed})")
    lengths = result.curves[0].lengths if result.curves else []
    width = max([len(c.label) for c in result.curves] + [6])
    print(f"{'':<{width}}  " + "  ".join(f"{n:>7}" for n in lengths))
    for c in result.curves:
        cells = {n: v for n, v in zip(c.lengths, c.mean)}
        print(f"{c.label:<{width}}  " + "  ".join(
            f"{cells[n]:7.4f}" if n in cells and math.isfinite(cells[n]) else f"{'-':>7}" for n in lengths))
    for n, why in result.skipped.items():
        print(f"n = {n} skipped: {why}")
    for note in result.notes:
        print(note)
    return 0
