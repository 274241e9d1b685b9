"""Scoring on a dask.distributed cluster: the executor behind ``--scheduler``.

``tcp://host:8786`` connects to a running scheduler; ``local:N`` starts a
LocalCluster of N worker processes (one thread each: the metrics are pure Python
and hold the GIL) on 127.0.0.1. The client is kept for the process's lifetime
and reused by later jobs (:func:`shutdown_clusters` closes it).

What travels: each task carries one system's hypotheses and the digests of its
metric and reference side; the pickled metric and the reference side (sources,
references, entity lists: everything but the hypotheses) go to the cluster once
per job, as tasks whose result each worker fetches once from a peer (a task, not
``client.scatter``: the scheduler recomputes a task's result that a dead worker
held, while scattered data would be lost), and a worker unpickles each once per
thread, keyed by its content digest, so a metric's reference cache is filled
once per worker and reused for every system it scores. Results are the same
``ScoreEntry`` a local process returns (statistics, segment and corpus scores,
the bootstrap interval), so the numbers do not depend on the backend.

A worker lost mid-run costs a retry of its tasks (``retries`` on submit, and the
scheduler reassigns what it held); a metric whose class sets ``wants_gpu`` goes
only to workers that declare a ``GPU`` resource, when any do.
"""

from __future__ import annotations

import hashlib
import pickle
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import numpy as np

from mtworkbench.core.errors import DataError
from mtworkbench.metrics.base import Metric
from mtworkbench.scoring.executor import ScoreTask

INSTALL_HINT = "pip install 'mtworkbench[cluster]'"
RETRIES = 3  # per task: a worker lost mid-run costs its tasks a retry, not the run
CONNECT_TIMEOUT = 30  # seconds to reach a scheduler
GPU_RESOURCE = "GPU"


class ClusterError(DataError):
    """No cluster to score on (dask missing, a bad address, a scheduler out of reach)."""


def import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError(f"--scheduler needs dask.distributed, which is not installed: {INSTALL_HINT}") from None
    return distributed


def parse_scheduler(address: str) -> tuple[str, int | str]:
    """("local", N) for ``local:N``, else ("remote", address); a bad one raises ClusterError."""
    address = address.strip()
    if address.startswith("local"):
        count = address[len("local"):].lstrip(":") or "2"
        if not count.isdigit() or not 1 <= int(count) <= 256:
            raise ClusterError(f"scheduler {address!r}: expected local:N with N worker processes (1-256)")
        return "local", int(count)
    if "://" not in address:
        address = "tcp://" + address
    scheme, _, rest = address.partition("://")
    if scheme not in ("tcp", "tls", "inproc", "ucx", "ws", "wss") or not rest:
        raise ClusterError(f"scheduler {address!r}: expected tcp://HOST:PORT or local:N")
    return "remote", address


_CLIENTS: dict[str, Any] = {}
_CLIENTS_LOCK = threading.Lock()


def client_for(address: str) -> Any:
    """The dask client of ``address`` (connected or started on first use, then reused)."""
    distributed = import_distributed()
    kind, target = parse_scheduler(address)
    key = f"local:{target}" if kind == "local" else str(target)
    with _CLIENTS_LOCK:
        client = _CLIENTS.get(key)
        if client is not None and client.status == "running":
            return client
        try:
            if kind == "local":
                cluster = distributed.LocalCluster(
                    n_workers=int(target), threads_per_worker=1, processes=True, host="127.0.0.1",
                    dashboard_address=None, silence_logs=40,
                )
                client = distributed.Client(cluster, set_as_default=False)
            else:
                client = distributed.Client(str(target), timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"scheduler {address}: cannot connect ({exc})") from None
        _CLIENTS[key] = client
        return client


def shutdown_clusters() -> None:
    """Close every client (and the LocalClusters this process started)."""
    with _CLIENTS_LOCK:
        clients = list(_CLIENTS.values())
        _CLIENTS.clear()
    for client in clients:
        cluster = client.cluster
        try:
            client.close()
            if cluster is not None:
                cluster.close()
        except Exception:  # a cluster already gone has nothing left to close
            pass


def cluster_executor(address: str) -> DaskExecutor:
    return DaskExecutor(client_for(address), address)


def _digest(blob: bytes) -> str:
    return hashlib.blake2b(blob, digest_size=16).hexdigest()


# --- on the workers ----------------------------------------------------------------------
# Unpickled metrics and reference sides, by (content digest, thread): a worker started with
# several threads gives each its own metric, whose reference cache is not shared across threads.
_WORKER_OBJECTS: OrderedDict[tuple[str, int], Any] = OrderedDict()
_WORKER_LOCK = threading.Lock()
_WORKER_KEEP = 16


def _worker_object(digest: str, blob: bytes) -> Any:
    key = (digest, threading.get_ident())
    with _WORKER_LOCK:
        found = _WORKER_OBJECTS.get(key)
        if found is not None:
            _WORKER_OBJECTS.move_to_end(key)
            return found
    # the job's client pickled it; a dask cluster runs its clients' pickled code anyway (trusted peers only)
    value = pickle.loads(blob)  # noqa: S301 - bytes the scoring client pickled for its own workers
    with _WORKER_LOCK:
        _WORKER_OBJECTS[key] = value
        while len(_WORKER_OBJECTS) > _WORKER_KEEP:
            _WORKER_OBJECTS.popitem(last=False)
    return value


def _blob(blob: bytes) -> bytes:
    return blob


