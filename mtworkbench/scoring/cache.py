"""Metric results kept in memory per project, so scoring is paid for once.

An entry is keyed by (system id, metric spec, input fingerprint): the
fingerprint is a hash of exactly what the metric saw (the pickled
``ScoringInput``), so a stale hit is impossible even if an event was missed,
and undoing an edit finds the old result again.

Beside that content-addressed store, the cache tracks which entry is *current*
for each (system, spec): the project's change events drop current entries whose
inputs may have changed, so a view can show what is valid without hashing
anything. A per-system generation counter tells a background job whether the
inputs it read are still the current ones when its results come back.

No Qt here: the cache listens to the project's plain-Python events.
"""

from __future__ import annotations

import hashlib
import pickle
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from mtworkbench.core.events import AFFECTS_SCORES, SYSTEM_SCOPED
from mtworkbench.core.model import Project, ProjectEvent
from mtworkbench.core.scoring_input import MetricScore, ScoringInput


def pack_input(data: ScoringInput) -> tuple[bytes, str]:
    """The pickled input (what a worker process receives) and its fingerprint."""
    blob = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
    return blob, hashlib.blake2b(blob, digest_size=16).hexdigest()


def fingerprint(data: ScoringInput) -> str:
    return pack_input(data)[1]


@dataclass
class ScoreEntry:
    """One metric's result on one system, with its bootstrap interval when computed."""

    score: MetricScore
    ci: Any = None  # mtworkbench.analysis.significance.ConfidenceInterval
    # Read back from the score file without its interval yet: the next job bootstraps it
    # from the stored statistics (the score shows at once, the interval when ready).
    ci_pending: bool = False


class ScoreCache:
    """Content-addressed metric results plus the current entry per (system, spec).

    Thread-safe: a scoring job looks entries up from its worker thread while
    the GUI thread stores results and applies project events.
    """

    def __init__(self, max_entries: int = 512, remember_unsaved: bool = False) -> None:
        self.max_entries = max_entries
        # The app's long-lived cache of a project (cache_for) asks for per-metric entries
        # kept in memory while the project has no score file (scoring.store.unsaved_store);
        # a throwaway cache does not.
        self.remember_unsaved = remember_unsaved
        self._lock = threading.RLock()
        self._store: OrderedDict[tuple[str, str, str], ScoreEntry] = OrderedDict()
        self._current: dict[tuple[str, str], tuple[str, ScoreEntry]] = {}
        self._paired: OrderedDict[tuple, Any] = OrderedDict()
        self._global_generation = 0
        self._system_generation: dict[str, int] = {}

    # --- generations ---------------------------------------------------------------
    def generation(self, system: str) -> tuple[int, int]:
        """Changes whenever the inputs of ``system`` may have changed."""
        with self._lock:
            return self._global_generation, self._system_generation.get(system, 0)

    # --- entries --------------------------------------------------------------------
    def lookup(self, system: str, spec: str, fp: str) -> ScoreEntry | None:
        with self._lock:
            entry = self._store.get((system, spec, fp))
            if entry is not None:
                self._store.move_to_end((system, spec, fp))
            return entry

    def store(
        self,
        system: str,
        spec: str,
        fp: str,
        entry: ScoreEntry,
        generation: tuple[int, int] | None = None,
    ) -> bool:
        """Keep ``entry``; make it current unless the inputs changed since ``generation``.

        Returns whether it became the current entry.
        """
        with self._lock:
            self._store[(system, spec, fp)] = entry
            self._store.move_to_end((system, spec, fp))
            while len(self._store) > self.max_entries:
                self._store.popitem(last=False)
            if generation is not None and generation != self.generation(system):
                return False
            self._current[(system, spec)] = (fp, entry)
            return True

    def current(self, system: str, spec: str) -> ScoreEntry | None:
        with self._lock:
            found = self._current.get((system, spec))
            return None if found is None else found[1]

    def current_fingerprint(self, system: str, spec: str) -> str | None:
        with self._lock:
            found = self._current.get((system, spec))
            return None if found is None else found[0]

    def missing(self, systems: list[str], specs: list[str]) -> list[tuple[str, str]]:
        """(system, spec) pairs without a current entry."""
        with self._lock:
            return [(s, m) for m in specs for s in systems if (s, m) not in self._current]

    def pending_intervals(self, systems: list[str], specs: list[str]) -> bool:
        """Whether a current entry still waits for its bootstrap interval."""
        with self._lock:
            return any(found[1].ci_pending for (s, m), found in self._current.items() if s in systems and m in specs)

    # --- paired tests -------------------------------------------------------------------
    def paired_key(self, spec: str, method: str, n_samples: int, baseline: str, fingerprints: list[tuple[str, str]]) -> tuple:
        return (spec, method, n_samples, baseline, tuple(fingerprints))

    def lookup_paired(self, key: tuple) -> Any:
        with self._lock:
            return self._paired.get(key)

    def store_paired(self, key: tuple, result: Any) -> None:
        with self._lock:
            self._paired[key] = result
            while len(self._paired) > self.max_entries:
                self._paired.popitem(last=False)

    # --- invalidation ---------------------------------------------------------------------
    def invalidate_system(self, system: str) -> None:
        with self._lock:
            self._system_generation[system] = self._system_generation.get(system, 0) + 1
            for key in [k for k in self._current if k[0] == system]:
                del self._current[key]

    def invalidate_all(self) -> None:
        with self._lock:
            self._global_generation += 1
            self._current.clear()

    def on_event(self, event: ProjectEvent) -> None:
        """Project listener: drop current entries whose inputs this change may touch."""
        if type(event) not in AFFECTS_SCORES:
            return  # e.g. judgments, settings (results are keyed by spec), a new system
        if type(event) in SYSTEM_SCOPED:
            self.invalidate_system(event.system_id)  # type: ignore[attr-defined]
            return
        # References, sources and entity spans feed every system's score.
        self.invalidate_all()


_CACHES: weakref.WeakKeyDictionary[Project, ScoreCache] = weakref.WeakKeyDictionary()
_CACHES_LOCK = threading.Lock()


def existing_cache(project: Project) -> ScoreCache | None:
    with _CACHES_LOCK:
        return _CACHES.get(project)


def cache_for(project: Project) -> ScoreCache:
    """The project's cache (created on first use; lives as long as the project)."""
    with _CACHES_LOCK:
        cache = _CACHES.get(project)
        if cache is None:
            cache = ScoreCache(remember_unsaved=True)
            project.subscribe(cache.on_event)
            _CACHES[project] = cache
        return cache
