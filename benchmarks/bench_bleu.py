"""Corpus BLEU on WMT17 en-de (16 systems x 3004 segments): mtworkbench against
the sacrebleu package in the same run, plus bootstrap resampling time.

    .venv/bin/python benchmarks/bench_bleu.py [SHARED_DIR] [--resamples 1000] [--repeat 3]

SHARED_DIR defaults to ../shared relative to the repository root. Each timing
is the best of ``--repeat`` runs (the machine may be shared); tokenizer caches
are cleared before every run so no run profits from an earlier one.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def clear_tokenizer_caches() -> None:
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

    from mtworkbench.metrics.tokens import sacrebleu_tokenizer

    Tokenizer13a.__call__.cache_clear()
    TokenizerRegexp.__call__.cache_clear()
    sacrebleu_tokenizer.cache_clear()


CPU_TIMES: dict[str, float] = {}


def best_time(run: Callable[[], object], repeat: int, label: str = "") -> tuple[float, object]:
    """Best wall-clock time of ``repeat`` runs (its CPU time kept under ``label``)."""
    best, best_cpu, result = float("inf"), float("inf"), None
    for _ in range(repeat):
        clear_tokenizer_caches()
        start, start_cpu = time.perf_counter(), time.process_time()
        result = run()
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
    if label:
        CPU_TIMES[label] = best_cpu
    return best, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shared", nargs="?", default=str(REPO.parent / "shared"))
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tokenize", default="13a")
    args = parser.parse_args(argv)

    import sacrebleu
    from sacrebleu.significance import _bootstrap_resample

    from mtworkbench.analysis.significance import bootstrap_ci
    from mtworkbench.metrics.base import ScoringInput
    from mtworkbench.metrics.bleu import BLEU

    data_dir = Path(args.shared) / "data" / "wmt17-en-de-systems"
    if not data_dir.is_dir():
        print(f"data not found: {data_dir}", file=sys.stderr)
        return 1
    names = read_lines(data_dir / "systems.order")
    ref = read_lines(data_dir / "ref.de")
    systems = {name: read_lines(data_dir / "systems" / f"{name}.de") for name in names}
    print(f"{len(systems)} systems x {len(ref)} segments, tokenize={args.tokenize}, "
          f"best of {args.repeat}")

    def run_sacrebleu() -> dict[str, float]:
        return {n: sacrebleu.corpus_bleu(h, [ref], tokenize=args.tokenize).score for n, h in systems.items()}

    def run_sacrebleu_cached() -> dict[str, float]:
        # sacrebleu can also cache the references across systems
        metric = sacrebleu.BLEU(tokenize=args.tokenize, references=[ref])
        return {n: metric.corpus_score(h, None).score for n, h in systems.items()}

    def run_ours() -> tuple[dict[str, float], dict[str, np.ndarray]]:
        metric = BLEU(tokenize=args.tokenize)
        stats = {n: metric.segment_statistics(ScoringInput(h, [ref])) for n, h in systems.items()}
        return {n: metric.corpus_score(s) for n, s in stats.items()}, stats

    t_sacrebleu, theirs = best_time(run_sacrebleu, args.repeat, "sacrebleu")
    t_cached, theirs_cached = best_time(run_sacrebleu_cached, args.repeat, "cached")
    t_ours, (ours, stats) = best_time(run_ours, args.repeat, "ours")

    worst = max(max(abs(ours[n] - theirs[n]), abs(ours[n] - theirs_cached[n])) for n in names)
    print(f"sacrebleu corpus_bleu:              {t_sacrebleu:8.3f} s")
    print(f"sacrebleu BLEU(references=...):     {t_cached:8.3f} s")
    print(f"mtworkbench BLEU:                   {t_ours:8.3f} s")
    print(f"ratio ours / sacrebleu corpus_bleu: {t_ours / t_sacrebleu:8.3f}")
    print(f"ratio ours / sacrebleu cached refs: {t_ours / t_cached:8.3f}")
    cpu = CPU_TIMES
    print(
        f"CPU time: sacrebleu {cpu['sacrebleu']:.3f} s, cached {cpu['cached']:.3f} s, "
        f"ours {cpu['ours']:.3f} s; ratios {cpu['ours'] / cpu['sacrebleu']:.3f} and "
        f"{cpu['ours'] / cpu['cached']:.3f}"
    )
    print(f"max |score difference|: {worst:.3g}")

    # bootstrap: one gather-sum and one vectorised aggregate per system
    metric = BLEU(tokenize=args.tokenize)
    per_system = []
    for name in names:
        t, _ = best_time(
            lambda: bootstrap_ci(metric, stats[name], n_samples=args.resamples, seed=12345),
            args.repeat,
        )
        per_system.append(t)
    print(
        f"bootstrap {args.resamples} resamples per system: mean {np.mean(per_system):.4f} s, "
        f"max {np.max(per_system):.4f} s"
    )
    sb = sacrebleu.BLEU(tokenize=args.tokenize)
    sb_stats = sb._extract_corpus_statistics(systems[names[0]], [ref])
    t_sb, _ = best_time(lambda: _bootstrap_resample(sb_stats, sb, args.resamples), args.repeat)
    print(f"sacrebleu bootstrap {args.resamples} resamples, one system: {t_sb:.4f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
