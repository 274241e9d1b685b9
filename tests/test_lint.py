"""The code passes the project's own lint rules ([tool.ruff] in pyproject.toml), so a
lint error fails the suite like any other broken promise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ["mtworkbench", "tests", "benchmarks", "tools", "dev.py"]


def test_ruff_finds_nothing():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", *CHECKED],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
