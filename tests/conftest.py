"""Shared fixtures. ``shared_dir`` is ../shared (golden values, corpora): tests
that need it skip with that reason where it is absent, as in a user's clone.

The suite runs in two worker processes (pytest-xdist, ``dev.py test``): everything a test
writes goes to its own ``tmp_path`` or to its worker's folders below, never to a fixed path."""

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


# The folders mtworkbench keeps per user: derived data (WordNet cache, score files of read-only
# bundles), configuration (registered neural models) and UI state (QSettings, recovery copies).
USER_FOLDERS = {"MTWB_CACHE_DIR": "cache", "MTWB_CONFIG_DIR": "config", "MTWB_SETTINGS_DIR": "settings"}


@pytest.fixture(scope="session", autouse=True)
def user_folders_of_this_run(tmp_path_factory):
    """Point the user's folders into this run's temporary folder (one per xdist worker), so
    no test reads or writes the home folder and two workers never share a file there. Tests
    that need a folder of their own still set the variable with monkeypatch."""
    base = tmp_path_factory.getbasetemp() / "user"
    saved = {name: os.environ.get(name) for name in USER_FOLDERS}
    for name, folder in USER_FOLDERS.items():
        os.environ[name] = str(base / folder)
    yield base
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def pytest_collection_modifyitems(config, items):
    """In an xdist worker, the tests marked ``slow`` come first (each worker collects alike, so
    the order is the same in all): the workers share them out at the start instead of one
    worker running a minute-long test at the end while the other has nothing left to do. The
    sort is stable, so every other test keeps its place; a run in one process keeps the order
    of the files."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)
