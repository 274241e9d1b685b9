"""``mtworkbench agreement``: inter- and intra-judge agreement of a bundle's or a file's judgments."""

from __future__ import annotations

import argparse
import json

from mtworkbench.cli import UsageError
from mtworkbench.cli.progress import cli_progress
from mtworkbench.core.errors import DataError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "agreement",
        help="agreement between human judges",
        description=(
            "Inter-judge Spearman, Pearson and quadratic-weighted Cohen's kappa of LDC adequacy/fluency on "
            "the items (system, segment) both judges rated, and intra-judge consistency on repeated items. "
            "For DA, ESA and MQM (segment scores from the weights): per protocol, Pearson, Spearman and the "
            "mean absolute difference of two raters' scores, and each rater's first score against their repeats. "
            "For relative ranking: Cohen's kappa over pairwise comparisons of systems with WMT 2013-2016's "
            "chance agreement, between raters and within a rater. "
            "For error-span protocols (MQM, ESA): span F1 (exact and character overlap), severity "
            "agreement and the correlation of the raters' segment scores. For DA with BAD references: "
            "per rater, the one-sided Wilcoxon test that BAD copies scored lower (p < 0.05 passes). "
            "Read the judgments of a project bundle, or of a judgments CSV/TSV file. "
            "With --ratings TABLE: Krippendorff's alpha (nominal, ordinal, interval, ratio) and Gwet's AC1/AC2 "
            "for any number of raters on a table of rater,item,value rows (an item rated by one rater only is "
            "allowed), each with a 95%% bootstrap interval over items. "
            "On a bundle or judgments file, the same coefficients over all judges of a protocol at once: LDC "
            "adequacy and fluency (alpha ordinal and interval, AC1, AC2), DA, ESA and MQM segment scores "
            "(alpha interval, AC2); an item is a (system, segment) pair."
        ),
    )
    p.add_argument("bundle", nargs="?", help="a project bundle")
    p.add_argument("--judgments", metavar="FILE", help="a judgments CSV/TSV file instead of a bundle")
    p.add_argument("--weights", default="", metavar="NAME=W,...",
                   help="MQM weights for the segment scores compared (default: Google's)")
    p.add_argument("--ratings", metavar="TABLE",
                   help="a CSV/TSV table with columns rater,item,value instead of a bundle")
    p.add_argument("--stat", action="append", metavar="STAT",
                   help="with --ratings: alpha:nominal, alpha:ordinal, alpha:interval, alpha:ratio, ac1, ac2 "
                        "(quadratic weights) or ac2:linear|ordinal|ratio; repeat or separate with commas "
                        "(default: every statistic the values allow)")
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                   help="resamples of the items for the 95%% intervals of alpha and AC1/AC2 (0: none; default 1000)")
    p.add_argument("--seed", type=int, default=12345, help="the bootstrap's seed")
    p.add_argument("--metric-spans", metavar="SPEC",
                   help="with a bundle: span agreement between a span-marking metric (comet:model=NAME of an xCOMET "
                        "checkpoint) and each MQM/ESA rater, the metric scored as `score` would (cached)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def _check_bootstrap(args: argparse.Namespace) -> None:
    if args.bootstrap < 0 or args.bootstrap > 1_000_000:
        raise UsageError(f"--bootstrap must be between 0 and 1000000, not {args.bootstrap}")


def run_ratings(args: argparse.Namespace) -> int:
    from mtworkbench.analysis.multi_rater import agreement_stats, default_stats, parse_stat, ratings_table
    from mtworkbench.io.judgments.ratings_table import read_ratings_rows

    _check_bootstrap(args)
    try:
        stats = [parse_stat(s) for arg in args.stat for s in arg.split(",") if s.strip()] if args.stat else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    table = ratings_table(read_ratings_rows(args.ratings))
    results = agreement_stats(table, stats or default_stats(table), args.bootstrap, args.seed)
    if args.json:
        print(json.dumps({"file": str(args.ratings), "raters": len(table.raters), "items": len(table.items),
                          "values": table.n_values, "numeric": table.numeric,
                          "stats": [r.to_json() for r in results]}, indent=2, ensure_ascii=False))
        return 0
    kind = "numbers" if table.numeric else "labels"
    print(f"{table.n_values} ratings ({kind}) by {len(table.raters)} raters of {len(table.items)} items")
    print(f"{'statistic':<16} {'value':>8} {'95% CI':>17} {'pairable items':>15}")
    for r in results:
        ci = "-" if r.low is None or r.high is None else f"[{r.low:.3f}, {r.high:.3f}]"
        print(f"{r.stat:<16} {_fmt(r.value if r.value == r.value else None):>8} {ci:>17} {r.n_pairable_items:>15}")
        for note in r.notes:
            print(f"  {note}")
    return 0


def run_metric_spans(args: argparse.Namespace) -> int:
    if not args.bundle:
        raise UsageError("--metric-spans needs a bundle (the metric scores its systems)")
    if args.stat:
        raise UsageError("--stat goes with --ratings TABLE")
    from mtworkbench.analysis.mqm_weights import GOOGLE_WEIGHTS, parse_weights
    from mtworkbench.scoring.metric_spans import metric_span_report
    from mtworkbench.scoring.store import load_project

    try:
        weights = parse_weights(args.weights) if args.weights else GOOGLE_WEIGHTS
    except DataError as exc:
        raise UsageError(str(exc)) from None
    with cli_progress(args, "Reading"):
        project = load_project(args.bundle)
    with cli_progress(args, "Scoring", unit="scores", scale=1000) as progress:  # thousandths of a score
        result = metric_span_report(project, args.metric_spans, weights, progress=progress)
    if args.json:
        print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
        return 0
    print(f"{result.spec}: {result.n_spans} error spans over {result.n_systems} systems")
    if not result.rows:
        print("no MQM/ESA rater marked spans on the items the metric scored")
        return 0
    print(f"{'protocol':<8} {'rater':<16} {'items':>6} {'spans':>11} {'exactF1':>8} {'charF1':>8} {'sev.agr':>8} "
          f"{'sev.kappa':>9} {'pearson':>8} {'spearman':>9}")
    for r in result.rows:
        spans = f"{r.spans[0]}/{r.spans[1]}"
        print(f"{r.protocol:<8} {r.judges[1]:<16} {r.n_items:>6} {spans:>11} {_fmt(r.exact_f1):>8} "
              f"{_fmt(r.overlap_f1):>8} {_fmt(r.severity_agreement):>8} {_fmt(r.severity_kappa):>9} "
              f"{_fmt(r.pearson):>8} {_fmt(r.spearman):>9}")
    print("(spans: the metric's / the rater's, on the items both judged)")
    return 0


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def run(args: argparse.Namespace) -> int:
    from mtworkbench.analysis.agreement import agreement

    if sum(map(bool, (args.bundle, args.judgments, args.ratings))) != 1:
        raise UsageError("give one of: a bundle, --judgments FILE or --ratings TABLE")
    if args.metric_spans:
        return run_metric_spans(args)
    if args.ratings:
        return run_ratings(args)
    if args.stat:
        raise UsageError("--stat goes with --ratings TABLE")
    _check_bootstrap(args)
    from mtworkbench.analysis.judge_reliability import judge_reliability
    from mtworkbench.analysis.mqm_weights import GOOGLE_WEIGHTS, parse_weights
    from mtworkbench.analysis.quality_control import quality_control
    from mtworkbench.analysis.span_agreement import span_agreement

    try:
        weights = parse_weights(args.weights) if args.weights else GOOGLE_WEIGHTS
    except DataError as exc:
        raise UsageError(str(exc)) from None
    text_length = None
    if args.bundle:
        from mtworkbench.io.bundle.bundle import load_bundle

        with cli_progress(args, "Reading"):
            project = load_bundle(args.bundle)
        judgments = project.judgments
        source = args.bundle

        def text_length(j):
            return len(j.text if j.text is not None else project.system_text(j.system, j.segment))
    else:
        from mtworkbench.io.judgments.judgments import read_judgments

        judgments = read_judgments(args.judgments)
        source = args.judgments
    if not judgments:
        raise DataError(f"{source}: no judgments")
    # BAD copies are quality control, left out of every section (and judged below).
    report = agreement(judgments, weights)
    spans = span_agreement(judgments, weights, text_length)
    checks = quality_control(judgments)
    reliability = judge_reliability(judgments, weights, args.bootstrap, args.seed)
    if args.json:
        out = report.to_json()
        out["all_judges"] = [r.to_json() for r in reliability]
        out["spans"] = [s.to_json() for s in spans]
        out["quality_control"] = [c.to_json() for c in checks]
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    all_judges = list(dict.fromkeys(j.judge for j in judgments))
    print(f"{len(judgments)} judgments by {len(all_judges)} judges: {', '.join(all_judges)}")
    if report.ldc_pairs():
        print()
        print("LDC adequacy/fluency")
        print(f"{'judge A':<16} {'judge B':<16} {'n':>6}  {'quantity':<9} {'n':>6} {'spearman':>9} {'pearson':>9} {'kappa_q':>9}")
        for pair in report.ldc_pairs():
            rows = [("adequacy", pair.adequacy), ("fluency", pair.fluency)]
            if pair.score is not None:
                rows.append(("score", pair.score))
            for k, (name, s) in enumerate(rows):
                a, b, n = (pair.judges[0], pair.judges[1], str(pair.n)) if k == 0 else ("", "", "")
                print(
                    f"{a:<16} {b:<16} {n:>6}  {name:<9} {s.n:>6} {_fmt(s.spearman):>9} "
                    f"{_fmt(s.pearson):>9} {_fmt(s.kappa_quadratic):>9}"
                )
    elif not spans and not report.scores and not (report.ranking and report.ranking.pairs):
        print("no two judges rated a common item")
    if report.ldc_intra():
        print()
        print(f"{'judge':<16} {'repeats':>7}  {'quantity':<9} {'exact':>7} {'mean|d|':>8} {'kappa_q':>9}")
        for intra in report.ldc_intra():
            judge = intra.judge
            repeats = [("adequacy", intra.adequacy), ("fluency", intra.fluency)]
            if intra.score is not None:
                repeats.append(("score", intra.score))
            for k, (name, c) in enumerate(repeats):
                label, n = (judge, str(intra.n)) if k == 0 else ("", "")
                print(
                    f"{label:<16} {n:>7}  {name:<9} {_fmt(c.exact):>7} {_fmt(c.mean_abs_diff):>8} "
                    f"{_fmt(c.kappa_quadratic):>9}"
                )
    _print_scores(report)
    _print_reliability(reliability)
    _print_ranking(report)
    if spans:
        print()
        print(f"{'protocol':<8} {'rater A':<12} {'rater B':<12} {'items':>6} {'exactF1':>8} {'charF1':>8} "
              f"{'sev.agr':>8} {'sev.n':>6} {'pearson':>8} {'spearman':>9}")
        for span in spans:
            print(f"{span.protocol:<8} {span.judges[0]:<12} {span.judges[1]:<12} {span.n_items:>6} "
                  f"{_fmt(span.exact_f1):>8} {_fmt(span.overlap_f1):>8} {_fmt(span.severity_agreement):>8} "
                  f"{span.severity_pairs:>6} {_fmt(span.pearson):>8} {_fmt(span.spearman):>9}")
    if checks:
        print()
        print("DA quality control (BAD references; one-sided Wilcoxon, BAD < original, p < 0.05 passes)")
        print(f"{'rater':<16} {'BAD':>5} {'pairs':>6} {'mean BAD':>9} {'mean orig':>10} {'wilcoxon p':>11} "
              f"{'MWU p':>8}  result")
        for check in checks:
            result = {True: "pass", False: "FAIL", None: "-"}[check.passed]
            print(f"{check.rater:<16} {check.n_bad:>5} {check.n_pairs:>6} {_fmt(check.mean_bad):>9} "
                  f"{_fmt(check.mean_original):>10} {_fmt(check.wilcoxon_p):>11} {_fmt(check.mannwhitney_p):>8}  {result}")
    return 0


SCORE_NAMES = {"da": "DA scores (0-100)", "esa": "ESA scores (0-100)", "mqm": "MQM segment scores (minus weighted errors)"}


def _print_scores(report) -> None:
    for protocol, title in SCORE_NAMES.items():
        pairs, repeats = report.score_pairs(protocol), report.score_intra(protocol)
        if not pairs and not repeats:
            continue
        print()
        print(title)
        if pairs:
            print(f"{'judge A':<16} {'judge B':<16} {'n':>6} {'pearson':>9} {'spearman':>9} {'mean|d|':>9}")
            for p in pairs:
                print(f"{p.judges[0]:<16} {p.judges[1]:<16} {p.n:>6} {_fmt(p.pearson):>9} {_fmt(p.spearman):>9} "
                      f"{_fmt(p.mean_abs_diff):>9}")
        if repeats:
            print(f"{'judge':<16} {'repeats':>7} {'mean|d|':>9} {'pearson':>9} {'spearman':>9}   (first score against repeats)")
            for r in repeats:
                print(f"{r.judge:<16} {r.n:>7} {_fmt(r.mean_abs_diff):>9} {_fmt(r.pearson):>9} {_fmt(r.spearman):>9}")


def _print_reliability(reliability) -> None:
    if not reliability:
        return
    print()
    print("All judges at once: Krippendorff's alpha and Gwet's AC1/AC2 (95% bootstrap interval over items)")
    print(f"{'protocol':<9} {'quantity':<9} {'judges':>6} {'statistic':<15} {'value':>7} {'95% CI':>17} "
          f"{'pairable':>9}")
    for r in reliability:
        first = f"{r.protocol:<9} {r.quantity:<9} {len(r.judges):>6}"
        for k, s in enumerate(r.stats):
            ci = "-" if s.low is None or s.high is None else f"[{s.low:.3f}, {s.high:.3f}]"
            lead = first if k == 0 else " " * len(first)
            print(f"{lead} {s.stat:<15} {_fmt(s.value if s.value == s.value else None):>7} {ci:>17} "
                  f"{s.n_pairable_items:>9}")
        for note in r.notes:
            print(f"{first} {note}")


def _print_ranking(report) -> None:
    ranking = report.ranking
    if ranking is None:
        return
    print()
    print("Relative ranking: Cohen's kappa over pairwise comparisons (P(E) as WMT 2013-2016)")
    print(f"{'':<34} {'pairs':>6} {'P(A)':>7} {'P(E)':>7} {'kappa':>7}")

    def row(name, k):
        print(f"{name:<34} {k.n:>6} {_fmt(k.p_agree):>7} {_fmt(k.p_chance):>7} {_fmt(k.kappa):>7}")

    row("inter-annotator (all pairs)", ranking.inter)
    for p in ranking.pairs:
        row(f"  {p.judges[0]} x {p.judges[1]}", p.kappa)
    row("intra-annotator (all raters)", ranking.intra)
    for r in ranking.repeats:
        row(f"  {r.judge}", r.kappa)
