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
    from mtworkbench.io.bundle.bundle import load_bundle

    with cli_progress(args, "Reading"):
        project = load_bundle(args.bundle)
    print(
        f"{args.bundle}: ok: {plural(len(project.documents), 'document')}, "
        f"{plural(len(project.segments), 'segment')}, {plural(len(project.references), 'reference')}, "
        f"{plural(len(project.systems), 'system')}, {plural(len(project.spans), 'entity span')}, "
        f"{plural(len(project.judgments), 'judgment')}"
    )
    return 0
