"""Bootstrap intervals and paired tests against sacrebleu 2.6 (same seed, same
p-values) on WMT17 en-de, and against plain loops for any metric."""

from __future__ import annotations

import os

import numpy as np
import pytest
import sacrebleu
from sacrebleu.significance import PairedTest

from mtworkbench.analysis.significance import (
    bootstrap_ci,
    estimate_ci,
    paired_test,
    resample_counts,
)
from mtworkbench.metrics.base import MetricError, ScoringInput
from mtworkbench.metrics.bleu import BLEU
from mtworkbench.metrics.edit import CHRF, WER

from .corpora import random_corpus

# sacrebleu's own significance test table (test/test_significance.py), copied
# into ../shared/data/wmt17-en-de-systems/README.md: Moses bootstrap p and
# multeval AR p; sacrebleu asserts |p - reference| < 1e-2.
REFERENCE_P = {
    "newstest2017.C-3MA.4959.en-de": (0.00000, 0.0001),
    "newstest2017.FBK.4870.en-de": (0.01267, 0.0218),
    "newstest2017.KIT.4950.en-de": (0.02233, 0.0410),
    "newstest2017.LMU-nmt-reranked.4934.en-de": (0.04383, 0.09029),
    "newstest2017.LMU-nmt-single.4893.en-de": (0.20783, 0.58494),
    "newstest2017.online-A.0.en-de": (0.00000, 0.0001),
    "newstest2017.online-B.0.en-de": (0.38100, 0.94111),
    "newstest2017.online-F.0.en-de": (0.00000, 0.0001),
    "newstest2017.online-G.0.en-de": (0.00000, 0.0001),
    "newstest2017.PROMT-Rule-based.4735.en-de": (0.00000, 0.0001),
    "newstest2017.RWTH-nmt-ensemble.4921.en-de": (0.01167, 0.0207),
    "newstest2017.SYSTRAN.4847.en-de": (0.20983, 0.59914),
    "newstest2017.TALP-UPC.4834.en-de": (0.00000, 0.0001),
    "newstest2017.uedin-nmt.4722.en-de": (0.00000, 0.0001),
    "newstest2017.xmu.4910.en-de": (0.25483, 0.71073),
}


def _lines(path) -> list[str]:
    # as sacrebleu's test reads its pickle: text unchanged (the BOM of online-A stays)
    return path.read_text(encoding="utf-8").split("\n")[:-1]


@pytest.fixture(scope="module")
def wmt17(shared_dir):
    folder = shared_dir / "data" / "wmt17-en-de-systems"
    names = _lines(folder / "systems.order")
    systems = [(name, _lines(folder / "systems" / f"{name}.de")) for name in names]
    return systems, _lines(folder / "ref.de")


