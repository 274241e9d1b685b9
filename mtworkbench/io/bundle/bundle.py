"""The JSON project bundle (``*.mtwb.json``).

One UTF-8 file with ``format`` and ``format_version``, keys in a fixed order and
two-space indentation so that diffs between saves are readable. Loading
validates everything before building the project and refuses a broken or newer
file with a message naming the JSON path of the problem (``$.judgments[3].adequacy``);
nothing is half-loaded. Saving is atomic and keeps the previous file as ``*.bak``.

Format changes: bump ``FORMAT_VERSION`` and add one function to ``MIGRATIONS``
that turns a version-n dict into version n+1; old files are migrated on load.
"""

from __future__ import annotations

import hashlib
import mmap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtworkbench.core.atomic import atomic_write_bytes, encode_text
from mtworkbench.core.campaign_json import campaign_to_json
from mtworkbench.core.errors import BundleChangedOnDisk, BundleError, BundleLocked, DataError
from mtworkbench.core.files import map_regular_file, read_regular_bytes, release_pages
from mtworkbench.core.gc_pause import no_cyclic_gc
from mtworkbench.core.json_reader import JsonReader
from mtworkbench.core.model import ErrorSpan, Judgment, Project, Settings, protocol_for_scale
from mtworkbench.core.mqm_typology import GOOGLE_TYPOLOGY
from mtworkbench.core.output import not_a_file_target, write_output
from mtworkbench.core.queue_state import MQM_MAX_ERRORS
from mtworkbench.core.text_display import file_name_text
from mtworkbench.io.bundle.bundle_read import read_project
from mtworkbench.io.bundle.json_checks import parse_json, parse_json_bytes
from mtworkbench.io.bundle.json_writer import dumps_text, fast_dumps
from mtworkbench.io.bundle.layers_json import layers_to_json, relation_to_json, span_to_json, v2_to_v3
from mtworkbench.io.bundle.score_file_name import SCORE_FILE_SUFFIX, default_score_file, score_file_problem
from mtworkbench.io.bundle.sections_check import CheckedTexts
from mtworkbench.io.bundle.sections_read import read_valid_bundle
from mtworkbench.io.bundle.streamed_write import write_streamed
from mtworkbench.io.bundle.suggestions_json import decisions_to_json
from mtworkbench.io.corpora.plaintext import decode_utf8
from mtworkbench.io.scores.external_scores import bundle_value

FORMAT = "mtworkbench-project"
FORMAT_VERSION = 3
SUFFIX = ".mtwb.json"

# Fields whose nesting the loader's type checks do not bound: json_checks walks them for depth.
FREE_FORM_FIELDS = ("judge_queues", "learned_model", "settings")

