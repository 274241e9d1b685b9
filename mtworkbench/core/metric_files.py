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
    "comet": ("model", "encoder"),
    "metricx": ("model", "tokenizer"),
}
# Options that take a registered name or (typed by a person) a folder: a bundle may name the
# model (``comet:model=wmt22-comet-da``), never a path to it.
NAME_OR_PATH_OPTIONS: dict[str, tuple[str, ...]] = {
    "comet": ("model",),
    "metricx": ("model",),
}


def looks_like_path(value: str) -> bool:
    """A value that names a place on disk rather than a registered name."""
    value = value.strip()
    return "/" in value or "\\" in value or value.startswith((".", "~")) or (len(value) > 1 and value[1] == ":")


def file_options_in_spec(spec: str) -> list[str]:
    """The path-taking options a metric spec string sets (spec syntax: ``name[:key=value,...]``)."""
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    allowed = FILE_OPTIONS.get(name, ())
    named = NAME_OR_PATH_OPTIONS.get(name, ())
    found = []
    for item in rest.split(","):
        key, _, value = item.partition("=")
        key = key.strip()
        if key in named and not looks_like_path(value):
            continue
        if key in allowed and key not in found:
            found.append(key)
    return found
