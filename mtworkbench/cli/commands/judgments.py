"""``mtworkbench judgments``: import and export judgments, import segment scores as a pseudo-judge."""

from __future__ import annotations

import argparse
import sys

from mtworkbench.cli import UsageError
from mtworkbench.cli.progress import cli_progress


def register(subparsers: argparse._SubParsersAction) -> None:
    from mtworkbench.io.formats import JUDGMENT_FORMATS, SCORE_FORMATS

    p = subparsers.add_parser(
        "judgments",
        help="import/export human judgments",
        description="Import or export a bundle's human judgments; import segment-level human scores.",
    )
    sub = p.add_subparsers(dest="judgments_command", metavar="ACTION")

    imp = sub.add_parser(
        "import",
        help="add judgments from a file to a bundle",
        description=(
            "Add the judgments of FILE to BUNDLE (saved in place). The table (csv, tsv) has the header "
            "judge,system,segment,reference,adequacy,fluency,seconds,comment "
            "(optional score,scale,timestamp); segment = the segment id, or its 1-based number. "
            "--format mqm reads Google's MQM ratings TSV (every rater's error spans), esa and da "
            "their CSV, rank relative rankings as CSV (README), jsonl (the default for a .jsonl file) every "
            "field of every judgment as JSON Lines. New judges are created."
        ),
    )
    imp.add_argument("bundle")
    imp.add_argument("file")
    imp.add_argument("--format", choices=JUDGMENT_FORMATS.names, default=None,
                     help=JUDGMENT_FORMATS.help() + " (default: the table, by the file's suffix)")
    imp.set_defaults(func=run_import)

    exp = sub.add_parser(
        "export",
        help="write a bundle's judgments",
        description=(
            "Write the judgments of BUNDLE: the table (a .tsv output is tab-separated; MQM judgments with "
            "error spans are left to --format mqm), or with --format mqm the MQM ratings as Google's TSV "
            "(markers reinserted), esa/da that protocol's CSV, rank the relative rankings as CSV (a row "
            "per screen). '-' is stdout. In the table, cells a "
            "spreadsheet would run as formulas (starting with =, +, -, @, TAB or CR, unless a number) "
            "get a leading ' (a leading ' is doubled); 'judgments import' removes it again. "
            "--raw writes every cell unchanged."
        ),
    )
    exp.add_argument("bundle")
    exp.add_argument("-o", "--output", required=True, metavar="FILE")
    exp.add_argument("--format", choices=JUDGMENT_FORMATS.names, default=None,
                     help=JUDGMENT_FORMATS.help() + " (default: the table)")
    exp.add_argument("--raw", action="store_true", help="write cells unchanged (no formula guard), for pipelines")
    exp.set_defaults(func=run_export)

    scores = sub.add_parser(
        "import-scores",
        help="add segment-level human scores as a pseudo-judge",
        description=(
            "Add one score per segment of SYSTEM as judgments of the pseudo-judge NAME. "
            "--format lines: one score per line, line i = segment i in document order "
            "(empty/None/NA = not rated). --format mqm-tsv: the system/seg_id/mqm file "
            "(rows of --system, or of --file-system). Without --system: a table of every system, "
            "header system,seg_id,SCORE (SCORE = mqm, score, da, z or raw; tab- or comma-separated); "
            "rows of systems the project lacks are skipped and counted. Scores keep their own scale "
            "(e.g. da-z, mqm: 0 best, lower worse); --scale adequacy or fluency stores 1-5 ratings."
        ),
    )
    scores.add_argument("bundle")
    scores.add_argument("--judge", required=True, metavar="NAME")
    scores.add_argument("--system", metavar="ID", help="the system scored (default: every system of a table)")
    scores.add_argument("--scores", required=True, metavar="FILE")
    scores.add_argument("--scale", help="the scores' scale: da-z, mqm, adequacy, fluency, ... "
                        "(default: mqm for mqm-tsv, required for lines)")
    scores.add_argument("--format", choices=SCORE_FORMATS.names, default="lines", help=SCORE_FORMATS.help())
    scores.add_argument("--file-system", metavar="NAME", help="mqm-tsv: the system's name in the file, if it differs")
    scores.set_defaults(func=run_import_scores)

    from mtworkbench.cli import judgment_suggestions

    judgment_suggestions.register(sub)

    p.set_defaults(func=lambda args: _missing_action(p))


def _missing_action(parser: argparse.ArgumentParser) -> int:
    raise UsageError("choose an action: import, export or import-scores")


TABLE_FORMATS = ("csv", "tsv")


