"""One process vs a LocalCluster of 2 workers (and, optionally, --jobs 2 and a `dask scheduler`
with two `dask worker` processes), timed as whole `mtworkbench score` processes.

    taskset -c 0,1 .venv/bin/python benchmarks/bench_cluster.py --quick --metrics meteor,ter
    .venv/bin/python benchmarks/bench_cluster.py --bundle wmt22-zh-en.mtwb.json --rounds 5
    .venv/bin/python benchmarks/bench_cluster.py --generate --backends one,local2,jobs2,external
    .venv/bin/python benchmarks/bench_cluster.py --phases          # where a cluster run's time goes
    .venv/bin/python benchmarks/bench_cluster.py --worker-loss     # scheduling overhead, a worker killed

The corpus: a project bundle given with --bundle (copied first: its score file is never
touched), else WMT22 zh-en from mt-metrics-eval (--mtme DIR, default ../shared/data/wmt22-zh-en-mtme),
else (or with --generate) a generated corpus of the same size: 1875 English segments of about
26 words, 2 references, 18 systems (no ../shared needed). Each run is a fresh process on a fresh
copy of the project (no score file to read back); backends alternate round by round (the order
rotates); the medians and the ratios one process / backend are printed, and every backend's
`score --json` numbers are checked equal to one process's (the "backend" key aside).
Needs only the project and its cluster extra (pip install -e '.[cluster]').
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MTME = Path(os.environ.get("MTWB_MTME") or ROOT.parent / "shared" / "data" / "wmt22-zh-en-mtme")
BACKENDS = {"one": ["--jobs", "1"], "local2": ["--scheduler", "local:2"], "jobs2": ["--jobs", "2"]}
LABELS = {"one": "one process (--jobs 1)", "local2": "LocalCluster of 2 (local:2)", "jobs2": "--jobs 2",
          "external": "dask scheduler + 2 dask workers"}


# --- the corpus ----------------------------------------------------------------------------
WORDS = ("the a of to and in that is was for on with as by at from it be this are have has not but "
         "government people year city country market company report said says would could will "
         "percent million billion first new old last local national economic public military "
         "police court law minister president officials leaders talks agreement policy trade "
         "growth prices price rise rising rose fall falling fell increase increased increases "
         "develop developed development build building built house houses home homes road roads "
         "water river rivers bridge bridges school schools student students teacher teachers "
         "child children family families worker workers work working worked job jobs "
         "help helped helping support supported supporting plan plans planned planning "
         "big large small little great good bad quick quickly fast slow slowly happy glad sad "
         "begin began start started starting end ended finish finished show showed shown "
         "say tell told speak spoke talk talked ask asked answer answered reply replied "
         "buy bought sell sold pay paid cost costs money bank banks loan loans fund funds").split()


def _sentence(rng: random.Random) -> list[str]:
    return rng.choices(WORDS, k=max(3, min(80, int(rng.gauss(26, 12)))))


def _edit(rng: random.Random, words: list[str], rate: float) -> list[str]:
    """A system's output: words substituted, dropped, added and a phrase moved (TER shifts)."""
    out = [w if rng.random() > rate else rng.choice(WORDS) for w in words if rng.random() > rate / 3]
    out += rng.choices(WORDS, k=int(rng.random() < rate))
    if len(out) > 6 and rng.random() < 0.5:
        i = rng.randrange(len(out) - 3)
        phrase, out = out[i:i + 3], out[:i] + out[i + 3:]
        j = rng.randrange(len(out) + 1)
        out[j:j] = phrase
    return out


def generated_project(n_segments: int = 1875, n_systems: int = 18, seed: int = 22):
    from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System

    rng = random.Random(seed)
    base = [_sentence(rng) for _ in range(n_segments)]
    segments = [Segment(str(i + 1), f"源文{i + 1}") for i in range(n_segments)]
    docs = [Document(f"d{k}", [Paragraph(f"d{k}p1", segments[k:k + 8])]) for k in range(0, n_segments, 8)]
    refs = [Reference(name, texts={s.id: " ".join(_edit(rng, words, rate)) for s, words in zip(segments, base)})
            for name, rate in (("refA", 0.0), ("refB", 0.35))]
    project = Project(docs, refs, [], "zh", "en", name="generated")
    for k in range(n_systems):
        rate = 0.15 + 0.02 * k
        project.add_system(System(f"sys{k:02d}", texts={s.id: " ".join(_edit(rng, words, rate))
                                                       for s, words in zip(segments, base)}))
    return project


def prepare_bundle(args: argparse.Namespace, folder: Path) -> tuple[Path, str]:
    from mtworkbench.io.bundle.bundle import save_bundle

    target = folder / "bench.mtwb.json"
    if args.bundle:
        shutil.copyfile(args.bundle, target)
        return target, f"bundle {args.bundle}"
    if not args.generate and MTME.is_dir():
        from mtworkbench.io.formats import LAYOUT_FORMATS

        save_bundle(LAYOUT_FORMATS.get("mt-metrics-eval").read(str(MTME), "zh-en").project, target)
        return target, f"WMT22 zh-en ({MTME})"
    save_bundle(generated_project(), target)
    return target, "a generated corpus of WMT22 zh-en's size (1875 segments, 2 references)"


