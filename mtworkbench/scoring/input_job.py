"""Inputs without a project (the files ``score`` reads) scored on a dask.distributed cluster.

The same tasks as a project's job (:mod:`mtworkbench.scoring.job`): one per (input, metric),
each scored by ``score_one`` on a worker, the metric pickled once per job and the reference
side sent once per job, whatever the number of hypothesis files. Results come back in the
order of ``metrics`` x ``inputs``, as ``metric.score`` gives them in one process.
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from typing import Any

from mtworkbench.core.jobs import CancelCheck, ProgressCallback, check_cancel, report
from mtworkbench.core.scoring_input import MetricScore, ScoringInput
from mtworkbench.metrics.base import Metric
from mtworkbench.scoring.executor import ScoreTask
from mtworkbench.scoring.tasks import next_job_id


def score_inputs_on_cluster(
    metrics: Sequence[Metric],
    inputs: Sequence[tuple[str | None, ScoringInput]],
    scheduler: str,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
    backend: dict[str, Any] | None = None,
) -> list[MetricScore]:
    """``metric.score(data, system=system)`` for every metric and input, computed on the
    cluster at ``scheduler``; ``backend`` receives where the work ran. A metric's error is
    raised as it would be in this process; Cancel and Ctrl+C cancel the futures."""
    from mtworkbench.scoring.cluster import cluster_executor

    executor = cluster_executor(scheduler)
    job_id = next_job_id()
    handles: dict[Any, int] = {}
    total = len(metrics) * len(inputs)
    report(progress, 0, 1000 * total)
    for metric in metrics:
        blob = pickle.dumps(metric)
        for system, data in inputs:
            task = ScoreTask(job_id, metric.name, metric, blob, b"", 0, 0, system, data=data)
            handles[executor.submit_score(task)] = len(handles)
    results: list[MetricScore | None] = [None] * total
    pending = set(handles)
    try:
        while pending:
            check_cancel(cancel)
            ready, pending = executor.wait(pending, 0.25)
            for handle in ready:
                results[handles[handle]] = executor.result(handle).score
                report(progress, 1000 * (total - len(pending)), 1000 * total)
    except BaseException:  # an error, Cancel or Ctrl+C: nothing queued keeps running
        executor.cancel(job_id, pending)
        raise
    if backend is not None:
        backend.update(executor.describe())
    return [score for score in results if score is not None]
