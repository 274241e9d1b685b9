"""How fast the app starts: the demo, and a 250,000-segment project.

    .venv/bin/python benchmarks/bench_app_start.py [SHARED_DIR] [--segments 250000] [--runs 3]

Each run starts ``mtworkbench gui`` in a subprocess (offscreen, or under Xvfb when
``xvfb-run`` is installed) with ``MTWB_START_PROBE`` set: the app prints a marker with a
timestamp when its main window is shown and first painted, then watches its event loop for
a few seconds (the longest stall), then closes itself and says when. Reported per run:

* window: from starting the process to the window shown (with the title it had then);
* painted: to its first paint;
* stall: the longest event-loop stall in the seconds after the first paint;
* quit: from the close request to the process's exit.

Goals: the demo's window within 1.5 s and quitting within 0.5 s; the big project's window,
its title naming the bundle, within 3 s, and no stall over 100 ms after it shows.

The big project is made by ``mtworkbench import`` from plain text files of random words of a
real corpus (WMT17 en-de from SHARED_DIR, seeded): 2 references and 4 systems. It is kept in a
temporary folder between runs, never committed.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
# An installed app starts from compiled modules: compile them first, and let none be compiled again.
ENV.pop("PYTHONDONTWRITEBYTECODE", None)
CACHE = Path(tempfile.gettempdir()) / "mtwb-bench-app-start"
WATCH_S = 3.0
SEED = 28


def words_of(shared: Path) -> list[str]:
    folder = shared / "data" / "wmt17-en-de-systems"
    text = (folder / "ref.de").read_text(encoding="utf-8")
    for path in sorted((folder / "systems").iterdir())[:3]:
        text += "\n" + path.read_text(encoding="utf-8")
    return text.split()


def build_project(shared: Path, segments: int) -> Path:
    """The big bundle, made once per size and seed and kept in a temporary folder."""
    from mtworkbench.io.bundle.bundle import FORMAT_VERSION

    folder = CACHE / f"p{segments}-s{SEED}-v{FORMAT_VERSION}"  # a bundle of an older format is made again
    bundle = folder / f"big-{segments}.mtwb.json"
    if bundle.exists():
        return bundle
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(SEED)
    vocab = words_of(shared)
    names = ["src", "ref1", "ref2", "sysA", "sysB", "sysC", "sysD"]
    files = {name: folder / f"{name}.txt" for name in names}
    for path in files.values():
        with path.open("w", encoding="utf-8") as out:
            for _ in range(segments):
                out.write(" ".join(rng.choices(vocab, k=rng.randint(13, 25))) + "\n")
    cmd = [str(BIN / "mtworkbench"), "import", "--format", "plain", "--source", str(files["src"]),
           "--ref", f"ref1={files['ref1']}", "--ref", f"ref2={files['ref2']}",
           *[a for s in names[3:] for a in ("--system", f"{s}={files[s]}")],
           "--src-lang", "en", "--tgt-lang", "de", "-o", str(bundle)]
    subprocess.run(cmd, check=True, env=ENV, stdout=subprocess.DEVNULL)
    for path in files.values():
        path.unlink()
    return bundle


def gui_command(args: list[str], baseline: Path | None = None) -> list[str]:
    cmd = [str(BIN / "mtworkbench"), "gui", *args]
    if baseline is not None:  # its code, this checkout's probe (it may have none of its own)
        cmd = [sys.executable, str(REPO / "benchmarks" / "app_start_launcher.py"), *args]
    if shutil.which("xvfb-run"):
        return ["xvfb-run", "-a", *cmd]
    return cmd


def one_start(args: list[str], home: Path, watch_s: float = WATCH_S, baseline: Path | None = None) -> dict[str, object]:
    env = dict(ENV, MTWB_START_PROBE=str(watch_s), MTWB_SETTINGS_DIR=str(home / "settings"),
               MTWB_RECOVERY_DIR=str(home / "recovery"))
    if baseline is not None:
        env["PYTHONPATH"] = str(baseline)
    if not shutil.which("xvfb-run"):
        env["QT_QPA_PLATFORM"] = "offscreen"
    start = time.time()
    proc = subprocess.Popen(gui_command(args, baseline), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    marks: dict[str, tuple[float, str]] = {}
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("MTWB-"):
            what, stamp, *rest = line.rstrip("\n").split(" ", 2)
            marks[what[5:]] = (float(stamp), rest[0] if rest else "")
    proc.wait()
    end = time.time()
    if "PAINTED" not in marks:
        err = proc.stderr.read() if proc.stderr else ""
        raise SystemExit(f"the app never painted its window: {' '.join(args)}\n{err[-2000:]}")
    stall = marks.get("STALL", (0.0, "-1"))[1].split(" ", 1)
    name = "demo.mtwb.json" if "--demo" in args else Path(args[-1]).name
    named = next((marks[m][0] - start for m in ("SHOWN", "PAINTED") if name in marks[m][1]), float("nan"))
    return {
        "named": named,
        "window": marks["SHOWN"][0] - start,
        "title": marks["SHOWN"][1],
        "painted": marks["PAINTED"][0] - start,
        "stall_ms": int(stall[0]),
        "title_after": stall[1] if len(stall) > 1 else "",
        "stalls": marks.get("STALLS", (0.0, ""))[1],  # every stall over 40 ms: ms@ms-after-paint
        "quit": end - marks["QUIT"][0] if "QUIT" in marks else float("nan"),
    }


def report(label: str, runs: list[dict[str, object]], window_goal: float, stall_goal: int | None,
           quit_goal: float | None) -> None:
    def med(key: str) -> float:
        return statistics.median(float(r[key]) for r in runs)  # type: ignore[arg-type]

    print(f"\n{label} ({len(runs)} runs, median; each run: window / painted / stall / quit)")
    for r in runs:
        print(f"  {r['window']:.2f} s / {r['painted']:.2f} s / {r['stall_ms']} ms / {r['quit']:.2f} s"
              f"   title at show: {r['title']!r}, after: {r['title_after']!r}")
        if r["stalls"]:
            print(f"      stalls over 40 ms (ms@when after the paint): {r['stalls']}")
    verdict = lambda ok: "ok" if ok else "MISSED"  # noqa: E731
    print(f"  window shown   {med('window'):.2f} s  (goal <= {window_goal} s: {verdict(med('window') <= window_goal)})")
    print(f"  first paint    {med('painted'):.2f} s")
    print(f"  window naming the project {med('named'):.2f} s (shown, or else painted, with its name in the title)")
    stall = med("stall_ms")
    print(f"  longest stall  {stall:.0f} ms" + (f"  (goal <= {stall_goal} ms: {verdict(stall <= stall_goal)})" if stall_goal else ""))
    quit_s = med("quit")
    print(f"  quit           {quit_s:.2f} s" + (f"  (goal <= {quit_goal} s: {verdict(quit_s <= quit_goal)})" if quit_goal else ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("shared", nargs="?", default=str(REPO.parent / "shared"))
    parser.add_argument("--segments", type=int, default=250_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--big-watch", type=float, default=40.0,
                        help="seconds to watch the big project's event loop after the first paint (its loading included)")
    parser.add_argument("--skip-big", action="store_true", help="time only the demo")
    parser.add_argument("--skip-demo", action="store_true", help="time only the big project")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another checkout (e.g. main's) to time in alternating runs, with this checkout's probe")
    args = parser.parse_args()
    print("display:", "Xvfb" if shutil.which("xvfb-run") else "offscreen", "·", os.cpu_count(), "CPUs",
          "· load average", " ".join(f"{x:.1f}" for x in os.getloadavg()))
    revisions: list[Path | None] = [None] + ([args.baseline.resolve()] if args.baseline else [])
    for revision in revisions:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str((revision or REPO) / "mtworkbench")],
                       check=False, env=ENV, stdout=subprocess.DEVNULL)

    def alternate(label: str, start_args: list[str], watch_s: float, goals: tuple) -> None:
        runs: dict[Path | None, list[dict[str, object]]] = {r: [] for r in revisions}
        for _ in range(args.runs):
            for revision in revisions:  # alternating: both see the same minutes of a shared machine
                runs[revision].append(one_start(start_args, home, watch_s, revision))
        for revision in revisions:
            report(f"{label} [{revision or 'this checkout'}]", runs[revision], *goals)
        print("  load average after:", " ".join(f"{x:.1f}" for x in os.getloadavg()))

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        if not args.skip_demo:
            alternate("demo: mtworkbench gui --demo", ["--demo"], WATCH_S, (1.5, None, 0.5))
        if args.skip_big:
            return 0
        t0 = time.perf_counter()
        bundle = build_project(Path(args.shared), args.segments)
        print(f"\nproject: {bundle} ({bundle.stat().st_size / 2**20:.0f} MiB; ready in {time.perf_counter() - t0:.1f} s)")
        alternate(f"big project: mtworkbench gui BUNDLE ({args.segments:,} segments)", [str(bundle)],
                  args.big_watch, (3.0, 100, None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
