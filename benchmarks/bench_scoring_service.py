"""How long the scoring service takes to score NIST on a synthetic project, in
a thread and in worker processes, against one metric instance scoring every
system directly (the floor: reference statistics computed once).

    .venv/bin/python benchmarks/bench_scoring_service.py [SEGMENTS] [SYSTEMS] [SPEC]

Defaults: 3000 segments, 6 systems, nist; no bootstrap intervals.
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main() -> None:
    from bench_metrics_workspace_stall import synthetic_project

    from mtworkbench.core.project_input import scoring_input
    from mtworkbench.metrics.registry import create_metric
    from mtworkbench.scoring.cache import ScoreCache
    from mtworkbench.scoring.job import ScoringRequest, run_scoring
    from mtworkbench.scoring.process_executor import shutdown_pool

    n_segments = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    n_systems = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    spec = sys.argv[3] if len(sys.argv) > 3 else "nist"
    project = synthetic_project(n_segments, n_systems)
    systems = tuple(s.id for s in project.systems)
    print(f"{spec}: {n_systems} systems x {n_segments} segments")
    for processes in (False, True):
        request = ScoringRequest(specs=(spec,), systems=systems, ci_samples=0, use_processes=processes)
        start = time.perf_counter()
        outcome = run_scoring(project, ScoreCache(), request)
        took = time.perf_counter() - start
        assert len(outcome.items) == n_systems and not outcome.errors, outcome.errors
        print(f"  run_scoring, {'processes' if processes else 'thread':9}: {took:6.2f} s")
    shutdown_pool()
    metric = create_metric(spec)
    inputs = [scoring_input(project, s) for s in systems]
    start = time.perf_counter()
    for data in inputs:
        metric.score(data)
    print(f"  one instance, direct  : {time.perf_counter() - start:6.2f} s")


if __name__ == "__main__":  # worker processes re-import this module: score only in the parent
    main()
