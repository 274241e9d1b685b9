"""Progress bars for long commands, drawn on stderr when it is a terminal.

``with cli_progress(args, "Scoring") as progress:`` gives a plain
``progress(done, total)`` function, the callback every core job already takes.
On a terminal it draws a bar with a percentage, a count, a rate and the time
left; when stderr is a pipe or a file, or with ``--quiet``, it draws nothing
and costs nothing (rich is imported only when a bar is drawn, so ``--help``
and piped runs stay lean). stdout never receives any of it.

``progress.stage("Writing")`` starts the next step of the same command; a step
whose work reports no progress shows as a bar that pulses, with the time spent.

Ctrl+C: the command line prints ``interrupted: WHAT WAS KEPT`` and exits 130.
What was kept is the ``kept`` attribute of the interrupt (a job that saved its
finished part raises a ``KeyboardInterrupt`` that carries it), else what a
command noted with :func:`note_kept`, else "nothing written".
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_kept: str | None = None
_active: Progress | None = None  # the bar being drawn (rich draws one live display at a time)


def note_kept(message: str | None) -> None:
    """What a Ctrl+C from now on leaves behind (None: nothing written)."""
    global _kept
    _kept = message


def interrupted_message(exc: BaseException | None = None) -> str:
    kept = getattr(exc, "kept", None) or _kept or "nothing written"
    return f"interrupted: {kept}"


def wants_bar(args: argparse.Namespace | None, stream: Any = None) -> bool:
    """A bar only on a terminal, and never with --quiet."""
    if args is not None and getattr(args, "quiet", False):
        return False
    stream = sys.stderr if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # closed or replaced by an object without a descriptor
        return False


class Progress:
    """The callback handed to jobs; silent unless a bar is attached."""

    def __init__(self, bar: Any = None, description: str = "", unit: str = "", scale: float = 1) -> None:
        self._bar = bar
        self._task: Any = None
        self._scale = scale
        if bar is not None:
            self._start(description, unit)

    @property
    def drawing(self) -> bool:
        return self._bar is not None

    def __call__(self, done: float, total: float) -> None:
        if self._bar is None:
            return
        self._bar.update(self._task, completed=done / self._scale, total=(total / self._scale) if total else None)

    def stage(self, description: str, unit: str = "", scale: float = 1) -> None:
        """Finish the current step and start ``description`` (no total yet: a pulsing bar)."""
        self._scale = scale
        if self._bar is None:
            return
        if self._task is not None:  # one line per command: the finished step makes way
            self._bar.remove_task(self._task)
        self._start(description, unit)

    def _start(self, description: str, unit: str) -> None:
        self._task = self._bar.add_task(description, total=None, unit=unit)


@contextmanager
def cli_progress(
    args: argparse.Namespace | None, description: str, unit: str = "", scale: float = 1
) -> Iterator[Progress]:
    """A :class:`Progress` for the ``with`` block: ``progress(done, total)`` moves the bar.

    ``unit`` names what is counted (shown as "3/8 scores" and "1.2 scores/s");
    ``scale`` divides what the job reports (the scoring service counts thousandths of a task).
    """
    global _active
    if _active is not None:  # a step inside a drawn step: the same line goes on with it
        _active.stage(description, unit, scale)
        yield _active
        return
    if not wants_bar(args):
        yield Progress(None, scale=scale)
        return
    bar = _make_bar()
    with bar:
        _active = Progress(bar, description, unit, scale)
        try:
            yield _active
        finally:
            _active = None


def _make_bar() -> Any:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        ProgressColumn,
        TaskProgressColumn,
        TextColumn,
    )
    from rich.progress import Progress as RichProgress
    from rich.text import Text

    class CountRateAndTime(ProgressColumn):
        """ "3/8 scores, 1.20/s, 0:00:05 elapsed, eta 0:00:09": once the total is known."""

        def render(self, task: Any) -> Text:
            elapsed = _clock(task.finished_time if task.finished else task.elapsed)
            if task.total is None:
                return Text(f"{elapsed} elapsed")
            unit = task.fields.get("unit", "")
            parts = [f"{int(task.completed)}/{int(task.total)}{' ' + unit if unit else ''}"]
            speed = task.speed
            if speed:
                parts.append(f"{speed:.2f}/s" if speed < 10 else f"{speed:.0f}/s")
            parts.append(f"{elapsed} elapsed")
            remaining = task.time_remaining
            parts.append(f"eta {_clock(remaining) if remaining is not None else '-:--:--'}")
            return Text(", ".join(parts))

    console = Console(file=sys.stderr, force_terminal=True, force_interactive=True, width=_width())
    return RichProgress(
        TextColumn("{task.description}", markup=False),  # descriptions may name files: plain text
        BarColumn(bar_width=30),
        TaskProgressColumn(),
        CountRateAndTime(),
        console=console,
        transient=True,  # the result printed after it stays readable; the bar was for the wait
        redirect_stdout=False,  # stdout is the command's output, never touched
        redirect_stderr=True,  # a warning printed meanwhile goes above the bar (still to stderr), not through it
        refresh_per_second=8,
    )


def _clock(seconds: float | None) -> str:
    seconds = max(0, int(seconds or 0))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _width() -> int:
    """The terminal's width; a terminal that reports none (0 columns, as a pseudo-terminal
    opened by a program may) gets 100, else rich would draw in zero columns: nothing."""
    try:
        columns = os.get_terminal_size(sys.stderr.fileno()).columns
    except (OSError, ValueError, AttributeError):
        columns = 0
    if columns <= 0:
        columns = int(os.environ["COLUMNS"]) if os.environ.get("COLUMNS", "").isdigit() else 0
    return columns if columns > 0 else 100


def add_quiet_option(parser: argparse.ArgumentParser, top_level: bool = False) -> None:
    """``-q``/``--quiet`` on ``parser`` and on every command below it. Below the top
    level the default is left unset, so ``mtworkbench -q score`` is not undone."""
    if not any("--quiet" in action.option_strings for action in parser._actions):
        parser.add_argument(
            "-q", "--quiet", action="store_true",
            default=False if top_level else argparse.SUPPRESS,
            help="no progress bar (one is drawn on stderr only when it is a terminal)",
        )
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                add_quiet_option(sub)
