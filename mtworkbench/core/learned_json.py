"""The type check of a learned metric's stored parameters (a bundle's ``learned_model``,
a model file).

The object is kept as JSON (``metrics.learned.LearnedModel`` reads it and checks its
kind, version and shapes when the metric is used); it is type-checked field by field
first so that a broken one is named with its JSON path.
"""

from __future__ import annotations

from typing import Any

from mtworkbench.core.json_reader import JsonReader

_LEARNED_NUMBER_LISTS = ("feature_mean", "feature_scale", "dual_coef")
_LEARNED_REQUIRED = {"kind", "version", "features", "support_vectors", "gamma", "intercept", *_LEARNED_NUMBER_LISTS}
_LEARNED_OPTIONAL = {"tokenize", "lowercase", "C", "sigma", "report"}


def check_learned_model(value: Any, path: str = "$", file: str | None = None) -> dict[str, Any]:
    """Type-check a stored learned model (``LearnedModel.to_json``); returns it unchanged."""
    check = JsonReader(file)
    check.keys(value, path, _LEARNED_REQUIRED, _LEARNED_OPTIONAL)
    check.str(value["kind"], f"{path}.kind")
    check.int(value["version"], f"{path}.version")
    for i, name in enumerate(check.list(value["features"], f"{path}.features")):
        check.str(name, f"{path}.features[{i}]")
    for key in _LEARNED_NUMBER_LISTS:
        for i, v in enumerate(check.list(value[key], f"{path}.{key}")):
            check.number(v, f"{path}.{key}[{i}]")
    for i, row in enumerate(check.list(value["support_vectors"], f"{path}.support_vectors")):
        for j, v in enumerate(check.list(row, f"{path}.support_vectors[{i}]")):
            check.number(v, f"{path}.support_vectors[{i}][{j}]")
    for key in ("gamma", "intercept"):
        check.number(value[key], f"{path}.{key}")
    for key in ("C", "sigma"):
        if value.get(key) is not None:
            check.number(value[key], f"{path}.{key}")
    if "tokenize" in value:
        check.str(value["tokenize"], f"{path}.tokenize")
    if "lowercase" in value:
        check.flag(value["lowercase"], f"{path}.lowercase")
    if "report" in value:
        check.obj(value["report"], f"{path}.report")
    return value
