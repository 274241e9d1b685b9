"""Finds the project's resource files (no Qt here: the CLI uses it too)."""

from __future__ import annotations

from pathlib import Path

RESOURCES = Path(__file__).resolve().parents[1] / "resources"


def resource_path(*parts: str) -> Path:
    return RESOURCES.joinpath(*parts)


def demo_project_path() -> Path:
    return resource_path("demo", "demo.mtwb.json")
