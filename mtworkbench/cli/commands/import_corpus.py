"""``mtworkbench import``: build a project bundle from corpus files."""

from __future__ import annotations

import argparse
from pathlib import Path

from mtworkbench.cli import UsageError
from mtworkbench.cli.progress import cli_progress


def register(subparsers: argparse._SubParsersAction) -> None:
    from mtworkbench.io.formats import CORPUS_FORMATS, LAYOUT_FORMATS

    p = subparsers.add_parser(
        "import",
        help="create a project bundle from corpus files",
        description="Create a project from a source file, reference files and system outputs.",
    )
    p.add_argument("directory", nargs="?", metavar="DIR",
                   help="--format mt-metrics-eval: the test-set directory (e.g. wmt22/)")
    p.add_argument("--source", help="source file (or the one WMT XML file)")
    p.add_argument("--ref", action="append", default=[], metavar="[NAME=]FILE",
                   help="reference file (repeat for several); NAME= names the reference (plain, sgml; "
                        "default ref1, ref2, ...); mqm: a system whose texts are also a reference "
                        "(default: the systems named ref.../Human...; 'none' for none)")
    p.add_argument("--system", action="append", default=[], metavar="ID=FILE", help="system output (repeatable); sgml/wmt-xml: FILE alone takes ids from the file")
    p.add_argument("--format", choices=CORPUS_FORMATS.readable() + LAYOUT_FORMATS.readable(), default="plain",
                   help=CORPUS_FORMATS.help() + "; " + LAYOUT_FORMATS.help() + ": DIR with --lp")
    p.add_argument("--lp", metavar="SRC-TGT", help="--format mt-metrics-eval: the language pair (e.g. en-de)")
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


def parse_reference_args(values: list[str]) -> list[tuple[str, str]]:
    """``[NAME=]FILE`` pairs (NAME empty when not given). A value that is an existing
    file is a file even if its name has an "=" in it."""
    refs: list[tuple[str, str]] = []
    for value in values:
        name, eq, path = value.partition("=")
        if not eq or Path(value).exists():
            refs.append(("", value))
        elif not name or not path:
            raise UsageError(f"--ref expects FILE or NAME=FILE, got {value!r}")
        else:
            refs.append((name, path))
    named = [name for name, _ in refs if name]
    twice = sorted({name for name in named if named.count(name) > 1})
    if twice:
        raise UsageError(f"--ref names {', '.join(twice)} more than once")
    return refs


def name_references(project, names: list[str], fmt: str) -> None:
    """Give the imported references the names from ``--ref NAME=FILE``, in order."""
    from mtworkbench.core.model import Reference

    if not any(names):
        return
    if fmt not in ("plain", "sgml") or len(project.references) != len(names):
        raise UsageError("--ref NAME=FILE names references of plain and sgml imports (one reference per file)")
    for k, (name, ref) in enumerate(zip(names, list(project.references))):
        if not name or name == ref.id:
            continue
        if project.has_reference(name):
            raise UsageError(f"--ref {name}=...: the project has a reference {name!r} already")
        project.remove_reference(ref.id)
        project.add_reference(Reference(name, ref.translator, ref.texts), index=k)


def run(args: argparse.Namespace) -> int:
    from mtworkbench.core.output import describe_target, messages_for
    from mtworkbench.core.wording import plural
    from mtworkbench.io.bundle.bundle import save_bundle
    from mtworkbench.io.corpora.corpus import import_corpus
    from mtworkbench.io.formats import LAYOUT_FORMATS

    if args.format in LAYOUT_FORMATS:
        return _run_layout(args)
    if args.directory or args.lp:
        raise UsageError("DIR and --lp go with --format " + "|".join(LAYOUT_FORMATS.names))
    if not args.source:
        raise UsageError("--source is required")
    refs = parse_reference_args(args.ref)
    with cli_progress(args, "Importing"):
        project = import_corpus(
            args.format,
            source=args.source,
            references=[path for _, path in refs],
            systems=parse_system_args(args.system, args.format),
            source_language=args.src_lang,
            target_language=args.tgt_lang,
        )
    name_references(project, [name for name, _ in refs], args.format)
    out = Path(args.output)
    with cli_progress(args, "Writing"):
        save_bundle(project, out)
    with messages_for(args.output):
        print(
            f"wrote {describe_target(out)}: {plural(len(project.segments), 'segment')}, "
            f"{plural(len(project.references), 'reference')}, {plural(len(project.systems), 'system')}"
        )
    return 0


def _run_layout(args: argparse.Namespace) -> int:
    from mtworkbench.core.output import describe_target, messages_for
    from mtworkbench.core.wording import plural
    from mtworkbench.io.bundle.bundle import save_bundle
    from mtworkbench.io.formats import LAYOUT_FORMATS

    if not args.directory or not args.lp:
        raise UsageError(f"--format {args.format} needs DIR and --lp SRC-TGT")
    if args.source or args.ref or args.system:
        raise UsageError(f"--format {args.format} reads everything from DIR; no --source, --ref or --system")
    with cli_progress(args, "Importing", unit="files") as progress:
        result = LAYOUT_FORMATS.get(args.format).read(args.directory, args.lp, progress=progress)
    project = result.project
    out = Path(args.output)
    with cli_progress(args, "Writing"):
        save_bundle(project, out)
    with messages_for(args.output):
        print(
            f"wrote {describe_target(out)}: {plural(len(project.segments), 'segment')} in "
            f"{plural(len(project.documents), 'document')}, {plural(len(project.references), 'reference')}, "
            f"{plural(len(project.systems), 'system')}"
        )
        for name, n in result.human_segment_scores.items():
            print(f"human scores {name}: {n} segment scores (use --human {name})")
        for name, scores in result.human_system_scores.items():
            print(f"human system scores {name} (read, not stored: system level uses segment means): "
                  + ", ".join(f"{s} {v}" for s, v in scores.items()))
        if result.metrics:
            print("metric scores: " + ", ".join(f"ext:{m}" for m in result.metrics))
        for note in result.notes:
            print(f"note: {note}")
    return 0
