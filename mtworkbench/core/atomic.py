"""The one atomic file writer: a crash or an error mid-save never loses the old file.

The new content goes to a temporary file ``.NAME.XXXXXXXX.tmp`` in the same
folder (so the final rename stays on one file system), is flushed and fsynced,
and only then renamed over the target; the folder is fsynced so the rename
itself survives a power cut. With ``keep_backup`` the previous file survives as
``NAME.bak``, which is replaced atomically too (a hard link to the old file, or
a fsynced copy where links are not possible), so a ``.bak`` is always complete.

A write that was killed leaves its temporary file behind; the next write of
the same target removes such leftovers (our name pattern only, and only files
older than the current process, so a concurrent writer's file is never taken).

Lives in ``core`` so that ``io`` (bundles, exports) and ``metrics`` (caches)
share it without ``metrics`` importing ``io``.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import stat
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from mtworkbench.core.errors import DataError
from mtworkbench.core.files import check_output_size

BACKUP_SUFFIX = ".bak"


def _process_start_time() -> float:
    """When this process started (Linux: from /proc), else when this module was imported."""
    try:
        with open("/proc/self/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        ticks = int(fields[19])  # field 22 of stat(5), counted after the ")" of the name
        with open("/proc/uptime", "rb") as handle:
            uptime = float(handle.read().split()[0])
        return time.time() - uptime + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return time.time()


_PROCESS_START = _process_start_time()


def temp_pattern(target_name: str) -> re.Pattern[str]:
    """Names of our temporary files for ``target_name`` (the target's and its backup's)."""
    return re.compile(r"\." + re.escape(target_name) + r"\.(?:bak\.)?[a-z0-9_]{8}\.tmp")


def remove_stale_temp_files(path: str | Path, all_stale: bool = False,
                            pattern: re.Pattern[str] | None = None) -> list[Path]:
    """Delete temporary files that an interrupted write of ``path`` left; returns them.

    Normally only files older than this process go (a concurrent writer's file is
    younger); ``all_stale`` is for callers holding a lock that every writer of
    ``path`` takes (bundles), for whom any leftover is stale. ``pattern``: the
    names of another writer's temporary files of ``path`` (default :func:`temp_pattern`).
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    pattern = pattern or temp_pattern(path.name)
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            # Older than this process: no write of ours, and no live writer started after us.
            if (all_stale or info.st_mtime < _PROCESS_START - 1) and entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue  # gone already, or not ours to remove
    return removed


def atomic_write_stream(
    path: str | Path,
    write: Callable[[BinaryIO], object],
    keep_backup: bool = False,
    locked: bool = False,
    follow_link: bool = True,
    before_replace: Callable[[], object] | None = None,
) -> None:
    """Atomically replace ``path`` with what ``write(handle)`` writes to a binary handle.

    ``locked``: the caller holds the lock every writer of ``path`` takes, so all
    leftover temporary files of ``path`` are stale and removed.
    ``follow_link``: a link at ``path`` is followed and the file it names replaced
    (the user named the link: a bundle kept elsewhere); False for files whose name
    the program derives (lock descriptions, markers, recovery copies, companions),
    where the link itself is replaced and whatever it points to is never touched.
    A failing write raises an ``OSError`` that names ``path``.
    ``before_replace``: called once the new content is on disk, just before it replaces the
    old; whatever it raises leaves the old file as it was (the temporary file is removed).
    """
    path = Path(path)
    if follow_link and path.is_symlink():  # replace the file the link points to, not the link
        path = Path(os.path.realpath(path))
    folder = path.parent if str(path.parent) else Path(".")
    remove_stale_temp_files(path, all_stale=locked)
    try:
        # mkstemp opens with O_CREAT | O_EXCL: always a new file, never through a link left at its name.
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:  # named by the target: the temporary name would only puzzle
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
    try:
        # mkstemp creates 0600; give the file the mode a plain open() would (or the old file's).
        os.chmod(tmp_name, _target_mode(path, follow_link))
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            check_output_size(path, handle.tell())  # before the rename: the old file stays
            handle.flush()
            os.fsync(handle.fileno())
        if before_replace is not None:
            before_replace()
        if keep_backup and path.exists():
            _write_backup(path, folder)
        held = hold_last_name(path)
        try:
            _replace(tmp_name, path)
        finally:
            release_later(held)
        _fsync_dir(folder)
    except BaseException as exc:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):
            raise named_error(exc, path) from None
        raise


def named_error(exc: OSError, path: str | Path) -> OSError:
    """``exc`` naming ``path`` when it names no file (a full disk says only "No space left")."""
    if exc.filename is not None:
        return exc
    named = OSError(exc.errno, exc.strerror or str(exc), str(path))
    named.__traceback__ = exc.__traceback__
    return named


