"""The Analysis workspace's Compute on WMT21 (8 systems, MQM; BLEU, chrF, TER,
GTM, METEOR), cold and warm (issue 14; warm goal <= 2 s).

    .venv/bin/python benchmarks/bench_analysis_compute.py [SHARED_DIR] [--runs 3]

Cold: no score file beside the bundle. Warm: the project opened afresh (a new
in-memory cache) with the score file that the cold run left. Timed from the
click to the results shown, offscreen.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parent)]
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench_whole_process import REPO, wmt21_bundle  # noqa: E402

SPECS = ["bleu", "chrf", "ter", "gtm", "meteor"]


def compute_once(bundle: Path) -> float:
    from PySide6.QtWidgets import QApplication

    from mtworkbench.gui.analysis.workspace import AnalysisWorkspace
    from mtworkbench.gui.session import ProjectSession
    from mtworkbench.io.bundle.bundle import load_bundle

    app = QApplication.instance() or QApplication([])
    session = ProjectSession()
    session.replace_project(load_bundle(bundle), bundle)  # attaches the score file
    workspace = AnalysisWorkspace(session)
    workspace.set_metric_specs(SPECS)
    specs = [workspace.human_combo.itemData(i) for i in range(workspace.human_combo.count())]
    workspace.select_human(next(s for s in specs if s.split(":")[0] == "mqm"))
    start = time.perf_counter()
    if not workspace.compute():
        raise SystemExit(f"Compute refused: {workspace.status.text()}")
    workspace.outcome = None
    while workspace.outcome is None and (workspace.is_computing() or time.perf_counter() - start < 600):
        app.processEvents()
        if not workspace.is_computing() and workspace.outcome is None and "failed" in workspace.status.text():
            break
        time.sleep(0.005)
    elapsed = time.perf_counter() - start
    if workspace.outcome is None:
        raise SystemExit(f"no results: {workspace.status.text()}")
    workspace.deleteLater()
    app.processEvents()
    return elapsed


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shared", nargs="?", default=str(REPO.parent / "shared"))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    shared = Path(args.shared)
    if not (shared / "data" / "wmt21-en-de-mqm").is_dir():
        print(f"skipped: ../shared is not present at {shared}")
        return 0
    scratch = Path(tempfile.mkdtemp(prefix="mtwb-analysis-"))
    try:
        bundle = wmt21_bundle(shared, scratch)
        cold = compute_once(bundle)
        warm = [compute_once(bundle) for _ in range(args.runs)]
        median = statistics.median(warm)
        print(f"Analysis Compute, WMT21 8 systems x {', '.join(SPECS)} (MQM): cold {cold:.2f} s; warm "
              f"{median:.2f} s (median of {args.runs}; goal <= 2 s: {'met' if median <= 2 else 'NOT met'})")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