def dask_score(metric_digest: str, metric_blob: bytes, side_digest: str, side_blob: bytes,
               hypotheses: list[str], ci_samples: int, seed: int, system: str) -> Any:
    """One task on a worker: the same ``score_one`` a local process runs."""
    from mtworkbench.scoring.tasks import score_one

    metric = _worker_object(metric_digest, metric_blob)
    data = replace(_worker_object(side_digest, side_blob), hypotheses=hypotheses)
    return score_one(metric, data, ci_samples, seed, system=system)


def dask_paired(metric_digest: str, metric_blob: bytes, systems: list[tuple[str, np.ndarray]], method: str,
                n_samples: int, seed: int) -> Any:
    from mtworkbench.scoring.tasks import paired_one

    return paired_one(_worker_object(metric_digest, metric_blob), systems, method, n_samples, seed)


# --- on the client -----------------------------------------------------------------------
class DaskExecutor:
    """Tasks on a dask.distributed cluster (see the module's description)."""

    kind = "dask"

    def __init__(self, client: Any, address: str) -> None:
        self.client, self.address = client, address
        self._scattered: dict[str, Any] = {}  # content digest -> the future of its scattered blob
        self._sides: dict[bytes, tuple[str, list[str]]] = {}  # a system's input -> (side digest, hypotheses)
        self._resubmit: dict[Any, tuple[Any, tuple, dict]] = {}  # future -> how to submit it again
        self._cancelling = False
        # keys are global on a scheduler: two clients' jobs must never share one
        self._token = uuid.uuid4().hex

    def _submit(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        future = self.client.submit(fn, *args, pure=False, retries=RETRIES, **kwargs)
        self._resubmit[future] = (fn, args, kwargs)
        return future

    def _scatter(self, blob: bytes) -> tuple[str, Any]:
        """The blob as a task of its own: it reaches the scheduler once, and each worker that
        needs it fetches it once from a peer. Unlike data scattered with ``client.scatter``,
        a task's result is recomputed when the worker that held it dies, so losing a worker
        never loses the references (and with them the run)."""
        digest = _digest(blob)
        future = self._scattered.get(digest)
        if future is None:
            future = self._scattered[digest] = self.client.submit(
                _blob, blob, key=f"mtwb-data-{self._token}-{digest}", pure=False, retries=RETRIES)
        return digest, future

    def _split(self, data_blob: bytes) -> tuple[str, Any, list[str]]:
        """The reference side of a system's input (scattered) and its hypotheses (sent per task)."""
        found = self._sides.get(data_blob)
        if found is None:
            data = pickle.loads(data_blob)  # noqa: S301 - pickled by pack_input in this process
            # the input checks its lengths: one shared empty string per segment pickles to a few bytes
            side = pickle.dumps(replace(data, hypotheses=[""] * data.n_segments),
                                protocol=pickle.HIGHEST_PROTOCOL)
            digest, _future = self._scatter(side)
            found = self._sides[data_blob] = (digest, list(data.hypotheses))
        digest, hypotheses = found
        return digest, self._scattered[digest], hypotheses

    def _resources(self, metric: Metric) -> dict[str, float] | None:
        if not getattr(metric, "wants_gpu", False):
            return None
        workers = self.client.scheduler_info().get("workers", {})
        if any(info.get("resources", {}).get(GPU_RESOURCE) for info in workers.values()):
            return {GPU_RESOURCE: 1}
        return None  # no worker declares a GPU: the metric runs where it can

    def submit_score(self, task: ScoreTask) -> Any:
        metric_digest, metric_future = self._scatter(task.metric_blob)
        side_digest, side_future, hypotheses = self._split(task.data_blob)
        return self._submit(
            dask_score, metric_digest, metric_future, side_digest, side_future, hypotheses,
            task.ci_samples, task.seed, task.system, resources=self._resources(task.metric),
            key=f"mtwb-score-{self._token}-{task.job_id}-{task.spec}-{task.system}",
        )

    def submit_paired(self, job_id, spec, metric, metric_blob, systems, method, n_samples, seed) -> Any:
        digest, future = self._scatter(metric_blob)
        return self._submit(dask_paired, digest, future, systems, method, n_samples, seed,
                            resources=self._resources(metric), key=f"mtwb-paired-{self._token}-{job_id}-{spec}")

    def wait(self, pending: set[Any], timeout: float) -> tuple[set[Any], set[Any]]:
        ready = {f for f in pending if f.done()}
        if not ready:
            time.sleep(timeout)
            ready = {f for f in pending if f.done()}
        return ready, pending - ready

    def result(self, handle: Any) -> Any:
        """The task's result; a task the cluster gave up on (its worker died more often than
        the scheduler allows, or its result was lost with a worker) is submitted again."""
        from concurrent.futures import CancelledError

        from distributed.scheduler import KilledWorker

        for _attempt in range(RETRIES):
            try:
                return handle.result()
            except (CancelledError, KilledWorker):
                if self._cancelling or handle not in self._resubmit:
                    raise
                fn, args, kwargs = self._resubmit[handle]
                kwargs = {**kwargs, "key": f"{kwargs['key']}-again-{time.monotonic_ns()}"}
                handle = self._submit(fn, *args, **kwargs)
        return handle.result()

    def cancel(self, job_id: int, handles: Iterable[Any]) -> None:
        self._cancelling = True
        futures = list(handles)
        if futures:
            try:
                self.client.cancel(futures)
            except Exception:  # a client already closed has nothing running
                pass

    def describe(self) -> dict[str, Any]:
        workers = self.client.scheduler_info().get("workers", {})
        return {"kind": self.kind, "scheduler": self.address, "workers": len(workers)}
