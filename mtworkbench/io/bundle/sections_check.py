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
file's are shared with a forked worker process, piece by piece (``text_pieces``' pieces):
the worker is started as soon as the sections are found, decodes the systems and then the
references itself, and checks their pieces from the last one backwards while this process
reads the documents and checks pieces from the first one on. For each piece it checked
the worker sends its number of keys and a digest of them (no texts, no keys: a few bytes);
this process takes a piece the worker has answered for by comparing that digest with the
digest of the segment ids it expects there, and checks every other piece itself - so it
never waits for the worker, and the two meet wherever the work evens out. The worker only
ever confirms: a piece it did not confirm - a wrong type, texts out of order or missing, a
worker that failed or was stopped - is read here the usual way, so every refusal goes the
general way and its message names the first problem by file order exactly as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import mmap
import os
import signal
from typing import Any, NoReturn

import msgspec

from mtworkbench.io.bundle.sections_read import (
    GIVES_UP_ON,
    OWNER_DECODERS,
    OWNER_FIELDS,
    OWNER_TYPES,
    NotTaken,
    TextSections,
    piece_bounds,
    text_piece,
)

# A file whose texts are this large or more is checked on two cores (a fork costs a few
# milliseconds; below this the worker would not pay for itself).
FORK_FROM_BYTES = 16 * 1024 * 1024
# Values walked at most to find the ids the later sections name (a few tens of milliseconds):
# a project with more judgments or spans than that keeps its texts, as the app's reader does.
NAMED_WALK_LIMIT = 200_000
# The later sections that read texts through the ids they name; a campaign may read any.
_READ_TEXTS = ("entity_spans", "relations", "judgments", "suggestion_decisions")
# The worker's order: the last sections first (this process begins with the first ones).
_WORKER_ORDER = ("systems", "references")
# A piece of texts: its section ("references" or "systems"), its owner's place in it, its place.
Piece = tuple[str, int, int]


class _Unkept(dict[str, str]):
    """The stand-in for texts checked and dropped: reading it refuses the fast way."""

    def _refuse(self, *_: Any) -> NoReturn:
        raise NotTaken

    __getitem__ = __contains__ = __iter__ = __len__ = get = keys = values = items = _refuse


# The texts of an owner the worker told of: not decoded here unless a piece of them must be.
_TOLD = msgspec.Raw(b"")


class CheckedTexts(TextSections):
    """Texts checked, not kept, where nothing else reads them; the rest read as usual."""

    def __init__(self, data: bytes | mmap.mmap) -> None:
        super().__init__(data)
        self._named: set[str] | None = None
        self._unread: set[int] = set()
        self._references = 0
        self._worker: _Worker | None = None
        self._sections: dict[str, msgspec.Raw] = {}
        self._decoded: dict[str, list[Any]] = {}

    def found(self, sections: dict[str, msgspec.Raw], rest: dict[str, Any]) -> None:
        self._named = _named(rest)
        size = len(sections["references"]) + len(sections["systems"])
        if self._named is not None and hasattr(os, "fork") and size >= FORK_FROM_BYTES:
            try:
                self._worker = _Worker({name: sections[name] for name in _WORKER_ORDER}, self._named, self.data)
            except (OSError, Warning):  # no process to spare (or a fork warned of as an error): one core
                self._worker = None

    def owners(self, references: msgspec.Raw, systems: msgspec.Raw) -> tuple[list[Any], list[Any]]:
        """As the worker decoded them, where it has told of both sections by now (their texts
        decoded here only where needed); else decoded here."""
        self._sections = {"references": references, "systems": systems}
        told = None if self._worker is None else self._worker.owners()
        if told is None:
            return super().owners(references, systems)
        found = [[OWNER_TYPES[section](owner, _TOLD, field) for owner, field, *_ in told[section]]
                 for section in ("references", "systems")]
        return found[0], found[1]

    def start(self, owners: list[tuple[str, msgspec.Raw]], references: int) -> None:
        named = self._named
        self._unread = {i for i, (owner, _) in enumerate(owners) if named is not None and owner not in named}
        self._references = references

    def texts(self, index: int, raw: msgspec.Raw, ids: list[str]) -> tuple[dict[str, str], bool]:
        section, owner = ("references", index) if index < self._references else ("systems", index - self._references)
        if index in self._unread and self._in_order((section, owner), raw, ids):
            return _Unkept(), True
        if raw is _TOLD:
            raw = self._texts_here(section, owner)
        return super().texts(index, raw, ids)  # read and kept: its problems are found as usual

    def _in_order(self, owner: tuple[str, int], raw: msgspec.Raw, ids: list[str]) -> bool:
        """Whether a texts object holds a string for every segment, in segment order: piece by
        piece, each one the worker answered for by its keys' digest, every other one decoded
        here (a wrong type raises as the decoder does)."""
        told = self._worker.pieces(owner) if raw is _TOLD and self._worker is not None else None
        if raw is _TOLD and told is None:
            raw = self._texts_here(*owner)
        bounds = None if told is not None else list(piece_bounds(memoryview(raw)))
        done = 0
        for number in range(len(bounds) if bounds is not None else told or 0):
            answer = None if self._worker is None else self._worker.answer((*owner, number))
            if answer is not None:
                count, digest = answer
                if digest != keys_digest(ids[done:done + count]):
                    return False
            else:
                if bounds is None:  # the first piece the worker has not answered for
                    raw = self._texts_here(*owner)
                    bounds = list(piece_bounds(memoryview(raw)))
                    if len(bounds) != told:
                        return False
                keys = list(text_piece(memoryview(raw), *bounds[number], self.data))
                count = len(keys)
                if keys != ids[done:done + count]:
                    return False
            done += count
        return done == len(ids)

    def _texts_here(self, section: str, owner: int) -> msgspec.Raw:
        """An owner's texts the worker told of, found here after all: where the worker found
        them in the section, else by decoding the section here."""
        at, size = self._worker.where((section, owner)) if self._worker is not None else (-1, 0)
        if at >= 0:
            return msgspec.Raw(memoryview(self._sections[section])[at:at + size])
        if section not in self._decoded:
            self._decoded[section] = OWNER_DECODERS[section].decode(self._sections[section])
        texts: msgspec.Raw = self._decoded[section][owner].texts
        return texts

    def close(self) -> None:
        self._sections.clear()  # slices of the map, which is closed next
        self._decoded.clear()
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


