"""``mtworkbench validate``: check a bundle and summarise it."""

from __future__ import annotations

import argparse

from mtworkbench.cli.progress import cli_progress


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("validate", help="check a project bundle", description="Load and check a bundle; exit 1 with the problem if it is broken.")
    p.add_argument("bundle")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtworkbench.io.bundle.bundle import load_bundle

    with cli_progress(args, "Reading"):
        project = load_bundle(args.bundle)
    print(
        f"{args.bundle}: ok: {len(project.documents)} documents, {len(project.segments)} segments, "
        f"{len(project.references)} references, {len(project.systems)} systems, "
        f"{len(project.spans)} entity spans, {len(project.judgments)} judgments"
    )
    return 0
