"""``mtworkbench validate``: check a bundle and summarise it."""

from __future__ import annotations

import argparse

from mtworkbench.cli.progress import cli_progress


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("validate", help="check a project bundle", description="Load and check a bundle; exit 1 with the problem if it is broken.")
    p.add_argument("bundle")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtworkbench.core.wording import plural
    from mtworkbench.io.bundle.bundle import check_bundle

    with cli_progress(args, "Reading"):
        found = check_bundle(args.bundle)
    print(
        f"{args.bundle}: ok: {plural(found.documents, 'document')}, "
        f"{plural(found.segments, 'segment')}, {plural(found.references, 'reference')}, "
        f"{plural(found.systems, 'system')}, {plural(found.spans, 'entity span')}, "
        f"{plural(found.judgments, 'judgment')}"
    )
    return 0
