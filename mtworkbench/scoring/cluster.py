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
import itertools
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
WAKE_UP = 0.25  # seconds between two Cancel checks while no task finishes


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
_STARTING: dict[str, threading.Thread] = {}
_STARTING_LOCK = threading.Lock()

# A LocalCluster's workers do nothing but score: dask's statistical profiler (a thread sampling
# every worker's stack 100 times a second) and the nanny's memory monitor would take CPU from
# the scoring on a machine with as many cores as workers.
LOCAL_CONFIG = {"distributed.worker.profile.enabled": False, "distributed.admin.system-monitor.interval": "2s",
                "distributed.admin.system-monitor.gil.enabled": False}


def _start_local(distributed: Any, n_workers: int) -> Any:
    import dask

    with dask.config.set(LOCAL_CONFIG):  # worker processes receive the config their nanny saw
        cluster = distributed.LocalCluster(
            n_workers=n_workers, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None, silence_logs=40, memory_limit=0,
            # no dashboard; the scheduler's health page on a free loopback port, not on 8787
            # (taken by any other scheduler on the machine: dask would warn on stderr)
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        )
    return distributed.Client(cluster, set_as_default=False)


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
                client = _start_local(distributed, int(target))
            else:
                client = distributed.Client(str(target), timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"scheduler {address}: cannot connect ({exc})") from None
        _CLIENTS[key] = client
        return client


def start_cluster(address: str, specs: Iterable[str] = (), language: str | None = None) -> None:
    """Start (``local:N``) or reach the cluster in the background, and have each worker import
    the scoring code and load the resources of ``specs`` (METEOR's WordNet tables), while the
    caller reads its input: on a machine with a core per worker, that start-up overlaps the
    reading instead of following it. ``client_for`` then waits for it; a failure here is
    reported there, when the job asks for the cluster."""
    with _STARTING_LOCK:
        if address in _STARTING and _STARTING[address].is_alive():
            return

        def start() -> None:
            try:
                client = client_for(address)
                for worker in client.scheduler_info().get("workers", {}):
                    client.submit(warm_worker, tuple(specs), language, workers=[worker], pure=False,
                                  key=f"mtwb-warm-{uuid.uuid4().hex}")
            except Exception:  # noqa: BLE001 - the job's own call to client_for says what went wrong
                pass

        thread = _STARTING[address] = threading.Thread(target=start, name="mtwb-cluster-start", daemon=True)
        thread.start()


def warm_worker(specs: tuple[str, ...], language: str | None) -> None:
    """On a worker: import what scoring tasks import and load the process-wide tables of
    ``specs`` (each metric's ``before_segments``), once per process; a neural metric's
    model is left to the task (it loads only where the task runs)."""
    import mtworkbench.analysis.significance  # noqa: F401 - the bootstrap every task may run
    from mtworkbench.metrics.registry import create_metric
    from mtworkbench.scoring import tasks  # noqa: F401

    for spec in specs:
        try:
            metric = create_metric(spec, language)
            if not getattr(metric, "wants_gpu", False) and not getattr(metric, "single_process", False):
                metric.before_segments()
        except Exception:  # noqa: BLE001 - a spec that fails fails again in its task, with its message
            continue


def shutdown_clusters() -> None:
    """Close every client (and the LocalClusters this process started)."""
    for thread in list(_STARTING.values()):
        thread.join()
    _STARTING.clear()
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
        self._sides: dict[Any, tuple[str, list[str]]] = {}  # a system's input -> (side digest, hypotheses)
        self._side_objects: list[tuple[Any, str]] = []  # each reference side sent, with its digest
        self._resubmit: dict[Any, tuple[Any, tuple, dict]] = {}  # future -> how to submit it again
        self._cancelling = False
        # keys are global on a scheduler: two clients' jobs must never share one
        self._token = uuid.uuid4().hex
        self._count = itertools.count()
        # set by each finished future (dask calls back from its own thread): the job sleeps
        # on it instead of polling the futures, so the client takes no CPU from the workers
        self._finished = threading.Event()
        self._keep_alive: list[Any] = []

    def _submit(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        future = self.client.submit(fn, *args, pure=False, retries=RETRIES, **kwargs)
        self._resubmit[future] = (fn, args, kwargs)
        future.add_done_callback(lambda _future: self._finished.set())
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

    def _split(self, task: ScoreTask) -> tuple[str, Any, list[str]]:
        """The reference side of a system's input (sent once) and its hypotheses (sent per task).

        Systems scored against the same references share one side: it is pickled once per
        job (compared by value, not pickled again to be compared), never once per system."""
        source = id(task.data) if task.data is not None else task.data_blob
        found = self._sides.get(source)
        if found is None:
            if task.data is not None:
                data = task.data
            else:
                data = pickle.loads(task.data_blob)  # noqa: S301 - pickled by pack_input in this process
            # the input checks its lengths: one shared empty string per segment pickles to a few bytes
            side = replace(data, hypotheses=[""] * data.n_segments)
            digest = next((d for known, d in self._side_objects if known == side), None)
            if digest is None:
                digest, _future = self._scatter(pickle.dumps(side, protocol=pickle.HIGHEST_PROTOCOL))
                self._side_objects.append((side, digest))
            found = self._sides[source] = (digest, list(data.hypotheses))
            if task.data is not None:  # kept, so that its id is not reused while this executor lives
                self._keep_alive.append(task.data)
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
        side_digest, side_future, hypotheses = self._split(task)
        return self._submit(
            dask_score, metric_digest, metric_future, side_digest, side_future, hypotheses,
            task.ci_samples, task.seed, task.system, resources=self._resources(task.metric),
            key=f"mtwb-score-{self._token}-{task.job_id}-{next(self._count)}",
        )

    def submit_paired(self, job_id, spec, metric, metric_blob, systems, method, n_samples, seed) -> Any:
        digest, future = self._scatter(metric_blob)
        return self._submit(dask_paired, digest, future, systems, method, n_samples, seed,
                            resources=self._resources(metric), key=f"mtwb-paired-{self._token}-{job_id}-{spec}")

    def wait(self, pending: set[Any], timeout: float) -> tuple[set[Any], set[Any]]:
        """The futures of ``pending`` that are done, sleeping until one is (or ``timeout``
        passes: the job checks Cancel between two waits)."""
        self._finished.clear()  # before looking: a future finishing after the look sets it again
        ready = {f for f in pending if f.done()}
        if not ready:
            self._finished.wait(max(timeout, WAKE_UP))
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
