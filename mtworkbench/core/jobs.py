"""Long-running work that both the CLI and the GUI drive.

A job is a plain function that accepts ``progress(done, total)`` and ``cancel()``
callbacks; the GUI runs it in a worker thread, the CLI on the main thread.
"""

from __future__ import annotations

from collections.abc import Callable

ProgressCallback = Callable[[int, int], None]
CancelCheck = Callable[[], bool]


class Cancelled(Exception):
    """Raised inside a job when its cancel check returned True."""


def report(progress: ProgressCallback | None, done: int, total: int) -> None:
    if progress is not None:
        progress(done, total)


def check_cancel(cancel: CancelCheck | None) -> None:
    if cancel is not None and cancel():
        raise Cancelled()
