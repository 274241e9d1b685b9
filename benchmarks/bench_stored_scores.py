"""How soon the Metrics workspace's corpus table shows scores that are already on disk.

    .venv/bin/python benchmarks/bench_stored_scores.py [--runs 3] [--baseline /path/to/main]
        [--sizes 2000x4,5000x4,20000x4]

Cases, each in a fresh offscreen process (1280x800 window, ``MTWB_SCORING_PROCESSES=0``, the
workspaces built before the click as the app builds them after its first paint, one warm-up
run per checkout first):

- ``demo``: ``gui --demo``'s untitled copy of resources/demo/demo.mtwb.json;
- ``NxS``: a synthetic bundle of N segments and S systems (BLEU, chrF, TER; 1000-sample
  intervals) whose score file was written by a scoring run in the same process first.

Each prints, from the click on the Metrics tab: **numbers** - until every metric cell of
the corpus table holds a score (no "…"); **intervals** - until every score has its
bootstrap interval and no job is left; **longest turn** - the longest event-loop turn
(a 10 ms timer's largest gap) meanwhile, the click's own turn included. ``--baseline DIR``
runs the same cases with that checkout's ``.venv/bin/python`` (its own code), alternating
with this checkout's, and prints medians with the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parents[1]
SPECS = ["bleu", "chrf", "ter"]


def _prepare(case: str, folder: Path) -> Path | None:
    """The bundle to open (None: the demo), with its score file current."""
    if case == "demo":
        return None
    sys.path.insert(0, str(HERE.parent))
    from bench_metrics_workspace_stall import synthetic_project

    from mtworkbench.io.bundle.bundle import save_bundle
    from mtworkbench.scoring.cache import ScoreCache
    from mtworkbench.scoring.job import ScoringRequest, run_scoring
    from mtworkbench.scoring.store import load_project

    n_segments, n_systems = (int(x) for x in case.split("x"))
    project = synthetic_project(n_segments, n_systems)
    project.settings.metrics = list(SPECS)
    path = folder / f"bench-{case}.mtwb.json"
    save_bundle(project, path)
    systems = tuple(s.id for s in project.systems)
    run_scoring(load_project(path), ScoreCache(), ScoringRequest(tuple(SPECS), systems, ci_samples=0, jobs=1))
    return path


def one(case: str) -> dict:
    """One case in this process; the figures as a dict."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["MTWB_SCORING_PROCESSES"] = "0"
    # One cache folder for every run (METEOR's WordNet table is built there once, by the warm-up run)
    os.environ["MTWB_CACHE_DIR"] = str(Path(tempfile.gettempdir()) / "mtwb-bench-stored-scores")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["MTWB_SETTINGS_DIR"] = tmp
        bundle = _prepare(case, Path(tmp))
        from PySide6.QtCore import QElapsedTimer, QTimer
        from PySide6.QtWidgets import QApplication

        from mtworkbench.gui.main_window import MainWindow
        from mtworkbench.resources import demo_project_path

        app = QApplication.instance() or QApplication([])
        window = MainWindow()
        window.resize(1280, 800)
        window.show()
        app.processEvents()
        assert window.open_path(bundle or demo_project_path(), offer_recovery=False)
        window.workspaces["Metrics"]  # built, as the app builds every workspace after its first paint
        deadline = time.perf_counter() + 3
        while time.perf_counter() < deadline:  # the other workspaces and whatever opening left to do
            app.processEvents()
        index = next(i for i in range(window.tabs.count()) if window.tabs.tabText(i).replace("&", "") == "Metrics")
        gaps = [0.0]
        clock = QElapsedTimer()
        tick = QTimer()
        tick.setInterval(10)
        last = [0.0]

        def beat() -> None:
            now = clock.nsecsElapsed() / 1e9
            gaps.append(now - last[0])
            last[0] = now

        tick.timeout.connect(beat)
        clock.start()
        tick.start()
        window.tabs.setCurrentIndex(index)  # what the click on the tab does
        workspace = window.tabs.currentWidget()
        figures: dict = {"case": case}

        def cells():
            return [row.cells.get(spec) for row in workspace.corpus_table.model.rows for spec in workspace.specs]

        def scored() -> bool:
            found = cells()
            return bool(found) and all(c is not None and (c.error or math.isfinite(c.score)) for c in found)

        def with_intervals() -> bool:
            return (scored() and not workspace.is_scoring() and not workspace.needs_scoring()
                    and all(c.error or c.ci_half is not None for c in cells()))

        if scored():
            figures["numbers_s"] = clock.nsecsElapsed() / 1e9
        limit = time.perf_counter() + 300
        while time.perf_counter() < limit and not with_intervals():
            app.processEvents()
            if "numbers_s" not in figures and scored():
                figures["numbers_s"] = clock.nsecsElapsed() / 1e9
            time.sleep(0.002)
        figures["intervals_s"] = clock.nsecsElapsed() / 1e9
        figures["longest_turn_s"] = max(gaps + [clock.nsecsElapsed() / 1e9 - last[0]])
        tick.stop()
        window.session.undo_stack.setClean()
        window.close()
        return figures


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline", help="another checkout (main), timed with its own .venv")
    parser.add_argument("--sizes", default="2000x4,5000x4")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print("BENCH " + json.dumps(one(args.one)), flush=True)
        return 0
    pythons = {"this": [sys.executable]}
    if args.baseline:
        pythons["baseline"] = [str(Path(args.baseline) / ".venv" / "bin" / "python")]
    cases = ["demo", *[s for s in args.sizes.split(",") if s]]
    results: dict[tuple[str, str], list[dict]] = {}
    for name, python in pythons.items():  # a warm-up run each, not counted: caches built, modules compiled
        subprocess.run([*python, str(HERE), "--one", "demo"], capture_output=True, text=True,
                       cwd=str(Path(args.baseline) if name == "baseline" else ROOT))
    print(f"load average before: {_load()}")
    for case in cases:
        for _run in range(args.runs):
            for name, python in pythons.items():  # alternating: the same load for both
                done = subprocess.run([*python, str(HERE), "--one", case], capture_output=True, text=True,
                                      cwd=str(Path(args.baseline) if name == "baseline" else ROOT))
                line = next((x for x in done.stdout.splitlines() if x.startswith("BENCH ")), None)
                if line is None:
                    print(f"{name} {case}: failed\n{done.stderr[-2000:]}", file=sys.stderr)
                    continue
                results.setdefault((case, name), []).append(json.loads(line[6:]))
    print(f"load average after: {_load()}")
    print(f"{'case':<10} {'code':<9} {'numbers (s)':>12} {'intervals (s)':>14} {'longest turn (ms)':>18}")
    for (case, name), runs in results.items():
        numbers = statistics.median(r.get("numbers_s", math.nan) for r in runs)
        intervals = statistics.median(r["intervals_s"] for r in runs)
        turn = statistics.median(r["longest_turn_s"] for r in runs) * 1000
        print(f"{case:<10} {name:<9} {numbers:>12.3f} {intervals:>14.2f} {turn:>18.0f}   (median of {len(runs)})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
