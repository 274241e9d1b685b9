"""Metric options whose value is a path the metric opens (``learned:model=PATH``).

A bundle never makes the program open a path it names, so the bundle loader
refuses metric settings that carry one of these options; the command line and
the settings dialog, where a person types the path, accept them. The list
lives in ``core`` because ``io`` (the loader) may not import ``metrics``; each
metric class declares the same names as ``file_options`` (a test checks they agree).
"""

from __future__ import annotations

FILE_OPTIONS: dict[str, tuple[str, ...]] = {
    "learned": ("model",),
}


def file_options_in_spec(spec: str) -> list[str]:
    """The path-taking options a metric spec string sets (spec syntax: ``name[:key=value,...]``)."""
    name, _, rest = spec.strip().partition(":")
    allowed = FILE_OPTIONS.get(name.strip().lower(), ())
    found = []
    for item in rest.split(","):
        key = item.partition("=")[0].strip()
        if key in allowed and key not in found:
            found.append(key)
    return found
