"""Scores that persist with the project: a cache file beside the bundle.

``project.mtwb.json`` keeps its computed scores in ``project.mtwb.scores.npz``
(:func:`store_path`). Every entry is keyed by (system, metric spec, *input
fingerprint*): a hash of exactly what that metric's score depends on - the
metric's class and options, what it took from the project when bound (the
learned metric's model, or its model file), and the :class:`ScoringInput`
fields the metric declares it reads (``Metric.reads``: hypotheses, references
and language for most; entity spans, documents and paragraphs too for NEE).
So an edit to one system's text recomputes that system only, an edit to an
entity span recomputes NEE only, and a changed option is a different spec. The
file keeps the latest scores of each (system, spec); older ones (an edit since
undone) live on only in the in-memory cache of scoring/cache.py.

Loading trusts nothing: the file is a numpy ``.npz`` read without pickle; a
file that is corrupt, from another store version or made by other metric code
(its source hash differs) is ignored with a one-line notice on stderr, and an entry whose arrays do not fit its metric is dropped.
Stale entries simply never match a fingerprint; they are pruned when the same
(system, spec) is scored again.

Which project goes with which file: :func:`attach` (the command line after
loading a bundle, the app after opening or saving one). A project that was
never attached (built in memory, not saved) persists nothing. Where the
bundle's folder is read-only, the file goes to the user's cache folder instead
(:func:`fallback_path`).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
import weakref
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from mtworkbench import __version__
from mtworkbench.core.scoring_input import MetricScore, ScoringInput
from mtworkbench.metrics.base import Metric

STORE_FORMAT = "mtworkbench-scores"
STORE_VERSION = 1
SUFFIX = ".scores.npz"
# What every metric is assumed to read when it does not say (Metric.reads).
DEFAULT_READS = ("hypotheses", "references", "target_language")


def store_path(bundle_path: str | Path) -> Path:
    """``x.mtwb.json`` -> ``x.mtwb.scores.npz`` (beside the bundle)."""
    path = Path(bundle_path)
    stem = path.name[: -len(".json")] if path.name.endswith(".json") else path.name
    return path.with_name(stem + SUFFIX)


def notice(message: str) -> None:
    """One line on stderr: the store never fails a command, it only recomputes."""
    print(f"mtworkbench: {message}", file=sys.stderr)


# --- fingerprints ----------------------------------------------------------------------
@cache
def metrics_code_digest() -> str:
    """A hash of the metrics' source: scores from other metric code (a fix between
    two releases of the same version number) are never reused."""
    import mtworkbench.metrics

    root = Path(mtworkbench.metrics.__file__).parent
    h = hashlib.blake2b(digest_size=16)
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def metric_reads(metric: Metric) -> tuple[str, ...]:
    return tuple(getattr(metric, "reads", DEFAULT_READS))


def binding_fingerprint(metric: Metric) -> str:
    """What the metric took from outside its options: the learned metric's model
    (the project's, or the file ``model=`` names, by content)."""
    parts: list[str] = []
    model = getattr(metric, "_model", None)
    if model is not None and hasattr(model, "to_json"):
        parts.append(json.dumps(model.to_json(), sort_keys=True, default=repr))
    model_file = metric.options.get("model") if isinstance(metric.options, dict) else None
    if isinstance(model_file, str) and model_file:
        try:
            parts.append(hashlib.blake2b(Path(model_file).read_bytes(), digest_size=16).hexdigest())
        except OSError:
            parts.append(f"missing:{model_file}")
    parts.append(metric.binding_digest())
    return "\n".join(parts)


class InputDigests:
    """Digests of each ScoringInput field, computed once per system and shared by
    every metric that reads it."""

    def __init__(self, data: ScoringInput) -> None:
        self.data = data
        self._done: dict[str, str] = {}

    def field(self, name: str) -> str:
        found = self._done.get(name)
        if found is None:
            value = getattr(self.data, name, None)
            try:
                text = json.dumps(value, ensure_ascii=False, default=repr)
            except (TypeError, ValueError):
                text = repr(value)
            found = self._done[name] = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
        return found


def metric_fingerprint(metric: Metric, digests: InputDigests) -> str:
    """Hash of exactly what ``metric``'s score of this input depends on."""
    cls = type(metric)
    head = json.dumps(
        [STORE_VERSION, __version__, f"{cls.__module__}.{cls.__qualname__}",
         sorted((k, repr(v)) for k, v in metric.options.items()), binding_fingerprint(metric)],
        ensure_ascii=False,
    )
    h = hashlib.blake2b(head.encode("utf-8"), digest_size=16)
    for name in sorted(set(metric_reads(metric))):
        h.update(f"\n{name}:{digests.field(name)}".encode())
    return h.hexdigest()


# --- the file ----------------------------------------------------------------------------
@dataclass
class StoredScore:
    """What is kept of a MetricScore; metric name, options and stat names come
    back from the metric instance that asks."""

    signature: str
    corpus: float
    segments: np.ndarray
    stats: np.ndarray
    extras: dict[str, Any]

    def to_score(self, metric: Metric, system: str) -> MetricScore:
        return MetricScore(
            metric=metric.name,
            options=dict(metric.options),
            signature=self.signature,
            corpus=self.corpus,
            segments=self.segments,
            stats=self.stats,
            stat_names=tuple(metric.stat_names),
            extras=self.extras,
            system=system,
        )


Key = tuple[str, str, str]  # system, spec, metric fingerprint


def _split_extras(extras: dict[str, Any]) -> tuple[dict[str, Any] | None, dict[str, np.ndarray]]:
    """Extras as (JSON part, numpy arrays kept as arrays); None when an array
    cannot be stored without pickle (object dtype)."""
    plain: dict[str, Any] = {}
    arrays: dict[str, np.ndarray] = {}
    for name, value in extras.items():
        if isinstance(value, np.ndarray):
            if value.dtype.hasobject:
                return None, {}
            arrays[name] = value
        else:
            plain[name] = value
    return plain, arrays


def _json_exact(value: Any) -> bool:
    """Whether ``value`` survives a JSON round trip unchanged (else it is not stored)."""
    try:
        return json.loads(json.dumps(value, allow_nan=True)) == value
    except (TypeError, ValueError):
        return False


class ScoreStore:
    """The entries of one cache file, loaded once, written back when changed."""

    def __init__(self, path: str | Path, fallback: str | Path | None = None) -> None:
        # ``fallback``: where the file goes when the bundle's folder is read-only
        self.path = self.origin = Path(path)
        self.fallback = None if fallback is None else Path(fallback)
        self.entries: dict[Key, StoredScore] = {}
        self.changed = False
        self._lock = threading.RLock()
        self._load()

    # --- reading ---------------------------------------------------------------------------
    def _load(self) -> None:
        if not self.path.exists():
            if self.fallback is None or not self.fallback.exists():
                return
            self.path, self.fallback = self.fallback, None  # read and write there
        try:
            with np.load(self.path, allow_pickle=False) as npz:
                header = json.loads(bytes(npz["header"]).decode("utf-8"))
                if not isinstance(header, dict) or header.get("format") != STORE_FORMAT:
                    notice(f"{self.path}: not a score cache; ignored (scores are recomputed)")
                    return
                if header.get("version") != STORE_VERSION or header.get("mtworkbench") != __version__:
                    notice(
                        f"{self.path}: score cache from another version "
                        f"({header.get('mtworkbench')}, format {header.get('version')}); ignored"
                    )
                    return
                if header.get("metrics_code") != metrics_code_digest():
                    notice(f"{self.path}: score cache from another version of the metrics' code; ignored")
                    return
                for k, item in enumerate(header["entries"]):
                    system, spec, fp = item["key"]
                    segments = np.asarray(npz[f"seg{k}"], dtype=float)
                    stats = np.asarray(npz[f"stats{k}"], dtype=float)
                    if stats.ndim != 2 or len(segments) != len(stats):
                        raise ValueError(f"entry {k}: arrays do not fit")
                    extras = dict(item["extras"])
                    for name in item["array_extras"]:
                        extras[str(name)] = npz[f"extra{k}.{name}"]
                    self.entries[(str(system), str(spec), str(fp))] = StoredScore(
                        signature=str(item["signature"]), corpus=float(item["corpus"]),
                        segments=segments, stats=stats, extras=extras,
                    )
        except (OSError, ValueError, KeyError, TypeError, IndexError, zipfile.BadZipFile, EOFError) as exc:
            self.entries.clear()
            notice(f"{self.path}: corrupt score cache ({' '.join(str(exc).split())}); ignored")

    def get(self, key: Key, metric: Metric) -> StoredScore | None:
        with self._lock:
            entry = self.entries.get(key)
        if entry is None:
            return None
        if entry.stats.shape[1:] != (len(metric.stat_names),):
            return None  # the metric's statistics changed shape: not its result
        return entry

    # --- writing ---------------------------------------------------------------------------
    def put(self, key: Key, score: MetricScore) -> None:
        plain, arrays = _split_extras(score.extras)
        if plain is None or not _json_exact(plain):
            return  # cannot be restored exactly: recompute next time instead
        system, spec, _fp = key
        with self._lock:
            # the same system and spec on other inputs is stale now
            for old in [k for k in self.entries if k[0] == system and k[1] == spec and k != key]:
                del self.entries[old]
            self.entries[key] = StoredScore(
                signature=score.signature, corpus=float(score.corpus),
                segments=np.asarray(score.segments, dtype=float),
                stats=np.asarray(score.stats, dtype=float), extras=dict(score.extras),
            )
            self.changed = True

    def save(self) -> None:
        """Write atomically (temp file, then rename); a failure is a notice only."""
        with self._lock:
            if not self.changed:
                return
            items = list(self.entries.items())
            self.changed = False
        entries = []
        arrays: dict[str, np.ndarray] = {}
        for k, (key, e) in enumerate(items):
            plain, extra_arrays = _split_extras(e.extras)
            entries.append({"key": list(key), "signature": e.signature, "corpus": e.corpus, "extras": plain,
                            "array_extras": sorted(extra_arrays)})
            arrays[f"seg{k}"] = e.segments
            arrays[f"stats{k}"] = e.stats
            for name, value in extra_arrays.items():
                arrays[f"extra{k}.{name}"] = value
        header = {"format": STORE_FORMAT, "version": STORE_VERSION, "mtworkbench": __version__,
                  "metrics_code": metrics_code_digest(), "entries": entries}
        arrays["header"] = np.frombuffer(json.dumps(header, allow_nan=True).encode("utf-8"), dtype=np.uint8)
        try:
            _write_atomically(self.path, arrays)
        except OSError as exc:
            if self.fallback is not None:
                try:
                    self.fallback.parent.mkdir(parents=True, exist_ok=True)
                    _write_atomically(self.fallback, arrays)
                    self.path, self.fallback = self.fallback, None
                    return
                except OSError:
                    pass
            notice(f"{self.path}: could not save the score cache ({exc.strerror or exc})")


def _write_atomically(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Temp file, then rename: a reader never sees half a file."""
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    try:
        with open(tmp, "wb") as fh:
            # numpy's stub matches **arrays against savez's allow_pickle: bool keyword
            np.savez(fh, **arrays)  # type: ignore[arg-type]
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise


def fallback_path(bundle_path: str | Path) -> Path:
    """Where a bundle's score file goes when its folder is read-only: the user's
    cache folder (``$MTWB_CACHE_DIR`` or the platform's), named by the bundle's
    absolute path."""
    import platformdirs

    root = os.environ.get("MTWB_CACHE_DIR") or platformdirs.user_cache_dir("mtworkbench")
    where = str(Path(bundle_path).resolve())
    digest = hashlib.blake2b(where.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()
    return Path(root) / "scores" / f"{Path(bundle_path).name}.{digest}{SUFFIX}"


# --- which project goes with which file ----------------------------------------------------
_STORES: weakref.WeakKeyDictionary[Any, ScoreStore] = weakref.WeakKeyDictionary()
_STORES_LOCK = threading.Lock()


def attach(project: Any, bundle_path: str | Path) -> ScoreStore:
    """Keep ``project``'s scores in the cache file beside ``bundle_path`` (loaded now)."""
    path = store_path(bundle_path)
    with _STORES_LOCK:
        store = _STORES.get(project)
        if store is not None and path in (store.path, store.origin):
            return store
    if _inside_program(bundle_path):
        # The demo and other bundles shipped with the program: never write into the
        # program's own folder (an installed copy, a desktop build); the user's cache instead.
        store = ScoreStore(fallback_path(bundle_path))
    else:
        store = ScoreStore(path, fallback_path(bundle_path))
    with _STORES_LOCK:
        _STORES[project] = store
    return store


def _inside_program(bundle_path: str | Path) -> bool:
    from mtworkbench.resources import RESOURCES

    try:
        Path(bundle_path).resolve().relative_to(RESOURCES)
    except ValueError:
        return False
    return True


def store_for(project: Any) -> ScoreStore | None:
    with _STORES_LOCK:
        return _STORES.get(project)


def load_project(bundle_path: str | Path) -> Any:
    """``load_bundle`` with the project's score file attached (the commands' way in)."""
    from mtworkbench.io.bundle import load_bundle

    project = load_bundle(bundle_path)
    attach(project, bundle_path)
    return project
