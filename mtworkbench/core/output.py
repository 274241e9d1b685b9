"""The one writer of a file a user names for output (``-o``, ``--export``, ``--csv``, ...).

* ``-`` is standard output.
* ``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N`` and ``/proc/self/fd/N`` are this
  process's open descriptors: written there directly (a rename beside
  ``/proc/<pid>/fd/1`` is impossible, and would not reach the pipe anyway).
* Anything else that exists and is not a regular file (a FIFO, ``/dev/null``, a
  terminal) is opened and written, as a shell redirection would: replacing it
  by a regular file would destroy the node and the reader would never see a byte.
* A regular file (or a new name) is written atomically (``core.atomic``); a link
  the user named is followed, like a save of a linked bundle.

Every failure is an ``OSError`` naming the file.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from contextlib import AbstractContextManager, nullcontext, redirect_stdout
from pathlib import Path
from typing import TextIO

from mtworkbench.core.atomic import atomic_write_bytes, named_error
from mtworkbench.core.text_display import shown

STDOUT = "-"

_FD_PATH = re.compile(r"/(?:dev/(?P<std>stdout|stderr)|dev/fd/(?P<fd>\d+)|proc/(?P<pid>self|\d+)/fd/(?P<pfd>\d+))")


def is_stdout(target: str | Path) -> bool:
    return str(target) == STDOUT


def not_a_file_target(target: str | Path) -> bool:
    """Whether ``target`` is written in place rather than replaced: ``-``, one of this
    process's descriptors, or an existing FIFO, device or socket."""
    name = str(target)
    if name == STDOUT or _own_descriptor(name) is not None:
        return True
    try:
        mode = os.stat(name).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def to_stdout(target: str | Path) -> bool:
    """Whether writing ``target`` writes this process's standard output (so messages go to stderr)."""
    return is_stdout(target) or _own_descriptor(str(target)) == 1


def messages_for(target: str | Path) -> AbstractContextManager[object]:
    """Where a command's messages go once its output is written: standard error when the
    output itself went to standard output (so the two never mix), else where they were."""
    return redirect_stdout(sys.stderr) if to_stdout(target) else nullcontext()


def describe_target(target: str | Path) -> str:
    """How to name ``target`` in a "wrote ..." line."""
    return "standard output" if is_stdout(target) else shown(target)


def write_output(target: str | Path, data: str | bytes) -> None:
    """Write ``data`` (text is written as UTF-8) to the output the user named."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    name = str(target)
    fd = 1 if name == STDOUT else _own_descriptor(name)
    if fd in (1, 2):
        _write_stream(sys.stdout if fd == 1 else sys.stderr, payload, name)
        return
    if fd is not None:
        _write_fd(fd, payload, name)
        return
    try:
        info = os.stat(name)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise named_error(exc, name) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(21, "is a folder; give a file name", name)
    if info is not None and not stat.S_ISREG(info.st_mode):
        _write_in_place(name, payload)
        return
    atomic_write_bytes(name, payload, keep_backup=False)


def _own_descriptor(name: str) -> int | None:
    match = _FD_PATH.fullmatch(name)
    if match is None:
        return None
    if match["std"]:
        return 1 if match["std"] == "stdout" else 2
    if match["fd"] is not None:
        return int(match["fd"])
    if match["pid"] in ("self", str(os.getpid())):
        return int(match["pfd"])
    return None  # another process's descriptor: a path like any other


def _write_stream(stream: TextIO, payload: bytes, name: str) -> None:
    # Through the stream, not its descriptor: what was printed before stays first, and a
    # stream that has no descriptor (a captured one) works too.
    try:
        stream.flush()
        buffer = getattr(stream, "buffer", None)
        if buffer is not None:
            buffer.write(payload)
            buffer.flush()
        else:
            stream.write(payload.decode("utf-8"))
            stream.flush()
    except OSError as exc:
        raise named_error(exc, name) from None


def _write_fd(fd: int, payload: bytes, name: str) -> None:
    try:
        view = memoryview(payload)
        while view:
            view = view[os.write(fd, view):]
    except OSError as exc:
        raise named_error(exc, name) from None


def _write_in_place(name: str, payload: bytes) -> None:
    # O_NOCTTY: naming a terminal must not make it this process's controlling one.
    try:
        fd = os.open(name, os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise named_error(exc, name) from None
    try:
        _write_fd(fd, payload, name)
    finally:
        os.close(fd)
