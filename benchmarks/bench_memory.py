"""Peak memory of scoring many segments with BLEU and chrF: mtworkbench against
the sacrebleu CLI, both as whole processes (issue 14; goal: ours <= 3x sacrebleu's).

    .venv/bin/python benchmarks/bench_memory.py [SHARED_DIR] [--segments 1000000]

The input is WMT17 en-de (one system and its reference) repeated up to
``--segments`` lines. Peak memory is each child's maximum resident set size
(``os.wait4``). sacrebleu keeps every segment's n-gram counters, about 54 KB
per segment here, so a million segments need over 50 GB: a probe at 10% of the
size is measured first and, where the extrapolated peak would not fit in the
available memory, the full-size run of that tool is skipped and the linear
extrapolation printed instead (marked as such).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))


def peak_rss(cmd: list[str]) -> tuple[float, float]:
    """(peak resident memory in MB, wall seconds) of one whole process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{proc.stderr.read().decode()[-2000:]}")
    return usage.ru_maxrss / 1024, wall  # Linux reports KB


def available_mb() -> float:
    with open("/proc/meminfo", encoding="ascii") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) / 1024
    return float("inf")


def write_corpus(shared: Path, folder: Path, n: int) -> tuple[Path, Path]:
    d = shared / "data" / "wmt17-en-de-systems"
    hyp_lines = (sorted((d / "systems").iterdir())[0]).read_text(encoding="utf-8").split("\n")[:-1]
    ref_lines = (d / "ref.de").read_text(encoding="utf-8").split("\n")[:-1]
    hyp, ref = folder / f"hyp.{n}", folder / f"ref.{n}"
    for path, lines in ((hyp, hyp_lines), (ref, ref_lines)):
        with open(path, "w", encoding="utf-8") as out:
            for i in range(n):
                out.write(lines[i % len(lines)] + "\n")
    return hyp, ref


def commands(hyp: Path, ref: Path) -> dict[str, list[str]]:
    sacrebleu = [str(BIN / "sacrebleu")] if (BIN / "sacrebleu").exists() else [sys.executable, "-m", "sacrebleu"]
    return {
        "ours": [sys.executable, "-m", "mtworkbench", "score", "--hyp", str(hyp), "--ref", str(ref),
                 "--metric", "bleu", "--metric", "chrf"],
        "sacrebleu": [*sacrebleu, str(ref), "-i", str(hyp), "-m", "bleu", "chrf"],
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shared", nargs="?", default=str(REPO.parent / "shared"))
    parser.add_argument("--segments", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    shared = Path(args.shared)
    if not (shared / "data" / "wmt17-en-de-systems").is_dir():
        print(f"skipped: ../shared is not present at {shared}")
        return 0
    with tempfile.TemporaryDirectory(prefix="mtwb-mem-") as tmp:
        probe_n = max(1000, args.segments // 10)
        probe = {name: peak_rss(cmd)[0] for name, cmd in commands(*write_corpus(shared, Path(tmp), probe_n)).items()}
        hyp, ref = write_corpus(shared, Path(tmp), args.segments)
        peaks: dict[str, tuple[float, str]] = {}
        for name, cmd in commands(hyp, ref).items():
            predicted = probe[name] * args.segments / probe_n
            if predicted > 0.8 * available_mb():
                peaks[name] = (predicted, f"extrapolated from {probe_n:,} segments ({probe[name]:.0f} MB): "
                                          f"would not fit in the {available_mb():.0f} MB available")
                continue
            mb, wall = peak_rss(cmd)
            peaks[name] = (mb, f"measured, {wall:.1f} s")
        for name, (mb, how) in peaks.items():
            print(f"{name}: peak {mb:,.0f} MB for {args.segments:,} segments, BLEU + chrF ({how})")
        ratio = peaks["ours"][0] / peaks["sacrebleu"][0]
        print(f"ours/sacrebleu peak memory: {ratio:.3f} (goal <= 3: {'met' if ratio <= 3 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