def keys_digest(keys: list[str]) -> bytes:
    """A digest of a piece's keys, in order (what the worker sends instead of the keys)."""
    return hashlib.blake2b(msgspec.msgpack.encode(keys), digest_size=20).digest()


class _Owners(msgspec.Struct, tag=True, array_like=True):
    """The owners of a section as the worker decoded it: id, translator or kind, how many pieces
    their texts are cut into, where those lie in the section's bytes (-1: not found) and their size."""

    section: str
    owners: list[tuple[str, str, int, int, int]]


class _Piece(msgspec.Struct, tag=True, array_like=True):
    """A piece of an owner's texts whose values are all strings: its keys' count and digest."""

    section: str
    owner: int
    number: int
    count: int
    digest: bytes


_LENGTH = 4  # bytes before each answer: its length
_ANSWER = msgspec.msgpack.Decoder(_Owners | _Piece)


class _Worker:
    """A forked process checking text pieces of the shared map, the last ones first; it sends
    an answer for each piece it checked, which this process reads when it comes to that piece."""

    def __init__(self, sections: dict[str, msgspec.Raw], named: set[str], data: bytes | mmap.mmap) -> None:
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
            _work(sections, named, data, write_end)
        os.close(write_end)
        os.set_blocking(read_end, False)
        self._pid: int | None = pid
        self._fd: int | None = read_end
        self._pending = bytearray()
        self.answers: dict[Piece, tuple[int, bytes]] = {}
        self.told: dict[str, list[tuple[str, str, int, int, int]]] = {}

    def owners(self) -> dict[str, list[tuple[str, str, int, int, int]]] | None:
        """The owners of both sections as the worker decoded them; None where it has not told (yet)."""
        self._read()
        return self.told if len(self.told) == len(_WORKER_ORDER) else None

    def pieces(self, owner: tuple[str, int]) -> int | None:
        """How many pieces the worker cut an owner's texts into (as ``piece_bounds``)."""
        told = self.told.get(owner[0])
        return told[owner[1]][2] if told is not None and owner[1] < len(told) else None

    def where(self, owner: tuple[str, int]) -> tuple[int, int]:
        """Where an owner's texts lie in its section's bytes, and their size ((-1, 0): not told)."""
        told = self.told.get(owner[0])
        return (told[owner[1]][3], told[owner[1]][4]) if told is not None and owner[1] < len(told) else (-1, 0)

    def answer(self, piece: Piece) -> tuple[int, bytes] | None:
        """The worker's count and digest of a piece's keys; None where it has not answered (yet)."""
        if piece not in self.answers:
            self._read()
        return self.answers.get(piece)

    def _read(self) -> None:
        """Take what the worker has sent so far, without waiting for more."""
        while self._fd is not None:
            try:
                chunk = os.read(self._fd, 1 << 16)
            except BlockingIOError:
                break
            if not chunk:  # the worker has ended
                os.close(self._fd)
                self._fd = None
            self._pending += chunk
        pending = self._pending
        used = 0
        while len(pending) - used >= _LENGTH:
            size = int.from_bytes(pending[used:used + _LENGTH], "little")
            if len(pending) - used - _LENGTH < size:
                break
            found = _ANSWER.decode(pending[used + _LENGTH:used + _LENGTH + size])
            if isinstance(found, _Owners):
                self.told[found.section] = found.owners
            else:
                self.answers[(found.section, found.owner, found.number)] = (found.count, found.digest)
            used += _LENGTH + size
        del pending[:used]

    def stop(self) -> None:
        if self._pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
            pid, self._pid = self._pid, None
            with contextlib.suppress(ChildProcessError):  # reaped already (SIGCHLD ignored)
                os.waitpid(pid, 0)
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _work(sections: dict[str, msgspec.Raw], named: set[str], data: bytes | mmap.mmap, fd: int) -> NoReturn:
    """The worker's whole life: decode the sections of owners and tell of them, check pieces
    from the last one backwards, answer for each one whose values are all strings, and leave
    at once (nothing of the parent's - its buffers, locks, exit handlers - is touched; an
    interrupt exits too)."""
    try:
        owners = {section: OWNER_DECODERS[section].decode(sections[section]) for section in _WORKER_ORDER}
        bounds = {(section, k): list(piece_bounds(memoryview(owner.texts)))
                  for section in _WORKER_ORDER for k, owner in enumerate(owners[section])}
        for section in _WORKER_ORDER:
            where = texts_places(sections[section], [owner.texts for owner in owners[section]])
            _send(fd, _Owners(section, [(owner.id, getattr(owner, OWNER_FIELDS[section]), len(bounds[(section, k)]),
                                         where[k], len(owner.texts)) for k, owner in enumerate(owners[section])]))
        for section in _WORKER_ORDER:
            for k in reversed(range(len(owners[section]))):
                if owners[section][k].id in named:
                    continue  # read and kept by this process's reader
                body = memoryview(owners[section][k].texts)
                for number in reversed(range(len(bounds[(section, k)]))):
                    try:
                        keys = list(text_piece(body, *bounds[(section, k)][number], data))
                    except GIVES_UP_ON:
                        continue  # this process reads it and names the problem
                    _send(fd, _Piece(section, k, number, len(keys), keys_digest(keys)))
    finally:
        os._exit(0)


