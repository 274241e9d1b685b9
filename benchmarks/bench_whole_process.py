"""Speed as a user feels it: whole processes, side by side (issue 14).

    .venv/bin/python benchmarks/bench_whole_process.py [SHARED_DIR] [--runs 5] [--only help,bleu,...]

Each comparison runs the two commands alternately (ours first in even rounds,
theirs first in odd ones), ``--runs`` times each, and prints the median wall
time, the median CPU time (user + system of the child) and ours/theirs with
the goal. Sections (``--only``):

- ``help``: ``mtworkbench --help`` vs ``sacrebleu --help`` (goal <= 1x);
- ``bleu``: one WMT17 system, ``score --metric bleu`` vs ``sacrebleu REF -i HYP -m bleu`` (goal <= 0.6x);
- ``ter``: one WMT21 system, 3 references, vs ``sacrebleu A C D -i HYP -m ter`` (goal <= 0.1x; 3 runs);
- ``gtm``: MLQE-PE, ``score --metric gtm:e=2`` vs the GTM 1.4 jar, with reference 1 and
  with references 1 and 2 (goal <= 1x); checks both print the same numbers;
- ``meteor``: MLQE-PE, ``score --metric meteor`` vs the Meteor 1.4 jar, English,
  exact+stem+synonym, on the jar's 13a-tokenised lowercased input (goal <= 1x);
- ``correlate``: the 8 WMT21 systems with MQM, BLEU, chrF, TER, GTM and METEOR,
  cold (no score file; one run) and warm (the score file beside the bundle; goal <= 2 s);
- ``twice``: ``score BUNDLE`` twice on an unchanged project (second run goal <=
  max(3 s, first / 10), same output).

The jars are not on PyPI: put their paths in ``MTWB_GTM_JAR`` (gtm.jar of GTM
1.4) and ``MTWB_METEOR_JAR`` (meteor-1.4.jar); without them, or without
``java``, those sections are skipped, saying so. Each tool gets the input its
golden file in ../shared/golden names.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
OURS = [sys.executable, "-m", "mtworkbench"]
SECTIONS = ("help", "bleu", "ter", "gtm", "meteor", "correlate", "twice")
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))


def run_once(cmd: list[str], cwd: Path | None = None) -> tuple[float, float, str]:
    """Wall and CPU seconds of one whole process, and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=ENV, cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr.strip()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def side_by_side(label: str, ours: list[str], theirs: list[str], runs: int, goal: float,
                 cwd: Path | None = None) -> dict[str, str]:
    """Times both commands alternately and prints the medians; returns each one's
    last stdout (for the caller to compare the numbers)."""
    times: dict[str, list[tuple[float, float]]] = {"ours": [], "theirs": []}
    outputs = {"ours": "", "theirs": ""}
    for r in range(runs):
        order = [("ours", ours), ("theirs", theirs)]
        for name, cmd in order if r % 2 == 0 else order[::-1]:
            wall, cpu, outputs[name] = run_once(cmd, cwd)
            times[name].append((wall, cpu))
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in times.items()}
    ratio = med["ours"][0] / med["theirs"][0]
    cpu_ratio = med["ours"][1] / med["theirs"][1]
    verdict = "met" if ratio <= goal else "NOT met"
    print(f"{label}: ours {med['ours'][0]:.2f} s (cpu {med['ours'][1]:.2f}), theirs {med['theirs'][0]:.2f} s "
          f"(cpu {med['theirs'][1]:.2f}); ours/theirs {ratio:.3f} wall, {cpu_ratio:.3f} cpu "
          f"(goal <= {goal}: {verdict}; median of {runs} alternating runs)", flush=True)
    return outputs


def table_score(stdout: str) -> str:
    """The score column of ``mtworkbench score``'s one-metric table."""
    return stdout.strip().splitlines()[-1].split()[2]