def bundle_systems(bundle: Path, n: int | None) -> tuple[list[str], int]:
    from mtworkbench.core.project_input import unscored_reason
    from mtworkbench.io.bundle.bundle import load_bundle

    project = load_bundle(bundle)
    systems = [s.id for s in project.systems if not unscored_reason(project, s.id)]
    return systems[:n] if n else systems, len(project.segments)


# --- whole processes -----------------------------------------------------------------------
def score_process(bundle: Path, specs: list[str], systems: list[str], backend: list[str]) -> tuple[float, dict]:
    from mtworkbench.scoring.store import store_path

    store_path(bundle).unlink(missing_ok=True)  # nothing to read back: every run computes everything
    command = [sys.executable, "-m", "mtworkbench", "-q", "score", str(bundle), "--json", *backend,
               *(x for s in specs for x in ("--metric", s)), *(x for s in systems for x in ("--system", s))]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=bundle.parent)
    took = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    out = json.loads(done.stdout)
    out.pop("backend", None)  # where it ran: the only key allowed to differ
    return took, out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_external(address: str) -> list[subprocess.Popen]:
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    port = address.rsplit(":", 1)[1]
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", port, "--no-dashboard"], **quiet)]
    time.sleep(1.0)
    for _ in range(2):
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads",
                                       "1", "--host", "127.0.0.1", "--no-dashboard"], **quiet))
    import distributed

    with distributed.Client(address, timeout=60, set_as_default=False) as client:
        client.wait_for_workers(2, timeout=120)
    return procs


def stop(procs: list[subprocess.Popen]) -> None:
    for proc in reversed(procs):
        proc.terminate()
    for proc in procs:
        proc.wait(timeout=30)


def compare_processes(args: argparse.Namespace, bundle: Path, specs: list[str], systems: list[str]) -> None:
    backends = dict(BACKENDS)
    names = [b.strip() for b in args.backends.split(",") if b.strip()]
    unknown = [b for b in names if b not in (*BACKENDS, "external")]
    if unknown or "one" not in names:
        sys.exit(f"--backends: one of {', '.join((*BACKENDS, 'external'))}, 'one' included; got {args.backends}")
    procs: list[subprocess.Popen] = []
    if "external" in names:
        address = f"tcp://127.0.0.1:{free_port()}"
        procs = start_external(address)
        backends["external"] = ["--scheduler", address]
    times: dict[str, list[float]] = {b: [] for b in names}
    expected: dict | None = None
    try:
        for round_ in range(args.rounds):
            order = names[round_ % len(names):] + names[:round_ % len(names)]  # who goes first rotates
            for name in order:
                took, out = score_process(bundle, specs, systems, backends[name])
                if expected is None:
                    expected = out
                elif out != expected:
                    sys.exit(f"{LABELS[name]}: score --json differs from the first run's numbers")
                times[name].append(took)
                print(f"  round {round_ + 1}: {LABELS[name]:<34} {took:7.2f} s", flush=True)
    finally:
        stop(procs)
    one = statistics.median(times["one"])
    print(f"medians of {args.rounds} whole processes (ratio: one process / backend; > 1 is faster):")
    for name in names:
        median = statistics.median(times[name])
        print(f"  {LABELS[name]:<34} {median:7.2f} s   {one / median:5.2f}x   "
              f"(runs: {', '.join(f'{t:.1f}' for t in times[name])})")
    print("every backend printed the one-process numbers exactly")


# --- inside one process: where the time goes -----------------------------------------------
def phases(bundle: Path, specs: list[str], systems: list[str]) -> None:
    """Timestamps of one LocalCluster run as `score --scheduler local:2` goes through it, each
    task's worker and time, and the CPU of this (the client's) process and of its workers."""
    import resource

    t0 = time.perf_counter()

    def say(what: str) -> None:
        print(f"  {time.perf_counter() - t0:7.2f} s  {what}", flush=True)

    from mtworkbench.scoring.cluster import client_for, shutdown_clusters, start_cluster

    start_cluster("local:2", specs, "en")
    say("cluster start asked for (in the background)")
    from mtworkbench.scoring.cache import ScoreCache
    from mtworkbench.scoring.job import ScoringRequest, run_scoring
    from mtworkbench.scoring.store import load_project

    project = load_project(bundle)
    say("bundle read")
    import distributed

    client = client_for("local:2")
    say("cluster up (2 workers)")
    first: list[float] = []
    with distributed.get_task_stream(client) as stream:
        request = ScoringRequest(tuple(specs), tuple(systems), ci_samples=0, scheduler="local:2")
        run_scoring(project, ScoreCache(), request, deliver=lambda _item: first or first.append(time.perf_counter()))
    say(f"scored (first result at {first[0] - t0:.2f} s)")
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    busy: dict[str, float] = {}
    tasks = sorted(stream.data, key=lambda t: t["startstops"][0]["start"])
    origin = min(t["startstops"][0]["start"] for t in tasks)
    for task in tasks:
        for part in task["startstops"]:
            if part["action"] == "compute":
                busy[task["worker"]] = busy.get(task["worker"], 0.0) + part["stop"] - part["start"]
            print(f"      {task['worker']:<22} {part['action']:<9} {part['start'] - origin:7.2f} "
                  f"{part['stop'] - origin:7.2f}  {str(task['key'])[:24]}")
    shutdown_clusters()
    say("cluster closed")
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"  CPU: this process {cpu.ru_utime + cpu.ru_stime:.2f} s; its worker processes "
          f"{workers.ru_utime + workers.ru_stime:.2f} s; busy per worker: "
          + ", ".join(f"{w}: {s:.2f} s" for w, s in busy.items()))


