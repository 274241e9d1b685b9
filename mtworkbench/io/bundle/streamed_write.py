"""Writing a bundle while it is encoded: the encoder on one thread, the file's writer on another.

Encoding a 270 MB project, then writing, hashing and fsyncing the result one after the other
took over three seconds. Here the document is encoded on a second thread in pieces (the JSON
writer's ``stream_dumps``); the saving thread writes each piece to the temporary file as it comes,
hashes it (both with the GIL released, so the two run side by side on two cores) and asks the
kernel to start writing each complete 32 MiB to disk (``start_writeback``), so the final
``fsync`` has little left. The bytes the app keeps (the base of a later merge) are read back from
the file once written rather than joined from pieces kept until the end. Everything that makes the write atomic is ``atomic_write_stream``'s,
unchanged: temporary file, fsync, backup, rename, folder fsync. The bytes are ``dumps_bytes``'s:
where the fast encoder cannot write the document, the temporary file is emptied and written
again with what ``dumps_bytes``' slower ways make.
"""

from __future__ import annotations

import errno
import hashlib
import os
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path
from queue import SimpleQueue
from typing import Any, BinaryIO

from mtworkbench.core.atomic import atomic_write_stream
from mtworkbench.core.files import check_output_size
from mtworkbench.core.writeback import EarlySync
from mtworkbench.io.bundle.json_writer import stream_dumps

_END = object()  # the encoder wrote the whole document
_SLOW = object()  # the encoder cannot write it: the slower ways must


# The writer needs the GIL between its GIL-free steps (write, hash), and waits for the encoder to
# let it go, up to the interpreter's switch interval (5 ms) each time: piece by piece, it fell half a
# second behind. It therefore takes what has come in batches of up to BATCH_BYTES: a join, a write
# and a hash, three waits per batch. (Handing the GIL over after each piece with a zero sleep made
# the encoder itself slower on the loaded machine.)
BATCH_BYTES = 8 * 2**20


def _batch(pieces: SimpleQueue[Any]) -> Any:
    """The next piece, joined with those already waiting behind it (up to ``BATCH_BYTES``)."""
    first = pieces.get()
    if first is _END or first is _SLOW or pieces.empty():
        return first
    batch, size = [first], len(first)
    while size < BATCH_BYTES and not pieces.empty():
        piece = pieces.get()
        if piece is _END or piece is _SLOW:
            pieces.put(piece)  # a SimpleQueue has one reader: it comes next
            break
        batch.append(piece)
        size += len(piece)
    return b"".join(batch)


def _read_back(fd: int, size: int) -> bytes:
    """The first ``size`` bytes of the file ``fd`` (a read may return less than asked: 2 GiB at most)."""
    data = os.pread(fd, size, 0)
    parts, got = [data], len(data)
    while got < size:
        part = os.pread(fd, size - got, got)
        if not part:
            raise OSError(errno.EIO, f"{size - got} bytes of the file just written could not be read back")
        parts.append(part)
        got += len(part)
    return data if len(parts) == 1 else b"".join(parts)


class _WriterGone(Exception):
    """The writing side failed or finished early: the encoder stops."""


def write_streamed(
    path: str | Path, document: dict[str, Any], encoder: Executor, slow_bytes: Callable[[], bytes],
    free: Callable[[dict[str, Any]], object], keep_bytes: bool, before_replace: Callable[[], object] | None = None,
) -> tuple[str, bytes | None]:
    """Atomically replace ``path`` (backup kept, lock held by the caller) with ``document``
    encoded on ``encoder``; returns the sha256 of what was written and (``keep_bytes``) the bytes.

    ``slow_bytes``: the bytes where the fast encoder refuses the document. ``free``: called
    with the document once it is encoded (not when the slow way must still read it).
    """
    pieces: SimpleQueue[Any] = SimpleQueue()
    gone = False

    def out(piece: bytes | memoryview) -> None:
        if gone:
            raise _WriterGone
        pieces.put(piece)

    def encode() -> bool:
        try:
            done = stream_dumps(document, out)
        except BaseException:
            pieces.put(_SLOW)  # never leave the writer waiting (what failed is raised by result())
            raise
        pieces.put(_END if done else _SLOW)
        if done:
            free(document)
        return done

    outcome: dict[str, Any] = {}

    def write(handle: BinaryIO) -> None:
        early = EarlySync(handle.fileno())
        try:
            _write_pieces(handle, early)
        finally:
            early.finish()  # before the final fsync, and never leaving a sync behind on a closed file

    def _write_pieces(handle: BinaryIO, early: EarlySync) -> None:
        digest = hashlib.sha256()
        # The bytes to return are read back from the file where the system can (kept until the
        # end, the pieces took fresh memory for the whole file: a third more CPU time in all).
        kept: list[bytes | memoryview] | None = [] if keep_bytes and not hasattr(os, "pread") else None
        written = 0
        while (piece := _batch(pieces)) is not _END:
            if piece is _SLOW:
                encoded.result()  # an error of the encoder's own is raised here
                data = slow_bytes()
                handle.seek(0)
                handle.truncate()
                handle.write(data)
                outcome["data"], outcome["hash"] = data, hashlib.sha256(data).hexdigest()
                return
            handle.write(piece)
            digest.update(piece)
            if kept is not None:
                kept.append(piece)
            written += len(piece)
            check_output_size(path, written)  # a file no reader takes back is refused as it grows
            if early.due(written):
                handle.flush()
                early.written(written)
        outcome["hash"] = digest.hexdigest()
        if keep_bytes:
            handle.flush()
            outcome["data"] = b"".join(kept) if kept is not None else _read_back(handle.fileno(), written)

    encoded = encoder.submit(encode)
    try:
        atomic_write_stream(path, write, keep_backup=True, locked=True, before_replace=before_replace)
    finally:
        gone = True  # a failed write stops the encoder at its next piece
        try:
            encoded.result()
        except _WriterGone:
            pass
    return outcome["hash"], outcome.get("data")


__all__ = ["write_streamed"]