def run_import(args: argparse.Namespace) -> int:
    from mtworkbench.io.bundle.bundle import bundle_transaction
    from mtworkbench.io.formats import JUDGMENT_FORMATS
    from mtworkbench.io.judgments.judgments import apply_import

    # The table reader takes tabs from a .tsv name or header itself; a .jsonl name is JSON Lines.
    fmt = args.format or ("jsonl" if str(args.file).lower().endswith(".jsonl") else "csv")
    # Locked from read to write: a concurrent import waits instead of losing this one.
    with bundle_transaction(args.bundle) as project:
        plan = JUDGMENT_FORMATS.get(fmt).read(project, args.file)
        apply_import(project, plan)
    print(
        f"{args.bundle}: {plan.summary()}"
        + (f"; new judges: {', '.join(plan.judges)}" if plan.judges else "")
    )
    return 0


def run_export(args: argparse.Namespace) -> int:
    from mtworkbench.core.output import describe_target, to_stdout, write_output
    from mtworkbench.io.bundle.bundle import load_bundle
    from mtworkbench.io.formats import JUDGMENT_FORMATS
    from mtworkbench.io.judgments.judgments_export import judgments_table, ordered_judgments

    with cli_progress(args, "Reading"):
        project = load_bundle(args.bundle)
    fmt = args.format or "csv"
    if fmt not in TABLE_FORMATS:
        write = JUDGMENT_FORMATS.get(fmt).write
        # Every CSV but Google's MQM TSV (whose readers expect its cells as they are) guards formulas.
        n = write(project, args.output) if fmt == "mqm" else write(project, args.output, raw=args.raw)
        what = {"mqm": "MQM rows", "rank": "rankings"}.get(fmt, fmt.upper() + " judgments")
        if not to_stdout(args.output):
            print(f"{describe_target(args.output)}: {n} {what}")
        return 0
    # The table has no columns for error spans: MQM judgments without a score of their own
    # would come out as empty rows that cannot be read back, so they go to --format mqm.
    judgments = ordered_judgments(project)
    kept = [j for j in judgments if not (j.protocol == "mqm" and j.score is None)]
    if len(kept) < len(judgments):
        print(f"note: {len(judgments) - len(kept)} MQM judgments with error spans are left out; "
              "export them with --format mqm", file=sys.stderr)
    tab = fmt == "tsv" or str(args.output).lower().endswith(".tsv")
    write_output(args.output, judgments_table(kept, "\t" if tab else ",", raw=args.raw))
    if not to_stdout(args.output):
        print(f"{describe_target(args.output)}: {len(kept)} judgments")
    return 0


def run_import_scores(args: argparse.Namespace) -> int:
    from mtworkbench.io.bundle.bundle import bundle_transaction
    from mtworkbench.io.judgments.judgments import apply_import, plan_mqm_tsv, plan_score_lines

    if args.system is None:
        return _import_score_table(args)
    if args.format == "lines":
        if args.file_system:
            raise UsageError("--file-system only applies to --format mqm-tsv")
        if not args.scale:
            raise UsageError("--format lines needs --scale (e.g. da-z)")
    with bundle_transaction(args.bundle) as project:
        if args.format == "mqm-tsv":
            plan = plan_mqm_tsv(project, args.judge, args.system, args.scores, args.file_system, args.scale or "mqm")
        else:
            plan = plan_score_lines(project, args.judge, args.system, args.scores, args.scale)
        apply_import(project, plan)
    print(f"{args.bundle}: {len(plan.judgments)} scores of {args.system} as judge {args.judge!r}"
          + (f"; {plan.already_present} already in the project were not added again" if plan.already_present else ""))
    return 0


def _import_score_table(args: argparse.Namespace) -> int:
    """``import-scores`` without ``--system``: one table scoring every system."""
    from mtworkbench.io.bundle.bundle import bundle_transaction
    from mtworkbench.io.judgments.judgments import apply_import
    from mtworkbench.io.scores.score_table import plan_all_systems, score_column

    if args.file_system:
        raise UsageError("--file-system goes with --system")
    column = score_column(args.scores)
    scale = args.scale or ("mqm" if column == "mqm" else None)
    if not scale:
        raise UsageError(f"name the scale of the table's {column!r} column with --scale (e.g. da-z)")
    with bundle_transaction(args.bundle) as project:
        result = plan_all_systems(project, args.judge, args.scores, scale)
        apply_import(project, result.plan)
    print(f"{args.bundle}: {len(result.plan.judgments)} scores of {len(result.systems)} systems "
          f"({', '.join(result.systems)}) as judge {args.judge!r}")
    if result.skipped:
        print(f"note: {result.skipped_note()}")
    return 0
