"""Scores that persist with the project: a cache file beside the bundle, named by it.

A bundle names its score file in ``score_file`` (``project.mtwb.json`` ->
``project.mtwb.scores.npz`` unless it says otherwise; io/bundle/bundle.py allows only a
plain ``*.scores.npz`` name in the bundle's own folder). Every entry is keyed by
(system, metric spec, *input fingerprint*): a hash of exactly what that metric's
score depends on - the metric's class and options, what it took from the project
when bound (the learned metric's model, or its model file), and the
:class:`ScoringInput` fields the metric declares it reads (``Metric.reads``:
hypotheses, references and language for most; entity spans, documents and
paragraphs too for NEE). So an edit to one system's text recomputes that system
only, an edit to an entity span recomputes NEE only, and a changed option is a
different spec. The file keeps the latest scores of each (system, spec); older
ones (an edit since undone) live on only in the in-memory cache of
scoring/cache.py.

One file, one bundle: the file records the name of the bundle that writes it.
A copy of a bundle (copied on disk, so it names the original's file) reads the
original's scores once to start its own file - its default name - and never
writes the original's; Save As gives the new bundle its own file with the
scores carried over (:func:`attach`).

Loading trusts nothing: the file is a numpy ``.npz`` read without pickle, only
if it is a regular file (not a link, a pipe or a device); a file that is
corrupt, from another store version or made by other metric code (its source
hash differs) is ignored with a one-line notice on stderr naming the file and
why, and an entry whose arrays do not fit its metric is dropped. Stale entries
simply never match a fingerprint; they are pruned when the same (system, spec)
is scored again.

Which project goes with which file: :func:`attach` (the command line after
loading a bundle, the app after opening or saving one). A project that was
never attached (built in memory, not saved) persists nothing; in the app its
cache keeps the same entries in memory (:func:`unsaved_store`) and they
go into the file when the project is first saved. Where the
bundle's folder is read-only, and for bundles shipped inside the program (the
demo), the file goes to the user's cache folder instead (:func:`fallback_path`).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import stat
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
from mtworkbench.core.errors import DataError
from mtworkbench.core.files import MIB, input_limit, read_regular_bytes
from mtworkbench.core.scoring_input import MetricScore, ScoringInput
from mtworkbench.io.bundle.bundle import SCORE_FILE_SUFFIX, default_score_file, score_file_problem
from mtworkbench.metrics.base import Metric
from mtworkbench.scoring.npz_members import CacheProblem, read_member

STORE_FORMAT = "mtworkbench-scores"
STORE_VERSION = 1
SUFFIX = SCORE_FILE_SUFFIX
# What every metric is assumed to read when it does not say (Metric.reads).
DEFAULT_READS = ("hypotheses", "references", "target_language")
# A metric reading ``entities`` reads the default layer and its name (NEE's
# signature shows it); with ``layer=NAME`` it reads that layer from every layer by name.
ENTITY_FIELDS = ("entity_layer",)
NAMED_LAYER_FIELDS = ("entity_layers",)
SPAN_LAYER_FIELDS = ("span_layers",)  # span layers other than "entities", by annotator


def store_path(bundle_path: str | Path) -> Path:
    """The default score file beside a bundle: ``x.mtwb.json`` -> ``x.mtwb.scores.npz``."""
    path = Path(bundle_path)
    return path.with_name(default_score_file(path))


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
    reads = tuple(getattr(metric, "reads", DEFAULT_READS))
    if "entities" in reads:
        reads += ENTITY_FIELDS
        options = metric.options if isinstance(metric.options, dict) else {}
        if options.get("layer", "auto") != "auto":
            reads += NAMED_LAYER_FIELDS
        if options.get("layer", "auto") != "auto" or options.get("spans", "entities") != "entities":
            reads += SPAN_LAYER_FIELDS
    return reads


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
    """The entries of one cache file, loaded once, written back when changed.

    ``owner``: the file name of the bundle this file belongs to, written into the
    file. A file that names another bundle is *foreign*: nothing of it is loaded
    (:func:`read_entries` reads it for a copy's first scores) and it is never written.
    """

    def __init__(self, path: str | Path | None, fallback: str | Path | None = None, owner: str | None = None) -> None:
        # ``path`` None: kept in memory only (a project never saved).
        # ``fallback``: where the file goes when the bundle's folder is read-only
        self.in_memory = path is None
        self.path = self.origin = Path(path) if path is not None else Path()
        self.fallback = None if fallback is None else Path(fallback)
        self.owner = owner
        self.found_owner: str | None = None  # the bundle the file on disk names (None: none or no file)
        self.foreign = False
        self.unusable = False  # a link or a special file stands there: neither read nor written
        self.corrupt = False  # the file could not be read (a notice said so); rewritten on save
        self.entries: dict[Key, StoredScore] = {}
        self.changed = False
        self._lock = threading.RLock()
        if not self.in_memory:
            self._load()

    # --- reading ---------------------------------------------------------------------------
    def _load(self) -> None:
        if not _present(self.path):
            if self.fallback is None or not _present(self.fallback):
                return
            self.path, self.fallback = self.fallback, None  # read and write there
        problem = _not_a_plain_file(self.path)
        if problem is not None:
            self.unusable = True
            notice(f"{self.path}: {problem}; not used as a score cache (scores are recomputed)")
            return
        try:
            data = read_regular_bytes(self.path)
            with zipfile.ZipFile(io.BytesIO(data)) as npz:
                header = json.loads(bytes(read_member(npz, "header", len(data))).decode("utf-8"))
                if not isinstance(header, dict) or header.get("format") != STORE_FORMAT:
                    notice(f"{self.path}: not a score cache; ignored (scores are recomputed)")
                    return
                found = header.get("bundle")
                self.found_owner = found if isinstance(found, str) and found else None
                if self.owner is not None and self.found_owner not in (None, self.owner):
                    self.foreign = True  # another bundle's file: read by read_entries, never written
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
                    segments = np.asarray(read_member(npz, f"seg{k}", len(data)), dtype=float)
                    stats = np.asarray(read_member(npz, f"stats{k}", len(data)), dtype=float)
                    if stats.ndim != 2 or segments.ndim != 1 or len(segments) != len(stats):
                        raise ValueError(f"entry {k}: arrays do not fit")
                    extras = dict(item["extras"])
                    for name in item["array_extras"]:
                        extras[str(name)] = read_member(npz, f"extra{k}.{name}", len(data))
                    self.entries[(str(system), str(spec), str(fp))] = StoredScore(
                        signature=str(item["signature"]), corpus=float(item["corpus"]),
                        segments=segments, stats=stats, extras=extras,
                    )
        except (OSError, DataError, ValueError, KeyError, TypeError, IndexError, zipfile.BadZipFile,
                EOFError, UnicodeDecodeError, OverflowError, NotImplementedError, RuntimeError) as exc:
            self.entries.clear()
            self.corrupt = True
            # One short line: numpy's own wording (pickles, "load it unsafely") is no advice to give.
            reason = str(exc) if isinstance(exc, CacheProblem) else type(exc).__name__
            notice(f"{self.path}: corrupt score cache ({reason}); ignored, scores are recomputed")

    def get(self, key: Key, metric: Metric, n_segments: int | None = None) -> StoredScore | None:
        """The entry under ``key`` if it fits ``metric`` and a project of ``n_segments``
        segments (one score and one row of statistics each); else None (recomputed)."""
        with self._lock:
            entry = self.entries.get(key)
        if entry is None:
            return None
        if entry.stats.shape[1:] != (len(metric.stat_names),):
            return None  # the metric's statistics changed shape: not its result
        if n_segments is not None and (entry.segments.shape != (n_segments,)
                                       or (len(entry.stats) != n_segments and len(metric.stat_names) > 0)):
            return None  # not a result on this project's segments (a tampered or foreign file)
        return entry

    def holds(self, system: str, spec: str) -> bool:
        """Whether some entry (of any inputs) exists for ``system`` and ``spec``."""
        with self._lock:
            return any(k[0] == system and k[1] == spec for k in self.entries)

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

    def seed(self, entries: dict[Key, StoredScore]) -> None:
        """Start from another file's scores (a copy's original, the bundle before Save As);
        its entries win over what this file held for the same (system, spec)."""
        if not entries:
            return
        with self._lock:
            pairs = {(k[0], k[1]) for k in entries}
            for old in [k for k in self.entries if (k[0], k[1]) in pairs]:
                del self.entries[old]
            self.entries.update(entries)
            self.changed = True

    def save(self) -> None:
        """Write atomically (temp file, then rename); a failure is a notice only."""
        with self._lock:
            if not self.changed or self.foreign or self.unusable or self.in_memory:
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
                  "metrics_code": metrics_code_digest(), "bundle": self.owner, "entries": entries}
        arrays["header"] = np.frombuffer(json.dumps(header, allow_nan=True).encode("utf-8"), dtype=np.uint8)
        try:
            if self.path.parent == cache_folder():  # made on first use (never the bundle's folder)
                self.path.parent.mkdir(parents=True, exist_ok=True)
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


def read_entries(path: Path) -> dict[Key, StoredScore]:
    """Every usable entry of a score file, whichever bundle it belongs to (empty when none)."""
    if not _present(path):
        return {}
    return dict(ScoreStore(path).entries)


def _present(path: Path) -> bool:
    """Something stands at ``path`` (a dangling link too)."""
    return os.path.lexists(path)


def _not_a_plain_file(path: Path) -> str | None:
    """Why ``path`` is not read or written as a score file: a link could lead anywhere,
    a pipe would block the reader. None for a regular file."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if stat.S_ISLNK(info.st_mode):
        return "is a symbolic link"
    if not stat.S_ISREG(info.st_mode):
        return "is not a regular file"
    return None


