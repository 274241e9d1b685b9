"""The score file shipped beside one of the program's own bundles (the demo).

``tools/build_demo.py`` writes it with :func:`write_score_file`; the program only reads
it: an untitled copy of the bundle starts from its entries (:func:`seed_shipped_scores`),
held in memory until the copy is saved, when they go into the copy's own file. Nothing
is ever written beside the program (``store._inside_program``).

The entries are keyed like any score file's, by the metrics' source among the rest, so a
shipped file from other metric code is ignored with a notice and the scores are computed
as before: never a wrong number, only a slower first view. :func:`stale_pairs` tells the
test suite when that has happened, so the file is rebuilt before a release.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mtworkbench.scoring.cache import ScoreCache
from mtworkbench.scoring.job import InputReader, ScoringRequest, run_scoring
from mtworkbench.scoring.store import (
    InputDigests,
    Key,
    ScoreStore,
    metric_fingerprint,
    read_entries,
    store_path,
    unsaved_store,
)


def shipped_score_file(bundle_path: str | Path) -> Path:
    """Beside the bundle, under its default score file name (``x.mtwb.json`` -> ``x.mtwb.scores.npz``)."""
    return store_path(bundle_path)


def seed_shipped_scores(project: Any, bundle_path: str | Path) -> int:
    """Start an untitled copy of a shipped bundle from the scores shipped beside it.
    Returns how many entries were usable (0 when the file is absent or stale)."""
    entries = read_entries(shipped_score_file(bundle_path))
    if entries:
        unsaved_store(project).seed(entries)
    return len(entries)


def _current_keys(project: Any) -> tuple[dict[tuple[str, str], Key], Any]:
    """Every (system, spec) of the project's metrics with the key its score is filed under,
    and the scoring outcome computed afresh (no intervals, this process)."""
    specs = tuple(project.settings.metrics)
    systems = tuple(s.id for s in project.systems)
    cache = ScoreCache()
    outcome = run_scoring(project, cache, ScoringRequest(specs=specs, systems=systems, ci_samples=0,
                                                         use_processes=False))
    reader = InputReader(project, cache)
    digests = {system: InputDigests(reader.read_input(system)[0]) for system in systems}
    keys = {(item.system, item.spec): (item.system, item.spec,
                                        metric_fingerprint(outcome.metrics[item.spec], digests[item.system]))
            for item in outcome.items}
    return keys, outcome


def write_score_file(bundle_path: str | Path) -> Path:
    """Score the bundle's project with its metrics and write the score file beside it, afresh."""
    from mtworkbench.io.bundle.bundle import load_bundle

    bundle_path = Path(bundle_path)
    project = load_bundle(bundle_path)
    keys, outcome = _current_keys(project)
    if outcome.errors:
        raise ValueError(f"{bundle_path}: scoring failed: {outcome.errors}")
    path = shipped_score_file(bundle_path)
    path.unlink(missing_ok=True)
    store = ScoreStore(path, owner=bundle_path.name)
    for item in outcome.items:
        store.put(keys[(item.system, item.spec)], item.entry.score)
    store.save()
    return path


def stale_pairs(bundle_path: str | Path) -> list[tuple[str, str]]:
    """The (system, spec) pairs whose fresh score the shipped file does not hold exactly
    (empty when it is current)."""
    import numpy as np

    from mtworkbench.io.bundle.bundle import load_bundle

    project = load_bundle(bundle_path)
    keys, outcome = _current_keys(project)
    shipped = read_entries(shipped_score_file(bundle_path))
    stale = []
    for item in outcome.items:
        found = shipped.get(keys[(item.system, item.spec)])
        score = item.entry.score
        # NaN is a segment without a score (NEE where a reference has no entity): equal to NaN here
        if found is None or not (np.array_equal(found.corpus, score.corpus, equal_nan=True)
                                 and found.signature == score.signature
                                 and np.array_equal(found.segments, np.asarray(score.segments, dtype=float),
                                                    equal_nan=True)
                                 and np.array_equal(found.stats, np.asarray(score.stats, dtype=float),
                                                    equal_nan=True)):
            stale.append((item.system, item.spec))
    return stale
