"""Parse JSON into only what can be saved again, naming the JSON path of anything else.

``json.loads`` accepts ``NaN``, ``Infinity`` and ``1e400`` (which becomes
infinity), ``"\\ud800"`` (a lone surrogate that no UTF-8 file can hold), and
raises ``ValueError`` for an integer of thousands of digits and
``RecursionError`` for arrays nested 100,000 deep. A project holding any of
these could be loaded but never saved; ``parse_json`` refuses them up front
with a ``BundleError`` naming the JSON path (``$.judgments[3].score``).

``parse_json_bytes`` is the fast way in for a whole file: msgspec decodes the
bytes straight to the same tree (it refuses every one of those values itself,
as it does invalid UTF-8 and any JSON syntax error); only a file it refuses goes
the slow way through ``json.loads``, whose hooks and messages name the problem.
"""

from __future__ import annotations

import codecs
import json
import math
import re
import sys
from collections.abc import Callable
from typing import Any

import msgspec

from mtworkbench.core.errors import BundleError

# A bundle's deepest regular path is $.documents[i].paragraphs[j].segments[k].id (7 levels);
# the free-form parts (judge_queues, learned_model) stay well below this.
MAX_DEPTH = 32
# The longest integer that still converts (Python's int-string limit, 4300 by default).
MAX_INT_DIGITS = sys.get_int_max_str_digits() or 4300

# A \uD800-\uDFFF escape: the only way a surrogate can enter text decoded from UTF-8.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


class _Unsavable:
    """Stands in for a number that cannot be saved, until its path is known."""

    __slots__ = ("why",)

    def __init__(self, why: str) -> None:
        self.why = why


def _parse_float(text: str) -> Any:
    value = float(text)
    if math.isfinite(value):
        return value
    return _Unsavable(f"number {text[:40]!r} is out of range (only finite numbers can be saved)")


def _parse_int(text: str) -> Any:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        return _Unsavable(f"integer of {digits} digits is too long (at most {MAX_INT_DIGITS} digits)")
    return int(text)


def _parse_constant(text: str) -> Any:
    return _Unsavable(f"{text} is not a number that can be saved (only finite numbers)")


def parse_json(
    text: str, file: str | None = None, max_depth: int = MAX_DEPTH, free_form: tuple[str, ...] | None = None
) -> Any:
    """``json.loads`` that refuses what could not be saved again; BundleError names the path.

    ``free_form``: the top-level fields whose depth the caller's own type checks do
    not bound (the rest of a bundle is checked level by level by the loader); only
    they are walked for depth, unless an unsavable value or a surrogate escape was
    seen, when the whole tree is walked to name its path. None walks everything.
    """
    found_unsavable = False

    def flag(parse):
        def wrapped(token: str) -> Any:
            nonlocal found_unsavable
            value = parse(token)
            if isinstance(value, _Unsavable):
                found_unsavable = True
            return value
        return wrapped

    try:
        data = json.loads(
            text,
            parse_float=flag(_parse_float),
            parse_int=flag(_parse_int),
            parse_constant=flag(_parse_constant),
        )
    except json.JSONDecodeError as exc:
        raise BundleError(
            f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}", "$", file
        ) from None
    except RecursionError:
        raise BundleError(f"nested deeper than {max_depth} levels; a project bundle is never that deep",
                          "$", file) from None
    suspicious = found_unsavable or bool(_SURROGATE_ESCAPE.search(text))
    if suspicious or free_form is None or not isinstance(data, dict):
        check_tree(data, file, max_depth, strings=suspicious)
    else:
        for key in free_form:
            if key in data:
                check_tree(data[key], file, max_depth, strings=False, path=f"$.{key}", depth=1)
    return data


# msgspec builds the same values json.loads does: dicts (a repeated key keeps its last
# value), lists, str, int (at most MAX_INT_DIGITS digits) and correctly rounded floats.
_DECODER = msgspec.json.Decoder()
# What msgspec raises for a file json.loads plus the hooks above would refuse too (or
# accept, e.g. nesting msgspec finds too deep): those files take the exact, slow path.
_FAST_REFUSALS = (msgspec.MsgspecError, UnicodeDecodeError, RecursionError, ValueError, OverflowError)


def parse_json_bytes(
    data: bytes, decode_text: Callable[[bytes], str], file: str | None = None, max_depth: int = MAX_DEPTH,
    free_form: tuple[str, ...] | None = None,
) -> Any:
    """``parse_json`` of a whole file's bytes (a UTF-8 byte-order mark skipped).

    msgspec decodes a valid file in a fraction of ``json.loads``'s time and memory,
    without the text copy; a file it refuses is decoded by ``decode_text`` (which
    names the file and byte of invalid UTF-8) and parsed by ``parse_json``, so
    every refusal keeps its exact message.
    """
    body = memoryview(data)[len(codecs.BOM_UTF8):] if data.startswith(codecs.BOM_UTF8) else data
    try:
        value = _DECODER.decode(body)
    except _FAST_REFUSALS:
        return parse_json(decode_text(data), file=file, max_depth=max_depth, free_form=free_form)
    finally:
        del body
    if free_form is None or not isinstance(value, dict):
        check_tree(value, file, max_depth, strings=False)
    else:
        for key in free_form:
            if key in value:
                check_tree(value[key], file, max_depth, strings=False, path=f"$.{key}", depth=1)
    return value


def check_tree(
    data: Any, file: str | None = None, max_depth: int = MAX_DEPTH, strings: bool = True, path: str = "$",
    depth: int = 0,
) -> None:
    """Walk without recursion: depth, unsavable numbers and (with ``strings``) lone surrogates."""
    stack: list[tuple[Any, str, int]] = [(data, path, depth)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, dict):
            if depth >= max_depth:
                _too_deep(path, max_depth, file)
            for key, item in value.items():
                child = f"{path}.{key}"
                if strings:
                    _check_string(key, child, file, what="key")
                if isinstance(item, (dict, list)):
                    stack.append((item, child, depth + 1))
                else:
                    _check_scalar(item, child, file, strings)
        elif isinstance(value, list):
            if depth >= max_depth:
                _too_deep(path, max_depth, file)
            for i, item in enumerate(value):
                if isinstance(item, (dict, list)):
                    stack.append((item, f"{path}[{i}]", depth + 1))
                else:
                    _check_scalar(item, f"{path}[{i}]", file, strings)
        else:
            _check_scalar(value, path, file, strings)


def _check_scalar(value: Any, path: str, file: str | None, strings: bool) -> None:
    if isinstance(value, _Unsavable):
        raise BundleError(value.why, path, file)
    if isinstance(value, float) and not math.isfinite(value):  # a tree not made by parse_json
        raise BundleError(f"{value!r} is not a number that can be saved (only finite numbers)", path, file)
    if strings and isinstance(value, str):
        _check_string(value, path, file)


def _check_string(text: str, path: str, file: str | None, what: str = "text") -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise BundleError(
            f"{what} holds a lone surrogate U+{ord(text[exc.start]):04X} at character {exc.start} "
            "(half of a UTF-16 pair; it cannot be saved as UTF-8)",
            path,
            file,
        ) from None


def _too_deep(path: str, max_depth: int, file: str | None) -> None:
    raise BundleError(f"nested deeper than {max_depth} levels; a project bundle is never that deep", path, file)