def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 gives every judgment its protocol and error spans (MQM, DA and the others).

    A version-1 judgment was LDC adequacy/fluency or a numeric score on a named
    scale; its protocol follows from that (``Judgment`` infers it the same way),
    and it has no error spans, no quality-control role and showed the system's
    output. Nothing is dropped: every version-1 field keeps its value.
    """
    judgments = []
    for j in data.get("judgments", []):
        if isinstance(j, dict):
            j = dict(j)
            rated = j.get("adequacy") is not None or j.get("fluency") is not None or j.get("score") is None
            scale = j.get("scale") if isinstance(j.get("scale"), str) else None
            j.setdefault("protocol", "ldc" if rated else protocol_for_scale(scale))
            j.setdefault("errors", [])
            j.setdefault("qc", "")
            j.setdefault("text", None)
        judgments.append(j)  # anything malformed is reported by the loader, naming its path
    if "judgments" in data:
        data["judgments"] = judgments
    return data


# MIGRATIONS[n] turns a version-n bundle dict into version n+1. The section reader gives each one
# every section but the texts (documents, references, systems): a migration that must change
# those needs the section reader to leave older versions to the general way.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2, 2: v2_to_v3}


# --- saving ---------------------------------------------------------------------------
def project_to_dict(project: Project, share_texts: bool = False) -> dict[str, Any]:
    """The project as the bundle's JSON document: fresh dicts and lists (a snapshot its edits
    do not reach), but with ``share_texts`` the texts of references and systems are the
    project's own dicts where they are in segment order already."""
    ids = project.segment_ids
    out = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "name": project.name,
        "source_language": project.source_language,
        "target_language": project.target_language,
        "documents": [
            {
                "id": doc.id,
                "attributes": dict(doc.attributes),
                "paragraphs": [
                    {"id": par.id, "segments": [{"id": s.id, "source": s.source} for s in par.segments]}
                    for par in doc.paragraphs
                ],
            }
            for doc in project.documents
        ],
        "references": [
            {"id": r.id, "translator": r.translator, "texts": _ordered_texts(ids, r.texts, share_texts)}
            for r in project.references
        ],
        "systems": [
            {"id": s.id, "kind": s.kind, "texts": _ordered_texts(ids, s.texts, share_texts)} for s in project.systems
        ],
        "judges": list(project.judges),
        "entity_spans": [span_to_json(s) for s in project.spans],
        "relations": [relation_to_json(rel) for rel in project.relations],
        "judgments": [judgment_to_json(j) for j in project.judgments],
        "settings": {
            "metrics": list(project.settings.metrics),
            "baseline": project.settings.baseline,
            "entity_types": [
                {"name": t.name, "key": t.key, "color": t.color} for t in project.settings.entity_types
            ],
            **_mqm_settings(project.settings),
            **layers_to_json(project.settings),
        },
        "judge_queues": {judge: queue.to_json() for judge, queue in project.judge_queues.items()},
        "learned_model": project.learned_model,
        # Additive in version 2: written once the project has a score file (scoring.store).
        **({"score_file": project.score_file} if project.score_file else {}),
        # Additive: only campaign bundles and work packages carry it (core.campaign).
        **({"campaign": campaign_to_json(project.campaign)} if project.campaign is not None else {}),
    }
    if project.external_scores:  # optional: absent keeps older bundles byte-identical
        out["external_scores"] = bundle_value(project)
    if project.suggestion_decisions:  # additive, likewise (io.bundle.suggestions_json)
        out["suggestion_decisions"] = decisions_to_json(project)
    return out


def judgment_to_json(j: Judgment) -> dict[str, Any]:
    """A judgment as the bundle (and the JSON Lines judgments file) writes it."""
    return {
        "id": j.id,
        "judge": j.judge,
        "system": j.system,
        "segment": j.segment,
        "reference": j.reference,
        "adequacy": j.adequacy,
        "fluency": j.fluency,
        "score": j.score,
        "scale": j.scale,
        "timestamp": j.timestamp,
        "seconds": j.seconds,
        "comment": j.comment,
        "protocol": j.protocol,
        "errors": [_error_to_dict(e) for e in j.errors],
        "qc": j.qc,
        "text": j.text,
        **({"ranking": j.ranking} if j.ranking else {}),  # relative ranking only: additive
        # a model's pre-marked spans and the judge's decisions: additive, as ranking
        **({"suggestions": [o.to_json() for o in j.suggestions]} if j.suggestions else {}),
    }


def _mqm_settings(settings: Settings) -> dict[str, Any]:
    """The MQM typology and error limit, written only when not Google's defaults (additive
    in version 2: a bundle without them uses the defaults, so older files stay byte-identical)."""
    out: dict[str, Any] = {}
    if settings.mqm_typology != GOOGLE_TYPOLOGY:
        out["mqm_typology"] = settings.mqm_typology.to_json()
    if settings.mqm_max_errors != MQM_MAX_ERRORS:
        out["mqm_max_errors"] = settings.mqm_max_errors
    return out


def _error_to_dict(e: ErrorSpan) -> dict[str, Any]:
    out: dict[str, Any] = {"start": e.start, "end": e.end, "severity": e.severity, "category": e.category,
                           "comment": e.comment}
    if e.source_start is not None:  # source-side spans are rare: written only when present
        out["source_start"], out["source_end"] = e.source_start, e.source_end
    return out