def worker_loss(bundle: Path, specs: list[str], systems: list[str]) -> None:
    """Scheduling overhead (tasks per second, one task's round trip) and a run on a `dask scheduler`
    with two `dask worker` processes that loses a worker after its first result."""
    import distributed

    from mtworkbench.scoring.cache import ScoreCache
    from mtworkbench.scoring.cluster import shutdown_clusters
    from mtworkbench.scoring.job import ScoringRequest, run_scoring
    from mtworkbench.scoring.store import load_project

    project = load_project(bundle)
    address = f"tcp://127.0.0.1:{free_port()}"
    procs = start_external(address)
    try:
        with distributed.Client(address, set_as_default=False) as client:
            n = 2000
            start = time.perf_counter()
            client.gather(client.map(abs, range(n), pure=False))
            rate = n / (time.perf_counter() - start)
            start = time.perf_counter()
            client.submit(abs, -1, pure=False).result()
            print(f"  scheduling: {rate:7.0f} trivial tasks/s; one task round trip "
                  f"{1000 * (time.perf_counter() - start):.1f} ms")
            pids = sorted(client.run(os.getpid).values())
        expected = run_scoring(project, ScoreCache(), ScoringRequest(tuple(specs), tuple(systems), ci_samples=0, jobs=1))
        killed: list[int] = []

        def kill_one(_item) -> None:
            if not killed:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

        start = time.perf_counter()
        got = run_scoring(project, ScoreCache(), ScoringRequest(tuple(specs), tuple(systems), ci_samples=0,
                                                                scheduler=address), deliver=kill_one)
        took = time.perf_counter() - start
        same = {(i.system, i.spec): i.entry.score.to_json() for i in got.items} == \
            {(i.system, i.spec): i.entry.score.to_json() for i in expected.items}
        print(f"  one worker of 2 killed after the first result: {took:.2f} s; "
              f"{'the same numbers as one process' if same else 'NUMBERS DIFFER'}")
        shutdown_clusters()
        if not same:
            sys.exit(1)
    finally:
        stop(procs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--bundle", type=Path, help="a project bundle (*.mtwb.json) to score (copied first)")
    source.add_argument("--generate", action="store_true", help="a generated corpus of WMT22 zh-en's size")
    parser.add_argument("--metrics", default="meteor,ter", help="comma-separated metric specs (default meteor,ter)")
    parser.add_argument("--systems", type=int, default=None, help="the first N scorable systems (default: all)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each backend, alternating (default 3)")
    parser.add_argument("--backends", default="one,local2", help="of one, local2, jobs2, external (default one,local2)")
    parser.add_argument("--quick", action="store_true", help="6 systems, 3 rounds: a few minutes on 2 idle cores")
    parser.add_argument("--phases", action="store_true", help="time the phases of one LocalCluster run instead")
    parser.add_argument("--worker-loss", action="store_true", help="scheduling overhead and a run that loses a worker")
    args = parser.parse_args()
    if args.quick:
        args.systems, args.rounds = args.systems or 6, 3
    specs = [m.strip() for m in args.metrics.split(",") if m.strip()]
    with tempfile.TemporaryDirectory(prefix="mtwb-bench-") as folder:
        bundle, what = prepare_bundle(args, Path(folder))
        systems, n_segments = bundle_systems(bundle, args.systems if not args.phases else args.systems or 4)
        print(f"{what}: {len(systems)} systems x {n_segments} segments x {', '.join(specs)}; "
              f"{len(os.sched_getaffinity(0))} cores usable, {os.cpu_count()} on the machine; python {sys.executable}")
        if args.phases:
            phases(bundle, specs, systems)
        elif args.worker_loss:
            worker_loss(bundle, specs, systems)
        else:
            compare_processes(args, bundle, specs, systems)


if __name__ == "__main__":  # worker processes re-import this module: benchmark only in the parent
    main()
