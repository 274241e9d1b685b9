"""GTM on MLQE-PE et-en (1000 segments, mt.en against ref-1.en + ref-2.en).

    .venv/bin/python benchmarks/bench_gtm.py [SHARED_DIR] [--repeat 3] [--no-exact]

Times the default (GTM 1.4 greedy) for e = 1, 2, 3 (target: each <= 1 s on a
2-core machine) and prints segments/second; then the same greedy written as
SPECS.md states it (list every sub-run candidate, sort, walk), which is what
the level-by-level walk replaces, on the corpus and on long repetitive
segments; then mode=exact separately. GTM 1.4 itself (Java) is not shipped
with the data, so there is no reference tool to time against here.
SHARED_DIR defaults to ../shared relative to the repository root.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def best_time(fn, repeat: int) -> tuple[float, object]:
    best, result = math.inf, None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def literal_greedy_score(hyp: list[str], refs: list[list[str]], e: float) -> float:
    """SPECS.md steps 2-5 as written: every candidate listed and sorted."""
    axis: list[str | None] = []
    for ref in refs:
        axis += ref + [None]
    width = len(axis)
    columns: dict[str, list[int]] = {}
    for j, tok in enumerate(axis):
        if tok is not None:
            columns.setdefault(tok, []).append(j)
    hits = {(i, j) for i, tok in enumerate(hyp) for j in columns.get(tok, ())}
    candidates = []
    for i, j in hits:
        length = 1
        while (i + length, j + length) in hits:
            length += 1
        candidates += [(-l, -(i * width + j), i, j) for l in range(1, length + 1)]
    candidates.sort()
    mean_ref = sum(map(len, refs)) / len(refs) if refs else 0.0
    budget = min(float(len(hyp)), mean_ref)
    rows, cols = set(), set()
    score = 0.0
    for neg_l, _, i, j in candidates:
        if budget <= 0:
            break
        length = min(-neg_l, budget)
        cells = math.ceil(length)
        if any(i + q in rows or j + q in cols for q in range(cells)):
            continue
        rows.update(range(i, i + cells))
        cols.update(range(j, j + cells))
        budget -= length
        score += length**e
    return score


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shared", nargs="?", default=str(REPO.parent / "shared"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-exact", action="store_true")
    args = parser.parse_args(argv)

    from mtworkbench.io.corpora.plaintext import read_lines
    from mtworkbench.metrics.base import ScoringInput
    from mtworkbench.metrics.gtm import GTM, gtm_tokens, score_segment

    data_dir = Path(args.shared) / "data" / "mlqe-et-en"
    if not data_dir.is_dir():
        print(f"data not found: {data_dir}", file=sys.stderr)
        return 1
    hyps = read_lines(data_dir / "mt.en")
    refs = [read_lines(data_dir / "ref-1.en"), read_lines(data_dir / "ref-2.en")]
    data = ScoringInput(hyps, refs)
    n = data.n_segments
    print(f"mlqe-et-en: {n} segments, 2 references (best of {args.repeat})")

    print("\ngreedy (GTM 1.4, the default):")
    for e in ("1", "2", "3"):
        metric = GTM(e=e)
        seconds, score = best_time(lambda: metric.score(data), args.repeat)
        verdict = "ok" if seconds <= 1.0 else "OVER 1 s"
        print(f"  e={e}: {seconds:.3f} s  {n / seconds:8.0f} segments/s  F={score.corpus:.6f}  [{verdict}]")

    print("\nthe same greedy listing and sorting every candidate (SPECS.md read literally):")
    tokens = [(gtm_tokens(h), [gtm_tokens(r[i]) for r in refs]) for i, h in enumerate(hyps)]
    for e in (1.0, 2.0, 3.0):
        ours, _ = best_time(lambda: [score_segment(hyps[i], [r[i] for r in refs], e) for i in range(n)], 1)
        naive, _ = best_time(lambda: [literal_greedy_score(h, rs, e) for h, rs in tokens], 1)
        print(f"  e={e:g}: literal {naive:.3f} s, ours {ours:.3f} s, ratio {naive / ours:.1f}x")

    rng = random.Random(1)
    long_cases = []
    for _ in range(5):
        words = [rng.choice(["the", "of", "a", "and", "cat", "dog", "x"]) for _ in range(400)]
        long_cases.append((words, [words[50:] + words[:50], words[::-1]]))
    ours, _ = best_time(
        lambda: [score_segment(" ".join(h), [" ".join(r) for r in rs], 2.0) for h, rs in long_cases], 1
    )
    naive, _ = best_time(lambda: [literal_greedy_score(h, rs, 2.0) for h, rs in long_cases], 1)
    print(f"  5 x 400-token repetitive segments, e=2: literal {naive:.3f} s, ours {ours:.3f} s, "
          f"ratio {naive / ours:.1f}x")

    near = []
    for _ in range(5):
        words = [f"w{rng.randrange(50)}" for _ in range(1000)]
        edited = [("EDIT" if k % 250 == 125 else w) for k, w in enumerate(words)]
        near.append((words, [edited, words[500:] + words[:500]]))
    ours, _ = best_time(
        lambda: [score_segment(" ".join(h), [" ".join(r) for r in rs], 2.0) for h, rs in near], 1
    )
    naive, _ = best_time(lambda: [literal_greedy_score(h, rs, 2.0) for h, rs in near], 1)
    print(f"  5 x 1000-token near-identical segments (long runs), e=2: literal {naive:.3f} s, "
          f"ours {ours:.3f} s, ratio {naive / ours:.1f}x")

    if not args.no_exact:
        print("\nexact mode (timed separately; one run each):")
        for e in ("1", "2", "3"):
            metric = GTM(e=e, mode="exact")
            seconds, score = best_time(lambda: metric.score(data), 1)
            fallbacks = len(score.extras.get("exact_fallback_segments", []))
            print(f"  e={e}: {seconds:.3f} s  {n / seconds:8.0f} segments/s  F={score.corpus:.6f}  "
                  f"greedy fallbacks: {fallbacks}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