def _write_atomically(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Temp file, then rename: a reader never sees half a file. The temp file is
    created new (never through a link someone left at its name)."""
    import re
    import secrets

    from mtworkbench.core.atomic import remove_stale_temp_files

    # a killed save left its temporary file: the next save of this file takes it away
    remove_stale_temp_files(path, pattern=re.compile(re.escape(path.name) + r"\.[0-9a-f]{12}\.tmp"))
    tmp = path.with_name(f"{path.name}.{secrets.token_hex(6)}.tmp")
    # O_EXCL: a new file, never one (or a link) already there; 0o666 less the umask, like
    # any file the user saves (mkstemp's 0o600 would hide the scores from a team's folder)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(tmp, flags, 0o666)
    try:
        with os.fdopen(fd, "wb") as fh:
            # numpy's stub matches **arrays against savez's allow_pickle: bool keyword
            np.savez(fh, **arrays)  # type: ignore[arg-type]
            size = fh.tell()
        if size > input_limit():  # never write a file the loader would refuse
            raise OSError(f"the scores would be {size // MIB} MiB, more than the {input_limit() // MIB} MiB read back")
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def fallback_path(bundle_path: str | Path) -> Path:
    """Where a bundle's score file goes when its folder is read-only: the user's
    cache folder (``$MTWB_CACHE_DIR`` or the platform's), named by the bundle's
    absolute path."""
    where = str(Path(bundle_path).resolve())
    digest = hashlib.blake2b(where.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()
    return cache_folder() / f"{Path(bundle_path).name}.{digest}{SUFFIX}"


def cache_folder() -> Path:
    """The user's folder for score files (``$MTWB_CACHE_DIR/scores`` or the platform's cache)."""
    import platformdirs

    return Path(os.environ.get("MTWB_CACHE_DIR") or platformdirs.user_cache_dir("mtworkbench")) / "scores"


# --- which project goes with which file ----------------------------------------------------
_STORES: weakref.WeakKeyDictionary[Any, tuple[Path, ScoreStore]] = weakref.WeakKeyDictionary()
_STORES_LOCK = threading.Lock()


def attach(project: Any, bundle_path: str | Path) -> ScoreStore:
    """Keep ``project``'s scores in the file its bundle at ``bundle_path`` names (loaded now).

    The project's ``score_file`` (from the bundle) names the file; without one, the
    default name. Attached before to another bundle (Save As), the project takes the
    new bundle's default name and carries its scores over. When the file in use is
    beside the bundle but not the one it names, ``project.score_file`` becomes its
    name, so the next save of the bundle names it.
    """
    bundle_path = Path(bundle_path)
    where = bundle_path.resolve()
    with _STORES_LOCK:
        found = _STORES.get(project)
    if found is not None and found[0] == where:
        return found[1]
    previous = found[1] if found is not None else _take_unsaved(project)
    named = project.score_file
    if found is not None or not named or score_file_problem(named) is not None:
        named = default_score_file(bundle_path)  # a new bundle names its own file
    store = _open_for(bundle_path, named)
    if previous is not None:
        store.seed(previous.entries)
        store.save()
    # Name the file in use when it is not the one the bundle names (a copy's own file):
    # the next save writes it. An older bundle's default name is left for the save to
    # add, so the project still equals its file (recovery and merge compare them).
    if store.path.parent == bundle_path.parent and store.path.name != (
            project.score_file or default_score_file(bundle_path)):
        project.score_file = store.path.name
    if project.score_file:
        project.score_file_bundle = bundle_path.name  # the name is this bundle's now
    with _STORES_LOCK:
        _STORES[project] = (where, store)
    return store


def _open_for(bundle_path: Path, named: str) -> ScoreStore:
    """The store of the bundle at ``bundle_path`` whose bundle names ``named``."""
    owner = bundle_path.name
    fallback = fallback_path(bundle_path)
    if _inside_program(bundle_path):
        # The demo and other bundles shipped with the program: never write into the
        # program's own folder (an installed copy, a desktop build); the user's cache instead.
        return ScoreStore(fallback, owner=owner)
    named_path = bundle_path.with_name(named)
    own = bundle_path.with_name(default_score_file(bundle_path))
    if named_path != own and (_reserved(bundle_path, named) or _ours(own, owner)):
        # Another bundle's default name (a copy names its original's file): never made by
        # us, so a copy scored first cannot take the original's name; and once we have our
        # own file, the original's is not read again (nor its problems noticed each run).
        if not _present(named_path) or _ours(own, owner):
            named, named_path = own.name, own
    store = ScoreStore(named_path, fallback, owner=owner)
    # A file naming no bundle (older mtworkbench, or unreadable) is ours only under our
    # default name, the only name older versions used: under another, it may be a copy's original.
    unowned_elsewhere = (store.found_owner is None and store.path == named_path and _present(named_path)
                         and named != default_score_file(bundle_path))
    corrupt_elsewhere = store.corrupt and named != default_score_file(bundle_path)
    if not (store.foreign or store.unusable or unowned_elsewhere or corrupt_elsewhere):
        return store
    # The named file belongs to another bundle (this one is a copy, or was renamed):
    # read its scores, write our own file - the default name, or the user's cache.
    original = store.path
    for path in (bundle_path.with_name(default_score_file(bundle_path)), fallback):
        if path == original:
            continue
        is_new = not _present(path)
        mine = ScoreStore(path, owner=owner)
        if mine.foreign or mine.unusable:
            continue
        if is_new and not (store.unusable or store.corrupt):
            mine.seed(read_entries(original))
            mine.save()
        return mine
    return ScoreStore(fallback, owner=owner)  # both taken: unreachable but for a race; still never foreign


def _reserved(bundle_path: Path, named: str) -> bool:
    """Whether ``named`` is the default score file name of another bundle (one that is
    beside this one, or any ``*.mtwb.json``): only that bundle creates it."""
    if named == default_score_file(bundle_path) or not named.endswith(SUFFIX):
        return False
    other = named[: -len(SUFFIX)] + ".json"
    return other.endswith(".mtwb.json") or _present(bundle_path.with_name(other))


def _ours(path: Path, owner: str) -> bool:
    """A score file at ``path`` written by the bundle named ``owner`` (and readable)."""
    if not _present(path) or _not_a_plain_file(path) is not None:
        return False
    try:
        with zipfile.ZipFile(path) as npz:
            header = json.loads(bytes(read_member(npz, "header", path.stat().st_size)).decode("utf-8"))
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError, UnicodeDecodeError):
        return False
    return isinstance(header, dict) and header.get("bundle") == owner


def _inside_program(bundle_path: str | Path) -> bool:
    from mtworkbench.resources import RESOURCES

    try:
        Path(bundle_path).resolve().relative_to(RESOURCES)
    except ValueError:
        return False
    return True


# For a project without a score file: the per-metric entries that let an edit
# recompute only the scores reading what changed (the app's cache asks for them).
_UNSAVED: weakref.WeakKeyDictionary[Any, ScoreStore] = weakref.WeakKeyDictionary()


def unsaved_store(project: Any) -> ScoreStore:
    """The in-memory entries of ``project`` while it has no score file (made on first use)."""
    with _STORES_LOCK:
        store = _UNSAVED.get(project)
        if store is None:
            store = _UNSAVED[project] = ScoreStore(None)
        return store


def _take_unsaved(project: Any) -> ScoreStore | None:
    """Hand over (and forget) the in-memory entries: the project got a file."""
    with _STORES_LOCK:
        return _UNSAVED.pop(project, None)


def store_for(project: Any) -> ScoreStore | None:
    """The project's score file; None when it was never attached to a bundle."""
    with _STORES_LOCK:
        found = _STORES.get(project)
    return None if found is None else found[1]


def load_project(bundle_path: str | Path) -> Any:
    """``load_bundle`` with the project's score file attached (the commands' way in)."""
    from mtworkbench.io.bundle.bundle import load_bundle

    project = load_bundle(bundle_path)
    attach(project, bundle_path)
    return project
