"""The one interface a scoring job spreads its work through.

``run_scoring`` hands each (system, metric) task to an executor and collects the
results in the order they finish. Two executors implement it: the pool of worker
processes on this machine (``--jobs N``, in :mod:`mtworkbench.scoring.job`) and a
dask.distributed cluster (``--scheduler``, in :mod:`mtworkbench.scoring.cluster`).
Both run the same task functions on the same pickled inputs, so a score does not
depend on where it was computed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from mtworkbench.core.jobs import CancelCheck, Cancelled
from mtworkbench.metrics.base import Metric


@dataclass(frozen=True)
class ScoreTask:
    """One system's segments under one metric: the unit of work sent out."""

    job_id: int
    spec: str
    metric: Metric  # bound, as the job made it
    metric_blob: bytes  # the same, pickled once per job
    data_blob: bytes  # the system's pickled ScoringInput (b"" where ``data`` is given)
    ci_samples: int
    seed: int
    system: str | None  # None: plain files scored without a system name
    # the input itself, where the job holds it unpickled: a cluster then splits it
    # without unpickling a copy (worker processes on this machine take ``data_blob``)
    data: Any = None


class ScoringExecutor(Protocol):
    """Where tasks run. Handles are opaque; ``wait`` polls so the job can check Cancel."""

    kind: str  # "processes" or "dask"

    def submit_score(self, task: ScoreTask) -> Any: ...

    def submit_paired(self, job_id: int, spec: str, metric: Metric, metric_blob: bytes,
                      systems: list[tuple[str, np.ndarray]], method: str, n_samples: int, seed: int) -> Any: ...

    def wait(self, pending: set[Any], timeout: float) -> tuple[set[Any], set[Any]]: ...

    def result(self, handle: Any) -> Any: ...

    def cancel(self, job_id: int, handles: Iterable[Any]) -> None: ...

    def describe(self) -> dict[str, Any]: ...


def wait_for(executor: ScoringExecutor, job_id: int, handle: Any, cancel: CancelCheck | None) -> Any:
    """One task's result, checking Cancel while it runs (a cancelled job cancels the task)."""
    while True:
        if cancel is not None and cancel():
            executor.cancel(job_id, [handle])
            raise Cancelled()
        finished, _ = executor.wait({handle}, 0.05)
        if finished:
            return executor.result(handle)
