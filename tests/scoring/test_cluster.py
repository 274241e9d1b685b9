"""The dask backend: a LocalCluster of 2 workers gives every number of one process
(corpus and segment scores, statistics, bootstrap intervals, paired tests); a worker
killed mid-run costs a retry; Cancel cancels the futures; GPU metrics are routed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from mtworkbench.core.jobs import Cancelled
from mtworkbench.scoring import cluster as scoring_cluster
from mtworkbench.scoring.cache import ScoreCache
from mtworkbench.scoring.job import ScoringRequest, run_scoring
from tests.scoring.cluster_fixtures import local_client, mixed_project

pytestmark = pytest.mark.slow

SPECS = ("bleu", "chrf", "ter", "meteor", "gtm", "nist", "wer", "per", "chrf++")
SYSTEMS = ("sys0", "sys1", "sys2", "sys3")


@pytest.fixture(scope="module")
def client():
    c = local_client(2)
    yield c
    scoring_cluster.shutdown_clusters()  # the job's own client first: it would wait for a closed scheduler
    cluster = c.cluster
    c.close()
    cluster.close()


def _request(**kwargs) -> ScoringRequest:
    return ScoringRequest(SPECS, SYSTEMS, baseline="sys0", ci_samples=40, paired_samples=40, **kwargs)


def _assert_same(one, other) -> None:
    by_key = {(i.system, i.spec): i.entry for i in one.items}
    assert len(other.items) == len(by_key) == len(SPECS) * len(SYSTEMS)
    for item in other.items:
        expected = by_key[(item.system, item.spec)]
        assert item.entry.score.to_json() == expected.score.to_json()  # corpus, segments, signature, extras
        np.testing.assert_array_equal(item.entry.score.stats, expected.score.stats)
        assert item.entry.ci == expected.ci  # the bootstrap interval, bit for bit
    assert set(other.paired) == set(one.paired) == set(SPECS)
    for spec, (_key, result) in other.paired.items():
        assert repr(result) == repr(one.paired[spec][1])


def test_a_local_cluster_gives_every_number_of_one_process(client):
    project = mixed_project()
    one = run_scoring(project, ScoreCache(), _request(jobs=1))
    assert one.backend == {"kind": "thread"}
    on_dask = run_scoring(project, ScoreCache(), _request(scheduler=client.scheduler.address))
    assert on_dask.backend["kind"] == "dask" and on_dask.backend["workers"] == 2
    _assert_same(one, on_dask)


def test_a_worker_killed_mid_run_costs_a_retry_not_the_run(client):
    project = mixed_project(seed=4)
    one = run_scoring(project, ScoreCache(), _request(jobs=1))
    pids = client.run(os.getpid)
    assert len(pids) == 2
    victim = sorted(pids.values())[0]
    killed = []

    def kill_once(_item) -> None:
        if not killed:
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    on_dask = run_scoring(project, ScoreCache(), _request(scheduler=client.scheduler.address), deliver=kill_once)
    assert killed == [victim]
    _assert_same(one, on_dask)
    client.wait_for_workers(2, timeout=60)  # the nanny restarts the killed worker for the next test


def test_cancel_cancels_the_futures(client):
    project = mixed_project(n_segments=60, seed=5)
    delivered = []
    request = ScoringRequest(SPECS, SYSTEMS, ci_samples=0, scheduler=client.scheduler.address)
    with pytest.raises(Cancelled):
        run_scoring(project, ScoreCache(), request, deliver=delivered.append, cancel=lambda: bool(delivered))
    assert 1 <= len(delivered) < len(SPECS) * len(SYSTEMS)
    deadline = time.monotonic() + 20
    left = None
    while time.monotonic() < deadline:
        left = client.run_on_scheduler(
            lambda dask_scheduler: [k for k in dask_scheduler.tasks if str(k).startswith("mtwb-score")])
        if not left:
            break
        time.sleep(0.2)
    assert left == []  # nothing of the cancelled job stays queued or running on the cluster


class _FakeClient:
    def __init__(self, resources: list[dict]) -> None:
        self.resources = resources

    def scheduler_info(self):
        return {"workers": {f"tcp://127.0.0.1:{9000 + k}": {"resources": r} for k, r in enumerate(self.resources)}}


class _GpuMetric:
    wants_gpu = True


class _CpuMetric:
    pass


@pytest.mark.parametrize(("workers", "metric", "expected"), [
    ([{}, {"GPU": 1}], _GpuMetric(), {"GPU": 1}),  # a GPU worker exists: only it
    ([{}, {}], _GpuMetric(), None),  # none: anywhere
    ([{}, {"GPU": 1}], _CpuMetric(), None),  # a lexical metric goes anywhere
])
def test_gpu_metrics_go_to_workers_that_declare_a_gpu(workers, metric, expected):
    executor = scoring_cluster.DaskExecutor(_FakeClient(workers), "tcp://127.0.0.1:1")
    assert executor._resources(metric) == expected


def test_a_gpu_task_runs_only_on_the_worker_that_declares_a_gpu():
    distributed = pytest.importorskip("distributed", reason="the cluster extra is not installed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=40) as cluster:
        with distributed.Client(cluster, set_as_default=False) as c:
            # a second worker as an operator starts one on a GPU machine
            gpu = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", cluster.scheduler_address,
                                    "--nthreads", "1", "--resources", "GPU=1", "--host", "127.0.0.1", "--no-dashboard"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                c.wait_for_workers(2, timeout=60)
                executor = scoring_cluster.DaskExecutor(c, cluster.scheduler_address)
                resources = executor._resources(_GpuMetric())
                assert resources == {"GPU": 1}
                where = [c.submit(lambda: distributed.get_worker().address, pure=False, resources=resources)
                         for _ in range(4)]
                gpu_address = next(a for a, i in c.scheduler_info()["workers"].items() if i["resources"])
                assert {w.result(timeout=60) for w in where} == {gpu_address}
            finally:
                gpu.terminate()
                gpu.wait(timeout=30)


def test_without_dask_the_scheduler_option_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(scoring_cluster.ClusterError, match=r"pip install 'mtworkbench\[cluster\]'"):
        scoring_cluster.client_for("local:2")


@pytest.mark.parametrize("address", ["local:0", "local:x", "ftp://host:1", "tcp://"])
def test_a_bad_scheduler_address_is_refused_with_what_is_expected(address):
    with pytest.raises(scoring_cluster.ClusterError, match="expected"):
        scoring_cluster.parse_scheduler(address)


def test_the_client_wakes_when_a_future_finishes_not_when_its_wait_times_out(client):
    executor = scoring_cluster.DaskExecutor(client, client.scheduler.address)
    future = executor._submit(time.sleep, 0.2, key=f"mtwb-test-sleep-{time.monotonic_ns()}")
    start = time.monotonic()
    ready, rest = executor.wait({future}, 60.0)
    assert ready == {future} and rest == set()
    assert time.monotonic() - start < 30  # woken by the future, not by the 60 s timeout


def test_a_started_cluster_warms_its_workers_before_any_task():
    """start_cluster: each worker imports the scoring code and loads METEOR's WordNet tables
    while the command is still reading its input."""
    pytest.importorskip("distributed", reason="the cluster extra is not installed")

    def warmed() -> bool:
        import sys

        # The warm-up imports on another thread of the worker: asked while that import runs,
        # sys.modules holds the module half made, without its _loaded yet (not warm yet).
        wordnet = sys.modules.get("mtworkbench.metrics.wordnet_data")
        loaded = getattr(wordnet, "_loaded", None)
        return loaded is not None and "mtworkbench.scoring.tasks" in sys.modules

    scoring_cluster.start_cluster("local:1", ["meteor"], "en")
    try:
        c = scoring_cluster.client_for("local:1")
        deadline = time.monotonic() + 90
        while not all(c.run(warmed).values()) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert list(c.run(warmed).values()) == [True]
    finally:
        scoring_cluster.shutdown_clusters()
