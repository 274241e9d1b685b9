"""Reading decoded JSON field by field, naming the JSON path of whatever is wrong.

Every reader of a stored object (bundle, judge queue, campaign, MQM typology,
learned model) walks the decoded value with one ``JsonReader``; each check
returns the value it accepted and raises ``BundleError`` otherwise, with one
wording: ``<file>: $.path.to.field: expected X, found Y``.

The reader is a thin layer over ``isinstance``: one call per value, no copying,
so it adds nothing beyond the checks themselves to a large bundle's load.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from typing import Any, NoReturn

from mtworkbench.core.errors import BundleError

_KINDS = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
          dict: "an object"}


def json_kind(value: Any) -> str:
    """What a decoded JSON value is, in the words of the messages (``an integer``, ``null``)."""
    if value is None:
        return "null"
    return _KINDS.get(type(value), type(value).__name__)


class JsonReader:
    """Type checks for one file; ``file`` (may be None) opens every message."""

    __slots__ = ("file",)

    def __init__(self, file: str | None = None) -> None:
        self.file = file

    def fail(self, message: str, path: str) -> NoReturn:
        raise BundleError(message, path, self.file)

    def expected(self, what: str, value: Any, path: str) -> NoReturn:
        self.fail(f"expected {what}, found {json_kind(value)}", path)

    # --- containers -------------------------------------------------------------------
    def obj(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.expected("an object", value, path)
        return value

    def keys(self, value: Any, path: builtins.str, required: AbstractSet[builtins.str],
             optional: AbstractSet[builtins.str] = frozenset()) -> dict[builtins.str, Any]:
        """An object with every ``required`` key and no key outside ``required | optional``."""
        obj = self.obj(value, path)
        for key in sorted(set(required) - set(obj)):
            self.fail(f"missing field {key!r}", path)
        for key in sorted(set(obj) - set(required) - set(optional)):
            self.fail(f"unknown field {key!r}", f"{path}.{key}")
        return obj

    def list(self, value: Any, path: builtins.str) -> builtins.list[Any]:
        if not isinstance(value, list):
            self.expected("a list", value, path)
        return value

    def str_list(self, value: Any, path: builtins.str) -> builtins.list[builtins.str]:
        return [self.str(v, f"{path}[{i}]") for i, v in enumerate(self.list(value, path))]

    def optional_str_list(self, value: Any, path: builtins.str) -> builtins.list[builtins.str] | None:
        return None if value is None else self.str_list(value, path)

    def ident_list(self, value: Any, path: builtins.str) -> builtins.list[builtins.str]:
        return [self.ident(v, f"{path}[{i}]") for i, v in enumerate(self.list(value, path))]

    # --- scalars ----------------------------------------------------------------------
    def str(self, value: Any, path: builtins.str) -> builtins.str:
        if not isinstance(value, str):
            self.expected("a string", value, path)
        return value

    def optional_str(self, value: Any, path: builtins.str) -> builtins.str | None:
        return None if value is None else self.str(value, path)

    def ident(self, value: Any, path: builtins.str) -> builtins.str:
        """A string that is not blank (an id, a name)."""
        text = self.str(value, path)
        if not text.strip():
            self.fail("expected a non-empty id", path)
        return text

    def optional_ident(self, value: Any, path: builtins.str) -> builtins.str | None:
        return None if value is None else self.ident(value, path)

    def flag(self, value: Any, path: builtins.str) -> bool:
        if not isinstance(value, bool):
            self.expected("true or false", value, path)
        return value

    def int(self, value: Any, path: builtins.str) -> builtins.int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.expected("an integer", value, path)
        return value

    def number(self, value: Any, path: builtins.str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.expected("a number", value, path)
        try:
            return float(value)
        except OverflowError:
            self.fail(f"number of {len(builtins.str(value))} digits is too large for a float", path)

    def share(self, value: Any, path: builtins.str) -> builtins.int | float:
        """A number from 0 to 1, returned as written (an int stays an int: saved back byte for byte)."""
        if not 0 <= self.number(value, path) <= 1:
            self.fail(f"expected a share from 0 to 1, found {value}", path)
        return value

    def ref_to(self, value: Any, path: builtins.str, exists: Callable[[builtins.str], bool],
               what: builtins.str) -> builtins.str:
        """An id that ``exists`` (``what`` names its kind in the message)."""
        ident = self.ident(value, path)
        if not exists(ident):
            self.fail(f"unknown {what} {ident!r}", path)
        return ident

    def choice(self, value: Any, path: builtins.str, choices: tuple[builtins.str, ...]) -> builtins.str:
        text = self.str(value, path)
        if text not in choices:
            self.fail(f"expected one of {', '.join(choices)}, found {text!r}", path)
        return text


__all__ = ["JsonReader", "json_kind"]
