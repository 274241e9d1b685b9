"""Checking a valid bundle without keeping the texts nothing else reads, on two cores.

``validate`` must make every check that reading makes, but keeps no project. The
texts - a reference's or system's, nearly all of a large bundle - are only read by
the later sections through the ids they name (an entity span its reference's or
system's text, a judgment's error spans its system's, a suggestion decision its
reference's; a campaign may read any). A text section whose id nothing there names
is checked as the reader checks it (every value a string, every segment's text in
segment order, decoded in the same pieces) and then dropped; the project gets an
empty stand-in (``_Unkept``) that refuses to be read, so a reader that reads it after
all sends the file the general way instead of checking against a missing text.

Such sections are independent once the top-level scan has found them, so a large
file's last ones are checked by a forked worker process while this one reads the
documents and the other texts: the map is shared, the worker decodes its sections
and sends back only which of them were in order and their keys (which this process
compares with the segment ids). The worker only ever confirms: a section it did not
confirm - a wrong type, texts out of order or missing, a worker that failed or was
stopped - is read here the usual way, so every refusal goes the general way and its
message names the first problem by file order exactly as before.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import signal
from typing import Any, NoReturn

import msgspec

from mtworkbench.io.bundle.sections_read import GIVES_UP_ON, NotTaken, TextSections, text_pieces

# A file whose texts nothing else reads are this large or more is checked on two cores
# (a fork costs a few milliseconds; below this the worker would not pay for itself).
FORK_FROM_BYTES = 16 * 1024 * 1024
# Decoding a byte of the documents (segment records, then the project's index of them)
# costs about this many times a byte of texts: the worker's share evens out the two.
DOCUMENT_WEIGHT = 2.0
# Values walked at most to find the ids the later sections name (a few tens of milliseconds):
# a project with more judgments or spans than that keeps its texts, as the app's reader does.
NAMED_WALK_LIMIT = 200_000
# The later sections that read texts through the ids they name; a campaign may read any.
_READ_TEXTS = ("entity_spans", "relations", "judgments", "suggestion_decisions")


class _Unkept(dict[str, str]):
    """The stand-in for texts checked and dropped: reading it refuses the fast way."""

    def _refuse(self, *_: Any) -> NoReturn:
        raise NotTaken

    __getitem__ = __contains__ = __iter__ = __len__ = get = keys = values = items = _refuse


class CheckedTexts(TextSections):
    """Texts checked, not kept, where nothing else reads them; the rest read as usual."""

    scan_whole = True  # ``validate`` has no window to keep answering

    def __init__(self, data: bytes | mmap.mmap) -> None:
        super().__init__(data)
        self._unread: set[int] = set()
        self._worker: _Worker | None = None
        self._confirmed: set[int] | None = None

    def start(self, owners: list[tuple[str, msgspec.Raw]], rest: dict[str, Any], documents: msgspec.Raw) -> None:
        named = _named(rest)
        self._unread = {i for i, (owner, _) in enumerate(owners) if named is not None and owner not in named}
        share = worker_share([len(raw) for _, raw in owners], self._unread, len(documents))
        if share and hasattr(os, "fork") and sum(len(owners[i][1]) for i in share) >= FORK_FROM_BYTES:
            try:
                self._worker = _Worker([(i, owners[i][1]) for i in share], self.data)
            except (OSError, Warning):  # no process to spare (or a fork warned of as an error): one core
                self._worker = None

    def texts(self, index: int, raw: msgspec.Raw, ids: list[str]) -> tuple[dict[str, str], bool]:
        if index in self._unread:
            if self._worker is not None and index in self._worker.share:
                if index in self._worker_confirmed(ids):
                    return _Unkept(), True
            elif keys_in_order(raw, ids, self.data) is not None:
                return _Unkept(), True
        return super().texts(index, raw, ids)  # read and kept: its problems are found as usual

    def _worker_confirmed(self, ids: list[str]) -> set[int]:
        if self._confirmed is None:
            assert self._worker is not None
            confirmed, keys = self._worker.answer()
            self._confirmed = confirmed if keys == ids else set()
        return self._confirmed

    def close(self) -> None:
        if self._worker is not None:
            self._worker.stop()


def _named(rest: dict[str, Any]) -> set[str] | None:
    """Every string in the sections that read texts through ids (None: any text may be read,
    or those sections are too large to walk for less than the texts' keeping costs)."""
    if rest.get("campaign") is not None:
        return None
    names: set[str] = set()
    stack = [rest.get(key) for key in _READ_TEXTS]
    visited = 0
    while stack:
        visited += 1
        if visited > NAMED_WALK_LIMIT:
            return None
        value = stack.pop()
        if isinstance(value, str):
            names.add(value)
        elif isinstance(value, dict):
            stack += value.keys()
            stack += value.values()
        elif isinstance(value, list):
            stack += value
    return names


def worker_share(sizes: list[int], unread: set[int], documents: int) -> list[int]:
    """The text sections (by index) a worker checks: the last ones, all unread, while moving one
    more lowers the larger of the two processes' shares (this one also reads the documents).
    This process reads its sections in file order and waits for the worker's answer at the
    first of the worker's: none of its own may come after."""
    here, there = documents * DOCUMENT_WEIGHT + sum(sizes), 0.0
    share: list[int] = []
    for i in reversed(range(len(sizes))):
        if i not in unread or max(here - sizes[i], there + sizes[i]) >= max(here, there):
            break
        here, there = here - sizes[i], there + sizes[i]
        share.append(i)
    return sorted(share)


def keys_in_order(raw: msgspec.Raw, expected: list[str] | None, data: bytes | mmap.mmap) -> list[str] | None:
    """The keys of a texts object decoded in the reader's pieces (every value a string),
    where they are ``expected`` in that order (or, with None, whatever they are); None
    where they are not. A wrong type raises as the decoder does."""
    keys: list[str] = []
    done = 0
    for piece in text_pieces(raw, data):
        found = list(piece)
        if expected is None:
            keys += found
        elif found != expected[done:done + len(found)]:
            return None
        done += len(found)
    if expected is None:
        return keys
    return expected if done == len(expected) else None


class _Worker:
    """A forked process checking some text sections of the shared map; it answers once."""

    def __init__(self, sections: list[tuple[int, msgspec.Raw]], data: bytes | mmap.mmap) -> None:
        self.share = {i for i, _ in sections}
        read_end, write_end = os.pipe()
        try:
            # Other threads (a progress bar's) do not follow into the worker, and nothing it
            # runs - the decoder, the pipe, os._exit - takes a lock they could be holding.
            pid = os.fork()
        except BaseException:
            os.close(read_end)
            os.close(write_end)
            raise
        if pid == 0:  # the worker: never returns into the caller
            os.close(read_end)
            _work(sections, data, write_end)
        os.close(write_end)
        self._pid: int | None = pid
        self._fd = read_end

    def answer(self) -> tuple[set[int], list[str]]:
        """The sections the worker confirmed and the keys they share (nothing where it failed)."""
        chunks = []
        while chunk := os.read(self._fd, 1 << 20):
            chunks.append(chunk)
        status = self._reap()
        try:
            if status != 0:
                return set(), []
            confirmed, keys = msgspec.msgpack.decode(b"".join(chunks), type=tuple[list[int], list[str]])
            return set(confirmed), keys
        except msgspec.MsgspecError:
            return set(), []

    def stop(self) -> None:
        if self._pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
            self._reap()
        os.close(self._fd)

    def _reap(self) -> int | None:
        if self._pid is None:
            return None
        pid, self._pid = self._pid, None
        try:
            return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        except ChildProcessError:  # reaped already (SIGCHLD ignored): its answer is not trusted
            return None


def _work(sections: list[tuple[int, msgspec.Raw]], data: bytes | mmap.mmap, fd: int) -> NoReturn:
    """The worker's whole life: check, write the answer, and leave at once (nothing of the
    parent's - its buffers, locks, exit handlers - is touched; an interrupt exits too)."""
    code = 1
    try:
        keys: list[str] | None = None
        confirmed: list[int] = []
        for index, raw in sections:
            try:
                found = keys_in_order(raw, keys, data)
            except GIVES_UP_ON:
                continue
            if found is not None:
                keys = found
                confirmed.append(index)
        view = memoryview(msgspec.msgpack.encode((confirmed, keys or [])))
        while view:
            view = view[os.write(fd, view):]
        code = 0
    finally:
        os._exit(code)