def same_gtm_numbers(ours_json: str, jar_out: str) -> str:
    """Whether ``score --json`` and the jar (``+s +d -t``: a line per segment, then
    the document's) print the same floats for every segment and the corpus."""
    entry = json.loads(ours_json)["scores"][0]
    lines = [line.split() for line in jar_out.strip().splitlines()]
    jar_segments = [float(parts[2]) for parts in lines if len(parts) == 3]
    jar_corpus = float(lines[-1][1])
    segments_equal = sum(a == b for a, b in zip(entry["segments"], jar_segments))
    if len(jar_segments) == len(entry["segments"]) == segments_equal and entry["corpus"] == jar_corpus:
        return f"identical: corpus {jar_corpus!r} and all {segments_equal} segment scores"
    return (f"DIFFER: corpus ours {entry['corpus']!r} jar {jar_corpus!r}; "
            f"{segments_equal} of {len(jar_segments)} segment scores equal")


def java_jar(env_name: str) -> Path | None:
    jar = os.environ.get(env_name)
    if not shutil.which("java"):
        print(f"skipped: no java on PATH (and {env_name} to point at the jar)")
        return None
    if not jar or not Path(jar).is_file():
        print(f"skipped: set {env_name} to the jar's path (not on PyPI; see this file's docstring)")
        return None
    return Path(jar)


