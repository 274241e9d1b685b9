"""The ``mtworkbench`` command line.

Each subcommand lives in its own module under ``mtworkbench.cli.commands`` and
exposes ``register(subparsers)``, which adds its parser and sets ``func`` to a
function ``(args) -> int``. Modules are discovered, so adding a command touches
no shared file.

Exit codes: 0 ok; 2 usage error (argparse, unknown metric or option); 1 data
error, reported as one line on stderr without a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from mtworkbench import __version__
from mtworkbench.core.errors import DataError
from mtworkbench.core.scoring_input import MetricError
from mtworkbench.metrics.base import MetricSpecError


class UsageError(Exception):
    """A command was called with options that do not fit together (exit 2)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mtworkbench",
        description="Machine translation evaluation workbench. Without a command, opens the app.",
    )
    parser.add_argument("--version", action="version", version=f"mtworkbench {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    from mtworkbench.cli import commands

    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        argv = ["gui"]
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except (UsageError, MetricSpecError) as exc:
        print(f"mtworkbench {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except (DataError, MetricError, OSError, UnicodeError) as exc:
        print(f"mtworkbench {args.command}: error: {_one_line(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.filename}: {exc.strerror or exc}"
    return " ".join(str(exc).split("\n"))
