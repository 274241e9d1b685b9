"""``mtworkbench agreement``: inter- and intra-judge agreement of a bundle's or a file's judgments."""

from __future__ import annotations

import argparse
import json

from mtworkbench.cli import UsageError
from mtworkbench.core.errors import DataError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "agreement",
        help="agreement between human judges",
        description=(
            "Inter-judge Spearman, Pearson and quadratic-weighted Cohen's kappa on the items "
            "(system, segment) both judges rated, and intra-judge consistency on repeated items. "
            "Read the judgments of a project bundle, or of a judgments CSV/TSV file."
        ),
    )
    p.add_argument("bundle", nargs="?", help="a project bundle")
    p.add_argument("--judgments", metavar="FILE", help="a judgments CSV/TSV file instead of a bundle")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def run(args: argparse.Namespace) -> int:
    from mtworkbench.analysis.agreement import agreement

    if bool(args.bundle) == bool(args.judgments):
        raise UsageError("give either a bundle or --judgments FILE")
    if args.bundle:
        from mtworkbench.io.bundle import load_bundle

        judgments = load_bundle(args.bundle).judgments
        source = args.bundle
    else:
        from mtworkbench.io.judgments import read_judgments

        judgments = read_judgments(args.judgments)
        source = args.judgments
    if not judgments:
        raise DataError(f"{source}: no judgments")
    report = agreement(judgments)
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
        return 0
    print(f"{len(judgments)} judgments by {len(report.judges)} judges: {', '.join(report.judges)}")
    if report.pairs:
        print()
        print(f"{'judge A':<16} {'judge B':<16} {'n':>6}  {'quantity':<9} {'n':>6} {'spearman':>9} {'pearson':>9} {'kappa_q':>9}")
        for pair in report.pairs:
            rows = [("adequacy", pair.adequacy), ("fluency", pair.fluency)]
            if pair.score is not None:
                rows.append(("score", pair.score))
            for k, (name, s) in enumerate(rows):
                a, b, n = (pair.judges[0], pair.judges[1], str(pair.n)) if k == 0 else ("", "", "")
                print(
                    f"{a:<16} {b:<16} {n:>6}  {name:<9} {s.n:>6} {_fmt(s.spearman):>9} "
                    f"{_fmt(s.pearson):>9} {_fmt(s.kappa_quadratic):>9}"
                )
    else:
        print("no two judges rated a common item")
    if report.intra:
        print()
        print(f"{'judge':<16} {'repeats':>7}  {'quantity':<9} {'exact':>7} {'mean|d|':>8} {'kappa_q':>9}")
        for judge, intra in report.intra.items():
            rows = [("adequacy", intra.adequacy), ("fluency", intra.fluency)]
            if intra.score is not None:
                rows.append(("score", intra.score))
            for k, (name, c) in enumerate(rows):
                label, n = (judge, str(intra.n)) if k == 0 else ("", "")
                print(
                    f"{label:<16} {n:>7}  {name:<9} {_fmt(c.exact):>7} {_fmt(c.mean_abs_diff):>8} "
                    f"{_fmt(c.kappa_quadratic):>9}"
                )
    return 0
