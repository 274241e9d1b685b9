"""The worked example of docs/benchmarks.md: the researcher's bench on WMT21 en-de with MQM.

Run from the project root:

    .venv/bin/python tools/researcher_bench_wmt21.py [--shared ../shared] [--out results/bench-wmt21]

Every step is an ``mtworkbench`` command, run in this process:

1. ``import`` the source, references A/C/D and the 8 systems of
   ``data/wmt21-en-de-mqm``, then ``judgments import-scores`` the MQM scores;
2. write each system's sentence-level chrF *as sacrebleu itself computes it*
   (standing in for scores computed elsewhere, e.g. COMET on a GPU) and bring it in
   with ``metrics import-scores`` as ``ext:sacrebleu-chrF``;
3. ``correlate`` BLEU, chrF, TER and the imported metric with MQM: Pearson at
   segment and system level, system-level pairwise accuracy with PERM-BOTH clusters,
   segment-level acc-eq and SPA;
4. ``analyze`` Facebook-AI against eTranslation into ``report.html``.

Writes ``summary.json`` and ``report.html`` to --out and prints a markdown summary.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mtworkbench.cli import main as cli  # noqa: E402 - after the sys.path line above

METRICS = ["bleu", "chrf", "ter", "ext:sacrebleu-chrF"]


def run(argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli(argv)
    if code != 0:
        raise SystemExit(f"mtworkbench {' '.join(argv)} failed with exit code {code}")
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    parser.add_argument("--out", default=str(ROOT / "results" / "bench-wmt21"))
    parser.add_argument("--permutations", type=int, default=1000)
    args = parser.parse_args(argv)
    data = Path(args.shared) / "data" / "wmt21-en-de-mqm"
    if not (data / "mqm.tsv").is_file():
        print(f"no WMT21 data at {data}", file=sys.stderr)
        return 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    bundle = out / "wmt21.mtwb.json"
    systems = sorted(p.stem for p in (data / "systems").glob("*.de"))

    run(["import", "--source", str(data / "source.en"), *[a for r in "ACD" for a in ("--ref", str(data / f"ref-{r}.de"))],
         *[a for s in systems for a in ("--system", f"{s}={data / 'systems' / f'{s}.de'}")],
         "--src-lang", "en", "--tgt-lang", "de", "-o", str(bundle)])
    for s in systems:
        run(["judgments", "import-scores", str(bundle), "--judge", "mqm", "--system", s,
             "--scores", str(data / "mqm.tsv"), "--format", "mqm-tsv"])

    from sacrebleu.metrics import CHRF

    refs = [(data / f"ref-{r}.de").read_text(encoding="utf-8").splitlines() for r in "ACD"]
    chrf = CHRF()
    for s in systems:
        hyps = (data / "systems" / f"{s}.de").read_text(encoding="utf-8").splitlines()
        scores = out / f"sacrebleu-chrF.{s}.txt"
        scores.write_text("".join(f"{chrf.sentence_score(h, [r[i] for r in refs]).score}\n"
                                  for i, h in enumerate(hyps)), encoding="utf-8")
        run(["metrics", "import-scores", str(bundle), "--metric", "sacrebleu-chrF", "--system", s, str(scores)])

    metric_args = [a for m in METRICS for a in ("--metric", m)]
    base = ["correlate", str(bundle), "--human", "mqm", *metric_args, "--json"]
    summary = {
        "pearson_segment": json.loads(run(base)),
        "pearson_system": json.loads(run(base + ["--level", "system"])),
        "pairwise_accuracy": json.loads(run(base + ["--stat", "pairwise-accuracy", "--clusters",
                                                    "--permutations", str(args.permutations)])),
        "acc_eq": json.loads(run(base + ["--stat", "acc-eq"])),
        "spa": json.loads(run(base + ["--stat", "spa"])),
    }
    run(["analyze", str(bundle), "--system", "Facebook-AI", "--system", "eTranslation",
         "--metric", "bleu", "--metric", "chrf", "--metric", "ext:sacrebleu-chrF",
         "--html", str(out / "report.html")])
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")

    def values(key: str, field: str = "value") -> dict[str, float]:
        return {r["metric"]: r[field if field in r else "r"] for r in summary[key]["results"]}

    ranks = {m["metric"]: m["rank"] for m in summary["pairwise_accuracy"]["clusters"]["metrics"]}
    eps = {r["metric"]: r["epsilon"] for r in summary["acc_eq"]["results"]}
    print("| metric | Pearson seg (n=4216) | Pearson sys (8) | pairwise acc. sys (28 pairs) | cluster | "
          "acc-eq seg | epsilon | SPA |")
    print("|---|---|---|---|---|---|---|---|")
    seg, sys_, pa, acc, spa = (values("pearson_segment", "r"), values("pearson_system", "r"),
                               values("pairwise_accuracy"), values("acc_eq"), values("spa"))
    for m in METRICS:
        print(f"| {m} | {seg[m]:.4f} | {sys_[m]:.4f} | {pa[m]:.4f} | {ranks[m]} | {acc[m]:.4f} | "
              f"{eps[m]:.4g} | {spa[m]:.4f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