def texts_places(section: msgspec.Raw, texts: list[msgspec.Raw]) -> list[int]:
    """Where each of the owners' texts (decoded from ``section``: slices of its bytes, not
    copies) lies in the section's bytes (-1: this Python cannot tell), so the reader can
    decode a piece of them without decoding the whole section again."""
    start = buffer_address(section)
    places = []
    for value in texts:
        at = buffer_address(value)
        places.append(at - start if start is not None and at is not None and
                      0 <= at - start <= len(section) - len(value) else -1)
    return places


def buffer_address(value: Any) -> int | None:
    """The address of the first byte of an object's buffer, from the buffer protocol itself
    (CPython's ``PyObject_GetBuffer``); None where this Python cannot tell."""
    import ctypes  # the worker's only: the reader never needs it

    class PyBuffer(ctypes.Structure):  # Py_buffer, as the stable ABI lays it out
        _fields_ = [("buf", ctypes.c_void_p), ("obj", ctypes.c_void_p), ("len", ctypes.c_ssize_t),
                    ("itemsize", ctypes.c_ssize_t), ("readonly", ctypes.c_int), ("ndim", ctypes.c_int),
                    ("format", ctypes.c_char_p), ("shape", ctypes.c_void_p), ("strides", ctypes.c_void_p),
                    ("suboffsets", ctypes.c_void_p), ("internal", ctypes.c_void_p)]

    try:
        get, release = ctypes.pythonapi.PyObject_GetBuffer, ctypes.pythonapi.PyBuffer_Release
    except AttributeError:
        return None
    get.argtypes, get.restype = [ctypes.py_object, ctypes.POINTER(PyBuffer), ctypes.c_int], ctypes.c_int
    release.argtypes, release.restype = [ctypes.POINTER(PyBuffer)], None
    view = PyBuffer()
    try:
        if get(value, ctypes.byref(view), 0) != 0:  # PyBUF_SIMPLE: contiguous bytes
            return None
    except (TypeError, BufferError):
        return None
    try:
        return view.buf
    finally:
        release(ctypes.byref(view))


def _send(fd: int, answer: _Owners | _Piece) -> None:
    encoded = msgspec.msgpack.encode(answer)
    view = memoryview(len(encoded).to_bytes(_LENGTH, "little") + encoded)
    while view:
        view = view[os.write(fd, view):]
