"""Running metrics over a project: the one scoring path, plain Python, no Qt.

``run_scoring`` scores every (system, metric) pair that the project's ``ScoreCache`` does not
already hold, adds bootstrap 95% intervals and paired significance tests against a baseline,
and reports ``progress(done, total)`` and honours ``cancel()`` like every core job. The GUI runs it on a worker
thread (``gui/worker.py``); the command line calls it directly (through
:func:`~mtworkbench.scoring.project_scores.score_project`).

Each spec becomes one metric instance (:func:`make_metric`: created, then
bound to the project), reused for every system, so statistics a metric keeps
of the references (NIST's information weights, for one) are computed once.

Large jobs go to a pool of worker *processes*: the metrics are pure Python, and
in a thread they would hold the GIL (and run the garbage collector over their
own objects) in the GUI's process, stalling its event loop for tens of
milliseconds at a time. In a process they cannot. Small jobs stay in the
thread, where they finish before a process would have started. This module
must stay free of Qt: the worker processes import it.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from mtworkbench.core.jobs import (
    CancelCheck,
    Cancelled,
    ProgressCallback,
    check_cancel,
    report,
)
from mtworkbench.core.model import Project
from mtworkbench.core.project_input import scoring_input, scoring_reference_ids, unscored_reason
from mtworkbench.core.scoring_input import MetricError
from mtworkbench.core.wording import plural
from mtworkbench.metrics.base import Metric
from mtworkbench.metrics.external import ExternalMetric, external_metric, is_external
from mtworkbench.metrics.registry import create_metric
from mtworkbench.scoring.cache import ScoreCache, ScoreEntry, pack_input
from mtworkbench.scoring.executor import ScoreTask, ScoringExecutor, wait_for
from mtworkbench.scoring.process_executor import shutdown_pool
from mtworkbench.scoring.store import (
    InputDigests,
    Key,
    ScoreStore,
    StoredScore,
    metric_fingerprint,
    notice,
    store_for,
    unsaved_store,
)
from mtworkbench.scoring.tasks import next_job_id, paired_one, score_one

# Jobs with at least this many segment evaluations (segments x tasks) use worker processes.
PROCESS_THRESHOLD = 5_000
DEFAULT_CI_SAMPLES = 1000


@dataclass(frozen=True)
class ScoringRequest:
    specs: tuple[str, ...]
    systems: tuple[str, ...]
    baseline: str | None = None
    ci_samples: int = DEFAULT_CI_SAMPLES  # 0: no intervals
    paired_method: str = "paired-bs"
    paired_samples: int = 1000
    seed: int = 12345
    # None: decide by size; True/False force worker processes on or off.
    use_processes: bool | None = None
    # Worker processes at most (None: all cores, up to 4 for the app); 1 scores in this process.
    jobs: int | None = None
    # a dask.distributed scheduler (tcp://host:8786, local:N): every task goes there (scoring/cluster.py)
    scheduler: str | None = None


@dataclass
class ScoredItem:
    system: str
    spec: str
    fingerprint: str
    generation: tuple[int, int]
    entry: ScoreEntry


@dataclass
class ScoringOutcome:
    """What a job hands back to the GUI thread, which stores it in the cache."""

    items: list[ScoredItem] = field(default_factory=list)
    # spec -> (cache key, PairedTestResult)
    paired: dict[str, tuple[tuple, Any]] = field(default_factory=dict)
    # spec -> message, for metrics that could not score this project
    errors: dict[str, str] = field(default_factory=dict)
    # spec -> the error itself (the command line tells spec errors from data errors by type)
    failures: dict[str, MetricError] = field(default_factory=dict)
    # spec -> the metric instance that scored every system (bound to the project)
    metrics: dict[str, Metric] = field(default_factory=dict)
    used_processes: bool = False
    # where the tasks ran: {"kind": "thread" | "processes" | "dask", ...} (never part of a score)
    backend: dict[str, Any] = field(default_factory=lambda: {"kind": "thread"})
    # (system, spec) pairs read back from the project's score file instead of computed
    restored: list[tuple[str, str]] = field(default_factory=list)
    # (system, spec) -> why the pair has no score (a system that is the only reference)
    unscored: dict[tuple[str, str], str] = field(default_factory=dict)

    def fail(self, spec: str, error: MetricError) -> None:
        """Record the first error of ``spec``; its other systems are skipped."""
        self.errors.setdefault(spec, str(error))
        self.failures.setdefault(spec, error)


def make_metric(spec: str, project: Any) -> Metric:
    """The metric of ``spec``, bound to the project (e.g. to its trained learned model),
    with the language defaults of the project's target language (tokenizer, Meteor preset)."""
    if is_external(spec, project):  # ext:NAME: scores imported into the project, bound at creation
        return external_metric(spec, project)
    metric = create_metric(spec, getattr(project, "target_language", None) or None)
    metric.bind(project)
    return metric


