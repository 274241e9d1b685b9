"""Rebuild the meta-evaluation results of docs/benchmarks.md from ../shared/data.

Run from the project root:

    .venv/bin/python tools/meta_eval_report.py [--shared ../shared] [--out results/meta-eval]

It imports two corpora into projects (the same code paths as the CLI), scores
every metric, trains the learned metric on each corpus (it needs no human
scores: references against the other references are its human examples), and
writes to --out:

* ``report.md``: segment-level correlation tables (Pearson with its Fisher 95%
  interval, Spearman, Kendall) for MLQE et-en (DA z-scores, one MT system) and
  WMT21 en-de (MQM, 8 systems pooled), the WMT21 system-level table, the
  learned metric's validation accuracy, and notes on anything skipped;
* ``reliability_<corpus>.csv`` / ``.svg``: mean Spearman by pseudo-document
  length (seed 000, figure 4);
* ``prediction_error_wmt21.csv``: 1 - R^2 of system BLEU-N vs MQM, N = 1..16
  (seed 004, figures 8-9);
* ``results.json``: everything above as numbers.

A metric that is not available (not yet implemented, or failing) is skipped
with a note instead of stopping the run. Signs are raw: TER is an error rate
(lower is better), so its correlations are negative; MQM scores in
``mqm.tsv`` are negated penalties (higher is better).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
import traceback
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mtworkbench.analysis.correlation import correlate, wilcoxon_correlations  # noqa: E402
from mtworkbench.analysis.human_scores import collect_human_scores, level_pairs  # noqa: E402
from mtworkbench.analysis.prediction_error import project_prediction_error  # noqa: E402
from mtworkbench.analysis.reliability import MetricStats, reliability  # noqa: E402
from mtworkbench.io.corpora.plaintext import import_plain  # noqa: E402
from mtworkbench.io.judgments.judgments import apply_import, plan_mqm_tsv, plan_score_lines  # noqa: E402
from mtworkbench.metrics.learned import FEATURE_NAMES, Tokenisation, project_examples, train_learned  # noqa: E402
from mtworkbench.scoring.project_scores import score_project  # noqa: E402

METHODS = ("pearson", "spearman", "kendall")
WMT21_SYSTEMS = ("Facebook-AI", "HuaweiTSC", "NVIDIA-NeMo", "Online-W", "UEdin", "VolcTrans-AT",
                 "VolcTrans-GLAT", "eTranslation")

# (label shown, metric spec) per corpus. METEOR's stemmer, synonyms and function
# words are English; for German only exact matching with no function-word list.
METRICS_EN = [
    ("BLEU", "bleu"), ("NIST", "nist"), ("GTM e=1", "gtm:e=1"), ("GTM e=2", "gtm:e=2"),
    ("METEOR", "meteor"), ("LEPOR", "lepor"), ("chrF", "chrf"), ("TER", "ter"), ("learned", "learned"),
]
METRICS_DE = [(label, "meteor:modules=exact,language=none" if spec == "meteor" else spec)
              for label, spec in METRICS_EN]


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# --- corpora ------------------------------------------------------------------------------


def mlqe_project(shared: Path):
    d = shared / "data" / "mlqe-et-en"
    project = import_plain(d / "src.et", [d / "ref-1.en", d / "ref-2.en"], [("mt", d / "mt.en")], "et", "en")
    apply_import(project, plan_score_lines(project, "da", "mt", d / "da-z.scores", "da-z"))
    return project, "da"


def wmt21_project(shared: Path):
    d = shared / "data" / "wmt21-en-de-mqm"
    systems = [(name, d / "systems" / f"{name}.de") for name in WMT21_SYSTEMS]
    project = import_plain(d / "source.en", [d / "ref-A.de", d / "ref-C.de", d / "ref-D.de"], systems, "en", "de")
    for name in WMT21_SYSTEMS:
        apply_import(project, plan_mqm_tsv(project, "mqm", name, d / "mqm.tsv"))
    return project, "mqm"


# --- analyses --------------------------------------------------------------------------------


def train(project, seed: int, notes: list[str], corpus: str) -> dict | None:
    t0 = time.perf_counter()
    try:
        examples = project_examples(project, Tokenisation(), seed)
        training = train_learned(examples, seed=seed)
    except Exception as exc:  # noqa: BLE001 - reported, the rest of the report still runs
        notes.append(f"{corpus}: learned metric not trained: {exc}")
        return None
    project.set_learned_model(training.model.to_json())
    means = {
        kind: dict(zip(FEATURE_NAMES, examples.X[examples.y == label].mean(axis=0).tolist()))
        for kind, label in (("human", 1), ("machine", 0))
    }
    log(f"{corpus}: learned metric trained in {time.perf_counter() - t0:.1f} s "
        f"(C={training.best.C:g}, sigma={training.best.sigma:g}, accuracy {training.best.accuracy:.4f})")
    return {**training.to_json(), "feature_means": means}


def score_all(project, metrics, notes: list[str], corpus: str):
    scored = []
    for label, spec in metrics:
        t0 = time.perf_counter()
        try:
            (s,) = score_project(project, [spec])
        except Exception as exc:  # noqa: BLE001
            notes.append(f"{corpus}: {label} ({spec}) skipped: {type(exc).__name__}: {exc}")
            log(f"{corpus}: {label} skipped: {exc}")
            if os.environ.get("MTWB_REPORT_DEBUG"):
                traceback.print_exc()
            continue
        log(f"{corpus}: {label} scored in {time.perf_counter() - t0:.1f} s")
        scored.append((label, s))
    return scored


def correlations(scored, human, level: str) -> list[dict]:
    rows = []
    for label, s in scored:
        row = {"metric": label, "spec": s.spec}
        for method in METHODS:
            m, h = level_pairs(s.segments, s.corpus, human, level)
            row[method] = correlate(m, h, method, "fisher", metric=s.spec, human=human.label, level=level).to_json()
        rows.append(row)
    return rows


def fmt(x) -> str:
    return "–" if x is None or (isinstance(x, float) and not math.isfinite(x)) else f"{x:.3f}"


def table(rows: list[dict]) -> list[str]:
    out = ["| metric | Pearson r [95% Fisher CI] | Spearman ρ | Kendall τ | n |", "|---|---|---|---|---|"]
    for row in rows:
        p = row["pearson"]
        ci = f"[{fmt(p['ci'][0])}, {fmt(p['ci'][1])}]"
        out.append(f"| {row['metric']} | {fmt(p['r'])} {ci} | {fmt(row['spearman']['r'])} | "
                   f"{fmt(row['kendall']['r'])} | {p['n']} |")
    return out


def reliability_svg(result, title: str, negate: set[str] = frozenset()) -> str:
    """A small line chart (lengths evenly spaced on x, mean Spearman on y) as SVG text.

    Curves named in ``negate`` (error rates such as TER) are drawn as -rho so
    that every curve reads "higher = agrees more with the humans".
    """
    w, h, left, right, top, bottom = 640, 400, 60, 160, 40, 50
    curves = [c for c in result.curves if c.lengths]
    curves = [
        type(c)(f"−{c.label}", c.lengths, [-v for v in c.mean]) if c.label in negate else c for c in curves
    ]
    lengths = sorted({n for c in curves for n in c.lengths})
    if not lengths:
        return ""
    xs = {n: left + (w - left - right) * i / max(1, len(lengths) - 1) for i, n in enumerate(lengths)}
    values = [v for c in curves for v in c.mean if math.isfinite(v)]
    lo = min(0.0, math.floor(min(values, default=0.0) / 0.2) * 0.2)
    hi = max(1.0, math.ceil(max(values, default=1.0) / 0.2) * 0.2)
    y = lambda v: top + (h - top - bottom) * (hi - v) / (hi - lo)  # noqa: E731
    colours = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324",
               "#469990", "#000000"]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" '
             f'font-size="11"><rect width="{w}" height="{h}" fill="white"/>',
             f'<text x="{left}" y="20" font-size="13">{title}</text>']
    for tick in np.arange(lo, hi + 1e-9, 0.2):
        parts.append(f'<line x1="{left}" x2="{w - right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:.2f}</text>')
    for n, x in xs.items():
        parts.append(f'<text x="{x:.1f}" y="{h - bottom + 16}" text-anchor="middle">{n}</text>')
    parts.append(f'<text x="{(left + w - right) / 2}" y="{h - 12}" text-anchor="middle">'
                 'sentences per pseudo-document</text>')
    parts.append(f'<text x="14" y="{(top + h - bottom) / 2}" transform="rotate(-90 14 {(top + h - bottom) / 2})" '
                 'text-anchor="middle">mean Spearman correlation</text>')
    for k, c in enumerate(curves):
        colour = colours[k % len(colours)]
        pts = [(xs[n], y(v)) for n, v in zip(c.lengths, c.mean) if math.isfinite(v)]
        if pts:
            parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="'
                         + " ".join(f"{a:.1f},{b:.1f}" for a, b in pts) + '"/>')
        ly = top + 16 * k
        parts.append(f'<line x1="{w - right + 10}" x2="{w - right + 30}" y1="{ly}" y2="{ly}" stroke="{colour}" '
                     'stroke-width="2"/>')
        parts.append(f'<text x="{w - right + 35}" y="{ly + 4}">{c.label}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def run_corpus(name: str, project, human_name: str, metrics, args, out: Path, notes: list[str]) -> dict:
    result: dict = {"corpus": name}
    if "learned" in [spec for _, spec in metrics]:
        result["learned_training"] = train(project, args.seed, notes, name)
    scored = score_all(project, metrics, notes, name)
    human = collect_human_scores(project, human_name)
    result["human"] = human.label
    result["systems"] = human.rated_systems()
    result["segment"] = correlations(scored, human, "segment")
    if len(human.rated_systems()) >= 3:
        result["system"] = correlations(scored, human, "system")
    t0 = time.perf_counter()
    # Labels in the curves are the table's metric labels.
    rel = reliability([MetricStats(label, s.metric.aggregate, s.stats) for label, s in scored], human,
                      n_docs=args.docs, seed=args.seed)
    log(f"{name}: reliability ({rel.mode}) in {time.perf_counter() - t0:.1f} s")
    (out / f"reliability_{name}.csv").write_text(rel.to_csv(), encoding="utf-8")
    (out / f"reliability_{name}.svg").write_text(
        reliability_svg(rel, f"{name}: mean Spearman with {human.label} by pseudo-document length",
                        {label for label, s in scored if not s.metric.higher_is_better}),
        encoding="utf-8")
    result["reliability"] = rel.to_json()
    if rel.mode == "systems" and scored:
        # Seed 000's significance test: Wilcoxon signed-rank on the per-document
        # correlations of two metrics, here each metric against the first (BLEU).
        # Error rates (TER) are oriented first: their -rho is compared with BLEU's rho.
        base = scored[0][0]
        sign = {label: (1.0 if s.metric.higher_is_better else -1.0) for label, s in scored}
        result["wilcoxon"] = [
            {"length": n, **wilcoxon_correlations(
                sign[label] * rel.curve(label).samples[n], sign[base] * rel.curve(base).samples[n],
                label, base).to_json()}
            for label, _ in scored[1:]
            for n in rel.curve(label).lengths
        ]
    if len(human.rated_systems()) >= 3:
        curve = project_prediction_error(project, human)
        (out / f"prediction_error_{name}.csv").write_text(curve.to_csv(), encoding="utf-8")
        result["prediction_error"] = curve.to_json()
    return result


def markdown(results: list[dict], notes: list[str], args) -> str:
    lines = ["# Meta-evaluation results", "",
             f"Rebuilt by `.venv/bin/python tools/meta_eval_report.py` (seed {args.seed}, "
             f"{args.docs} pseudo-documents per length).", ""]
    for r in results:
        lines += [f"## {r['corpus']}: segment level vs {r['human']} "
                  f"({len(r['systems'])} system(s): {', '.join(r['systems'])})", ""]
        lines += table(r["segment"]) + [""]
        if "system" in r:
            lines += [f"### {r['corpus']}: system level ({len(r['systems'])} systems)", ""]
            lines += table(r["system"]) + [""]
        lt = r.get("learned_training")
        if lt:
            lines += [f"Learned metric: C = {lt['C']:g}, sigma = {lt['sigma']:g}; validation accuracy "
                      f"{lt['accuracy']:.3f} (human {lt['human_accuracy']:.3f}, machine "
                      f"{lt['machine_accuracy']:.3f}) on {lt['n_validation']} held-out examples.", ""]
            fm = lt["feature_means"]
            lines += [f"Mean unigram precision of the training examples: human (a reference against the "
                      f"others) {fm['human']['p1']:.3f}, machine {fm['machine']['p1']:.3f}; mean 4-gram "
                      f"precision {fm['human']['p4']:.3f} vs {fm['machine']['p4']:.3f}."]
            if fm["machine"]["p1"] > fm["human"]["p1"]:
                lines += ["Here the machine outputs overlap the references *more* than the references overlap "
                          "each other, so 'human-like' means 'less overlap' and the learned score runs against "
                          "quality: the seed 001 premise (human translations look better to n-gram features "
                          "than machine ones) does not hold for these systems."]
            lines += [""]
        rel = r["reliability"]
        lines += [f"### {r['corpus']}: mean Spearman by pseudo-document length (mode {rel['mode']})", ""]
        curves = rel["curves"]
        if curves:
            lengths = curves[0]["lengths"]
            lines.append("| metric | " + " | ".join(str(n) for n in lengths) + " |")
            lines.append("|---|" + "---|" * len(lengths))
            for c in curves:
                vals = dict(zip(c["lengths"], c["mean_spearman"]))
                lines.append(f"| {c['label']} | " + " | ".join(fmt(vals.get(n)) for n in lengths) + " |")
            lines.append("")
        for n, why in rel["skipped"].items():
            lines.append(f"- n = {n} skipped: {why}")
        for note in rel["notes"]:
            lines.append(f"- {note}")
        lines += [f"Figure: `reliability_{r['corpus']}.svg`; data: `reliability_{r['corpus']}.csv`.", ""]
        if r.get("wilcoxon"):
            ns = sorted({t["length"] for t in r["wilcoxon"]})
            base = r["wilcoxon"][0]["b"]
            lines += [f"Wilcoxon signed-rank p-values, each metric's per-document Spearman vs {base}'s "
                      f"({r['reliability']['n_docs']} pseudo-documents per length; TER's sign flipped first):",
                      "",
                      "| metric | " + " | ".join(str(n) for n in ns) + " |", "|---|" + "---|" * len(ns)]
            by_metric: dict[str, dict[int, float]] = {}
            for t in r["wilcoxon"]:
                by_metric.setdefault(t["a"], {})[t["length"]] = t["p"]
            for label, ps in by_metric.items():
                lines.append(f"| {label} | " + " | ".join(
                    "–" if ps.get(n) is None else f"{ps[n]:.2g}" for n in ns) + " |")
            lines.append("")
        pe = r.get("prediction_error")
        if pe:
            lines += [f"### {r['corpus']}: BLEU prediction error 1 - R² by max n-gram order (system level)", "",
                      "| N | " + " | ".join(str(n) for n in pe["orders"]) + " |",
                      "|---|" + "---|" * len(pe["orders"]),
                      "| 1 - R² | " + " | ".join(fmt(v) for v in pe["prediction_error"]) + " |", ""]
    if notes:
        lines += ["## Notes", ""] + [f"- {n}" for n in notes] + [""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=Path(os.environ.get("MTWB_SHARED", ROOT.parent / "shared")))
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "meta-eval")
    parser.add_argument("--docs", type=int, default=1000, help="pseudo-documents per length")
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--corpus", choices=("mlqe", "wmt21"), action="append",
                        help="only these corpora (default both)")
    parser.add_argument("--only", action="append", metavar="LABEL",
                        help="only these metrics, by table label (e.g. --only BLEU --only 'GTM e=1')")
    args = parser.parse_args(argv)
    if not (args.shared / "data").is_dir():
        parser.error(f"no data folder under {args.shared}; pass --shared")
    args.out.mkdir(parents=True, exist_ok=True)
    notes: list[str] = []
    results = []
    corpora = args.corpus or ["mlqe", "wmt21"]

    def chosen(metrics):
        return [m for m in metrics if not args.only or m[0] in args.only]

    if "mlqe" in corpora:
        log("mlqe-et-en: importing")
        project, human = mlqe_project(args.shared)
        results.append(run_corpus("mlqe-et-en", project, human, chosen(METRICS_EN), args, args.out, notes))
    if "wmt21" in corpora:
        log("wmt21-en-de-mqm: importing")
        project, human = wmt21_project(args.shared)
        results.append(run_corpus("wmt21-en-de-mqm", project, human, chosen(METRICS_DE), args, args.out, notes))
    (args.out / "results.json").write_text(json.dumps({"results": results, "notes": notes}, indent=1,
                                                      allow_nan=False, default=str) + "\n", encoding="utf-8")
    report = markdown(results, notes, args)
    (args.out / "report.md").write_text(report, encoding="utf-8")
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
