"""``mtworkbench export``: write a project's texts in a corpus format."""

from __future__ import annotations

import argparse
import sys

from mtworkbench.cli.progress import cli_progress, note_kept
from mtworkbench.core.wording import plural


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
    p.add_argument("--raw", action="store_true",
                   help="tsv: write cells unchanged; by default a cell a spreadsheet would run as a formula "
                        "(=, +, -, @ at the start, unless a number) gets a leading ' that import removes")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtworkbench.core.output import describe_target, to_stdout
    from mtworkbench.io.bundle.bundle import load_bundle
    from mtworkbench.io.corpora.corpus import export_corpus

    with cli_progress(args, "Reading"):
        project = load_bundle(args.bundle)
    renamed: dict[str, str] = {}
    # Written to standard output (-o - or /dev/stdout): the messages must not mix with the data.
    says = sys.stderr if to_stdout(args.output) else sys.stdout
    for n, path in enumerate(export_corpus(project, args.format, args.output, raw=args.raw, renamed=renamed), 1):
        print(f"wrote {describe_target(path)}", file=says)
        note_kept(f"{plural(n, 'file')} written, as listed; no other")  # each file is whole (written atomically)
    for item_id, name in renamed.items():
        print(f"note: {item_id!r} written as {name} (its name alone is not a safe, unique file name)", file=says)
    return 0
