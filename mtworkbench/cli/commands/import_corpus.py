"""``mtworkbench import``: build a project bundle from corpus files."""

from __future__ import annotations

import argparse
from pathlib import Path

from mtworkbench.cli import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    from mtworkbench.io.formats import CORPUS_FORMATS

    p = subparsers.add_parser(
        "import",
        help="create a project bundle from corpus files",
        description="Create a project from a source file, reference files and system outputs.",
    )
    p.add_argument("--source", required=True, help="source file (or the one WMT XML file)")
    p.add_argument("--ref", action="append", default=[],
                   help="reference file (repeat for several); mqm: a system whose texts are also a reference "
                        "(default: the systems named ref.../Human...; 'none' for none)")
    p.add_argument("--system", action="append", default=[], metavar="ID=FILE", help="system output (repeatable); sgml/wmt-xml: FILE alone takes ids from the file")
    p.add_argument("--format", choices=CORPUS_FORMATS.readable(), default="plain", help=CORPUS_FORMATS.help())
    p.add_argument("--src-lang", default="")
    p.add_argument("--tgt-lang", default="")
    p.add_argument("-o", "--output", required=True, help="bundle to write (*.mtwb.json)")
    p.set_defaults(func=run)


def parse_system_args(values: list[str], fmt: str = "plain") -> list[tuple[str, str]]:
    """``ID=FILE`` pairs; for sgml and wmt-xml a bare FILE takes its ids from the file."""
    systems = []
    for value in values:
        sys_id, eq, path = value.partition("=")
        if not eq and fmt in ("sgml", "wmt-xml"):
            sys_id, path = "", value
        elif not eq or not sys_id or not path:
            raise UsageError(f"--system expects ID=FILE, got {value!r}")
        systems.append((sys_id, path))
    return systems


def run(args: argparse.Namespace) -> int:
    from mtworkbench.io.bundle import save_bundle
    from mtworkbench.io.corpus import import_corpus

    project = import_corpus(
        args.format,
        source=args.source,
        references=args.ref,
        systems=parse_system_args(args.system, args.format),
        source_language=args.src_lang,
        target_language=args.tgt_lang,
    )
    out = Path(args.output)
    save_bundle(project, out)
    print(
        f"wrote {out}: {len(project.segments)} segments, {len(project.references)} references, "
        f"{len(project.systems)} systems"
    )
    return 0