def needs_references(metric: Metric | None) -> bool:
    """Whether the metric compares outputs with references (imported scores do not)."""
    return metric is not None and not isinstance(metric, ExternalMetric)


def make_metrics(specs: Sequence[str], project: Any, outcome: ScoringOutcome) -> dict[str, Metric]:
    """One metric instance per spec; a spec that cannot be made is recorded as failed."""
    metrics: dict[str, Metric] = {}
    for spec in specs:
        try:
            metrics[spec] = make_metric(spec, project)
        except MetricError as exc:
            outcome.fail(spec, exc)
    return metrics


def _wants_processes(request: ScoringRequest, n_segments: int, n_tasks: int) -> bool:
    if request.jobs == 1 or n_tasks < 2 and request.use_processes is None:
        return False
    if request.use_processes is not None:
        return request.use_processes
    if os.environ.get("MTWB_SCORING_PROCESSES", "1") == "0":
        return False
    return n_segments * n_tasks >= PROCESS_THRESHOLD


# --- the job -----------------------------------------------------------------------------
PreparedInput = tuple[bytes, str, tuple[int, int]]  # pickled input, fingerprint, cache generation


class InputReader:
    """Reads each system's ``ScoringInput`` and packs it for a job.

    Only the hypotheses depend on the system (``scoring_input`` builds the
    references, sources and entity lists from the project alone), so the first
    input's reference side is shared by the rest: reading ten systems then
    allocates ten lists instead of ten copies of every per-segment entity list,
    which is what triggered long garbage collections on large projects.
    """

    def __init__(self, project: Project, cache: ScoreCache) -> None:
        self.project, self.cache = project, cache
        # one input per reference set: a system that is a reference is scored without it
        self._bases: dict[tuple[str, ...], Any] = {}

    def read(self, system: str) -> PreparedInput:
        return self.read_input(system)[1]

    def read_input(self, system: str) -> tuple[Any, PreparedInput]:
        """The system's ``ScoringInput`` and its packed form."""
        generation = self.cache.generation(system)
        refs = tuple(scoring_reference_ids(self.project, system))
        base = self._bases.get(refs)
        if base is None:
            data = scoring_input(self.project, system)
            self._bases[refs] = data
        else:
            texts = self.project.system(system).texts
            data = replace(base, hypotheses=[texts[sid] for sid in self.project.segment_ids])
        blob, fp = pack_input(data)
        return data, (blob, fp, generation)


@dataclass
class _Job:
    """What the steps of one ``run_scoring`` call share: the request, the inputs read
    for it, the outcome being filled, and how to report, cancel and hand over results."""

    request: ScoringRequest
    inputs: dict[str, PreparedInput]
    outcome: ScoringOutcome
    cache: ScoreCache
    progress: ProgressCallback | None
    cancel: CancelCheck | None
    deliver: Callable[[ScoredItem], None] | None
    total: int = 0  # scoring tasks plus one paired test per metric, once known
    executor: ScoringExecutor | None = None  # worker processes or a cluster; None: this thread
    finished: list[ScoredItem] = field(default_factory=list)  # scored as the job goes: a Ctrl+C keeps them

    def hand_over(self, item: ScoredItem) -> None:
        if self.deliver is not None:
            self.deliver(item)


