"""Reading input files safely: regular files only, and bounded in size.

A FIFO would block a reader for ever, a device such as ``/dev/zero`` would
grow memory without end, and a socket cannot be read as a file at all; every
reader of user files goes through ``read_regular_bytes``, which refuses them
with a message before reading. The ``stat`` check comes first; the file is then
opened with ``O_NONBLOCK`` (so a FIFO swapped in after the check cannot hang
the open) and checked again on the open descriptor.
"""

from __future__ import annotations

import mmap
import os
import stat
from pathlib import Path

from mtworkbench.core.errors import DataError

MIB = 1024 * 1024
# Far above any corpus or bundle met in practice (a WMT bundle with every system is ~40 MB),
# low enough that reading it whole stays within a desktop's memory.
MAX_INPUT_BYTES = 512 * MIB
# Writers and readers share this one limit (read at call time, never bound as a default):
# a file this program writes is always one it can read back.


def _kind(mode: int) -> str | None:
    """What a non-regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def input_limit() -> int:
    """The largest file read (and so the largest written): ``MAX_INPUT_BYTES``."""
    return MAX_INPUT_BYTES


def check_output_size(path: str | Path, size: int) -> None:
    """Refuse to write ``size`` bytes to ``path`` when no reader would take them back."""
    limit = input_limit()
    if size > limit:
        raise DataError(
            f"{path}: would be {size / MIB:.0f} MiB; files larger than {limit // MIB} MiB cannot be read "
            "back, so nothing was written (the file there, if any, is unchanged)"
        )


def check_regular_file(path: str | Path, max_bytes: int | None = None) -> int:
    """Refuse anything but a regular file no larger than ``max_bytes`` (default: the
    shared input limit); returns its size."""
    info = os.stat(path)  # follows symlinks: a link to a regular file is fine
    return _check_stat(path, info, input_limit() if max_bytes is None else max_bytes)


def _check_stat(path: str | Path, info: os.stat_result, max_bytes: int) -> int:
    kind = _kind(info.st_mode)
    if kind is not None:
        raise DataError(f"{path}: is {kind}, not a regular file; give a file to read")
    if info.st_size > max_bytes:
        raise DataError(
            f"{path}: is {info.st_size / MIB:.0f} MiB; files larger than {max_bytes // MIB} MiB are refused"
        )
    return info.st_size


def read_regular_bytes(path: str | Path, max_bytes: int | None = None) -> bytes:
    """The whole content of a regular file of at most ``max_bytes`` bytes (default: the
    shared input limit); DataError otherwise."""
    max_bytes = input_limit() if max_bytes is None else max_bytes
    check_regular_file(path, max_bytes)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        size = _check_stat(path, os.fstat(fd), max_bytes)  # the file opened is the file checked
        chunks = []
        total = 0
        # The first read asks for the whole file: one chunk is returned as it is by the join
        # below (no second copy of a large file at the peak).
        want = max(16 * MIB, size + 1)
        while True:
            chunk = os.read(fd, min(want, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:  # grew while being read
                raise DataError(f"{path}: grew beyond {max_bytes // MIB} MiB while being read; refused")
        return b"".join(chunks)
    finally:
        os.close(fd)


# From this size a file is mapped rather than read (``map_regular_file``).
MAP_FROM_BYTES = 32 * MIB


def map_regular_file(path: str | Path, max_bytes: int | None = None) -> bytes | mmap.mmap:
    """``read_regular_bytes``, but a file of ``MAP_FROM_BYTES`` or more is mapped read-only.

    A mapped file's pages are the page cache's: a reader can drop them from the
    process (``release_pages``) once it has decoded a part, so a large bundle is
    never resident twice (as bytes and as the objects decoded from them). The same
    checks come first (a regular file within the limit, opened without blocking).
    The caller closes the map. A file cut short by another program while it is
    mapped would fault on access, so only files this large are mapped; smaller
    ones are read as bytes.
    """
    max_bytes = input_limit() if max_bytes is None else max_bytes
    size = check_regular_file(path, max_bytes)
    if size < MAP_FROM_BYTES:
        return read_regular_bytes(path, max_bytes)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        size = _check_stat(path, os.fstat(fd), max_bytes)  # the file opened is the file checked
        if size < MAP_FROM_BYTES:  # replaced by a small file since the check: read that
            return read_regular_bytes(path, max_bytes)
        return mmap.mmap(fd, size, access=mmap.ACCESS_READ)
    finally:
        os.close(fd)


def release_pages(data: bytes | mmap.mmap) -> None:
    """Drop a mapped file's pages from this process (read again from the page cache when
    touched); nothing for bytes."""
    if isinstance(data, mmap.mmap) and hasattr(mmap, "MADV_DONTNEED"):
        data.madvise(mmap.MADV_DONTNEED)
