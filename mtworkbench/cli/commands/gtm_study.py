"""``mtworkbench gtm-study``: how often GTM 1.4's greedy finds the true maximum.

The seed papers report that the greedy finds the maximum matching 99% of the
time and at least 80% of it otherwise; this measures that claim on a corpus
for each exponent by scoring every segment with ``mode=greedy`` and
``mode=exact``.
"""

from __future__ import annotations

import argparse
import json
import sys

from mtworkbench.cli import UsageError
from mtworkbench.cli.progress import cli_progress
from mtworkbench.cli.target_language import add_tgt_lang_argument, chosen_language
from mtworkbench.core.errors import DataError
from mtworkbench.core.wording import plural


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "gtm-study",
        help="compare GTM's greedy matching with the exact maximum",
        description=(
            "For each exponent, the share of segments where GTM 1.4's greedy run "
            "selection equals the exact maximum matching, and the minimum and median "
            "greedy/exact MMS ratio. Input: --hyp and --ref files, or a project bundle."
        ),
    )
    p.add_argument("bundle", nargs="?", help="a project bundle (*.mtwb.json)")
    p.add_argument("--hyp", help="hypothesis file, one segment per line")
    p.add_argument("--ref", action="append", default=[], help="reference file (repeat for several)")
    p.add_argument("--system", action="append", default=[], help="with a bundle: only these systems")
    p.add_argument(
        "--exponent", "-e", action="append", type=_exponent, default=[], metavar="E",
        help="exponent to study (repeatable; default 2 and 3)",
    )
    p.add_argument(
        "--max-side", type=int, default=None, metavar="N",
        help="exact search for grids up to N tokens per side and reference "
        "(default: the metric's limit); larger segments are left out and counted",
    )
    add_tgt_lang_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def _exponent(raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"exponent {raw!r} is not a number") from None
    if not value > 1:
        raise argparse.ArgumentTypeError(
            f"exponent {raw!r}: the study needs e > 1 (for e = 1 the exact mode is a matching)"
        )
    return value


def _corpora(args: argparse.Namespace) -> list[tuple[str, list[str], list[list[str]]]]:
    """(label, hypotheses, references present per segment) for each system studied."""
    if args.bundle and (args.hyp or args.ref):
        raise UsageError("give either a bundle or --hyp/--ref files, not both")
    if args.bundle:
        from mtworkbench.core.project_input import scoring_input
        from mtworkbench.io.bundle.bundle import load_bundle

        with cli_progress(args, "Reading"):
            project = load_bundle(args.bundle)
        tokenizer = _word_tokenizer(chosen_language(args, project.target_language))
        systems = args.system or [s.id for s in project.systems]
        if not systems:
            raise DataError(f"{args.bundle}: the project has no systems to study")
        out = []
        for sid in systems:
            if not project.has_system(sid):
                raise DataError(
                    f"{args.bundle}: no system {sid!r}; systems: "
                    + ", ".join(s.id for s in project.systems)
                )
            data = scoring_input(project, sid)
            refs = [[pretokenize(r, tokenizer) for r in data.references_for(i)] for i in range(data.n_segments)]
            out.append((sid, [pretokenize(h, tokenizer) for h in data.hypotheses], refs))
        return out
    if args.system:
        raise UsageError("--system needs a bundle")
    if not args.hyp or not args.ref:
        raise UsageError("give a bundle, or --hyp and at least one --ref")
    from mtworkbench.io.corpora.plaintext import check_same_length, read_lines

    files = {args.hyp: read_lines(args.hyp)}
    for path in args.ref:
        if path in files:
            raise UsageError(f"file {path} is given twice")
        files[path] = read_lines(path)
    check_same_length(files)
    tokenizer = _word_tokenizer(chosen_language(args))
    refs = [
        [pretokenize(files[p][i], tokenizer) for p in args.ref] for i in range(len(files[args.hyp]))
    ]
    return [(args.hyp, [pretokenize(h, tokenizer) for h in files[args.hyp]], refs)]


def _word_tokenizer(language: str | None) -> str:
    """GTM's tokens for the target language: sacrebleu's tokenizer first for
    languages written without spaces (as ``gtm`` scores them), else none."""
    from mtworkbench.core.language import language_profile

    profile = language_profile(language)
    return "none" if profile is None else profile.word_tokenizer


def pretokenize(text: str, tokenizer: str) -> str:
    from mtworkbench.metrics.tokens import pretokenize as run

    return run(text, tokenizer)


def run(args: argparse.Namespace) -> int:
    from mtworkbench.metrics.gtm_exact import EXACT_MAX_SIDE, approximation_study

    max_side = EXACT_MAX_SIDE if args.max_side is None else args.max_side
    if max_side < 1:
        raise UsageError("--max-side must be at least 1")
    exponents = tuple(dict.fromkeys(args.exponent or [2.0, 3.0]))
    results = []
    corpora = _corpora(args)
    with cli_progress(args, "Studying GTM", unit="systems") as progress:
        for k, (label, hyps, refs) in enumerate(corpora):
            progress(k, len(corpora))
            n_refs = max((len(r) for r in refs), default=0)
            rows = approximation_study(hyps, refs, exponents, max_side=max_side)
            results.append((label, len(hyps), n_refs, rows))
    if args.json:
        out = {
            "studies": [
                {
                    "system": label,
                    "n_segments": n,
                    "n_refs": k,
                    "rows": [
                        {
                            "e": row.exponent,
                            "share_equal": row.share_equal,
                            "equal": row.equal,
                            "min_ratio": row.min_ratio,
                            "median_ratio": row.median_ratio,
                            "median_ratio_where_different": row.median_ratio_where_different,
                            "exact_fallbacks": row.fallbacks,
                        }
                        for row in rows
                    ],
                }
                for label, n, k, rows in results
            ]
        }
        json.dump(out, sys.stdout)
        sys.stdout.write("\n")
        return 0
    for label, n, k, rows in results:
        print(format_table(label, n, k, rows))
    return 0


def format_table(label: str, n_segments: int, n_refs: int, rows) -> str:
    """The study as a Markdown table (ratios of MMS, greedy / exact)."""
    lines = [
        f"GTM greedy vs exact maximum matching: {label}, {n_segments} segments, up to {plural(n_refs, 'reference')}",
        "",
        "| e | greedy = exact | min greedy/exact | median greedy/exact | median where different | left out (exact fell back) |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        diff = "-" if row.median_ratio_where_different is None else f"{row.median_ratio_where_different:.4f}"
        lines.append(
            f"| {row.exponent:g} | {100 * row.share_equal:.1f}% ({row.equal}/{row.segments}) "
            f"| {row.min_ratio:.4f} | {row.median_ratio:.4f} | {diff} | {row.fallbacks} |"
        )
    return "\n".join(lines)