def run_scoring(
    project: Project,
    cache: ScoreCache,
    request: ScoringRequest,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
    deliver: Callable[[ScoredItem], None] | None = None,
    prepared: dict[str, PreparedInput] | None = None,
) -> ScoringOutcome:
    """Score what the cache lacks. ``deliver`` receives each result as it is ready.

    ``prepared`` holds inputs already read from the project (the GUI reads them
    on its own thread, a slice at a time: a worker thread doing that Python work
    would contend for the GIL with every paint). Missing ones are read here.
    Results computed from inputs that changed meanwhile are stored by
    fingerprint but never become current (the cache generation moved on).
    """
    outcome = ScoringOutcome()
    outcome.metrics = make_metrics(request.specs, project, outcome)
    inputs: dict[str, PreparedInput] = dict(prepared or {})
    reader = InputReader(project, cache)
    for system in request.systems:
        if system not in inputs:
            check_cancel(cancel)
            inputs[system] = reader.read(system)

    todo: list[tuple[str, str]] = []
    unreferenced = {s: why for s in request.systems if (why := unscored_reason(project, s))}
    for spec in request.specs:
        for system in request.systems:
            if system in unreferenced and needs_references(outcome.metrics.get(spec)):
                outcome.unscored[(system, spec)] = unreferenced[system]
                continue
            _blob, fp, generation = inputs[system]
            hit = cache.lookup(system, spec, fp)
            if hit is not None and hit.ci_pending and request.ci_samples > 0 and spec in outcome.metrics:
                hit = _with_interval(outcome.metrics[spec], hit, request)  # read back before any job: its interval now
            if hit is not None:
                item = ScoredItem(system, spec, fp, generation, hit)
                outcome.items.append(item)
                if deliver is not None:
                    deliver(item)
            elif spec in outcome.metrics:
                todo.append((system, spec))

    # the project's score file; without one, entries in memory that serve the same way
    job = _Job(request, inputs, outcome, cache, progress, cancel, deliver)
    store = store_for(project) or (unsaved_store(project) if cache.remember_unsaved else None)
    stored_keys: dict[tuple[str, str], Key] = {}
    if store is not None and todo:
        todo = _restore_from_store(job, store, todo, stored_keys)

    n_segments = len(project.segments)
    # scoring tasks, then one paired test per metric where there is a baseline to test against
    paired = bool(request.baseline and request.baseline in request.systems and len(request.systems) > 1)
    job.total = len(todo) + (len(request.specs) if paired else 0)
    # a large model (neural metrics) is scored here, loaded once for every system; on a cluster, on its GPU workers
    here = [t for t in todo if getattr(outcome.metrics.get(t[1]), "single_process", False)
            and not (request.scheduler and getattr(outcome.metrics.get(t[1]), "wants_gpu", False))]
    pooled = [t for t in todo if t not in here]
    use_processes = bool(pooled) and _wants_processes(request, n_segments, len(pooled))
    if todo:  # the size of the job is known before its first task ends (a bar shows 0%, not nothing)
        report(progress, 0, 1000 * job.total)
    results: list[ScoredItem] = []
    try:
        if request.scheduler:
            from mtworkbench.scoring.cluster import cluster_executor
            # A cluster that cannot be reached is an error, not a quiet fall-back to this machine.
            job.executor = cluster_executor(request.scheduler)
            results = _score_with(job, todo)
        elif use_processes:
            from mtworkbench.scoring.process_executor import ProcessExecutor
            try:
                job.executor = ProcessExecutor(min(request.jobs, len(pooled)) if request.jobs else None)
                results = _score_with(job, pooled)
                outcome.used_processes = True
            except (BrokenProcessPool, OSError, pickle.PicklingError):
                shutdown_pool()
                job.executor = None
                job.finished.clear()
        if job.executor is None:
            results = _score_in_thread(job, pooled)
        if here and not request.scheduler:  # on a cluster they went to its (GPU) workers
            _score_in_thread(job, here, len(pooled))
            results = list(job.finished)
        if job.executor is not None:
            outcome.backend = job.executor.describe()
    except KeyboardInterrupt as exc:  # Ctrl+C: what finished is worth keeping; say how much was
        _keep(store, job.finished, stored_keys)
        asked = len(request.specs) * len(request.systems)
        in_file = len(outcome.restored) + len(job.finished)
        raise ScoringInterrupted(
            f"{in_file} of {asked} scores kept in the score file {store.path}; nothing else written"
            if store is not None and not store.in_memory and in_file else f"0 of {asked} scores kept; nothing written"
        ) from exc
    outcome.items.extend(results)
    _keep(store, results, stored_keys)

    _paired_tests(job, len(todo))
    done = 1000 * max(job.total, 1)  # thousandths of a task, as every report above; never 0 of 0
    report(progress, done, done)
    return outcome


