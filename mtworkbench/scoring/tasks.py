"""What one scoring task does, wherever it runs: in this process, a worker process or a Dask worker."""

from __future__ import annotations

import itertools
import pickle
from typing import Any

import numpy as np

from mtworkbench.core.jobs import CancelCheck, ProgressCallback, check_cancel
from mtworkbench.metrics.base import Metric
from mtworkbench.scoring.cache import ScoreEntry

_JOB_IDS = itertools.count(1)


def next_job_id() -> int:
    """A fresh id for a scoring job (its tasks carry it, so a cancel reaches exactly them)."""
    return next(_JOB_IDS)


def score_one(
    metric: Metric,
    data: Any,
    ci_samples: int,
    seed: int,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
    system: str | None = None,
) -> ScoreEntry:
    """Score one system with one metric, plus its bootstrap interval."""
    from mtworkbench.analysis.significance import bootstrap_ci

    if isinstance(data, bytes):
        data = pickle.loads(data)  # noqa: S301 - bytes this process pickled for its own worker processes
    score = metric.score(data, progress=progress, cancel=cancel, system=system)
    ci = None
    if ci_samples > 0 and data.n_segments > 0:
        check_cancel(cancel)
        ci = bootstrap_ci(metric, score.stats, n_samples=ci_samples, seed=seed)
    return ScoreEntry(score=score, ci=ci)


def paired_one(
    metric: Metric,
    systems: list[tuple[str, np.ndarray]],
    method: str,
    n_samples: int,
    seed: int,
    cancel: CancelCheck | None = None,
) -> Any:
    from mtworkbench.analysis.significance import paired_test

    return paired_test(metric, systems, method=method, n_samples=n_samples, seed=seed, cancel=cancel)
