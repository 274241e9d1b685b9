"""Making a big file durable while it is still being written.

A big file written in one go sits in the page cache until its ``fsync``, which then waits for all
of it: about half a second for a 270 MB bundle here, most of it the file system's journal commit of
the whole file's new blocks, not the data itself (writing the data out first, the ``fsync`` after
still took 0.35 s). Synced as it grows, each complete 32 MiB by a background thread while the rest
is made, the final ``fsync`` has almost nothing left (3 ms), for about a tenth more time in all,
spent off the writer's thread. The final ``fsync`` remains what the atomic write relies on; an
error of an early sync is raised by ``finish`` (once reported, the kernel would not report it again).
"""

from __future__ import annotations

import os
import threading
from queue import SimpleQueue

# Smaller steps would commit the journal more often than they save.
WRITEBACK_STEP = 32 * 2**20

_sync = getattr(os, "fdatasync", os.fsync)  # the file's size and blocks, not its times


class EarlySync:
    """Syncs ``fd`` on a background thread each time ``written`` has grown by ``WRITEBACK_STEP``."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._asked: SimpleQueue[bool] = SimpleQueue()
        self._error: OSError | None = None
        self._synced_at = 0
        self._thread: threading.Thread | None = None

    def written(self, size: int) -> None:
        """The file now holds ``size`` bytes (the caller's buffer flushed to it)."""
        if size - self._synced_at < WRITEBACK_STEP:
            return
        self._synced_at = size
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="mtwb-early-sync", daemon=True)
            self._thread.start()
        self._asked.put(True)

    def due(self, size: int) -> bool:
        """Whether ``written(size)`` would ask for a sync (the caller flushes its buffer first)."""
        return size - self._synced_at >= WRITEBACK_STEP

    def finish(self) -> None:
        """Wait for the syncs asked for; raise the first one's error."""
        if self._thread is not None:
            self._asked.put(False)
            self._thread.join()
            self._thread = None
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        while self._asked.get():
            if self._error is None:
                try:
                    _sync(self._fd)  # the GIL is released while the disk works
                except OSError as exc:
                    self._error = exc


__all__ = ["WRITEBACK_STEP", "EarlySync"]