class ScoringInterrupted(KeyboardInterrupt):
    """Ctrl+C during scoring, after the finished scores were saved; ``kept`` says what was."""

    def __init__(self, kept: str) -> None:
        super().__init__(kept)
        self.kept = kept


def _keep(store: ScoreStore | None, results: list[ScoredItem], stored_keys: dict[tuple[str, str], Key]) -> None:
    if store is None or not results:
        return
    for item in results:
        key = stored_keys.get((item.system, item.spec))
        if key is not None:
            store.put(key, item.entry.score)
    store.save()


def _with_interval(metric: Metric, entry: ScoreEntry, request: ScoringRequest) -> ScoreEntry:
    """``entry`` with its bootstrap interval, drawn from its statistics as a fresh score's is
    (the same samples and seed, so the same interval)."""
    from mtworkbench.analysis.significance import bootstrap_ci

    stats = entry.score.stats
    ci = bootstrap_ci(metric, stats, n_samples=request.ci_samples, seed=request.seed) if len(stats) > 0 else None
    return ScoreEntry(score=entry.score, ci=ci)


def stored_entry(store: ScoreStore, system: str, spec: str, metric: Any,
                 digests: InputDigests) -> tuple[Key, StoredScore | None]:
    """The key a result of ``metric`` on these inputs is filed under in ``store``, and the entry
    there if it fits (the same inputs, options and metric code, and as many segments)."""
    key = (system, spec, metric_fingerprint(metric, digests))
    return key, store.get(key, metric, n_segments=len(digests.data.hypotheses))


def _restore_from_store(job: _Job, store: ScoreStore, todo: list[tuple[str, str]],
                        keys: dict[tuple[str, str], Key]) -> list[tuple[str, str]]:
    """Take what the project's score file holds for ``todo``; return the rest.

    ``keys`` receives each remaining pair's store key, to file its result under.
    Every score found is handed over at once; the bootstrap intervals (seconds on a
    large project) follow, each handed over again with its interval.
    """
    request, outcome = job.request, job.outcome
    digests: dict[str, InputDigests] = {}
    rest: list[tuple[str, str]] = []
    stale: list[tuple[str, str]] = []
    found_items: list[ScoredItem] = []
    for system, spec in todo:
        metric = outcome.metrics[spec]
        blob, fp, generation = job.inputs[system]
        if system not in digests:
            digests[system] = InputDigests(pickle.loads(blob))  # noqa: S301 - pickled by pack_input here
        # An entry must fit this project's segments too (a file can be edited by hand).
        key, found = stored_entry(store, system, spec, metric, digests[system])
        if found is None:
            keys[(system, spec)] = key
            rest.append((system, spec))
            if store.holds(system, spec):
                stale.append((system, spec))
            continue
        wants_ci = request.ci_samples > 0
        item = ScoredItem(system, spec, fp, generation,
                          ScoreEntry(score=found.to_score(metric, system), ci_pending=wants_ci))
        found_items.append(item)
        outcome.restored.append((system, spec))
        job.hand_over(item)
    for item in found_items:
        if item.entry.ci_pending:
            check_cancel(job.cancel)
            item = replace(item, entry=_with_interval(outcome.metrics[item.spec], item.entry, request))
            job.hand_over(item)
        outcome.items.append(item)
    if stale and not store.in_memory:
        system, spec = stale[0]
        notice(f"{store.path}: {plural(len(stale), 'stored score')} {'is' if len(stale) == 1 else 'are'} stale - their inputs or the metric changed "
               f"since (first: {spec} of {system}); recomputed")
    return rest


