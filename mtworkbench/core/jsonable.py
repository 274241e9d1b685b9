"""Dataclass results as JSON objects, driven by their fields.

``JsonFields.to_json`` writes every field in declaration order; a field's
``metadata`` adjusts it (use the constants below):

- ``NOT_IN_JSON``: left out (e.g. arrays kept for plotting);
- ``OMIT_IF_NONE``: left out when None (an optional section);
- ``FINITE``: a number written as a float, NaN and infinities as null (JSON has none);
- ``json_name("x")``: written under another key.

Nested values are converted too: dataclasses through their own ``to_json``,
tuples as lists, dict values one by one.
"""

from __future__ import annotations

import math
from dataclasses import fields, is_dataclass
from typing import Any

NOT_IN_JSON: dict[str, Any] = {"json": False}
OMIT_IF_NONE: dict[str, Any] = {"json_omit_none": True}
FINITE: dict[str, Any] = {"json_finite": True}


def json_name(name: str) -> dict[str, Any]:
    return {"json_name": name}


def finite_or_none(value: Any) -> float | None:
    if value is None:
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def fields_to_json(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(obj):
        meta = f.metadata
        if meta.get("json") is False:
            continue
        value = getattr(obj, f.name)
        if value is None and meta.get("json_omit_none"):
            continue
        out[meta.get("json_name", f.name)] = finite_or_none(value) if meta.get("json_finite") else plain(value)
    return out


def plain(value: Any) -> Any:
    """A field value as JSON-ready data."""
    if hasattr(value, "to_json"):
        return value.to_json()
    if is_dataclass(value) and not isinstance(value, type):
        return fields_to_json(value)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


class JsonFields:
    """Mixin for dataclasses whose JSON object is their fields (see the module doc)."""

    def to_json(self) -> dict[str, Any]:
        return fields_to_json(self)
