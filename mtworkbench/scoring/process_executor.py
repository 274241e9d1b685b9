"""The shared pool of worker processes on this machine (``--jobs N``) behind the
executor interface of :mod:`mtworkbench.scoring.executor`."""

from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import Any

from mtworkbench.scoring import job as scoring_job
from mtworkbench.scoring.executor import ScoreTask


class ProcessExecutor:
    kind = "processes"

    def __init__(self, workers: int | None = None) -> None:
        self.pool = scoring_job.process_pool(workers)

    def submit_score(self, task: ScoreTask) -> Future:
        return self.pool.submit(scoring_job._child_score, task.job_id, task.spec, task.metric_blob, task.data_blob,
                                task.ci_samples, task.seed, task.system)

    def submit_paired(self, job_id, spec, metric, metric_blob, systems, method, n_samples, seed) -> Future:
        return self.pool.submit(scoring_job._child_paired, job_id, spec, metric_blob, systems, method, n_samples,
                                seed)

    def wait(self, pending: set[Any], timeout: float) -> tuple[set[Any], set[Any]]:
        ready, rest = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
        return set(ready), set(rest)

    def result(self, handle: Future) -> Any:
        return handle.result()

    def cancel(self, job_id: int, handles: Iterable[Future]) -> None:
        # Running tasks see the shared flag at their next cancel check; queued ones never start.
        with scoring_job._POOL_LOCK:
            flag = scoring_job._CANCELLED_UP_TO
            if flag is not None:
                flag.value = max(flag.value, job_id)
        for future in handles:
            future.cancel()

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "workers": scoring_job._POOL_SIZE}
