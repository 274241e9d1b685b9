"""Finds the project's resource files (no Qt here: the CLI uses it too)."""

from __future__ import annotations

from pathlib import Path

RESOURCES = Path(__file__).resolve().parents[1] / "resources"


def resource_path(*parts: str) -> Path:
    return RESOURCES.joinpath(*parts)


def demo_project_path() -> Path:
    return resource_path("demo", "demo.mtwb.json")


def inside_program(path: str | Path) -> bool:
    """Whether ``path`` is one of the program's own files (the demo...): never written to,
    since an installed program's folder is shared, often read-only, and reinstalled."""
    try:
        Path(path).resolve().relative_to(RESOURCES.resolve())
    except (ValueError, OSError):
        return False
    return True
