"""Shared fixtures. ``shared_dir`` is ../shared (golden values, corpora): tests
that need it skip with that reason where it is absent, as in a user's clone."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SHARED_DIR = Path(os.environ.get("MTWB_SHARED", PROJECT_ROOT.parent / "shared"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not (SHARED_DIR / "SPECS.md").is_file():
        pytest.skip(f"../shared is not present at {SHARED_DIR}")
    return SHARED_DIR


@pytest.fixture(scope="session")
def project_root() -> Path:
    return PROJECT_ROOT
