"""Opening and saving a big project: a 250,000-segment bundle with 2 references and 4 systems.

    .venv/bin/python benchmarks/bench_big_project.py [SHARED_DIR] [--segments 250000] [--seed 28] [--texts zh]

Goals: ``mtworkbench validate`` (read + every check) <= 2 s median of three runs with a peak
resident memory <= 2x the bundle's size; saving the loaded project <= 3 s.

The project is made from a seed, not committed: each line of the source, the two references
and the four systems is random words of a real corpus (WMT17 en-de's German reference in
SHARED_DIR/data), imported through ``mtworkbench import``, and cached in the temporary
directory (``mtwb-big-<segments>-<seed>``) so later runs skip the build. With ``--texts zh``
each line is instead 25 to 60 random characters of WMT21 en-zh's Chinese reference (three
bytes a character in UTF-8; about the same file size), cached in ``mtwb-big-<segments>-<seed>-zh``.
Every figure is measured in a child process: wall time, and peak resident memory from ``os.wait4``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
MTWB = [sys.executable, "-m", "mtworkbench"]
CPU: list[float] = []
TEXTS = ("source", "ref1", "ref2", "sys1", "sys2", "sys3", "sys4")


def run_child(cmd: list[str]) -> tuple[float, float, str]:
    """(wall seconds, peak resident MiB, stdout) of one whole process; its CPU seconds (user +
    system, steadier than the wall time on a shared machine) go to ``CPU``."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    out = proc.stdout.read().decode() if proc.stdout else ""
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        err = proc.stderr.read().decode() if proc.stderr else ""
        raise SystemExit(f"failed: {' '.join(cmd)}\n{err[-2000:]}")
    CPU.append(usage.ru_utime + usage.ru_stime)
    return wall, usage.ru_maxrss / 1024, out  # Linux reports KiB


# The corpus each kind of texts is drawn from: its file under SHARED_DIR/data, and how a line is made.
CORPORA = {"de": "wmt17-en-de-systems/ref.de", "zh": "wmt21-en-zh/ref-A.zh"}


def build(shared: Path, segments: int, seed: int, texts: str = "de") -> Path:
    folder = Path(tempfile.gettempdir()) / f"mtwb-big-{segments}-{seed}{'' if texts == 'de' else '-' + texts}"
    bundle = folder / "big.mtwb.json"
    if bundle.exists():
        return bundle
    folder.mkdir(parents=True, exist_ok=True)
    corpus = (shared / "data" / CORPORA[texts]).read_text(encoding="utf-8")
    rng = random.Random(seed)
    if texts == "zh":  # no spaces between words: random characters
        chars = [c for c in corpus if not c.isspace()]

        def line() -> str:
            return "".join(rng.choices(chars, k=rng.randint(25, 60)))
    else:
        words = corpus.split()

        def line() -> str:
            return " ".join(rng.choices(words, k=rng.randint(10, 26)))
    for name in TEXTS:
        with open(folder / f"{name}.txt", "w", encoding="utf-8") as out:
            for _ in range(segments):
                out.write(line() + "\n")
    cmd = [*MTWB, "import", "--source", str(folder / "source.txt"),
           "--ref", f"ref1={folder / 'ref1.txt'}", "--ref", f"ref2={folder / 'ref2.txt'}",
           *[a for k in range(1, 5) for a in ("--system", f"sys{k}={folder / f'sys{k}.txt'}")],
           "--src-lang", "en", "--tgt-lang", texts, "-o", str(bundle)]
    print(f"building {bundle} ...", flush=True)
    run_child(cmd)
    return bundle


LOAD_SAVE = """
import sys, time
from mtworkbench.io.bundle.bundle import project_to_dict, read_bundle, save_bundle
from mtworkbench.io.bundle.json_writer import dumps_text
t = time.perf_counter()
loaded = read_bundle(sys.argv[1])
t_load = time.perf_counter() - t
t = time.perf_counter()
save_bundle(loaded.project, sys.argv[2], expected_hash=None)
t_save = time.perf_counter() - t
exact = -1
if sys.argv[3] == "check":  # the bytes the standard library's json.dumps writes (slow: after the timing)
    with open(sys.argv[2], "rb") as f:
        exact = int(f.read() == dumps_text(project_to_dict(loaded.project)).encode("utf-8"))
print(t_load, t_save, exact)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("shared", nargs="?", default=str(REPO.parent / "shared"))
    parser.add_argument("--segments", type=int, default=250_000)
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--texts", choices=sorted(CORPORA), default="de",
                        help="the language of the texts: German words (default) or Chinese characters")
    args = parser.parse_args()
    shared = Path(args.shared)
    if not (shared / "data" / CORPORA[args.texts]).is_file():
        print(f"no corpus under {shared}/data: skipped")
        return 0
    bundle = build(shared, args.segments, args.seed, args.texts)
    size = bundle.stat().st_size / 2**20
    print(f"bundle: {bundle} ({size:.0f} MiB, {args.segments:,} segments, 2 references, 4 systems, "
          f"texts: {args.texts})")
    print("load average before (1, 5, 15 min): " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))

    CPU.clear()
    runs = [run_child([*MTWB, "validate", str(bundle)]) for _ in range(args.runs)]
    wall = statistics.median(w for w, _, _ in runs)
    peak = max(p for _, p, _ in runs)
    print(f"validate: median {wall:.2f} s of {[round(w, 2) for w, _, _ in runs]} (goal <= 2 s; CPU "
          f"{statistics.median(CPU):.2f} s), peak {peak:.0f} MiB = {peak / size:.2f}x the file (goal <= 2x)")

    copy = bundle.with_name("saved.mtwb.json")
    loads, saves, peaks = [], [], []
    exact = -1.0
    for k in range(args.runs):
        check = "check" if k == args.runs - 1 else "time"
        _wall, p, out = run_child([sys.executable, "-c", LOAD_SAVE, str(bundle), str(copy), check])
        t_load, t_save, checked = map(float, out.split())
        exact = max(exact, checked)
        loads.append(t_load)
        saves.append(t_save)
        peaks.append(p)
    print(f"read_bundle in process: median {statistics.median(loads):.2f} s; "
          f"save_bundle: median {statistics.median(saves):.2f} s (goal <= 3 s); "
          f"load+save peak {max(peaks):.0f} MiB (the last run also compares the bytes, after the timing)")
    print(f"saved bytes identical to json.dumps(..., indent=2) of the same project: {bool(exact)}")
    print("load average after (1, 5, 15 min): " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))
    for leftover in (copy, copy.with_name(copy.name + ".bak")):
        leftover.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
