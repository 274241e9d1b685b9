"""An exclusive advisory lock per bundle, so that no two writers lose each other's update.

The lock is ``filelock``'s OS lock (``flock`` on POSIX) on ``.NAME.lock`` next to the
bundle: the kernel releases it when the holder dies, so a killed command never
leaves a bundle locked. While it holds the lock, a writer describes itself in
``.NAME.lock.info`` (pid, user, host, start time, program) so that a writer
that gives up waiting can say who holds it; the file is removed on release.

Reentrant within a process: ``save_bundle`` takes the lock even when called
inside ``bundle_transaction``, which already holds it; other threads of the
same process wait like other processes do.
"""

from __future__ import annotations

import getpass
import json
import math
import os
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mtworkbench.core.atomic import atomic_write_text, remove_stale_temp_files, write_side_file
from mtworkbench.core.errors import BundleLocked, DataError
from mtworkbench.core.output import not_a_file_target
from mtworkbench.core.text_display import clip

if TYPE_CHECKING:  # filelock is imported by the first lock taken: a command that only reads starts sooner
    from filelock import FileLock

# Long enough for another command's save of a 40 MB bundle; short enough to answer.
DEFAULT_TIMEOUT = 30.0
_ENV_TIMEOUT = "MTWB_LOCK_TIMEOUT"


def _real(bundle: str | Path) -> Path:
    # One lock per file, however it is named: through a symlink or a relative path.
    return Path(os.path.realpath(bundle))


def lock_path(bundle: str | Path) -> Path:
    bundle = _real(bundle)
    return bundle.with_name(f".{bundle.name}.lock")


def info_path(bundle: str | Path) -> Path:
    bundle = _real(bundle)
    return bundle.with_name(f".{bundle.name}.lock.info")


@dataclass(frozen=True)
class LockHolder:
    """Who holds (or last held) a bundle's lock, from its info file."""

    pid: int
    user: str
    host: str
    since: str  # ISO 8601 UTC
    program: str

    def describe(self) -> str:
        return f"pid {self.pid} ({self.program}), user {self.user} on {self.host}, since {self.since}"


def read_holder(bundle: str | Path) -> LockHolder | None:
    """The writer described in the lock's info file, or None when there is none (or it is unreadable)."""
    return _read_marker(info_path(bundle))


def _me() -> dict[str, object]:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = str(os.getuid()) if hasattr(os, "getuid") else "?"
    return {
        "pid": os.getpid(),
        "user": user,
        "host": socket.gethostname(),
        "since": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "program": " ".join(Path(a).name if i == 0 else a for i, a in enumerate(sys.argv[:3])) or "python",
    }


class _Held:
    def __init__(self, lock: FileLock) -> None:
        self.lock = lock
        self.count = 0
        self.thread_lock = threading.RLock()


_registry: dict[str, _Held] = {}
_registry_guard = threading.Lock()


def _timeout(timeout: float | None) -> float:
    if timeout is not None:
        return timeout
    text = os.environ.get(_ENV_TIMEOUT)
    if text is None or not text.strip():
        return DEFAULT_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    # nan and inf would reach the OS wait (OverflowError) and a negative wait means "for ever"
    # to filelock: a limit must be a plain number of seconds.
    if not math.isfinite(value) or value < 0:
        raise DataError(f"{_ENV_TIMEOUT}={clip(text)}: expected a number of seconds, 0 or more "
                        f"(the default is {DEFAULT_TIMEOUT:g})")
    return value


@contextmanager
def bundle_lock(bundle: str | Path, timeout: float | None = None) -> Iterator[None]:
    """Hold the bundle's exclusive lock; waits up to ``timeout`` s, then raises ``BundleLocked``."""
    from filelock import FileLock, Timeout

    bundle = Path(bundle)
    key = str(lock_path(bundle))
    with _registry_guard:
        held = _registry.get(key)
        if held is None:
            held = _registry[key] = _Held(FileLock(key, thread_local=False))
    wait = _timeout(timeout)
    if not held.thread_lock.acquire(timeout=wait if wait >= 0 else -1):
        raise BundleLocked(str(bundle), _holder_text(bundle), wait)
    try:
        if held.count == 0:
            try:
                held.lock.acquire(timeout=wait)
            except Timeout:
                raise BundleLocked(str(bundle), _holder_text(bundle), wait) from None
            # Every writer of the bundle holds this lock, so a temporary file of it found now was
            # left by a killed writer: gone, whether or not this holder writes the bundle.
            remove_stale_temp_files(_real(bundle), all_stale=True)
            try:
                atomic_write_text(info_path(bundle), json.dumps(_me()) + "\n", keep_backup=False, locked=True,
                                  follow_link=False)  # a link at its name is replaced, never followed
            except OSError:
                pass  # the lock itself holds; only the description of its holder is missing
        held.count += 1
        try:
            yield
        finally:
            held.count -= 1
            if held.count == 0:
                try:
                    os.unlink(info_path(bundle))
                except OSError:
                    pass
                held.lock.release()
    finally:
        held.thread_lock.release()


@contextmanager
def bundle_locks(*bundles: str | Path, timeout: float | None = None) -> Iterator[None]:
    """Hold the locks of several bundles at once (each file once, however named).

    Taken in one global order, that of their resolved lock files' paths: two commands
    that lock the same two files (``A -o B`` and ``B -o A``) then both start with the
    same one, so neither can hold one lock while waiting for the other's. An output
    that is not a file (``-``, a FIFO, a device) has no lock.
    """
    by_key: dict[str, str | Path] = {}
    for bundle in bundles:
        if not not_a_file_target(bundle):
            by_key.setdefault(str(lock_path(bundle)), bundle)
    with ExitStack() as stack:
        for key in sorted(by_key):
            stack.enter_context(bundle_lock(by_key[key], timeout))
        yield


def _holder_text(bundle: Path) -> str:
    holder = read_holder(bundle)
    return "" if holder is None else holder.describe()


# --- "open in another instance" markers (LibreOffice's .~lock files) ----------------------
# Not a lock: the app writes ``.NAME.open`` while it has a bundle open, so that a second
# instance can say "open in another window by USER on HOST since TIME" before the user edits.


def open_marker_path(bundle: str | Path) -> Path:
    bundle = Path(bundle)
    return bundle.with_name(f".{bundle.name}.open")


def mark_open(bundle: str | Path) -> None:
    """Record that this process has ``bundle`` open (replacing any stale marker)."""
    write_side_file(open_marker_path(bundle), json.dumps(_me()) + "\n")


def unmark_open(bundle: str | Path) -> None:
    """Remove this process's marker (another process's marker is left alone)."""
    holder = _read_marker(open_marker_path(bundle))
    if holder is not None and holder.pid == os.getpid() and holder.host == socket.gethostname():
        try:
            os.unlink(open_marker_path(bundle))
        except OSError:
            pass


def open_elsewhere(bundle: str | Path) -> LockHolder | None:
    """Who else has ``bundle`` open, from its marker; None if nobody (or only this process).

    A marker left by a process of this host that no longer runs (a crash) does not count.
    """
    holder = _read_marker(open_marker_path(bundle))
    if holder is None:
        return None
    if holder.host == socket.gethostname():
        if holder.pid == os.getpid() or not _running(holder.pid):
            return None
    return holder


def _read_marker(path: Path) -> LockHolder | None:
    try:
        with open(path, "rb") as handle:
            raw = json.loads(handle.read(4096).decode("utf-8"))
        return LockHolder(int(raw["pid"]), str(raw["user"]), str(raw["host"]), str(raw["since"]),
                          str(raw.get("program", "")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # exists, owned by someone else
    return True
