"""The import contracts in pyproject.toml ([tool.importlinter]) hold.

Layers point down only (cli > gui > scoring > analysis > metrics | io > core) and
only the GUI imports Qt. ``lint-imports`` runs in a fresh interpreter on this
checkout's package; a second test breaks a copy on purpose to show the
contracts can fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    code = (
        "import sys\n"
        "from importlinter.cli import lint_imports\n"
        "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, no_logo=True))\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True)


def test_import_contracts_hold():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 kept, 0 broken" in result.stdout


def test_an_arrow_back_up_or_qt_in_the_core_breaks_the_contracts(tmp_path):
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copytree(ROOT / "mtworkbench", tmp_path / "mtworkbench",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "mtworkbench" / "core" / "upward.py").write_text("from mtworkbench.metrics import base\n")
    (tmp_path / "mtworkbench" / "scoring" / "with_qt.py").write_text("from PySide6 import QtCore\n")
    result = lint_imports(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "0 kept, 2 broken" in result.stdout
    assert "mtworkbench.core.upward -> mtworkbench.metrics" in result.stdout
    assert "mtworkbench.scoring.with_qt -> PySide6" in result.stdout