def _ordered_texts(ids: list[str], texts: dict[str, str], share: bool = False) -> dict[str, str]:
    """``texts`` in the order of the segment ``ids``: a fresh dict (a snapshot the project's edits
    do not reach), copied in C where they are in that order already, as loaded or imported
    (``share``: not copied then)."""
    if len(texts) == len(ids) and list(texts) == ids:
        return texts if share else dict(texts)
    return {sid: texts[sid] for sid in ids if sid in texts}


def _with_score_file(project: Project, path: str | Path) -> None:
    """Name the score file of the bundle about to be written at ``path``: the default
    one for a bundle without one, and for a project read from another bundle (saved
    under a new name, it must not name the original's file)."""
    name = file_name_text(Path(path).name)
    if not project.score_file or project.score_file_bundle not in ("", name):
        project.score_file = default_score_file(path)
    project.score_file_bundle = name


def dumps(project: Project) -> str:
    value, data = _encoded(project)
    return dumps_text(value) if data is None else data.decode("utf-8")


def dumps_bytes(project: Project, path: str | Path, share_texts: bool = False) -> bytes:
    """``dumps`` as the UTF-8 bytes written to ``path`` (named by the error for text that is not UTF-8).

    ``share_texts``: the document holds the project's own texts dicts where they are in segment
    order already (no copy; for a caller that encodes before the project can change again)."""
    value, data = _encoded(project, share_texts)
    return encode_text(dumps_text(value), path) if data is None else data


def _encoded(project: Project, share_texts: bool = False) -> tuple[dict[str, Any], bytes | None]:
    """The project's document and its fast encoding; None where ``json.dumps`` must write it
    (the document is then kept whole for it, else freed)."""
    with no_cyclic_gc():
        value = project_to_dict(project, share_texts)
        data = fast_dumps(value)
        if data is not None:
            free_document(value)
    return value, data


def free_document(value: dict[str, Any]) -> None:
    """Free a ``project_to_dict`` document's segment dicts a slice at a time: freed at once, a
    big project's 250,000 would hold the GIL (and stall the window's thread) for their whole
    release. Freed while the cyclic collector is held back, they never reach its generations.
    The copies of texts dicts go one at a time for the same reason."""
    for owner in (*value.get("references", ()), *value.get("systems", ())):
        owner["texts"] = None
    for doc in value.get("documents", ()):
        for par in doc.get("paragraphs", ()):
            segments = par.get("segments")
            while segments:
                del segments[-2048:]


def content_hash(data: bytes | mmap.mmap) -> str:
    """The sha256 of a bundle's bytes: what a saver compares to see whether the file changed."""
    return hashlib.sha256(data).hexdigest()


def disk_hash(path: str | Path) -> str | None:
    """The content hash of the file now on disk; None when there is no file."""
    try:
        return content_hash(read_regular_bytes(path))
    except FileNotFoundError:
        return None


def save_bundle(
    project: Project, path: str | Path, expected_hash: str | None = None, timeout: float | None = None
) -> str:
    """``write_bundle``, returning only the content hash of what was written (its bytes are never
    gathered into one: each piece goes to the file as it is encoded)."""
    return _write(project, path, expected_hash, timeout, keep_bytes=False)[0]


def write_bundle(
    project: Project, path: str | Path, expected_hash: str | None = None, timeout: float | None = None
) -> tuple[str, bytes]:
    """Write atomically under the bundle's lock; the previous file is kept as ``<path>.bak``.

    With ``expected_hash`` (from ``read_bundle``), refuse with ``BundleChangedOnDisk``
    and write nothing when the file on disk is no longer what was loaded.
    ``timeout``: how long to wait for another writer's lock (``BundleLocked`` after).
    Returns the content hash of what was written (the next ``expected_hash``) and the bytes.
    """
    new_hash, data = _write(project, path, expected_hash, timeout, keep_bytes=True)
    assert data is not None
    return new_hash, data


