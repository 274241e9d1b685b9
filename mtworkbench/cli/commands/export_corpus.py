"""``mtworkbench export``: write a project's texts in a corpus format."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    from mtworkbench.io.formats import CORPUS_FORMATS

    p = subparsers.add_parser(
        "export",
        help="export a project's texts as corpus files",
        description="plain writes a folder of one-segment-per-line files; the others write the format's files.",
    )
    p.add_argument("bundle")
    p.add_argument("--format", choices=CORPUS_FORMATS.writable(), default="plain", help=CORPUS_FORMATS.help())
    p.add_argument("-o", "--output", required=True, help="output folder (plain) or file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtworkbench.io.bundle import load_bundle
    from mtworkbench.io.corpus import export_corpus

    for path in export_corpus(load_bundle(args.bundle), args.format, args.output):
        print(f"wrote {path}")
    return 0