def _score_in_thread(job: _Job, todo: list[tuple[str, str]], first: int = 0) -> list[ScoredItem]:
    """``todo`` scored in this process; ``first``: tasks already done before these (for progress)."""
    request, outcome, progress, cancel, total = job.request, job.outcome, job.progress, job.cancel, job.total
    done = job.finished
    for k, (system, spec) in enumerate(todo, first):
        check_cancel(cancel)
        if spec in outcome.errors:
            continue
        blob, fp, generation = job.inputs[system]

        def sub_progress(d: int, t: int, k: int = k) -> None:
            # Whole tasks, plus the running task's share, in thousandths of the job.
            report(progress, int(1000 * (k + (d / t if t else 0))), 1000 * total)

        try:
            entry = score_one(outcome.metrics[spec], blob, request.ci_samples, request.seed, sub_progress, cancel,
                              system=system)
        except MetricError as exc:
            outcome.fail(spec, exc)
            continue
        item = ScoredItem(system, spec, fp, generation, entry)
        done.append(item)
        job.hand_over(item)
        report(progress, 1000 * (k + 1), 1000 * total)
    return done


def _score_with(job: _Job, todo: list[tuple[str, str]]) -> list[ScoredItem]:
    """The tasks on the job's executor (worker processes or a cluster), results as they finish."""
    request, outcome, cancel, executor = job.request, job.outcome, job.cancel, job.executor
    assert executor is not None
    job_id = next_job_id()
    # Each metric is pickled once, bound as it is; every worker unpickles it once per job.
    metric_blobs = {spec: pickle.dumps(metric) for spec, metric in outcome.metrics.items()}
    handles: dict[Any, tuple[str, str]] = {}
    for system, spec in todo:
        task = ScoreTask(job_id, spec, outcome.metrics[spec], metric_blobs[spec], job.inputs[system][0],
                         request.ci_samples, request.seed, system)
        handles[executor.submit_score(task)] = (system, spec)
    pending = set(handles)
    finished = 0
    try:
        while pending:
            if cancel is not None and cancel():
                raise Cancelled()
            ready, pending = executor.wait(pending, 0.05)
            for handle in ready:
                system, spec = handles[handle]
                finished += 1
                try:
                    entry = executor.result(handle)
                except MetricError as exc:
                    outcome.fail(spec, exc)
                    continue
                item = ScoredItem(system, spec, job.inputs[system][1], job.inputs[system][2], entry)
                job.finished.append(item)
                job.hand_over(item)
                report(job.progress, 1000 * finished, 1000 * job.total)
    except BaseException:  # Cancel, Ctrl+C or a failure: nothing queued keeps running
        executor.cancel(job_id, pending)
        raise
    return job.finished


def _paired_tests(job: _Job, done_tasks: int) -> None:
    request, outcome, cancel = job.request, job.outcome, job.cancel
    baseline = request.baseline
    if not baseline or baseline not in request.systems or len(request.systems) < 2:
        return
    others = [s for s in request.systems if s != baseline]
    by_key = {(item.system, item.spec): item for item in outcome.items}
    for k, spec in enumerate(request.specs):
        check_cancel(cancel)
        report(job.progress, 1000 * (done_tasks + k), 1000 * job.total)
        # a system left unscored (the only reference) has no test; the others still do
        order = [baseline, *(s for s in others if (s, spec) not in outcome.unscored)]
        if spec in outcome.errors or len(order) < 2 or any((s, spec) not in by_key for s in order):
            continue
        fingerprints = [(s, job.inputs[s][1]) for s in order]
        key = job.cache.paired_key(spec, request.paired_method, request.paired_samples, baseline, fingerprints)
        result = job.cache.lookup_paired(key)
        if result is None:
            systems = [(s, by_key[(s, spec)].entry.score.stats) for s in order]
            args = (systems, request.paired_method, request.paired_samples, request.seed)
            metric = outcome.metrics[spec]
            try:
                if job.executor is not None:
                    job_id = next_job_id()
                    handle = job.executor.submit_paired(job_id, spec, metric, pickle.dumps(metric), *args)
                    result = wait_for(job.executor, job_id, handle, cancel)
                else:
                    result = paired_one(metric, *args, cancel=cancel)
            except MetricError as exc:
                outcome.fail(spec, exc)
                continue
        outcome.paired[spec] = (key, result)


def segment_matrix(cache: ScoreCache, systems: Sequence[str], spec: str, n_segments: int) -> np.ndarray:
    """Current segment scores of ``spec``, shape (n_systems, n_segments); NaN where missing."""
    out = np.full((len(systems), n_segments), np.nan)
    for row, system in enumerate(systems):
        entry = cache.current(system, spec)
        if entry is not None and len(entry.score.segments) == n_segments:
            out[row] = np.asarray(entry.score.segments, dtype=float)
    return out
