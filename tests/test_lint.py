"""The code passes the project's own lint rules ([tool.ruff] in pyproject.toml) and type
checks ([tool.mypy]), so a lint or type error fails the suite like any other broken promise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ["mtworkbench", "tests", "benchmarks", "tools", "dev.py"]


def test_ruff_finds_nothing():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", *CHECKED],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow  # a minute or more on two cores: the whole package from a cold cache
def test_mypy_finds_nothing(tmp_path):
    # [tool.mypy] names the files; a fresh cache, so no stale state from another checkout counts
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy-cache")],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
