"""Scoring WMT22 zh-en one process vs --jobs 2 vs a LocalCluster of 2 workers vs a
`dask scheduler` and two `dask worker` processes (127.0.0.1 only); scheduling overhead
(tasks per second, time to first result) and a run that loses a worker. Every run's
numbers are checked against the one-process run's.

    .venv/bin/python benchmarks/bench_cluster.py [--systems N] [--metric SPEC ...]

Defaults: the first 6 systems (of 18), every segment (1875), bleu chrf ter meteor gtm; no intervals.
Needs ../shared/data/wmt22-zh-en-mtme (or the folder in $MTWB_MTME) and the cluster extra (pip install -e '.[cluster]').
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

MTME = Path(os.environ.get("MTWB_MTME") or Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt22-zh-en-mtme")
DEFAULT_METRICS = ("bleu", "chrf", "ter", "meteor", "gtm")


def load_project(n_systems: int):
    from mtworkbench.io.formats import LAYOUT_FORMATS

    project = LAYOUT_FORMATS.get("mt-metrics-eval").read(str(MTME), "zh-en").project
    return project, tuple(s.id for s in project.systems if s.id not in ("refA", "refB"))[:n_systems]


def run(project, systems, specs, label, first=None, **request_args):
    from mtworkbench.scoring.cache import ScoreCache
    from mtworkbench.scoring.job import ScoringRequest, run_scoring

    request = ScoringRequest(specs=specs, systems=systems, ci_samples=0, **request_args)
    start = time.perf_counter()
    seen: list[float] = []

    def deliver(item) -> None:
        if not seen:
            seen.append(time.perf_counter() - start)
        if first is not None:
            first(item)

    outcome = run_scoring(project, ScoreCache(), request, deliver=deliver)
    took = time.perf_counter() - start
    assert not outcome.errors, outcome.errors
    print(f"  {label:<34} {took:7.2f} s   first result after {seen[0] if seen else float('nan'):6.2f} s",
          flush=True)
    return took, {(i.system, i.spec): i.entry.score.to_json() for i in outcome.items}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_processes(address: str) -> list[subprocess.Popen]:
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    port = address.rsplit(":", 1)[1]
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", port, "--no-dashboard"], **quiet)]
    time.sleep(1.0)
    for _ in range(2):
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads",
                                       "1", "--host", "127.0.0.1", "--no-dashboard"], **quiet))
    return procs


def overhead(address: str) -> None:
    import distributed

    with distributed.Client(address, set_as_default=False) as client:
        n = 2000
        start = time.perf_counter()
        futures = client.map(abs, range(n), pure=False)
        client.gather(futures)
        took = time.perf_counter() - start
        start = time.perf_counter()
        client.submit(abs, -1, pure=False).result()
        print(f"  scheduling: {n / took:7.0f} trivial tasks/s; one task round trip {1000 * (time.perf_counter() - start):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--systems", type=int, default=6)
    parser.add_argument("--metric", action="append", default=[])
    args = parser.parse_args()
    if not MTME.is_dir():
        sys.exit(f"no {MTME}")
    import distributed

    from mtworkbench.scoring.cluster import shutdown_clusters
    from mtworkbench.scoring.process_executor import shutdown_pool

    specs = tuple(args.metric) or DEFAULT_METRICS
    project, systems = load_project(args.systems)
    print(f"WMT22 zh-en: {len(systems)} systems x {len(project.segments)} segments x {len(specs)} metrics "
          f"({', '.join(specs)}); {os.cpu_count()} cores visible")
    results: dict[str, float] = {}
    one, expected = run(project, systems, specs, "one process (--jobs 1)", jobs=1)
    results["one"] = one

    took, got = run(project, systems, specs, "--jobs 2 (worker processes)", jobs=2, use_processes=True)
    assert got == expected, "--jobs 2 differs"
    results["jobs2"] = took
    shutdown_pool()

    start = time.perf_counter()
    from mtworkbench.scoring.cluster import client_for

    client_for("local:2").wait_for_workers(2)
    print(f"  LocalCluster of 2: started in {time.perf_counter() - start:.2f} s")
    took, got = run(project, systems, specs, "LocalCluster of 2 (local:2)", scheduler="local:2")
    assert got == expected, "LocalCluster differs"
    results["local"] = took
    for spec in ("meteor", "ter"):
        if spec in specs:
            t1, e1 = run(project, systems, (spec,), f"  {spec}: one process", jobs=1)
            t2, g2 = run(project, systems, (spec,), f"  {spec}: LocalCluster of 2", scheduler="local:2")
            assert g2 == e1
            print(f"    {spec}: LocalCluster of 2 is {t1 / t2:.2f}x one process")
    shutdown_clusters()

    address = f"tcp://127.0.0.1:{free_port()}"
    procs = start_processes(address)
    try:
        with distributed.Client(address, timeout=60, set_as_default=False) as client:
            client.wait_for_workers(2, timeout=120)
            pids = sorted(client.run(os.getpid).values())
        took, got = run(project, systems, specs, "dask scheduler + 2 dask workers", scheduler=address)
        assert got == expected, "scheduler + workers differ"
        results["external"] = took
        overhead(address)
        killed: list[int] = []

        def kill_one(_item) -> None:
            if not killed:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

        took, got = run(project, systems, specs, "same, one worker killed mid-run", first=kill_one, scheduler=address)
        assert got == expected, "the run that lost a worker differs"
        results["loss"] = took
        shutdown_clusters()
    finally:
        for proc in reversed(procs):
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)
    print("ratios (one process / backend; > 1 is faster):")
    for key, label in (("jobs2", "--jobs 2"), ("local", "LocalCluster of 2"), ("external", "scheduler + 2 workers"),
                       ("loss", "scheduler + 2 workers, one killed")):
        print(f"  {label:<34} {results['one'] / results[key]:5.2f}x")
    print("every backend gave the one-process numbers exactly")


if __name__ == "__main__":  # worker processes re-import this module: benchmark only in the parent
    main()
