"""Scores read back from the project's score file at once, before any scoring job.

A job restores stored scores too (:func:`~mtworkbench.scoring.job.run_scoring`), but
only after its inputs were read a slice at a time and a worker thread started: the
corpus table showed "…" for seconds over scores that were on disk all along.
:func:`restore_now` does the same matching in the caller's thread - the metric's
fingerprint over exactly the input a job would read, against the file's entries - and
puts each score found into the cache as current, without its bootstrap interval
(``ci_pending``): the next job draws the interval from the stored statistics, the same
draw as a fresh score's. Nothing is computed here, and an entry whose fingerprint does
not match (other texts, options or metric code) is never taken: those scores are
left to the job, which recomputes them.

It reads every system's texts, so the caller uses it only below :data:`SYNC_LIMIT`
(segments x systems); above that the job's own restore does it in the background.
Metrics that hold a large model (``single_process``) are left to the job too: their
fingerprint names the model file's hash.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mtworkbench.core.project_input import unscored_reason
from mtworkbench.scoring.cache import ScoreCache, ScoreEntry
from mtworkbench.scoring.job import InputReader, ScoringOutcome, make_metrics, needs_references, stored_entry
from mtworkbench.scoring.store import (
    InputDigests,
    ScoreStore,
    store_for,
    unsaved_store,
)

# Segments x systems read on the caller's (the GUI's) thread: the demo's 50 x 2 take about
# 10 ms, 5,000 x 4 (three metrics) 0.2 s on two cores at a load of 9 - inside the first
# paint of the workspace, which took 0.7 s there either way (docs/benchmarks-app-start.md).
SYNC_LIMIT = 20_000


@dataclass
class Restored:
    """What :func:`restore_now` put into the cache: (system, spec) pairs, and how long it took."""

    pairs: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0


def project_store(project: Any, cache: ScoreCache) -> ScoreStore | None:
    """The store a job of this cache would restore from (the file, or the unsaved entries)."""
    return store_for(project) or (unsaved_store(project) if cache.remember_unsaved else None)


def small_enough(project: Any) -> bool:
    """Whether reading every system's input now stays below :data:`SYNC_LIMIT`."""
    return len(project.segments) * len(project.systems) <= SYNC_LIMIT


def restore_now(project: Any, cache: ScoreCache, specs: Sequence[str], systems: Sequence[str],
                with_intervals: bool = True) -> Restored:
    """Make every stored score of ``specs`` x ``systems`` that fits the project's current
    inputs the cache's current entry. ``with_intervals``: the entries wait for their
    interval (the caller's scoring asks for intervals)."""
    started = time.perf_counter()
    done = Restored()
    store = project_store(project, cache)
    if store is None or not store.entries:
        return done
    wanted = [(s, m) for s, m in ((s, m) for m in specs for s in systems)
              if cache.current(s, m) is None and store.holds(s, m)]
    if not wanted:
        return done
    outcome = ScoringOutcome()
    metrics = {spec: metric for spec, metric in
               make_metrics(list(dict.fromkeys(m for _s, m in wanted)), project, outcome).items()
               if not getattr(metric, "single_process", False)}
    reader = InputReader(project, cache)
    for system in dict.fromkeys(s for s, _m in wanted):
        specs_here = [m for s, m in wanted if s == system and m in metrics]
        unreferenced = unscored_reason(project, system)
        specs_here = [m for m in specs_here if not (unreferenced and needs_references(metrics[m]))]
        if not specs_here:
            continue
        data, (_blob, fp, generation) = reader.read_input(system)
        digests = InputDigests(data)
        for spec in specs_here:
            metric = metrics[spec]
            _key, found = stored_entry(store, system, spec, metric, digests)
            if found is None:
                continue
            entry = ScoreEntry(score=found.to_score(metric, system), ci_pending=with_intervals)
            if cache.store(system, spec, fp, entry, generation):
                done.pairs.append((system, spec))
    done.seconds = time.perf_counter() - started
    return done
