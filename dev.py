#!/usr/bin/env python3
"""Set up the project's virtual environment and run the app, the tests or the benchmarks.

    python3.11 dev.py app [BUNDLE]   # set up .venv, open the app (the demo project by default)
    python3.11 dev.py test [ARGS]    # set up .venv, run the whole test suite headless
                                     # (in two worker processes where there are 2+ CPUs; -n 0: one)
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
EXTRAS = "test,neural,annotate,cluster"


def run(cmd: list[str | Path], **kwargs) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kwargs)


def setup(extras: str = EXTRAS) -> None:
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
    run([PYTHON, "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[{extras}]"])
    STAMP.write_text(wanted)


def cpus() -> int:
    """The CPUs this process may run on (a container's share, not the host's count)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def parallel(args: list[str]) -> list[str]:
    """pytest-xdist's options for two worker processes, where there are two CPUs and the
    caller chose nothing else (-n N or --numprocesses; -n 0 runs in this process; -p no:xdist)
    and debugs nothing (--pdb, --trace need one process). ``loadgroup``: the few tests marked
    ``xdist_group`` run on one worker, the rest go to whichever worker is free."""
    chosen = any(a.startswith(("-n", "--numprocesses", "--dist")) for a in args)
    debugging = any(a in ("--pdb", "--trace", "no:xdist", "-pno:xdist") for a in args)
    if chosen or debugging or cpus() < 2:
        return []
    return ["-n", "2", "--dist", "loadgroup"]


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("app", "test", "bench", "build"):
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    if command == "build" and "--check" in rest:  # checking a built app needs no set-up
        return subprocess.call([sys.executable, str(ROOT / "packaging" / "build_app.py"), *rest], cwd=ROOT)
    # build: PyInstaller comes in the same pip run as the extras (a second run would resolve
    # every dependency and build the editable package again).
    setup(f"{EXTRAS},build" if command == "build" else EXTRAS)
    if command == "build":
        if subprocess.call([str(PYTHON), "-c", "import PyInstaller"], stderr=subprocess.DEVNULL) != 0:
            run([PYTHON, "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[{EXTRAS},build]"])
        return subprocess.call([str(PYTHON), str(ROOT / "packaging" / "build_app.py"), *rest], cwd=ROOT)
    env = dict(os.environ)
    if command == "app":
        args = rest or ["--demo"]
        return subprocess.call([str(PYTHON), "-m", "mtworkbench", "gui", *args], cwd=ROOT)
    if command == "test":
        env["QT_QPA_PLATFORM"] = "offscreen"
        return subprocess.call([str(PYTHON), "-m", "pytest", *parallel(rest), *rest], cwd=ROOT, env=env)
    status = 0
    for bench in sorted((ROOT / "benchmarks").glob("bench_*.py")):
        print(f"\n=== {bench.name}", flush=True)
        status |= subprocess.call([str(PYTHON), str(bench), *rest], cwd=ROOT, env=env)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
