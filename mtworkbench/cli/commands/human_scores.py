"""``mtworkbench human-scores``: the human score of every rated item under one protocol."""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from mtworkbench.cli import UsageError
from mtworkbench.cli.progress import cli_progress

PROTOCOL_CHOICES = ("ldc", "da", "esa", "mqm", "rank", "ranking")  # ranking: another name for rank


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "human-scores",
        help="segment or system human scores of one protocol (LDC, DA, ESA, MQM, relative ranking)",
        description=(
            "The human score of every rated (system, segment) item: the mean over its raters of each "
            "rater's score (LDC: --field adequacy or fluency; DA, ESA: the 0-100 score; MQM: minus the "
            "weighted errors, or, for ratings imported from Unbabel's files, the mean of the mqm scores of the "
            "rater's rows, unless --recompute; rank: the mean rank, 1 best). System level: the mean over the system's rated "
            "segments; for relative ranking (rank), WMT's expected wins from the pairwise comparisons in "
            "every ranking, ties left out, with the ratio of wins. DA quality-control items are left out."
        ),
    )
    p.add_argument("bundle", help="a project bundle (*.mtwb.json)")
    p.add_argument("--protocol", required=True, choices=PROTOCOL_CHOICES)
    p.add_argument("--system", action="append", default=[], metavar="ID", help="only this system (repeatable)")
    p.add_argument("--level", choices=("segment", "system"), default="segment")
    p.add_argument("--field", choices=("adequacy", "fluency"), default="adequacy", help="LDC: which rating")
    p.add_argument("--weights", default="", metavar="NAME=W,...",
                   help="MQM weights, e.g. major=5,minor=1,neutral=0,minor-punctuation=0.1,non-translation=25 "
                        "(Google's by default; a name not listed keeps Google's weight; other names are "
                        "further severities; SEVERITY/CATEGORY[/SUB]=W weighs one category, SEVERITY * for "
                        "any, e.g. '*/source issue=0', the most specific match winning)")
    p.add_argument("--recompute", action="store_true",
                   help="MQM ratings imported with Unbabel's scores (a misc column giving each rater's mqm, "
                        "WMT22 en-ru): weigh their errors with --weights instead of those scores")
    p.add_argument("--z", action="store_true", help="z-normalise each rater's scores first (DA practice)")
    p.add_argument("--json", action="store_true", help='print {"scores": [...]}')
    p.set_defaults(func=run)


def _number(value: float) -> float:
    return float(value) + 0.0  # no -0.0 in the output


