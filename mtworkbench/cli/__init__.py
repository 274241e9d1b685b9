"""The ``mtworkbench`` command line.

Each subcommand lives in its own module under ``mtworkbench.cli.commands`` and
exposes ``register(subparsers)``, which adds its parser and sets ``func`` to a
function ``(args) -> int``. Modules are discovered, so adding a command touches
no shared file.

Start-up is lean: only the module of the command being run is imported (a
command's heavy dependencies - scipy, scikit-learn, Qt - load inside its run
function). The other commands appear in ``--help`` through the one-line table
below; a discovered module missing from the table is imported for its help, so
a new command works before anyone adds it here.

Exit codes: 0 ok; 2 usage error (argparse, unknown metric or option); 1 data
error, reported as one line on stderr without a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from mtworkbench import __version__
from mtworkbench.cli.progress import add_quiet_option, interrupted_message, note_kept
from mtworkbench.core.errors import DataError

_COMMANDS_PACKAGE = "mtworkbench.cli.commands"

# command name -> (module name under cli.commands, one-line help). Only a cache of
# what each module's register() says: a test checks the two agree.
COMMAND_HELP: dict[str, tuple[str, str]] = {
    "agreement": ("agreement", "agreement between human judges"),
    "campaign-score": ("campaign_score", "score every language pair, system and metric of an mt-metrics-eval test set"),
    "compare": ("compare", "paired significance tests between systems"),
    "correlate": ("correlate", "correlation between metrics and human scores"),
    "entities": ("entities", "import, export, list and compare named-entity annotations"),
    "export": ("export_corpus", "export a project's texts as corpus files"),
    "gtm-study": ("gtm_study", "compare GTM's greedy matching with the exact maximum"),
    "gui": ("gui", "open the app (default)"),
    "analyze": ("analyze", "where does system A beat system B (compare-mt analyses)"),
    "human-scores": ("human_scores", "segment or system human scores of one protocol (LDC, DA, ESA, MQM, relative ranking)"),
    "import": ("import_corpus", "create a project bundle from corpus files"),
    "judgments": ("judgments", "import/export human judgments"),
    "metrics": ("metrics", "import metric scores computed elsewhere"),
    "models": ("models", "register neural-metric checkpoints (COMET, MetricX) by name"),
    "merge": ("merge", "merge work packages back into a project"),
    "queue": ("queue", "draw a judge's work queue (protocol, repeats, DA/ESA BAD items)"),
    "reliability": ("reliability", "metric reliability by pseudo-document length"),
    "render": ("render", "render a metric view to PNG or SVG without opening the app"),
    "score": ("score", "score hypotheses against references"),
    "split": ("split", "split a project into work packages, one per person"),
    "status": ("status", "progress of a campaign: items done / assigned per person"),
    "train-learned": ("train_learned", "train the learned (SVM) metric and store it in the bundle"),
    "typology": ("typology", "show, import, export or reset a project's MQM error typology"),
    "validate": ("validate", "check a project bundle"),
}


class UsageError(Exception):
    """A command was called with options that do not fit together (exit 2)."""


def command_modules() -> list[str]:
    """Every module under ``cli.commands``, found without importing any of them."""
    from mtworkbench.cli import commands

    return sorted(info.name for info in pkgutil.iter_modules(commands.__path__))


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; with ``command``, only that command's module is imported
    (the others are listed by name and help only). Without it, every module is."""
    parser = argparse.ArgumentParser(
        prog="mtworkbench",
        description="Machine translation evaluation workbench. Without a command, opens the app.",
    )
    parser.add_argument("--version", action="version", version=f"mtworkbench {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    known = {module for module, _ in COMMAND_HELP.values()}
    wanted = COMMAND_HELP[command][0] if command in COMMAND_HELP else None
    load_all = command is None
    listed = []  # (name, help) of commands shown without importing their module
    for name, (module, help_text) in COMMAND_HELP.items():
        if not load_all and module != wanted:
            listed.append((name, help_text))
    to_import = [m for m in command_modules() if load_all or m == wanted or m not in known]
    for module in to_import:
        importlib.import_module(f"{_COMMANDS_PACKAGE}.{module}").register(subparsers)
    for name, help_text in listed:
        subparsers.add_parser(name, help=help_text)
    # argparse lists commands in the order they were added: keep them sorted by name.
    subparsers._choices_actions.sort(key=lambda action: action.dest)
    add_quiet_option(parser, top_level=True)
    return parser


def _command_in(argv: list[str]) -> str | None:
    """The command word: the first argument not an option (the top level has only
    --help, --version and --quiet, which take no value)."""
    for arg in argv:
        if arg == "--":
            return None
        if not arg.startswith("-"):
            return arg
    return None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        argv = ["gui"]
    parser = build_parser(_command_in(argv) or "")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    note_kept(None)  # what a Ctrl+C leaves is this command's to say (main may run several in one process)
    try:
        return int(args.func(args) or 0)
    except UsageError as exc:
        print(f"mtworkbench {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except (DataError, OSError, UnicodeError) as exc:
        print(f"mtworkbench {args.command}: error: {_one_line(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as exc:
        # What was kept: the job's own account, or the command's note (cli.progress).
        print(interrupted_message(exc), file=sys.stderr)
        return 130
    except ValueError as exc:
        # Metric errors: only a command that imported the metrics can raise them,
        # so the CLI need not import them (and numpy) to catch them.
        scoring_input = sys.modules.get("mtworkbench.core.scoring_input")
        if scoring_input is None or not isinstance(exc, scoring_input.MetricError):
            raise
        base = sys.modules.get("mtworkbench.metrics.base")
        if base is not None and isinstance(exc, base.MetricSpecError):
            print(f"mtworkbench {args.command}: error: {exc}", file=sys.stderr)
            return 2
        print(f"mtworkbench {args.command}: error: {_one_line(exc)}", file=sys.stderr)
        return 1
    finally:
        # a cluster a command reached (or started: local:N) is closed when the command ends,
        # whatever ended it; a command that never asked for one does not import dask to say so
        cluster = sys.modules.get("mtworkbench.scoring.cluster")
        if cluster is not None:
            cluster.shutdown_clusters()


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.filename}: {exc.strerror or exc}"
    return " ".join(str(exc).split("\n"))
