#!/usr/bin/env python3
"""Set up the project's virtual environment and run the app, the tests or the benchmarks.

    python3.11 dev.py app [BUNDLE]   # set up .venv, open the app (the demo project by default)
    python3.11 dev.py test [ARGS]    # set up .venv, run the whole test suite headless
    python3.11 dev.py bench          # set up .venv, run every benchmark
    python3.11 dev.py build [--check]  # set up .venv with PyInstaller, build the desktop app
                                       # (build/dist/mtworkbench/); --check starts the built app

Needs only Python 3.11+ with venv. The set-up is skipped when .venv is already
installed from the current pyproject.toml.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".mtworkbench-installed"
EXTRAS = "test,neural,annotate"


def run(cmd: list[str | Path], **kwargs) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kwargs)


def setup() -> None:
    if sys.version_info < (3, 11):
        sys.exit(f"mtworkbench needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if not PYTHON.exists():
        run([sys.executable, "-m", "venv", VENV])
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == wanted:
        return
    run([PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    # The optional extras' tests run everywhere the suite runs (CI included), none skipped:
    # [neural] torch/transformers for the neural metrics, [annotate] spaCy for pre-annotation,
    # [cluster] dask.distributed for --scheduler.
    run([PYTHON, "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[{EXTRAS}]"])
    STAMP.write_text(wanted)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("app", "test", "bench", "build"):
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    if command == "build" and "--check" in rest:  # checking a built app needs no set-up
        return subprocess.call([sys.executable, str(ROOT / "packaging" / "build_app.py"), *rest], cwd=ROOT)
    setup()
    if command == "build":
        if subprocess.call([str(PYTHON), "-c", "import PyInstaller"], stderr=subprocess.DEVNULL) != 0:
            run([PYTHON, "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[test,neural,build]"])
        return subprocess.call([str(PYTHON), str(ROOT / "packaging" / "build_app.py"), *rest], cwd=ROOT)
    env = dict(os.environ)
    if command == "app":
        args = rest or ["--demo"]
        return subprocess.call([str(PYTHON), "-m", "mtworkbench", "gui", *args], cwd=ROOT)
    if command == "test":
        env["QT_QPA_PLATFORM"] = "offscreen"
        return subprocess.call([str(PYTHON), "-m", "pytest", *rest], cwd=ROOT, env=env)
    status = 0
    for bench in sorted((ROOT / "benchmarks").glob("bench_*.py")):
        print(f"\n=== {bench.name}", flush=True)
        status |= subprocess.call([str(PYTHON), str(bench), *rest], cwd=ROOT, env=env)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