def tokenized_lowercased(src: Path, dst: Path) -> Path:
    """Meteor golden's preprocessing: sacrebleu 13a, then str.lower()."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tok = Tokenizer13a()
    with open(src, encoding="utf-8") as fin, open(dst, "w", encoding="utf-8", newline="\n") as out:
        for line in fin:
            out.write(tok(line.rstrip("\n")).lower() + "\n")
    return dst


def wmt21_bundle(shared: Path, folder: Path) -> Path:
    """The 8 WMT21 en-de systems, 3 references and their MQM scores, as a bundle."""
    d = shared / "data" / "wmt21-en-de-mqm"
    systems = sorted(p.stem for p in (d / "systems").glob("*.de"))
    bundle = folder / "wmt21.mtwb.json"
    cmd = [*OURS, "import", "--source", str(d / "source.en"), "--src-lang", "en", "--tgt-lang", "de", "-o", str(bundle)]
    for ref in ("A", "C", "D"):
        cmd += ["--ref", str(d / f"ref-{ref}.de")]
    for s in systems:
        cmd += ["--system", f"{s}={d / 'systems' / f'{s}.de'}"]
    run_once(cmd)
    for s in systems:
        run_once([*OURS, "judgments", "import-scores", str(bundle), "--judge", "mqm", "--system", s,
                  "--scores", str(d / "mqm.tsv"), "--format", "mqm-tsv"])
    return bundle


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shared", nargs="?", default=str(REPO.parent / "shared"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated: {','.join(SECTIONS)}")
    args = parser.parse_args(argv)
    shared = Path(args.shared)
    only = set(args.only.split(","))
    if not (shared / "data").is_dir():
        print(f"skipped: ../shared is not present at {shared}")
        return 0
    sacrebleu = [str(BIN / "sacrebleu")] if (BIN / "sacrebleu").exists() else [sys.executable, "-m", "sacrebleu"]
    scratch = Path(tempfile.mkdtemp(prefix="mtwb-bench-"))
    try:
        if "help" in only:
            side_by_side("--help", [*OURS, "--help"], [*sacrebleu, "--help"], args.runs, 1.0)
        if "bleu" in only:
            d = shared / "data" / "wmt17-en-de-systems"
            hyp = sorted((d / "systems").iterdir())[0]
            side_by_side(f"BLEU, one WMT17 system ({hyp.name}, 3004 segments)",
                         [*OURS, "score", "--hyp", str(hyp), "--ref", str(d / "ref.de"), "--metric", "bleu"],
                         [*sacrebleu, str(d / "ref.de"), "-i", str(hyp), "-m", "bleu"], args.runs, 0.6)
        if "ter" in only:
            d = shared / "data" / "wmt21-en-de-mqm"
            refs = [str(d / f"ref-{r}.de") for r in ("A", "C", "D")]
            hyp = d / "systems" / "Facebook-AI.de"
            ours = [*OURS, "score", "--hyp", str(hyp), "--metric", "ter"]
            for ref in refs:
                ours += ["--ref", ref]
            side_by_side("TER, WMT21 Facebook-AI, 3 references (1002 segments)", ours,
                         [*sacrebleu, *refs, "-i", str(hyp), "-m", "ter"], min(args.runs, 3), 0.1)
        mlqe = shared / "data" / "mlqe-et-en"
        if "gtm" in only:
            print("GTM e=2 vs the GTM 1.4 jar (MLQE-PE et-en, 1000 segments; the jar takes references "
                  "as further file arguments, ours as repeated --ref):")
            jar = java_jar("MTWB_GTM_JAR")
            if jar:
                for refs in ([mlqe / "ref-1.en"], [mlqe / "ref-1.en", mlqe / "ref-2.en"]):
                    ours = [*OURS, "score", "--hyp", str(mlqe / "mt.en"), "--metric", "gtm:e=2"]
                    for ref in refs:
                        ours += ["--ref", str(ref)]
                    theirs = ["java", "-Dfile.encoding=UTF-8", "-cp", str(jar), "gtm", "-e", "2", "+s", "+d", "-t",
                              str(mlqe / "mt.en"), *map(str, refs)]
                    label = f"  GTM e=2, {len(refs)} reference{'s' if len(refs) > 1 else ''}"
                    out = side_by_side(label, ours, theirs, args.runs, 1.0)
                    jar_corpus = float(out["theirs"].strip().splitlines()[-1].split()[1])
                    table_same = table_score(out["ours"]) == f"{jar_corpus:.4f}"
                    print(f"    numbers: {same_gtm_numbers(run_once([*ours, '--json'])[2], out['theirs'])}; "
                          f"the timed table prints {table_score(out['ours'])} "
                          f"({'the jar rounded' if table_same else 'NOT the jar rounded'})", flush=True)
        if "meteor" in only:
            print("METEOR vs the Meteor 1.4 jar (MLQE-PE et-en, 1000 segments, reference 1, English):")
            jar = java_jar("MTWB_METEOR_JAR")
            if jar:
                hyp = tokenized_lowercased(mlqe / "mt.en", scratch / "mt.en.tok.lc")
                ref = tokenized_lowercased(mlqe / "ref-1.en", scratch / "ref-1.en.tok.lc")
                side_by_side("  METEOR",
                             [*OURS, "score", "--hyp", str(mlqe / "mt.en"), "--ref", str(mlqe / "ref-1.en"),
                              "--metric", "meteor"],
                             ["java", "-Xmx2G", "-jar", str(jar), str(hyp), str(ref), "-l", "en",
                              "-m", "exact stem synonym"], args.runs, 1.0)
        if "correlate" in only or "twice" in only:
            bundle = wmt21_bundle(shared, scratch)
            scores = bundle.with_name("wmt21.mtwb.scores.npz")
            if "correlate" in only:
                cmd = [*OURS, "correlate", str(bundle), "--human", "mqm", "--level", "system"]
                for spec in ("bleu", "chrf", "ter", "gtm", "meteor"):
                    cmd += ["--metric", spec]
                scores.unlink(missing_ok=True)
                cold, cold_cpu, cold_out = run_once(cmd)
                warm = [run_once(cmd) for _ in range(args.runs)]
                same = all(out == cold_out for _, _, out in warm)
                median_warm = statistics.median(w for w, _, _ in warm)
                print(f"correlate, WMT21 8 systems x BLEU, chrF, TER, GTM, METEOR (MQM, system level): cold "
                      f"{cold:.2f} s (cpu {cold_cpu:.2f}); warm {median_warm:.2f} s (cpu "
                      f"{statistics.median(c for _, c, _ in warm):.2f}, median of {args.runs}; goal <= 2 s: "
                      f"{'met' if median_warm <= 2 else 'NOT met'}); same output: {same}", flush=True)
            if "twice" in only:
                scores.unlink(missing_ok=True)
                first, _, out1 = run_once([*OURS, "score", str(bundle)])
                second, _, out2 = run_once([*OURS, "score", str(bundle)])
                limit = max(3.0, first / 10)
                print(f"score BUNDLE twice (WMT21, the project's 6 default metrics x 8 systems): first {first:.2f} s, "
                      f"second {second:.2f} s (goal <= {limit:.2f} s: {'met' if second <= limit else 'NOT met'}); "
                      f"same output: {out1 == out2}", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
