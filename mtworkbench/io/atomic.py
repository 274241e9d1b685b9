"""Atomic file writes: a crash or an error mid-save never loses the old file.

The new content goes to a temporary file in the same folder (so the final
rename stays on one file system), is flushed and fsynced, and only then renamed
over the target. With ``keep_backup`` the previous file survives as ``*.bak``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def atomic_write_bytes(path: str | Path, data: bytes, keep_backup: bool = True) -> None:
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        # mkstemp creates 0600; give the file the mode a plain open() would (or the old file's).
        os.chmod(tmp_name, _target_mode(path))
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if keep_backup and path.exists():
            # copy, not rename: the target must exist at every instant.
            shutil.copy2(path, path.with_name(path.name + ".bak"))
        _replace(tmp_name, path)
        _fsync_dir(folder)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise


def _target_mode(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _replace(tmp_name: str, path: Path) -> None:
    # A separate function so tests can inject a failure between write and rename.
    os.replace(tmp_name, path)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_text(path: str | Path, text: str, keep_backup: bool = True) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), keep_backup=keep_backup)
