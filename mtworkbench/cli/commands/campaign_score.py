"""``mtworkbench campaign-score``: score every language pair of an mt-metrics-eval test set."""

from __future__ import annotations

import argparse

from mtworkbench.cli import UsageError
from mtworkbench.cli.progress import cli_progress
from mtworkbench.cli.scheduler import add_scheduler_argument, chosen_scheduler

SUMMARY_JSON = "campaign.json"
SUMMARY_MD = "campaign.md"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "campaign-score",
        help="score every language pair, system and metric of an mt-metrics-eval test set",
        description=(
            "Import each language pair of an mt-metrics-eval test set (DIR with system-outputs/, references/, "
            "human-scores/) into OUTDIR/LP.mtwb.json, score every system with every metric, and meta-evaluate "
            "the metrics against each pair's human scores. Writes OUTDIR/campaign.json, campaign.md and "
            "LP.scores.tsv. Resumable: a re-run computes only what the pairs' score files lack."
        ),
    )
    p.add_argument("directory", metavar="MTME_DIR", help="the mt-metrics-eval test-set folder")
    p.add_argument("-o", "--output", required=True, metavar="OUTDIR", help="folder for the bundles and summary")
    p.add_argument("--lp", metavar="LP[,LP...]", help="only these language pairs (default: every pair)")
    p.add_argument("--metric", action="append", default=[], metavar="SPEC",
                   help="metric spec (repeatable; default: bleu, chrf, ter)")
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes on this machine (1: none)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    add_scheduler_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from mtworkbench.core.atomic import atomic_write_text
    from mtworkbench.core.errors import DataError
    from mtworkbench.scoring.campaign import DEFAULT_METRICS, language_pairs, open_pair, score_pair
    from mtworkbench.scoring.process_executor import shutdown_pool

    if args.jobs < 1:
        raise UsageError("--jobs must be 1 or more")
    scheduler = chosen_scheduler(args)
    available = language_pairs(args.directory)
    pairs = available
    if args.lp:
        pairs = [lp.strip() for lp in args.lp.split(",") if lp.strip()]
        missing = [lp for lp in pairs if lp not in available]
        if missing:
            raise DataError(f"{args.directory}: no language pair {', '.join(missing)}; pairs: {', '.join(available)}")
    specs = list(args.metric) or list(DEFAULT_METRICS)
    out = Path(args.output)
    if out.exists() and not out.is_dir():
        raise DataError(f"{out}: not a folder")
    out.mkdir(parents=True, exist_ok=True)
    summaries = []
    try:
        for lp in pairs:
            project, bundle = open_pair(args.directory, lp, out)
            # one bar per pair on a terminal; nothing on a pipe or with --quiet
            with cli_progress(args, f"{lp}: scoring", unit="metrics", scale=1000) as bar:
                summary = score_pair(project, bundle, lp, specs, scheduler=scheduler, jobs=args.jobs, progress=bar)
            summaries.append(summary)
            atomic_write_text(out / f"{lp}.scores.tsv", pair_tsv(summary, specs), keep_backup=False)
    finally:
        shutdown_pool()
        if scheduler:
            from mtworkbench.scoring.cluster import shutdown_clusters

            shutdown_clusters()
    payload = {"directory": str(args.directory), "metrics": specs, "pairs": [s.to_json() for s in summaries]}
    text = json.dumps(payload, ensure_ascii=False, indent=1)
    atomic_write_text(out / SUMMARY_JSON, text + "\n", keep_backup=False)
    atomic_write_text(out / SUMMARY_MD, campaign_markdown(summaries, specs), keep_backup=False)
    if args.json:
        print(json.dumps(payload, ensure_ascii=False))
    else:
        for s in summaries:
            print(f"{s.lp}: {len(s.systems)} systems x {len(specs)} metrics, {s.computed} computed, "
                  f"{s.restored} from the score file -> {out / s.bundle}")
        print(f"summary: {out / SUMMARY_MD}, {out / SUMMARY_JSON}")
    return 0


def _cell(x) -> str:
    return "-" if x is None else f"{x:.4f}"


def pair_tsv(summary, specs: list[str]) -> str:
    lines = ["\t".join(["system", *specs])]
    for system in summary.systems:
        lines.append("\t".join([_clean(system), *(_cell(summary.scores[s].get(system)) for s in specs)]))
    return "\n".join(lines) + "\n"


def _clean(text: str) -> str:
    """A system name as one table cell: no tab, newline or pipe from the data breaks the table."""
    return " ".join(text.replace("|", "/").split())


def campaign_markdown(summaries, specs: list[str]) -> str:
    out = ["# Campaign scores", ""]
    for s in summaries:
        out += [f"## {s.lp}", "", f"{len(s.systems)} systems, {s.n_segments} segments; bundle `{s.bundle}`", ""]
        out.append("| system | " + " | ".join(specs) + " |")
        out.append("|---|" + "---:|" * len(specs))
        for system in s.systems:
            out.append(f"| {_clean(system)} | " + " | ".join(_cell(s.scores[m].get(system)) for m in specs) + " |")
        out.append("")
        if s.meta:
            out += ["Meta-evaluation (metric vs human score):", ""]
            keys = sorted({(m["human"], m["level"], m["stat"]) for m in s.meta},
                          key=lambda k: (k[0], k[1] != "system", k[2]))
            out.append("| human | level | statistic | " + " | ".join(specs) + " |")
            out.append("|---|---|---|" + "---:|" * len(specs))
            value = {(m["human"], m["level"], m["stat"], m["metric"]): m["value"] for m in s.meta}
            for human, level, stat in keys:
                cells = [_cell(value.get((human, level, stat, spec))) for spec in specs]
                out.append(f"| {_clean(human)} | {level} | {stat} | " + " | ".join(cells) + " |")
            out.append("")
    return "\n".join(out)
