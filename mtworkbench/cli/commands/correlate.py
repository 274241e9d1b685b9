"""``mtworkbench correlate``: correlation of metrics with a human score in a bundle."""

from __future__ import annotations

import argparse
import json
import math
from itertools import combinations

from mtworkbench.cli import UsageError
from mtworkbench.cli.progress import cli_progress
from mtworkbench.cli.scheduler import add_scheduler_argument, chosen_scheduler
from mtworkbench.core.errors import DataError
from mtworkbench.core.wording import plural

LEVELS = ("segment", "system")
STATS = ("pearson", "spearman", "kendall", "pairwise-accuracy", "acc-eq", "spa")
GROUPINGS = ("item", "system", "none")


# How a judge name with ':' is written (analysis.human_scores.parse_human_spec).
HUMAN_HELP = (
    "the human score NAME[:FIELD]; a name containing ':' works as is (judge a:b: 'a:b:adequacy'); "
    "a name that itself ends in :adequacy, :fluency or :score goes in double quotes: '\"x:score\":fluency'"
)

def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "correlate",
        help="correlation between metrics and human scores",
        description=(
            "Pearson, Spearman or Kendall correlation between metric scores and a human score "
            "(NAME = a judge, a score scale such as da-z or mqm, or 'all'; FIELD = adequacy, "
            "fluency or score) at segment level (every rated system-segment item pooled) or "
            "system level (corpus score vs the mean human score of the system's rated segments)."
        ),
    )
    p.add_argument("bundle", help="a project bundle (*.mtwb.json)")
    p.add_argument("--human", required=True, metavar="NAME[:FIELD]",
                   help=HUMAN_HELP)
    p.add_argument("--metric", action="append", required=True, metavar="SPEC", help="metric spec (repeatable)")
    p.add_argument("--level", choices=LEVELS, default=None,
                   help="segment or system (default: segment; system for --stat pairwise-accuracy and spa)")
    p.add_argument("--method", choices=("pearson", "spearman", "kendall"), default="pearson")
    p.add_argument("--stat", choices=STATS, default=None,
                   help="the statistic: a correlation (as --method) or WMT's pairwise-accuracy, "
                        "acc-eq (tie-calibrated, segment level) or spa (soft pairwise accuracy, system level)")
    p.add_argument("--group-by", choices=GROUPINGS, default="item",
                   help="segment-level accuracies: compare systems on each segment (item, WMT's default), "
                        "segments within each system, or all items pooled")
    p.add_argument("--clusters", action="store_true",
                   help="with --stat: rank the metrics into significance clusters (PERM-BOTH)")
    p.add_argument("--permutations", type=int, default=1000, metavar="K",
                   help="resamples of the cluster permutation test")
    p.add_argument("--alpha", type=float, default=0.05, help="significance level of the clusters")
    p.add_argument("--z", action="store_true", help="z-normalise each judge's scores before averaging")
    p.add_argument("--ci", choices=("fisher", "bootstrap", "none"), default="fisher",
                   help="confidence interval (default: Fisher z)")
    p.add_argument("--confidence", type=float, default=0.95)
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N", help="bootstrap resamples")
    p.add_argument("--seed", type=int, default=12345, help="bootstrap seed")
    p.add_argument("--system", action="append", default=[], help="only these systems (repeatable)")
    p.add_argument("--williams", action="store_true",
                   help="also test each pair of metrics with the Williams test")
    p.add_argument("--bleu-orders", type=int, metavar="N",
                   help="also BLEU's system-level prediction error 1 - R^2 for max n-gram orders 1..N "
                        "(as Papineni et al. 2002 study; N <= 16)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_scheduler_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtworkbench.analysis.correlation import correlate, williams_from_scores
    from mtworkbench.analysis.human_scores import collect_human_scores, level_pairs
    from mtworkbench.scoring.project_scores import score_project
    from mtworkbench.scoring.store import load_project

    if args.bleu_orders is not None and not 1 <= args.bleu_orders <= 16:
        raise UsageError("--bleu-orders must be between 1 and 16")
    if not 0 < args.confidence < 1:
        raise UsageError("--confidence must be between 0 and 1")
    if args.bootstrap < 1:
        raise UsageError("--bootstrap must be at least 1")
    if args.stat in ("pearson", "spearman", "kendall"):
        args.method = args.stat
    if args.level is None:
        args.level = "system" if args.stat in ("pairwise-accuracy", "spa") else "segment"
    meta = args.stat in ("pairwise-accuracy", "acc-eq", "spa")
    if meta and (args.williams or args.bleu_orders):
        raise UsageError("--williams and --bleu-orders go with correlations, not --stat " + args.stat)
    if args.clusters and not args.stat:
        raise UsageError("--clusters needs --stat")
    if args.stat == "spa" and args.level != "system":
        raise UsageError("spa is a system-level statistic: use --level system")
    if args.permutations < 1:
        raise UsageError("--permutations must be at least 1")
    scheduler = chosen_scheduler(args)  # a cluster starts while the bundle is read
    with cli_progress(args, "Reading"):
        project = load_project(args.bundle)  # with its persisted scores
    human = collect_human_scores(project, args.human, z=args.z)
    rated = human.rated_systems()
    if args.system:
        unknown = [s for s in args.system if not project.has_system(s)]
        if unknown:
            raise DataError(f"{args.bundle}: no system {unknown[0]!r}; systems: "
                            + ", ".join(s.id for s in project.systems))
        rated = [s for s in rated if s in args.system]
    if not rated:
        raise DataError(f"no selected system has human scores {args.human!r}")
    if args.level == "system" and len(rated) < 2:
        raise DataError(f"system level: only {len(rated)} system ({rated[0]}) has human scores "
                        f"{args.human!r}; a correlation over systems needs at least two (one system cannot "
                        "be correlated); use --level segment")
    _note_unscored(project, rated)
    rows = [human.systems.index(s) for s in rated]
    with cli_progress(args, "Scoring", unit="scores", scale=1000) as progress:  # thousandths of a score
        scored = score_project(project, args.metric, rated, progress=progress,
                               scheduler=scheduler)
    if meta or args.clusters:
        return _run_meta(args, human, rows, rated, scored)
    results = []
    pairs = {}
    for spec, sc in zip(args.metric, scored):
        m, h = level_pairs(sc.segments, sc.corpus, human, args.level, rows)
        pairs[spec] = (m, h)
        res = correlate(m, h, args.method, args.ci, args.confidence, args.bootstrap, args.seed,
                        metric=spec, human=args.human, level=args.level)
        out = res.to_json()
        results.append({k: out[k] for k in ("metric", "human", "level", "method", "r", "n", "ci", "p")})
    payload: dict = {"results": results}
    if args.williams:
        tests = []
        for a, b in combinations(args.metric, 2):
            (ma, h), (mb, _) = pairs[a], pairs[b]
            if len(h) <= 3:
                continue
            w = williams_from_scores(h, ma, mb, args.method)
            tests.append({"a": a, "b": b, **w.to_json()})
        payload["williams"] = tests
    if args.bleu_orders:
        from mtworkbench.analysis.prediction_error import prediction_error_curve
        from mtworkbench.core.project_input import scoring_input

        sys_human = human.system_scores()[rows]
        curve = prediction_error_curve([scoring_input(project, s) for s in rated], sys_human, rated,
                                       args.human, args.bleu_orders)
        payload["prediction_error"] = curve.to_json()
    if args.json:
        print(json.dumps(payload, ensure_ascii=False))
        return 0
    print(f"{args.human}{' (z)' if args.z else ''} vs metrics, {args.level} level, {args.method}, "
          f"{plural(len(rated), 'system')}")
    width = max(len(s) for s in args.metric)
    print(f"{'metric':<{width}}  {'r':>8}  {'n':>6}  {'ci':>19}  {'p':>10}")
    for r in results:
        lo, hi = r["ci"]
        ci = "-" if lo is None else f"[{lo:.4f}, {hi:.4f}]"
        print(f"{r['metric']:<{width}}  {_f(r['r'])}  {r['n']:>6}  {ci:>19}  {_p(r['p'])}")
    if "prediction_error" in payload:
        pe = payload["prediction_error"]
        print("BLEU prediction error 1 - R^2 by max order (system level): " + ", ".join(
            f"{n}: {'-' if e is None else f'{e:.4f}'}" for n, e in zip(pe["orders"], pe["prediction_error"])))
    for t in payload.get("williams", []):
        print(f"Williams {t['a']} vs {t['b']}: t = {_f(t['t']).strip()}, df = {t['df']}, p = {_p(t['p']).strip()}")
    return 0


def _note_unscored(project, rated: list[str]) -> None:
    """Say which rated systems reference-based metrics leave out (a system that is the only reference)."""
    import sys

    from mtworkbench.core.project_input import unscored_reason

    for system in rated:
        why = unscored_reason(project, system)
        if why:
            print(f"note: {why}; its pairs are left out of reference-based metrics' correlations", file=sys.stderr)


def _run_meta(args: argparse.Namespace, human, rows: list[int], rated: list[str], scored) -> int:
    """--stat pairwise-accuracy | acc-eq | spa (or any --stat with --clusters)."""
    import numpy as np

    from mtworkbench.analysis.meta_eval import MetaEvalData, evaluate_metrics

    h_seg = human.matrix[rows]
    h_sys = human.system_scores()[rows]
    data = {
        spec: MetaEvalData(human_segments=h_seg, human_systems=h_sys,
                           metric_segments=np.asarray(sc.segments, float)[rows],
                           metric_systems=np.asarray(sc.corpus, float)[rows],
                           higher_is_better=bool(sc.metric.higher_is_better))
        for spec, sc in zip(args.metric, scored)
    }
    ev = evaluate_metrics(data, args.stat, args.level, args.group_by, args.clusters,
                          args.permutations, args.seed, args.alpha)
    results = []
    for spec, res in zip(args.metric, ev.results):
        value = None if not math.isfinite(res.value) else float(res.value)
        p = None if res.p is None or not math.isfinite(res.p) else float(res.p)
        # "r" carries the value too, so readers of plain correlations read this alike.
        results.append({"metric": spec, "human": args.human, "level": args.level, "method": args.stat,
                        "stat": args.stat, "r": value, "value": value, "n": res.n, "ci": [None, None],
                        "p": p, **res.details})
    payload: dict = {"results": results}
    if ev.clusters is not None:
        payload["clusters"] = ev.clusters.to_json()
    if args.json:
        print(json.dumps(payload, ensure_ascii=False))
        return 0
    print(f"{args.human}{' (z)' if args.z else ''} vs metrics, {args.level} level, {args.stat}, "
          f"{plural(len(rated), 'system')}")
    width = max(len(s) for s in args.metric)
    print(f"{'metric':<{width}}  {'value':>8}  {'n':>6}  details")
    for r in results:
        extra = ", ".join(f"{k} {v:.6g}" if isinstance(v, float) else f"{k} {v}"
                          for k, v in r.items() if k in ("epsilon", "group_by", "groups", "agree", "segments"))
        print(f"{r['metric']:<{width}}  {_f(r['value'])}  {r['n']:>6}  {extra}")
    if ev.clusters is not None:
        c = ev.clusters
        print(f"significance clusters (PERM-BOTH, {c.permutations} resamples, alpha {c.alpha}):")
        for m, v, rank in zip(c.metrics, c.values, c.ranks):
            print(f"  {rank:>3}  {m:<{width}}  {_f(v)}")
    return 0


def _f(x: float | None) -> str:
    return f"{'-':>8}" if x is None or not math.isfinite(x) else f"{x:8.4f}"


def _p(x: float | None) -> str:
    return f"{'-':>10}" if x is None else f"{x:10.3g}"