def atomic_write_bytes(
    path: str | Path, data: bytes, keep_backup: bool = True, locked: bool = False, follow_link: bool = True,
    before_replace: Callable[[], object] | None = None,
) -> None:
    check_output_size(path, len(data))  # refused before a temporary file is made
    atomic_write_stream(path, lambda handle: handle.write(data), keep_backup=keep_backup, locked=locked,
                        follow_link=follow_link, before_replace=before_replace)


def atomic_write_text(
    path: str | Path, text: str, keep_backup: bool = True, locked: bool = False, follow_link: bool = True
) -> None:
    atomic_write_bytes(path, encode_text(text, path), keep_backup=keep_backup, locked=locked,
                       follow_link=follow_link)


def encode_text(text: str, path: str | Path) -> bytes:
    """``text`` as UTF-8; a lone surrogate (a file name or argument that was not UTF-8 on its
    way in) is refused with a message naming the file and the text around it."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        around = text[max(0, exc.start - 30):exc.end + 30].encode("utf-8", "backslashreplace").decode("utf-8")
        raise DataError(f"{path}: cannot be written: '{around}' is not valid text (a file name or argument "
                        "that is not UTF-8?); rename it") from None


def write_side_file(path: str | Path, text: str) -> None:
    """Write a file whose name the program derives from another (a lock's description, a
    marker, a recovery copy, a companion): atomically, and never through a link found at
    its name (the link is replaced, its target left alone)."""
    atomic_write_text(path, text, keep_backup=False, follow_link=False)


def backup_path(path: str | Path) -> Path:
    path = Path(path)
    return path.with_name(path.name + BACKUP_SUFFIX)


def _write_backup(path: Path, folder: Path) -> None:
    """Make ``NAME.bak`` the current ``NAME`` in one rename; the target exists at every instant."""
    backup = backup_path(path)
    try:
        if os.path.samefile(path, backup):
            # A writer killed between making the backup and replacing the file left both names
            # on one file: the backup already is the current file. (Linking again would not help:
            # rename() between two links of one file does nothing and leaves the temporary name.)
            return
    except OSError:
        pass  # no backup yet, or it cannot be compared: make one as usual
    tmp_bak = folder / f".{path.name}.bak.{secrets.token_hex(4)}.tmp"
    try:
        try:
            os.link(path, tmp_bak)  # the old file itself: complete by construction, no copying
        except OSError:
            with open(path, "rb") as src, open(tmp_bak, "xb") as dst:
                shutil.copyfileobj(src, dst)
                dst.flush()
                os.fsync(dst.fileno())
        held = hold_last_name(backup)
        try:
            os.replace(tmp_bak, backup)
        finally:
            release_later(held)
    except BaseException:
        try:
            os.unlink(tmp_bak)
        except FileNotFoundError:
            pass
        raise


# Replacing a file's only name frees its blocks inside the rename, in the saver's thread: 0.2-0.3 s
# for the 270 MB backup a big project's save replaces (longer on a file system that discards
# freed blocks). Held open across the rename, the old file is freed only when it is closed, which a
# background thread does. Nothing about the rename changes: a crash at any point leaves the old or the
# new file under the name, and the old one's blocks are reclaimed as for any deleted open file.
HOLD_MIN_BYTES = 8 * 2**20  # smaller files free in well under a millisecond


def hold_last_name(path: Path) -> int | None:
    """A read-only descriptor of the regular file at ``path`` when ``path`` is its only name and
    it is big; None otherwise (nothing else is opened: no link, FIFO or device)."""
    if os.name != "posix":
        return None  # elsewhere an open file may not be replaced
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1 or info.st_size < HOLD_MIN_BYTES:
            return None
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        opened = os.fstat(fd)
    except OSError:
        opened = None
    if opened is None or (opened.st_dev, opened.st_ino) != (info.st_dev, info.st_ino):
        _close_quietly(fd)  # replaced between the two looks: not the file the rename frees
        return None
    return fd


def release_later(fd: int | None) -> None:
    """Close ``fd`` (from ``hold_last_name``) on a background thread: the file is freed there."""
    if fd is not None:
        threading.Thread(target=_close_quietly, args=(fd,), name="mtwb-free-old-file", daemon=True).start()


def _close_quietly(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass


def _target_mode(path: Path, follow_link: bool = True) -> int:
    try:
        info = path.stat() if follow_link else path.lstat()
        if stat.S_ISREG(info.st_mode):
            return info.st_mode & 0o7777
        raise FileNotFoundError  # a link or a special file: its mode says nothing about ours
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
