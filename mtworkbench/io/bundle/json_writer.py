"""Writing a bundle's JSON: orjson's encoder, byte for byte what ``json.dumps`` writes.

A bundle is written as ``json.dumps(value, ensure_ascii=False, indent=2,
allow_nan=False)`` plus a newline. With ``indent``, the standard library encodes
in pure Python (seconds for a big project); orjson encodes, indents and appends
the newline in one pass in compiled code, and writes the same bytes for the same
dicts, lists, strings, integers, booleans and null - all of a bundle but its
floats, which it spells its own way (``0.00001`` and ``1e-7`` for Python's
``1e-05`` and ``1e-07``). Floats are therefore written as Python spells them, as
raw JSON. Anything else - a non-string key, a lone surrogate, a float that is not
finite (orjson would write ``null``), an integer beyond 64 bits, a type the
standard library does not write (a dataclass, an enum) - goes through
``json.dumps`` itself, so its error (or its output) is exactly today's.
msgspec writes the same bytes in three passes (encode, indent, append the
newline: about 2.5 times the CPU time); it is kept for what orjson refuses but
the standard library writes, an integer beyond 64 bits.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from itertools import chain, islice
from typing import Any

import msgspec
import orjson

_OPTIONS = orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE
_MSGSPEC = msgspec.json.Encoder()
_SCALARS = (str, int, bool, type(None))
_SCALAR_SET = frozenset(_SCALARS)
_STR = frozenset({str})
_DICT = frozenset({dict})


class _Slow(Exception):
    """The value holds something only ``json.dumps`` writes (or refuses) exactly."""


def fast_dumps(value: Any) -> bytes | None:
    """``dumps_text(value)`` as UTF-8, or None where only ``dumps_text`` writes (or refuses) it exactly."""
    pieces = fast_pieces(value)
    if pieces is None:
        return None
    return b"".join(pieces) if len(pieces) > 1 else bytes(pieces[0])


def fast_pieces(value: Any) -> list[bytes | memoryview] | None:
    """``fast_dumps(value)`` as the pieces it joins, for a writer that writes them one by one:
    joining a 270 MB document is one copy that holds the interpreter's lock for a quarter of a
    second. None where only ``dumps_text`` writes (or refuses) it exactly."""
    pieces: list[bytes | memoryview] = []
    try:
        _pieces(value, pieces.append)
        return pieces
    except _Slow:
        return None
    except (TypeError, ValueError, RecursionError, OverflowError):  # orjson.JSONEncodeError is a TypeError
        pieces.clear()
    data = _msgspec_dumps(value)
    return None if data is None else [data]


def _msgspec_dumps(value: Any) -> bytes | None:
    """An integer beyond 64 bits: msgspec writes it (and all else) as json.dumps does, in three passes."""
    try:
        raw = _MSGSPEC.encode(_floats_as_python(value, msgspec.Raw))
    except (_Slow, TypeError, ValueError, UnicodeEncodeError, RecursionError, OverflowError):
        return None
    out = msgspec.json.format(raw, indent=2)
    del raw
    return out + b"\n"


def stream_dumps(value: Any, out: Callable[[bytes | memoryview], object]) -> bool:
    """``fast_dumps(value)`` handed to ``out`` in pieces as they are made (a writer can write and hash
    them while the rest is encoded); False where ``fast_dumps`` must write it its other ways (some
    pieces may have gone to ``out`` by then: the caller discards them). What ``out`` raises propagates."""
    try:
        _pieces(value, out)
    except (_Slow, TypeError, ValueError, RecursionError, OverflowError):
        return False
    return True


def _pieces(value: Any, out: Callable[[bytes | memoryview], object]) -> None:
    if not _is_big(value):
        out(orjson.dumps(_floats_as_python(value, orjson.Fragment), option=_OPTIONS))
        return
    _write_big(out, value, 0)
    out(b"\n")


# --- a big value in pieces ---------------------------------------------------------------
# orjson holds the GIL for the whole of one call: a 270 MB project in one call froze every other
# thread (the window's, during a save or an autosave on a worker) for its half second or more. A
# big value is therefore written in pieces of at most about PIECE_ITEMS values, each one call;
# between them the other threads run. The pieces are indented to their depth and joined with the
# separators json.dumps puts between items, so the bytes are the same.
PIECE_ITEMS = 2048
_CONTAINERS = (dict, list, tuple)


def _is_big(value: Any) -> bool:
    """More than ``PIECE_ITEMS`` values inside ``value`` (counted only until that is known)."""
    if type(value) not in _CONTAINERS:
        return False
    count = 0
    stack = [value]
    while stack:
        items = stack.pop()
        items = items.values() if type(items) is dict else items
        count += len(items)
        if count > PIECE_ITEMS:
            return True
        stack.extend(item for item in items if type(item) in _CONTAINERS)
    return False


def _items(container: dict | list, depth: int, flat: bool = False) -> memoryview:
    """The items of a non-empty container as json.dumps writes them at ``depth + 1``, without its
    brackets. ``flat``: known to hold no float (``_flat``).

    The container is encoded inside ``depth`` one-item lists, so orjson itself indents its
    items to their depth; the wrapping lists' lines are cut off around them.
    """
    wrapped: Any = container if flat else _floats_as_python(container, orjson.Fragment)
    for _ in range(depth):
        wrapped = [wrapped]
    data = orjson.dumps(wrapped, option=orjson.OPT_INDENT_2)
    head = sum(2 + 2 * (k + 1) for k in range(depth)) + 2  # each "[", newline, indent; then "{" newline
    tail = 2 + 2 * depth + sum(2 + 2 * k for k in range(depth))  # newline, indent, "}"; each newline, indent, "]"
    return memoryview(data)[head:len(data) - tail]  # a view: joined without a copy of its own


def _flat(values: Any) -> bool:
    """Strings, integers, flags and nulls only, or dicts of only those: no float, nothing nested."""
    kinds = set(map(type, values))
    if kinds <= _SCALAR_SET:
        return True
    return kinds == _DICT and set(map(type, chain.from_iterable(values))) <= _STR and \
        set(map(type, chain.from_iterable(map(dict.values, values)))) <= _SCALAR_SET


def _write_big(out: Callable[[bytes | memoryview], object], value: Any, depth: int) -> None:
    """A container with more than ``PIECE_ITEMS`` values inside, in pieces (it starts where its
    value starts: after its key, or at its item's indent)."""
    is_dict = type(value) is dict
    out(b"{" if is_dict else b"[")
    pad = b"  " * (depth + 1)
    separator = b"\n"
    group: list[Any] = []  # small neighbours go together into one piece

    def flush() -> None:
        nonlocal separator
        if group:
            out(separator)
            out(_items(dict(group) if is_dict else group, depth))
            separator = b",\n"
            group.clear()

    entries = iter(value.items()) if is_dict else None
    for start in range(0, len(value), PIECE_ITEMS):
        chunk = dict(islice(entries, PIECE_ITEMS)) if entries is not None else value[start:start + PIECE_ITEMS]
        if is_dict and not set(map(type, chunk)) <= _STR:
            raise _Slow  # json.dumps spells a number or None key its own way, or refuses it
        if _flat(chunk.values() if is_dict else chunk):  # a system's texts, a paragraph's segments
            flush()
            out(separator)
            out(_items(chunk, depth, flat=True))
            separator = b",\n"
            continue
        for entry in (chunk.items() if is_dict else chunk):
            item = entry[1] if is_dict else entry
            if not _is_big(item):
                group.append(entry)
                if len(group) >= PIECE_ITEMS:
                    flush()
                continue
            flush()
            out(separator)
            out(pad)
            if is_dict:
                out(orjson.dumps(entry[0]))
                out(b": ")
            _write_big(out, item, depth + 1)
            separator = b",\n"
    flush()
    out(b"\n" + b"  " * depth + (b"}" if is_dict else b"]"))


def dumps_text(value: Any) -> str:
    """The standard library's spelling: the reference ``fast_dumps`` reproduces."""
    return json.dumps(value, ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def _floats_as_python(value: Any, raw: Callable[[bytes], Any]) -> Any:
    """``value`` with every float replaced by raw JSON in ``repr``'s spelling (made by ``raw``).

    Containers are copied only on the way to a float (the project's own dicts
    and lists are never changed). The types in a container, and in a list of
    dicts (a paragraph's segments), are gathered in C: a section of strings - a
    system's texts - costs no Python step per entry.
    """
    kind = type(value)
    if kind is dict:
        if not set(map(type, value)) <= _STR:
            raise _Slow  # json.dumps spells a number or None key its own way, or refuses it
        if set(map(type, value.values())) <= _SCALAR_SET:
            return value
        out = None
        for key, item in value.items():
            if type(item) in _SCALARS:
                continue
            new = _floats_as_python(item, raw)
            if new is not item:
                if out is None:
                    out = dict(value)
                out[key] = new
        return value if out is None else out
    if kind is list or kind is tuple:
        kinds = set(map(type, value))
        if kinds <= _SCALAR_SET:
            return value
        if kinds == _DICT and set(map(type, chain.from_iterable(value))) <= _STR and \
                set(map(type, chain.from_iterable(map(dict.values, value)))) <= _SCALAR_SET:
            return value
        items = None
        for i, item in enumerate(value):
            if type(item) in _SCALARS:
                continue
            new = _floats_as_python(item, raw)
            if new is not item:
                if items is None:
                    items = list(value)
                items[i] = new
        return value if items is None else items
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _Slow
        return raw(float.__repr__(value).encode("ascii"))
    if isinstance(value, (str, int)) and not isinstance(value, (dict, list, tuple)):
        return value  # a subclass (an enum): both write its value
    raise _Slow  # a set, a record, a dict subclass: json.dumps refuses or writes it its own way


__all__ = ["dumps_text", "fast_dumps", "stream_dumps"]
