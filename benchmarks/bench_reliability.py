"""Time the pseudo-document reliability analysis (issue 9: <= 5 s for 1000 segments x 6 metrics).

Run: .venv/bin/python benchmarks/bench_reliability.py

Two cases, default lengths (1 ... 1000) and 1000 pseudo-documents per length:
* one system, 1000 segments, one judgment per segment (MLQE-like; documents mode);
* 8 systems, 1000 segments, 2-3 judges per item (seed 000-like; systems mode,
  with the inter-judge curve).
Statistics are synthetic integer counts of realistic widths (BLEU-4 has 10);
time to compute real statistics belongs to each metric's own benchmark.
"""

from __future__ import annotations

import time

import numpy as np

from mtworkbench.analysis.human_scores import HumanScores
from mtworkbench.analysis.reliability import MetricStats, reliability
from mtworkbench.metrics.registry import create_metric


def human_table(n_systems: int, n_segments: int, judges_per_item: tuple[int, int], rng) -> HumanScores:
    sys_i, seg_i, jud_i, val = [], [], [], []
    for s in range(n_systems):
        for g in range(n_segments):
            k = int(rng.integers(judges_per_item[0], judges_per_item[1] + 1))
            for j in sorted(rng.choice(6, size=k, replace=False)):
                sys_i.append(s), seg_i.append(g), jud_i.append(int(j)), val.append(float(rng.integers(1, 6)))
    return HumanScores(
        "bench", "adequacy", False, [f"S{s}" for s in range(n_systems)], [f"g{g}" for g in range(n_segments)],
        [f"J{j}" for j in range(6)], np.array(sys_i), np.array(seg_i), np.array(jud_i), np.array(val),
    )


def metric_stats(n_systems: int, n_segments: int, rng) -> list[MetricStats]:
    out = []
    widths = {"bleu": 10, "bleu:max_order=2": 6, "ter": 2, "chrf": 18, "wer": 2, "per": 2}
    for spec, k in widths.items():
        try:
            agg = create_metric(spec).aggregate
        except Exception:  # metric not available: a plain ratio of the first two columns
            agg = lambda t: t[..., 0] / np.maximum(t[..., 1], 1)  # noqa: E731
        stats = rng.integers(1, 30, size=(n_systems, n_segments, k)).astype(float)
        if spec.startswith("bleu"):
            n = (k - 2) // 2
            stats[..., 2 + n :] = stats[..., 2 : 2 + n] + rng.integers(0, 5, size=stats[..., 2 : 2 + n].shape)
        out.append(MetricStats(spec, agg, stats))
    return out


def run(n_systems: int, judges: tuple[int, int], label: str) -> float:
    rng = np.random.default_rng(0)
    human = human_table(n_systems, 1000, judges, rng)
    metrics = metric_stats(n_systems, 1000, rng)
    t0, c0 = time.perf_counter(), time.process_time()
    res = reliability(metrics, human)
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"{label}: mode={res.mode}, curves={len(res.curves)}, lengths={res.curves[0].lengths}: "
          f"{elapsed:.2f} s wall, {cpu:.2f} s CPU")
    return elapsed


if __name__ == "__main__":
    a = run(1, (1, 1), "1 system x 1000 segments x 6 metrics")
    b = run(8, (2, 3), "8 systems x 1000 segments x 6 metrics (+ inter-judge)")
    print(f"budget 5 s: {'ok' if max(a, b) <= 5 else 'OVER'}")
