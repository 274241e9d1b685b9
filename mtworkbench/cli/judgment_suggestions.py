"""``mtworkbench judgments suggestions``: what judges made of a model's pre-marked error spans
(a subcommand of ``commands.judgments``, so it lives outside ``cli.commands``).

    mtworkbench judgments suggestions BUNDLE [--judge NAME] [--json]

Per severity and category of the suggested spans (and in all): how many were kept as the model
marked them, changed (severity, category or extent) or deleted, and the accept rate (kept of
those decided); per model (name and content fingerprint) when several made suggestions.
"""

from __future__ import annotations

import argparse
import json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "suggestions",
        help="accept rates of a model's pre-marked error spans (ESA-AI), per severity and category",
        description=(
            "For the ESA and MQM judgments made from a queue that started from a model's error spans "
            "('queue --suggest-spans'): per severity and category of the suggested spans, how many the "
            "judges kept, changed (severity, category or extent) or deleted, and the accept rate (kept "
            "of those decided), with the model that suggested them."
        ),
    )
    p.add_argument("bundle")
    p.add_argument("--judge", metavar="NAME", help="only this judge's judgments")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run_suggestions)


def run_suggestions(args: argparse.Namespace) -> int:
    from mtworkbench.cli import UsageError
    from mtworkbench.core.suggested_spans import span_accept_rates, total_rate
    from mtworkbench.io.bundle.bundle import load_bundle

    project = load_bundle(args.bundle)
    if args.judge is not None and args.judge not in project.judges:
        raise UsageError(f"{args.bundle} has no judge {args.judge!r}")
    judgments = [j for j in project.judgments if j.suggestions and args.judge in (None, j.judge)]
    outcomes = [o for j in judgments for o in j.suggestions]
    rows = span_accept_rates(outcomes)
    total = total_rate(rows)
    models = sorted({(o.suggestion.model, o.suggestion.fingerprint) for o in outcomes})
    if args.json:
        print(json.dumps({"judgments": len(judgments), "suggestions": len(outcomes),
                          "models": [{"model": m, "fingerprint": f} for m, f in models],
                          "rates": [r.to_json() for r in rows], "total": total.to_json()},
                         ensure_ascii=False, indent=2))
        return 0
    if not outcomes:
        print(f"{args.bundle}: no judgment records suggested error spans")
        return 0
    print(f"{args.bundle}: {len(outcomes)} suggested error spans in {len(judgments)} judgments, from "
          + ", ".join(f"{m} (sha256:{f})" for m, f in models))
    print(f"{'severity':<10} {'category':<28} {'kept':>5} {'changed':>8} {'deleted':>8} {'accept':>7}")
    for r in [*rows, total]:
        rate = "-" if r.rate is None else f"{100 * r.rate:.0f}%"
        print(f"{r.severity:<10} {r.category or '-':<28} {r.kept:>5} {r.changed:>8} {r.deleted:>8} {rate:>7}")
    return 0
