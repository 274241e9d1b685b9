"""Timings of the judgment panel core: queue building, submitting, agreement.

Run: .venv/bin/python benchmarks/bench_judging.py
Agreement is compared with calling scipy/sklearn directly on the same paired
arrays (the floor: the ratio shows the cost of grouping judgments into items).
"""

from __future__ import annotations

import time

import numpy as np
from scipy import stats
from sklearn.metrics import cohen_kappa_score

from mtworkbench.analysis.agreement import agreement
from mtworkbench.core.judging import JudgeSession, QueueConfig, apply_judgment, build_queue
from mtworkbench.core.model import Document, Judgment, Paragraph, Project, Reference, Segment, System


def make_project(n_docs: int = 50, per_doc: int = 20, n_systems: int = 8, n_refs: int = 3) -> Project:
    docs, ids = [], []
    for d in range(n_docs):
        segs = [Segment(f"d{d}s{k}", "src") for k in range(per_doc)]
        ids += [s.id for s in segs]
        docs.append(Document(f"d{d}", [Paragraph(f"d{d}p", segs)]))
    return Project(
        documents=docs,
        references=[Reference(f"r{k}", texts={i: "ref" for i in ids}) for k in range(n_refs)],
        systems=[System(f"S{k}", texts={i: "hyp" for i in ids}) for k in range(n_systems)],
    )


def timed(label: str, fn, repeat: int = 3) -> float:
    best = min(_once(fn) for _ in range(repeat))
    print(f"{label:<58} {best * 1000:9.1f} ms")
    return best


def _once(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    project = make_project()
    n_items = len(project.segments) * len(project.systems)
    timed(f"build_queue ({n_items} items + 10% repeats)", lambda: build_queue(project, "ann", QueueConfig(seed=1)))

    project.add_judge("ann")
    session = JudgeSession.start(project, "ann", QueueConfig(seed=1))

    def submit_1000() -> None:
        for _ in range(1000):
            apply_judgment(project, session.submit(3, 4, seconds=1.0))

    timed("submit + apply, 1000 items", submit_1000, repeat=1)

    rng = np.random.default_rng(0)
    truth = rng.integers(1, 6, size=n_items)
    judgments = []
    items = [(s.id, g.id) for s in project.systems for g in project.segments]
    for judge in ("p", "q", "r"):
        noisy = np.clip(truth + rng.integers(-1, 2, size=n_items), 1, 5)
        judgments += [
            Judgment(f"{judge}{k}", judge, sys_id, seg_id, adequacy=int(v), fluency=int(v))
            for k, ((sys_id, seg_id), v) in enumerate(zip(items, noisy))
        ]
    t_ours = timed(f"agreement(), 3 judges x {n_items} items", lambda: agreement(judgments))

    a = np.array([j.adequacy for j in judgments[:n_items]])
    b = np.array([j.adequacy for j in judgments[n_items : 2 * n_items]])

    def direct() -> None:
        for _ in range(3 * 2):  # 3 pairs x (adequacy, fluency)
            stats.spearmanr(a, b)
            stats.pearsonr(a, b)
            cohen_kappa_score(a, b, labels=[1, 2, 3, 4, 5], weights="quadratic")

    t_direct = timed("scipy/sklearn directly on the paired arrays (same calls)", direct)
    print(f"{'ratio agreement() / direct':<58} {t_ours / t_direct:9.2f}")


if __name__ == "__main__":
    main()