def _write(project: Project, path: str | Path, expected_hash: str | None, timeout: float | None,
           keep_bytes: bool) -> tuple[str, bytes | None]:
    if not_a_file_target(path):
        # "-", /dev/stdout, a FIFO, a device: written as they are; nothing to lock, back up or replace.
        data = dumps_bytes(project, path, share_texts=True)
        write_output(path, data)
        return content_hash(data), data
    from concurrent.futures import ThreadPoolExecutor  # only a save needs it (and the lock): not validate

    from mtworkbench.io.bundle.locking import bundle_lock

    _with_score_file(project, path)
    with no_cyclic_gc(), bundle_lock(path, timeout), ThreadPoolExecutor(2, thread_name_prefix="mtwb-save") as pool:
        # The document is encoded on one worker while this thread writes and hashes its pieces
        # (streamed_write); the old file's hash is read and made on the other.
        on_disk = pool.submit(disk_hash, path) if expected_hash is not None else None  # while the document is built
        document = project_to_dict(project, share_texts=True)

        def unchanged_on_disk() -> None:
            if on_disk is not None and on_disk.result() != expected_hash:
                raise BundleChangedOnDisk(str(path), expected_hash or "", on_disk.result())

        def slow_bytes() -> bytes:
            data = fast_dumps(document)
            return encode_text(dumps_text(document), path) if data is None else data

        try:
            return write_streamed(path, document, pool, slow_bytes, free_document, keep_bytes,
                                  before_replace=unchanged_on_disk)
        except OSError:
            unchanged_on_disk()  # a changed file is what the saver must hear of first, as before
            raise


# --- loading ----------------------------------------------------------------------------
@dataclass(frozen=True)
class LoadedBundle:
    """A loaded project and the hash of the bytes it came from (``save_bundle``'s ``expected_hash``)."""

    project: Project
    sha256: str
    path: Path


def read_bundle(path: str | Path) -> LoadedBundle:
    """Load a bundle and remember the hash of the bytes read."""
    path = Path(path)
    project, sha256 = _read_file(path, with_hash=True)
    return LoadedBundle(project, sha256, path)


def load_bundle(path: str | Path) -> Project:
    return _read_file(Path(path), with_hash=False)[0]


@dataclass(frozen=True)
class BundleCounts:
    """What a checked bundle holds (``validate``'s summary)."""

    documents: int
    segments: int
    references: int
    systems: int
    spans: int
    judgments: int


def check_bundle(path: str | Path) -> BundleCounts:
    """Every check ``load_bundle`` makes, with its messages, and the counts of what the
    bundle holds; texts nothing else reads are checked but not kept (``sections_check``)."""
    project = _read_file(Path(path), with_hash=False, check_only=True)[0]
    return BundleCounts(len(project.documents), len(project.segments), len(project.references),
                        len(project.systems), len(project.spans), len(project.judgments))


def _read_file(path: Path, with_hash: bool, check_only: bool = False) -> tuple[Project, str]:
    """The project in the file at ``path`` and (``with_hash``) the hash of its bytes;
    ``check_only``: a project only to be counted, whose texts may be left out.

    A large file is mapped, not read (``map_regular_file``): a valid bundle of this
    version is decoded section by section from the map (``sections_read``), its pages
    released as it goes; any other file is read the general way, naming its problem.
    """
    data = map_regular_file(path)  # a FIFO or a device is refused, not waited on
    try:
        sha256 = content_hash(data) if with_hash else ""
        release_pages(data)
        project = read_valid_bundle(data, str(path), FORMAT_VERSION, FORMAT, FREE_FORM_FIELDS, MIGRATIONS,
                                    CheckedTexts(data) if check_only else None)
        tree = None
        if project is None:  # an older version or a broken file: the general way, from bytes
            raw = data[:] if isinstance(data, mmap.mmap) else data
            release_pages(data)  # a mapped file is not held twice
            tree = _parse_bytes(raw, path)
            del raw
    finally:
        if isinstance(data, mmap.mmap):
            data.close()
        del data  # the bytes go before the project is built: the peak is the tree and the project
    if project is None:
        return _project_from_tree(tree, str(path)), sha256
    _name_score_file_bundle(project, str(path))
    return project, sha256