def run(args: argparse.Namespace) -> int:
    from mtworkbench.analysis.human_scores import HumanSpec, collect_human_scores
    from mtworkbench.analysis.mqm_weights import GOOGLE_WEIGHTS, parse_weights
    from mtworkbench.core.errors import DataError
    from mtworkbench.core.mqm_typology import UNBABEL_SCALE
    from mtworkbench.io.bundle.bundle import load_bundle

    if args.protocol == "ranking":
        args.protocol = "rank"
    if args.weights and args.protocol != "mqm":
        raise UsageError("--weights applies to --protocol mqm only")
    if args.recompute and args.protocol != "mqm":
        raise UsageError("--recompute applies to --protocol mqm only")
    try:
        weights = parse_weights(args.weights) if args.weights else GOOGLE_WEIGHTS
    except DataError as exc:
        raise UsageError(str(exc)) from None
    with cli_progress(args, "Reading"):
        project = load_bundle(args.bundle)
    unknown = [s for s in args.system if not project.has_system(s)]
    if unknown:
        raise DataError(f"{args.bundle}: no system {unknown[0]!r}; systems: {', '.join(s.id for s in project.systems)}")
    given = 0  # MQM judgments scored by Unbabel's scores given with them
    if args.protocol == "mqm":
        import sys

        from mtworkbench.analysis.human_scores import weighs_errors

        mqm = [j for j in project.judgments if j.protocol == "mqm" and not j.qc]
        given = sum(j.scale == UNBABEL_SCALE and not weighs_errors(j, args.recompute) for j in mqm)
        errors = [e for j in mqm if weighs_errors(j, args.recompute) for e in j.errors]
        missing = weights.unweighted_severities(errors)
        if missing:
            print(f"note: no weight for severity {', '.join(repr(s) for s in missing)}: counted as 0 "
                  f"(give one with --weights {missing[0].lower() or 'NAME'}=W)", file=sys.stderr)
        if given and args.weights:
            print(f"note: {given} MQM ratings came with Unbabel's scores, which --weights does not change "
                  "(add --recompute to weigh their errors)", file=sys.stderr)
    field = args.field if args.protocol == "ldc" else "score"
    human = collect_human_scores(project, HumanSpec(args.protocol, field), z=args.z, mqm_weights=weights,
                                 protocol=args.protocol, mqm_recompute=args.recompute)
    if args.protocol == "rank" and args.level == "system":
        return _ranking_systems(project, human.systems, args)
    matrix, counts = human.matrix, human.counts
    wanted = [i for i, s in enumerate(human.systems) if not args.system or s in args.system]
    scores: list[dict[str, Any]] = []  # JSON rows
    if args.level == "segment":
        for i in wanted:
            for k, segment in enumerate(human.segments):
                if counts[i, k]:
                    scores.append({"system": human.systems[i], "segment": segment,
                                   "score": _number(matrix[i, k]), "raters": int(counts[i, k])})
    else:
        system_scores = human.system_scores()
        for i in wanted:
            rated = counts[i] > 0
            if not rated.any():
                continue
            raters = {human.judges[j] for s, j in zip(human.entries_system, human.entries_judge) if s == i}
            scores.append({"system": human.systems[i], "score": _number(system_scores[i]),
                           "segments": int(rated.sum()), "raters": len(raters)})
    if args.json:
        out = {"protocol": args.protocol, "level": args.level, "scores": scores}
        if args.protocol == "mqm":
            out["weights"] = weights.to_json()
            if given:
                out["unbabel_scores"] = given  # ratings scored by the mqm values of their misc column
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return 0
    if not scores:
        print("no rated items")
        return 0
    label = "segment" if args.level == "segment" else "segments"
    print(f"{'system':<24} {label:<12} {'score':>12} {'raters':>6}")
    for row in scores:
        second = row["segment"] if args.level == "segment" else str(row["segments"])
        value = row["score"]
        print(f"{row['system']:<24} {second:<12} {value if math.isfinite(value) else float('nan'):>12.6f} "
              f"{row['raters']:>6}")
    return 0


def _ranking_systems(project, systems: list[str], args: argparse.Namespace) -> int:
    """System level of relative rankings: expected wins (the score) and ratio of wins."""
    from mtworkbench.analysis.ranking_scores import system_scores
    from mtworkbench.core.ranking import group_ranked, ranking_from_judgments

    judgments = [j for j in project.judgments if j.protocol == "rank"]
    rankings = [ranking_from_judgments(group) for group in group_ranked(judgments).values()]
    wanted = [s for s in systems if not args.system or s in args.system]
    rows = [r for r in system_scores(rankings, wanted) if r.wins + r.losses + r.ties]
    if args.json:
        print(json.dumps({"protocol": "rank", "level": "system", "score": "expected wins",
                          "scores": [r.to_json() for r in rows]}, ensure_ascii=False, indent=1))
        return 0
    if not rows:
        print("no ranked systems")
        return 0
    print(f"{'system':<24} {'expected wins':>13} {'wins ratio':>10} {'wins':>6} {'losses':>6} {'ties':>6} "
          f"{'segments':>8} {'raters':>6}")
    for r in rows:
        print(f"{r.system:<24} {r.expected_wins:>13.6f} {r.wins_ratio:>10.6f} {r.wins:>6} {r.losses:>6} "
              f"{r.ties:>6} {r.segments:>8} {r.raters:>6}")
    return 0
