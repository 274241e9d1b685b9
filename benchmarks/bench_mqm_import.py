"""Importing Google's raw MQM TSV (8,435 rows of TED en-de): goal under 2 s (issue 15).

Run: .venv/bin/python benchmarks/bench_mqm_import.py [SHARED_DIR]
Times reading + building the project with every rater's spans, the bundle save, the
MQM segment scores, and the export back to TSV (best of 3 each).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from mtworkbench.analysis.human_scores import HumanSpec, collect_human_scores
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
from mtworkbench.io.judgments.mqm import import_mqm
from mtworkbench.io.judgments.mqm_export import mqm_table

GOAL_SECONDS = 2.0


def best(fn, repeat: int = 3):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def main(shared: Path) -> int:
    path = shared / "data" / "mqm-ted-ende" / "mqm_ted_ende.tsv"
    if not path.is_file():
        print(f"skipped: {path} is not present")
        return 0
    seconds, project = best(lambda: import_mqm(path))
    rows = sum(1 for _ in path.open(encoding="utf-8")) - 1
    print(f"import {rows} rows -> {len(project.judgments)} judgments  {seconds * 1000:8.1f} ms "
          f"(goal < {GOAL_SECONDS:.0f} s: {'ok' if seconds < GOAL_SECONDS else 'SLOW'})")
    with tempfile.TemporaryDirectory() as tmp:
        bundle = Path(tmp) / "ted.mtwb.json"
        t, _ = best(lambda: save_bundle(project, bundle))
        print(f"save bundle                                  {t * 1000:8.1f} ms")
        t, _ = best(lambda: load_bundle(bundle))
        print(f"load bundle                                  {t * 1000:8.1f} ms")
    t, _ = best(lambda: collect_human_scores(project, HumanSpec("mqm", "score"), protocol="mqm"))
    print(f"MQM segment scores                           {t * 1000:8.1f} ms")
    t, _ = best(lambda: mqm_table(project))
    print(f"export TSV                                   {t * 1000:8.1f} ms")
    return 0 if seconds < GOAL_SECONDS else 1


if __name__ == "__main__":
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1].parent / "shared"
    raise SystemExit(main(root))
