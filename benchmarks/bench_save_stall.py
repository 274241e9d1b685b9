"""Saving and autosaving a big project in the app: how long it takes and how long the window stalls.

    .venv/bin/python benchmarks/bench_save_stall.py [BUNDLE] [--runs 3] [--code REPO]

BUNDLE: the 250,000-segment project ``bench_big_project.py`` builds (default: its cached copy in
the temporary directory). It is copied to a scratch folder, opened in the main window
(offscreen), edited once, then: **Save** (``MainWindow.save``: encode, lock, check, write,
rename) and, after another edit, one **autosave** (``RecoveryWriter.write_now`` until its copy is
written). While each runs, a 10 ms timer on the GUI thread measures the longest gap between two of
its ticks: the longest time the window could not paint or take input. Goals: save <= 3 s, no stall
over 100 ms during an autosave.

Each run is a fresh child process (the figures are its median); ``--code`` runs another checkout's
code (e.g. the main branch's) with this same script, for alternating comparisons.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_BUNDLE = Path(tempfile.gettempdir()) / "mtwb-big-250000-28" / "big.mtwb.json"

CHILD = r"""
import json, sys, time
from pathlib import Path
from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
from mtworkbench.gui.commands import SetTextCommand
from mtworkbench.gui.main_window import MainWindow
from mtworkbench.io.bundle.bundle import read_bundle

path = Path(sys.argv[1])
loaded = read_bundle(path)
window = MainWindow()
window.resize(1280, 800)
window.show()
window.set_project(loaded.project, path, loaded.sha256)
project = window.session.project
ref, seg = project.references[0].id, project.segment_ids[7]
window.recovery.timer.stop()


class Probe:
    def __init__(self):
        self.clock = QElapsedTimer()
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self.tick)
        self.longest = 0

    def tick(self):
        self.longest = max(self.longest, self.clock.restart() - 10)

    def start(self):
        self.longest = 0
        self.clock.start()
        self.timer.start()

    def stop(self):
        self.tick()
        self.timer.stop()
        return self.longest


def settle(ms):
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


settle(1500)
probe = Probe()
out = {}
window.session.push(SetTextCommand(project, "reference", ref, seg, "Gespeichert 保存 сохранено محفوظ"))
window.recovery.timer.stop()
settle(300)
probe.start()
start = time.perf_counter()
assert window.save()
out["save_s"] = time.perf_counter() - start
settle(500)  # what follows a save (the watcher, the status bar) belongs to it
out["save_stall_ms"] = probe.stop()

window.session.push(SetTextCommand(project, "reference", ref, seg, "Autosaved 自動保存 автосохранение"))
window.recovery.timer.stop()
settle(300)
done = QEventLoop()
window.recovery.written.connect(lambda *_: done.quit())
window.recovery.failed.connect(lambda *_: done.quit())
probe.start()
start = time.perf_counter()
window.recovery.write_now()
done.exec()
out["autosave_s"] = time.perf_counter() - start
settle(300)
out["autosave_stall_ms"] = probe.stop()
import mtworkbench
out["code"] = str(Path(mtworkbench.__file__).parents[1])
print("RESULT " + json.dumps(out), flush=True)
window.recovery.discard(path, only_own=False)
window.session.undo_stack.setClean()
window.close()
"""


def run_once(code: Path, bundle: Path, scratch: Path) -> dict:
    copy = scratch / "big.mtwb.json"
    shutil.copyfile(bundle, copy)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(code),
               MTWB_SETTINGS_DIR=str(scratch / "settings"))
    proc = subprocess.run([sys.executable, "-c", CHILD, str(copy)], env=env, capture_output=True, text=True,
                          cwd=scratch, timeout=600)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise SystemExit(f"no result (exit {proc.returncode}):\n{proc.stderr[-3000:]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("bundle", nargs="?", default=str(DEFAULT_BUNDLE))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--code", default=str(REPO), help="the checkout whose code runs (default: this one)")
    args = parser.parse_args()
    bundle = Path(args.bundle)
    if not bundle.is_file():
        print(f"no bundle at {bundle} (run benchmarks/bench_big_project.py first): skipped")
        return 0
    print(f"code: {args.code}; bundle: {bundle} ({bundle.stat().st_size / 2**20:.0f} MiB)")
    print("load average before (1, 5, 15 min): " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))
    results = []
    with tempfile.TemporaryDirectory(prefix="mtwb-save-stall-") as scratch:
        for _ in range(args.runs):
            results.append(run_once(Path(args.code), bundle, Path(scratch)))
            print("  " + json.dumps(results[-1]), flush=True)
    for key, unit, goal in (("save_s", "s", "<= 3 s"), ("save_stall_ms", "ms", ""),
                            ("autosave_s", "s", ""), ("autosave_stall_ms", "ms", "<= 100 ms")):
        values = [r[key] for r in results]
        assert all(r["code"] == str(Path(args.code).resolve()) for r in results), results
        print(f"{key}: median {statistics.median(values):.2f} {unit} of {[round(v, 2) for v in values]}"
              + (f" (goal {goal})" if goal else ""))
    print("load average after (1, 5, 15 min): " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
