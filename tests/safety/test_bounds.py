"""Time and memory stay bounded in a segment's length and in the number of resamples:
GTM keeps only the grid's hits, METEOR and GTM refuse a segment past a stated limit
naming it, resampling draws in blocks (the same numbers as one draw where numpy
allows), and the mean of imported scores does not overflow."""

from __future__ import annotations

import tracemalloc
import warnings

import numpy as np
import pytest

from mtworkbench.analysis import resampling
from mtworkbench.analysis.correlation import bootstrap_interval
from mtworkbench.analysis.significance import bootstrap_ci, paired_test
from mtworkbench.core.scoring_input import MetricError, ScoringInput
from mtworkbench.metrics import gtm_grid
from mtworkbench.metrics.registry import create_metric


def _peak_mib(fn, *args):
    tracemalloc.start()
    try:
        result = fn(*args)
        return result, tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def test_gtm_on_a_100000_token_segment_keeps_only_the_hits():
    words = [f"слово{k}" for k in range(100_000)]
    hyp = " ".join(words)
    ref = " ".join(words[:50_000] + ["差异"] + words[50_001:])
    data = ScoringInput([hyp], [[ref]])
    score, peak = _peak_mib(create_metric("gtm").score, data)
    # A dense grid would be 100,000 x 100,001 cells (10 GB); the hits are ~100,000.
    assert peak < 300, peak
    assert score.corpus == pytest.approx(99_999 / 100_000, rel=1e-9)


def test_gtm_refuses_a_segment_with_too_many_hits_naming_segment_and_limit():
    repetitive = " ".join(["の"] * 3000)
    data = ScoringInput(["kurz", repetitive], [["kurz", repetitive]])
    with pytest.raises(MetricError) as caught:
        create_metric("gtm").score(data)
    message = str(caught.value)
    assert "segment 2" in message and f"{gtm_grid.MAX_HITS:,}" in message


def test_sparse_grid_equals_the_python_walk_on_repetitive_segments():
    import random

    rng = random.Random(7)
    for _ in range(20):
        hyp = [rng.choice("ab") for _ in range(rng.randint(150, 300))]
        refs = [[rng.choice("abc") for _ in range(rng.randint(150, 300))] for _ in range(rng.randint(1, 2))]
        big = gtm_grid._build_grid_numpy(hyp, refs)
        old_threshold = gtm_grid._VECTOR_HITS
        try:
            gtm_grid._VECTOR_HITS = 10**12
            small = gtm_grid.build_grid(hyp, refs)
        finally:
            gtm_grid._VECTOR_HITS = old_threshold
        assert (big.run_i, big.run_j, big.run_len, big.width, big.barriers) == (
            small.run_i, small.run_j, small.run_len, small.width, small.barriers)


def test_meteor_refuses_a_20000_token_segment_at_once():
    from mtworkbench.metrics.meteor.metric import MAX_SEGMENT_TOKENS

    long = " ".join(f"Wort{k}" for k in range(20_000))
    data = ScoringInput(["ein kurzer Satz", long], [["ein kurzer Satz", "ein Satz"]], target_language="de")
    with pytest.raises(MetricError) as caught:
        create_metric("meteor").score(data)
    message = str(caught.value)
    assert "segment 2" in message and "20,000 tokens" in message and f"{MAX_SEGMENT_TOKENS:,}" in message


def test_too_many_resamples_are_refused_with_the_limit():
    x = np.arange(10.0)
    with pytest.raises(MetricError, match="1,000,000"):
        bootstrap_interval(x, x[::-1].copy(), "pearson", n_samples=100_000_000)
    stats = np.ones((5, 2))
    with pytest.raises(MetricError, match="at most"):
        bootstrap_ci(create_metric("chrf"), stats, n_samples=10**8)


def _chrf_stats(seed: int, n: int = 40) -> np.ndarray:
    rng = np.random.default_rng(seed)
    hyps = [" ".join(rng.choice(["Haus", "Baum", "猫", "дом", "بيت"], size=6)) for _ in range(n)]
    refs = [" ".join(rng.choice(["Haus", "Baum", "猫", "дом", "بيت"], size=6)) for _ in range(n)]
    metric = create_metric("chrf")
    return metric, metric.segment_statistics(ScoringInput(hyps, [refs]))


def test_randomisation_in_blocks_gives_the_numbers_of_one_draw(monkeypatch):
    metric, a = _chrf_stats(1)
    _, b = _chrf_stats(2)
    whole = paired_test(metric, [("a", a), ("b", b)], "paired-ar", n_samples=500, ar_confidence=200)
    monkeypatch.setattr(resampling, "CHUNK_VALUES", 32 * 40)  # blocks of 32 trials
    blocks = paired_test(metric, [("a", a), ("b", b)], "paired-ar", n_samples=500, ar_confidence=200)
    assert whole == blocks


def test_bootstrap_in_blocks_is_reproducible_and_bounded(monkeypatch):
    metric, a = _chrf_stats(3)
    _, b = _chrf_stats(4)
    whole = paired_test(metric, [("a", a), ("b", b)], "paired-bs", n_samples=300)
    monkeypatch.setattr(resampling, "CHUNK_VALUES", 40 * 7)
    first = paired_test(metric, [("a", a), ("b", b)], "paired-bs", n_samples=300)
    second = paired_test(metric, [("a", a), ("b", b)], "paired-bs", n_samples=300)
    assert first == second
    # numpy may spend its bits differently across blocks; the statistics agree closely
    for w, f in zip(whole.systems, first.systems):
        assert w.score == f.score and w.mean == pytest.approx(f.mean, abs=0.5)


def test_resampling_memory_does_not_grow_with_the_number_of_samples(monkeypatch):
    monkeypatch.setattr(resampling, "CHUNK_VALUES", 1 << 16)
    metric, a = _chrf_stats(5, n=200)
    _, small = _peak_mib(bootstrap_ci, metric, a, 2_000)
    _, large = _peak_mib(bootstrap_ci, metric, a, 20_000)
    # one draw: 20,000 x 200 indices = 30 MiB; in blocks: the block and one score a sample
    assert large < 3 * small + 2, (small, large)


def test_the_mean_of_imported_scores_of_1e308_is_1e308(tmp_path):
    from mtworkbench.core.project_input import scoring_input
    from mtworkbench.io.scores.external_scores import import_score_lines
    from mtworkbench.metrics.external import external_metric

    from .helpers import project

    p = project(40)
    path = tmp_path / "sys0.seg.score"
    path.write_text("1e308\n" * 40, encoding="utf-8")
    import_score_lines(p, "BIG", path, system="sys0")
    metric = external_metric("ext:BIG", p)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        score = metric.score(scoring_input(p, "sys0"), system="sys0")
    assert score.corpus == 1e308
    assert metric.corpus_score(np.array([[1.0, 1.0], [2.0, 1.0], [0.0, 0.0]])) == 1.5
