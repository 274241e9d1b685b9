"""The shared pool of worker processes on this machine (``--jobs N``) behind the
executor interface of :mod:`mtworkbench.scoring.executor`."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

import numpy as np

from mtworkbench.core.jobs import CancelCheck
from mtworkbench.metrics.base import Metric
from mtworkbench.scoring.cache import ScoreEntry
from mtworkbench.scoring.executor import ScoreTask
from mtworkbench.scoring.tasks import paired_one, score_one

# --- worker processes --------------------------------------------------------------------
_POOL: ProcessPoolExecutor | None = None
_POOL_SIZE = 0
_POOL_LOCK = threading.Lock()
_CANCELLED_UP_TO: Any = None  # multiprocessing.Value: jobs with id <= this are cancelled
_IN_CHILD_CANCEL: Any = None


def _init_child(cancelled_up_to: Any) -> None:
    global _IN_CHILD_CANCEL
    _IN_CHILD_CANCEL = cancelled_up_to
    # Ctrl+C reaches every process of the terminal's group: the parent alone handles it
    # (it cancels the job through the shared flag); a worker would only print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:  # background work: let the GUI process win any contest for a CPU
        os.nice(10)
    except OSError:
        pass
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()


def _exit_with_parent(parent: int) -> None:
    """A worker whose app was killed must not linger (its queue would never close)."""
    import time

    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def _child_cancel(job_id: int) -> CancelCheck:
    return lambda: _IN_CHILD_CANCEL is not None and _IN_CHILD_CANCEL.value >= job_id


# The metrics a worker process has unpickled for the running job, by spec: one
# instance per spec and process, reused for every system it scores.
_CHILD_METRICS: dict[tuple[int, str], Metric] = {}


def _child_metric(job_id: int, spec: str, blob: bytes) -> Metric:
    key = (job_id, spec)
    metric = _CHILD_METRICS.get(key)
    if metric is None:
        if any(k[0] != job_id for k in _CHILD_METRICS):
            _CHILD_METRICS.clear()  # an earlier job's metrics (and their reference caches) go
        metric = _CHILD_METRICS[key] = pickle.loads(blob)  # noqa: S301 - bytes this process pickled for its own worker processes
    return metric


def child_score(job_id: int, spec: str, metric_blob: bytes, data: bytes, ci_samples: int, seed: int,
                 system: str | None) -> ScoreEntry:
    metric = _child_metric(job_id, spec, metric_blob)
    return score_one(metric, data, ci_samples, seed, cancel=_child_cancel(job_id), system=system)


def child_paired(job_id: int, spec: str, metric_blob: bytes, systems: list[tuple[str, np.ndarray]],
                  method: str, n_samples: int, seed: int) -> Any:
    return paired_one(_child_metric(job_id, spec, metric_blob), systems, method, n_samples, seed,
                      cancel=_child_cancel(job_id))


def process_pool(workers: int | None = None) -> ProcessPoolExecutor:
    """The shared pool of scoring processes (started on first use, reused; started
    anew when a job asks for another number of workers)."""
    global _POOL, _CANCELLED_UP_TO, _POOL_SIZE
    with _POOL_LOCK:
        if workers is None and _POOL is not None:
            return _POOL
        workers = max(1, workers if workers else min(os.cpu_count() or 1, 4))
        if _POOL is not None and _POOL_SIZE != workers:
            _POOL.shutdown(wait=False, cancel_futures=True)
            _POOL = None
        if _POOL is None:
            context = multiprocessing.get_context("spawn")  # never fork a process running Qt threads
            _CANCELLED_UP_TO = context.Value("q", 0)
            _POOL_SIZE = workers
            _POOL = ProcessPoolExecutor(
                workers, mp_context=context, initializer=_init_child, initargs=(_CANCELLED_UP_TO,)
            )
        return _POOL


def shutdown_pool() -> None:
    global _POOL
    with _POOL_LOCK:
        if _POOL is not None:
            _POOL.shutdown(wait=False, cancel_futures=True)
            _POOL = None


class ProcessExecutor:
    kind = "processes"

    def __init__(self, workers: int | None = None) -> None:
        self.pool = process_pool(workers)

    def submit_score(self, task: ScoreTask) -> Future:
        return self.pool.submit(child_score, task.job_id, task.spec, task.metric_blob, task.data_blob,
                                task.ci_samples, task.seed, task.system)

    def submit_paired(self, job_id, spec, metric, metric_blob, systems, method, n_samples, seed) -> Future:
        return self.pool.submit(child_paired, job_id, spec, metric_blob, systems, method, n_samples,
                                seed)

    def wait(self, pending: set[Any], timeout: float) -> tuple[set[Any], set[Any]]:
        ready, rest = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
        return set(ready), set(rest)

    def result(self, handle: Future) -> Any:
        return handle.result()

    def cancel(self, job_id: int, handles: Iterable[Future]) -> None:
        # Running tasks see the shared flag at their next cancel check; queued ones never start.
        with _POOL_LOCK:
            flag = _CANCELLED_UP_TO
            if flag is not None:
                flag.value = max(flag.value, job_id)
        for future in handles:
            future.cancel()

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "workers": _POOL_SIZE}
