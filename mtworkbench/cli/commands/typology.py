"""``mtworkbench typology``: show, import, export or reset a project's MQM error typology."""

from __future__ import annotations

import argparse
import sys

from mtworkbench.cli import UsageError
from mtworkbench.cli.progress import cli_progress

HELP = "show, import, export or reset a project's MQM error typology"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "typology",
        help=HELP,
        description=(
            "The MQM categories a project's raters pick from (Google's by default) and the most errors a "
            "segment new MQM queues allow. --import and --reset keep any category the judgments use that "
            "the new typology lacks; --rename renames a category in the typology and in every error using it. "
            "The bundle is saved in place."
        ),
    )
    p.add_argument("bundle")
    action = p.add_mutually_exclusive_group()
    action.add_argument("--show", action="store_true", help="print the typology with keys and uses (default)")
    action.add_argument("--import", dest="import_file", metavar="FILE.json", help="use the typology of FILE.json")
    action.add_argument("--export", metavar="FILE.json", help="write the typology as JSON ('-' for stdout)")
    action.add_argument("--reset", action="store_true", help="go back to Google's MQM categories")
    action.add_argument("--rename", nargs=2, metavar=("CATEGORY", "NEW_NAME"),
                        help="rename CATEGORY (e.g. Fluency/Grammar) to NEW_NAME (e.g. Syntax), in the judgments too")
    p.add_argument("--max-errors", type=int, metavar="N", help="the most errors a segment for new MQM queues (default 5)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtworkbench.core.mqm_typology import GOOGLE_TYPOLOGY
    from mtworkbench.core.typology_edits import apply_change, plan_rename, plan_replacement
    from mtworkbench.io.bundle.bundle import bundle_transaction, load_bundle
    from mtworkbench.io.judgments.typology_file import read_typology_file, typology_json_text, write_typology_file

    if args.max_errors is not None and args.max_errors < 1:
        raise UsageError(f"--max-errors must be a positive integer, not {args.max_errors}")
    changing = args.import_file or args.reset or args.rename or args.max_errors is not None
    if args.export:
        with cli_progress(args, "Reading"):
            project = load_bundle(args.bundle)
        if args.export == "-":
            sys.stdout.write(typology_json_text(project.settings.mqm_typology))
        else:
            write_typology_file(project.settings.mqm_typology, args.export)
            print(f"wrote {args.export}", file=sys.stderr)
        return 0
    if not changing:
        print(describe(load_bundle(args.bundle)))
        return 0
    incoming = read_typology_file(args.import_file) if args.import_file else None  # checked before locking
    with bundle_transaction(args.bundle) as project:
        change = None
        if incoming is not None:
            change = plan_replacement(project, incoming, f"Imported typology from {args.import_file}")
        elif args.reset:
            change = plan_replacement(project, GOOGLE_TYPOLOGY, "Reset to Google's MQM typology")
        elif args.rename:
            change = plan_rename(project, *args.rename)
        if change is not None:
            apply_change(project, change)
            print(change.description, file=sys.stderr)
        if args.max_errors is not None:
            project.set_setting("mqm_max_errors", args.max_errors)
            print(f"at most {args.max_errors} MQM errors a segment in new queues", file=sys.stderr)
    return 0


def describe(project) -> str:
    """The typology as an indented tree: key, name, errors using it."""
    from mtworkbench.core.typology_edits import categories_in_use

    used = categories_in_use(project)
    lines = [f"MQM typology ({project.settings.mqm_max_errors} errors a segment at most in new queues):"]
    for entry in project.settings.mqm_typology.entries():
        name = entry.full_name if entry.depth == 0 else entry.full_name.partition("/")[2]
        key = entry.keys or "-"
        uses = f"  ({used[entry.full_name]} errors)" if used.get(entry.full_name) else ""
        lines.append(f"{'    ' * entry.depth}[{key}] {name}{uses}")
    return "\n".join(lines)
