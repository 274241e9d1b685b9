"""Parsing metric spec strings: ``name[:key=value,key=value...]``."""

from __future__ import annotations

from mtworkbench.metrics.base import MetricSpecError


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``'gtm:e=2,mode=exact'`` -> ``('gtm', {'e': '2', 'mode': 'exact'})``.

    Values stay strings; each metric's options convert and check them.
    """
    spec = spec.strip()
    if spec.startswith("ext:") and len(spec) > 4:
        return spec, {}  # imported scores (metrics.external): the whole spec names them, no options
    name, _, rest = spec.partition(":")
    name = name.strip().lower()
    if not name:
        raise MetricSpecError(f"empty metric name in spec {spec!r}")
    options: dict[str, str] = {}
    if rest.strip():
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            key = key.strip()
            if not eq or not key:
                raise MetricSpecError(
                    f"metric spec {spec!r}: expected key=value, got {item.strip()!r}"
                )
            if key in options:
                raise MetricSpecError(f"metric spec {spec!r}: option {key!r} given twice")
            options[key] = value.strip()
    return name, options
