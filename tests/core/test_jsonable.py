"""Fields-driven JSON for dataclass results."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from mtworkbench.core.jsonable import FINITE, NOT_IN_JSON, OMIT_IF_NONE, JsonFields, json_name


@dataclass(frozen=True)
class Inner(JsonFields):
    n: int
    r: float = field(metadata=FINITE)


@dataclass(frozen=True)
class Outer(JsonFields):
    pair: tuple[str, str]
    inner: Inner
    optional: Inner | None = field(metadata=OMIT_IF_NONE)
    by_name: dict[str, Inner] = field(metadata=json_name("named"))
    hidden: list[float] = field(default_factory=list, metadata=NOT_IN_JSON)


def test_fields_in_order_with_metadata_applied():
    obj = Outer(("a", "b"), Inner(2, float("nan")), None, {"x": Inner(1, 0.5)}, [1.0])
    out = obj.to_json()
    assert out == {"pair": ["a", "b"], "inner": {"n": 2, "r": None}, "named": {"x": {"n": 1, "r": 0.5}}}
    assert list(out) == ["pair", "inner", "named"]
    json.dumps(out, allow_nan=False)  # NaN became null
    with_optional = Outer(("a", "b"), Inner(2, 1.0), Inner(3, float("inf")), {}, []).to_json()
    assert with_optional["optional"] == {"n": 3, "r": None}