@contextmanager
def bundle_transaction(path: str | Path, timeout: float | None = None) -> Iterator[Project]:
    """Read-modify-write a bundle under its exclusive lock: no concurrent update is lost.

    ``with bundle_transaction(path) as project: ...`` locks, loads, yields the
    project and, when the block ends without an error and the project no longer
    serialises to the bytes read, saves it atomically before releasing the lock.
    On an error nothing is written.
    A second writer waits up to ``timeout`` seconds (default ``MTWB_LOCK_TIMEOUT``
    or 30) and then fails with ``BundleLocked`` naming who holds the lock.
    """
    from mtworkbench.io.bundle.locking import bundle_lock

    with bundle_lock(path, timeout):
        path = Path(path)
        data = read_regular_bytes(path)
        project = _project_from_bytes(data, str(path))
        yield project
        after = dumps_bytes(project, path)
        if after != data and not project.score_file:  # written anyway: name the score file too
            _with_score_file(project, path)
            after = dumps_bytes(project, path)
        # Compared with the bytes read: a file saved by mtworkbench is byte-identical when
        # nothing changed (a hand-formatted one is rewritten in the standard layout).
        if after != data:
            atomic_write_bytes(path, after, keep_backup=True, locked=True)


def loads(text: str, file: str | None = None) -> Project:
    return _project_from_tree(parse_json(text, file=file, free_form=FREE_FORM_FIELDS), file)


def loads_bytes(data: bytes, file: str | None = None) -> Project:
    """``loads`` of a file's bytes: the fast decoder for a valid file, the same messages for any other."""
    return _project_from_bytes(data, file)


def _project_from_bytes(data: bytes, file: str | None) -> Project:
    project = read_valid_bundle(data, file, FORMAT_VERSION, FORMAT, FREE_FORM_FIELDS, MIGRATIONS)
    if project is None:
        return _project_from_tree(_parse_bytes(data, file), file)
    _name_score_file_bundle(project, file)
    return project


def _parse_bytes(data: bytes, file: str | Path | None) -> Any:
    """The decoded tree of a bundle file's bytes (JSON itself has no BOM: a UTF-8 one is skipped)."""
    return parse_json_bytes(data, lambda raw: decode_utf8(raw, file or "<bundle>", strip_bom=True),
                            file=None if file is None else str(file), free_form=FREE_FORM_FIELDS)


def _project_from_tree(tree: Any, file: str | None) -> Project:
    project = project_from_dict(tree, file=file)
    _name_score_file_bundle(project, file)
    return project


def _name_score_file_bundle(project: Project, file: str | None) -> None:
    if file and project.score_file:
        project.score_file_bundle = file_name_text(Path(file).name)


def migrate(data: dict[str, Any], file: str | None = None) -> dict[str, Any]:
    """Bring a bundle dict of any supported version up to ``FORMAT_VERSION``."""
    JsonReader(file).obj(data, "$")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise BundleError(f"expected format {FORMAT!r}, found {fmt!r}: this is not an mtworkbench project", "$.format", file)
    version = data.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise BundleError(f"format_version must be an integer, found {version!r}", "$.format_version", file)
    if version > FORMAT_VERSION:
        raise BundleError(
            f"format_version {version} is newer than this mtworkbench supports ({FORMAT_VERSION}); "
            "open it with a newer mtworkbench",
            "$.format_version",
            file,
        )
    if version < 1:
        raise BundleError(f"unknown format_version {version}", "$.format_version", file)
    while version < FORMAT_VERSION:
        if version not in MIGRATIONS:
            raise BundleError(f"no migration from format_version {version}", "$.format_version", file)
        data = MIGRATIONS[version](dict(data))
        version += 1
        data["format_version"] = version
    return data


def project_from_dict(data: Any, file: str | None = None) -> Project:
    """The project a bundle dict of any supported version describes (``BundleError`` otherwise)."""
    return read_project(migrate(data, file), file)


__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MIGRATIONS",
    "SCORE_FILE_SUFFIX",
    "SUFFIX",
    "BundleChangedOnDisk",
    "BundleCounts",
    "BundleLocked",
    "DataError",
    "LoadedBundle",
    "bundle_transaction",
    "check_bundle",
    "content_hash",
    "default_score_file",
    "disk_hash",
    "dumps",
    "dumps_bytes",
    "load_bundle",
    "loads",
    "loads_bytes",
    "read_bundle",
    "project_from_dict",
    "project_to_dict",
    "save_bundle",
    "write_bundle",
    "score_file_problem",
]
