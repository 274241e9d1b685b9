"""``mtworkbench analyze``: compare-mt's analyses of two systems of a bundle."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from mtworkbench.cli import UsageError
from mtworkbench.cli.progress import cli_progress
from mtworkbench.cli.scheduler import add_scheduler_argument, chosen_scheduler
from mtworkbench.core.errors import DataError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "analyze",
        help="where does system A beat system B (compare-mt analyses)",
        description=(
            "compare-mt's analyses of two systems: scores by reference-length bucket, word F-measure by "
            "word-frequency bucket, the n-grams each system matches more often, the sentences that differ "
            "most by each metric, and MQM/ESA error counts by bucket where error spans exist."
        ),
    )
    p.add_argument("bundle", help="a project bundle (*.mtwb.json)")
    p.add_argument("--system", action="append", default=[], metavar="ID", help="system A, then system B")
    p.add_argument("--metric", action="append", default=[], metavar="SPEC",
                   help="metrics to bucket and rank sentences by (default: bleu, chrf and every imported ext: metric)")
    p.add_argument("--reference", metavar="ID", help="the reference (default: the first)")
    p.add_argument("--freq-file", metavar="FILE", help="word frequencies as WORD<TAB>COUNT lines "
                                                      "(default: counted in the reference)")
    p.add_argument("--ngrams", type=int, default=20, metavar="N", help="n-grams listed per direction")
    p.add_argument("--sentences", type=int, default=5, metavar="N", help="sentences per metric and direction")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_scheduler_argument(p)
    p.add_argument("--html", metavar="OUT.html", help="also write a self-contained HTML report")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtworkbench.analysis.compare_systems import compare_systems
    from mtworkbench.io.bundle.bundle import load_bundle
    from mtworkbench.scoring.project_scores import score_project

    if len(args.system) != 2:
        raise UsageError("give exactly two systems: --system A --system B")
    if args.ngrams < 1 or args.sentences < 1:
        raise UsageError("--ngrams and --sentences must be at least 1")
    scheduler = chosen_scheduler(args)  # a cluster starts while the bundle is read
    with cli_progress(args, "Reading"):
        project = load_bundle(args.bundle)
    metrics = args.metric or ["bleu", "chrf"] + [f"ext:{n}" for n in project.external_scores]
    for s in args.system:
        if not project.has_system(s):
            raise DataError(f"{args.bundle}: no system {s!r}; systems: {', '.join(x.id for x in project.systems)}")
    with cli_progress(args, "Scoring", unit="scores", scale=1000) as progress:  # thousandths of a score
        scored = score_project(project, metrics, args.system, progress=progress,
                               scheduler=scheduler)
    frequencies = None
    if args.freq_file:
        from mtworkbench.analysis.compare_systems import WordFrequencies
        from mtworkbench.io.corpora.word_counts import read_frequency_file

        frequencies = WordFrequencies(read_frequency_file(args.freq_file), Path(args.freq_file).name)
    cmp = compare_systems(project, args.system[0], args.system[1], scored, args.reference, frequencies,
                          args.ngrams, args.sentences)
    if args.html:
        from mtworkbench.analysis.compare_html import render_html
        from mtworkbench.core.output import write_output

        write_output(args.html, render_html(cmp))
    if args.json:
        print(json.dumps(cmp.to_json(), ensure_ascii=False))
        return 0
    _print_text(cmp)
    if args.html:
        print(f"wrote {args.html}")
    return 0


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.4f}"


def _print_text(cmp) -> None:
    a, b = cmp.system_a, cmp.system_b
    print(f"A = {a}, B = {b}; metric scores against {', '.join(cmp.score_references) or 'no reference'}; "
          f"word, n-gram and length analyses against {cmp.reference}; tokenizer {cmp.tokenizer}")
    for note in cmp.notes:
        print(f"note: {note}")
    print("corpus: " + "; ".join(f"{m} {_f(v[0])} vs {_f(v[1])}" for m, v in cmp.corpus.items()))
    for t in cmp.significance:
        verdict = "identical segment statistics" if t.identical else ("significant" if t.significant else
                                                                      "not significant")
        print(f"paired bootstrap {t.metric}: p = {_f(t.p_value)} ({verdict}, {t.n_samples} samples)")
    print("\nscore by reference length")
    for lb in cmp.length_buckets:
        print(f"  {lb.label:>8} {lb.segments:>6} seg  " + "  ".join(
            f"{m} {_f(v[0])}/{_f(v[1])}" for m, v in lb.scores.items()))
    print(f"\nword F-measure by frequency (from {cmp.frequency_source})")
    for fb in cmp.frequency_buckets:
        print(f"  {fb.label:>12} {fb.reference_words:>7} words  F {_f(fb.fmeasure[0])} / {_f(fb.fmeasure[1])}")
    for label, rows in ((a, cmp.ngrams_a), (b, cmp.ngrams_b)):
        print(f"\nn-grams matched more by {label} (matches A/B, share)")
        for g in rows:
            print(f"  {g.ngram}\t{g.matches_a}/{g.matches_b}\t{g.score:.3f}")
    print("\nsentences that differ most")
    for d in cmp.differences:
        print(f"  {d.metric} segment {d.segment}: {_f(d.score_a)} vs {_f(d.score_b)} ({d.difference:+.4f})")
    if cmp.errors is not None:
        print("\nhuman error counts by reference length")
        for eb in cmp.errors:
            print(f"  {eb.label:>8} " + "  ".join(f"{s} {c[0]}/{c[1]}" for s, c in sorted(eb.counts.items())))