@pytest.fixture(autouse=True)
def _sacrebleu_seed(monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")


@pytest.mark.shared
@pytest.mark.parametrize("method, n", [("paired-bs", 1000), ("paired-ar", 1000)])
@pytest.mark.parametrize("metric_name", ["bleu", "chrf"])
def test_p_values_equal_sacrebleu(wmt17, method: str, n: int, metric_name: str) -> None:
    systems, ref = wmt17
    size = 500  # a modest subset keeps sacrebleu's own loop quick
    chosen = [systems[i] for i in (0, 2, 3, 5, 7)]
    chosen = [(name, hyps[:size]) for name, hyps in chosen]
    refs = [ref[:size]]
    if metric_name == "bleu":
        ours, theirs = BLEU(tokenize="none"), sacrebleu.BLEU(tokenize="none", references=refs)
    else:
        ours, theirs = CHRF(), sacrebleu.CHRF(references=refs)
    _, expected = PairedTest(chosen, {"m": theirs}, None, test_type=method[-2:], n_samples=n)()
    expected_rows = next(v for k, v in expected.items() if k != "System")
    stats = [(name, ours.segment_statistics(ScoringInput(h, refs))) for name, h in chosen]
    result = paired_test(ours, stats, method, n, seed=12345)
    assert [r.system for r in result.systems] == [name for name, _ in chosen]
    for mine, theirs_row in zip(result.systems, expected_rows):
        assert mine.p_value == theirs_row.p_value  # exactly the same count
        assert mine.score == pytest.approx(theirs_row.score, abs=1e-9)
        if theirs_row.mean is None:
            assert mine.mean is None
        else:
            # sacrebleu sums resamples in float32
            assert mine.mean == pytest.approx(theirs_row.mean, abs=1e-4)
            assert mine.ci == pytest.approx(theirs_row.ci, abs=1e-4)


@pytest.mark.shared
@pytest.mark.slow
def test_all_systems_against_published_p_values(wmt17) -> None:
    """sacrebleu's own acceptance test: 2000 bootstrap resamples and 10,000 AR
    trials, |p - reference| < 0.01 for all 15 systems."""
    systems, ref = wmt17
    metric = BLEU(tokenize="none")
    stats = [(name, metric.segment_statistics(ScoringInput(h, [ref]))) for name, h in systems]
    bs = paired_test(metric, stats, "paired-bs", 2000, seed=12345)
    ar = paired_test(metric, stats, "paired-ar", 10_000, seed=12345)
    for row_bs, row_ar in zip(bs.systems[1:], ar.systems[1:]):
        moses, multeval = REFERENCE_P[row_bs.system]
        assert abs(row_bs.p_value - moses) < 1e-2, row_bs
        assert abs(row_ar.p_value - multeval) < 1e-2, row_ar


@pytest.mark.shared
def test_bootstrap_ci_equals_sacrebleu_confidence(wmt17) -> None:
    systems, ref = wmt17
    hyps = systems[1][1][:1000]
    refs = [ref[:1000]]
    expected = sacrebleu.BLEU().corpus_score(hyps, refs, n_bootstrap=500)
    metric = BLEU()
    result = bootstrap_ci(metric, metric.segment_statistics(ScoringInput(hyps, refs)), 500, seed=12345)
    assert result.score == pytest.approx(expected.score, abs=1e-9)
    assert result.mean == pytest.approx(expected._mean, abs=1e-4)
    assert result.ci == pytest.approx(expected._ci, abs=1e-4)
    assert result.lower <= result.mean <= result.upper


def test_bootstrap_for_any_metric_equals_plain_loop() -> None:
    hyps, refs = random_corpus(5)
    data = ScoringInput(hyps, refs)
    metric = WER()
    stats = metric.segment_statistics(data)
    result = bootstrap_ci(metric, stats, n_samples=200, seed=3)
    indices = np.random.default_rng(3).choice(len(hyps), size=(200, len(hyps)), replace=True)
    loop = [metric.score(data.subset(list(idx))).corpus for idx in indices]
    mean, ci, lower, upper = estimate_ci(np.array(loop))
    assert result.mean == pytest.approx(mean, abs=1e-12)
    assert (result.ci, result.lower, result.upper) == pytest.approx((ci, lower, upper), abs=1e-12)


def test_resample_counts() -> None:
    indices = np.array([[0, 0, 2], [1, 2, 2]])
    np.testing.assert_array_equal(resample_counts(3, indices), [[2, 0, 1], [0, 1, 2]])


def test_identical_systems_have_p_one_where_sacrebleu_reports_the_smallest_p() -> None:
    """sacrebleu counts strictly larger differences, so a system compared with
    itself gets p = 1 / (n + 1), its smallest p, and a star; there is no difference
    to test, so we report p = 1, marked identical and not significant."""
    hyps, refs = random_corpus(8)
    metric = BLEU()
    stats = metric.segment_statistics(ScoringInput(hyps, refs))
    for method in ("paired-bs", "paired-ar"):
        result = paired_test(metric, [("a", stats), ("b", stats)], method, 200)
        _, expected = PairedTest(
            [("a", hyps), ("b", hyps)], {"m": sacrebleu.BLEU(references=refs)}, None,
            test_type=method[-2:], n_samples=200,
        )()
        rows = next(v for k, v in expected.items() if k != "System")
        assert rows[1].p_value == 1 / 201
        row = result.systems[1]
        assert row.p_value == 1.0 and row.identical and not row.significant()


def test_bad_arguments() -> None:
    metric = BLEU()
    stats = metric.segment_statistics(ScoringInput(["a b"], [["a b"]]))
    with pytest.raises(MetricError, match="baseline and at least one"):
        paired_test(metric, [("a", stats)])
    with pytest.raises(MetricError, match="unknown method"):
        paired_test(metric, [("a", stats), ("b", stats)], "t-test")
    with pytest.raises(MetricError, match="at least one segment"):
        bootstrap_ci(metric, np.zeros((0, 10)))
    with pytest.raises(MetricError, match="shape"):
        paired_test(metric, [("a", stats), ("b", np.vstack([stats, stats]))])


def test_seed_env_is_not_read() -> None:
    # our seed is an argument; sacrebleu's env var must not change our results
    hyps, refs = random_corpus(9)
    metric = BLEU()
    stats = metric.segment_statistics(ScoringInput(hyps, refs))
    first = bootstrap_ci(metric, stats, 100, seed=1)
    os.environ["SACREBLEU_SEED"] = "7"
    assert bootstrap_ci(metric, stats, 100, seed=1) == first
