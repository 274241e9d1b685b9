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

import builtins
import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from mtworkbench.core.errors import BundleChangedOnDisk, BundleError, BundleLocked, DataError
from mtworkbench.core.files import read_regular_bytes
from mtworkbench.core.metric_files import file_options_in_spec
from mtworkbench.core.campaign import campaign_from_json, campaign_to_json
from mtworkbench.core.model import (
    RATING_RANGE,
    SYSTEM_KINDS,
    Document,
    EntitySpan,
    EntityTypeStyle,
    ErrorSpan,
    Judgment,
    ModelError,
    Paragraph,
    PROTOCOLS,
    Project,
    Reference,
    Segment,
    Settings,
    System,
)
from mtworkbench.core.mqm_typology import GOOGLE_TYPOLOGY, typology_from_json
from mtworkbench.core.output import not_a_file_target, write_output
from mtworkbench.core.queue_state import MQM_MAX_ERRORS, JudgeQueue, check_learned_model
from mtworkbench.core.atomic import atomic_write_bytes, encode_text
from mtworkbench.core.text_display import file_name_text
from mtworkbench.io.bundle.json_checks import parse_json
from mtworkbench.io.bundle.locking import bundle_lock
from mtworkbench.io.corpora.plaintext import decode_utf8

FORMAT = "mtworkbench-project"
FORMAT_VERSION = 2
SUFFIX = ".mtwb.json"
# The score cache a bundle names (``score_file``): a plain file name beside the bundle.
SCORE_FILE_SUFFIX = ".scores.npz"
# Names Windows keeps for devices whatever their extension (``NUL.scores.npz`` is the device).
_DEVICE_NAMES = frozenset({"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)),
                           *(f"LPT{i}" for i in range(1, 10))})

# Fields whose nesting the loader's type checks do not bound: json_checks walks them for depth.
FREE_FORM_FIELDS = ("judge_queues", "learned_model", "settings")

def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 gives every judgment its protocol and error spans (issue 15).

    A version-1 judgment was LDC adequacy/fluency or a numeric score on a named
    scale; its protocol follows from that (``Judgment`` infers it the same way),
    and it has no error spans, no quality-control role and showed the system's
    output. Nothing is dropped: every version-1 field keeps its value.
    """
    from mtworkbench.core.model import protocol_for_scale

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


# MIGRATIONS[n] turns a version-n bundle dict into version n+1.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}


# --- saving ---------------------------------------------------------------------------
def project_to_dict(project: Project) -> dict[str, Any]:
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
            {"id": r.id, "translator": r.translator, "texts": _ordered_texts(project, r.texts)}
            for r in project.references
        ],
        "systems": [
            {"id": s.id, "kind": s.kind, "texts": _ordered_texts(project, s.texts)} for s in project.systems
        ],
        "judges": list(project.judges),
        "entity_spans": [
            {
                "id": s.id,
                "reference": s.reference,
                "segment": s.segment,
                "start": s.start,
                "end": s.end,
                "type": s.type,
                "annotator": s.annotator,
            }
            for s in project.spans
        ],
        "judgments": [
            {
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
            }
            for j in project.judgments
        ],
        "settings": {
            "metrics": list(project.settings.metrics),
            "baseline": project.settings.baseline,
            "entity_types": [
                {"name": t.name, "key": t.key, "color": t.color} for t in project.settings.entity_types
            ],
            **_mqm_settings(project.settings),
        },
        "judge_queues": {judge: queue.to_json() for judge, queue in project.judge_queues.items()},
        "learned_model": project.learned_model,
        # Additive in version 2: written once the project has a score file (scoring.store).
        **({"score_file": project.score_file} if project.score_file else {}),
        # Additive: only campaign bundles and work packages carry it (core.campaign).
        **({"campaign": campaign_to_json(project.campaign)} if project.campaign is not None else {}),
    }
    if project.external_scores:  # optional: absent keeps older bundles byte-identical
        from mtworkbench.io.scores.external_scores import bundle_value

        out["external_scores"] = bundle_value(project)
    return out


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


def _ordered_texts(project: Project, texts: dict[str, str]) -> dict[str, str]:
    return {sid: texts[sid] for sid in project.segment_ids if sid in texts}


def default_score_file(bundle_path: str | Path) -> str:
    """The score file a bundle without ``score_file`` uses: ``x.mtwb.json`` -> ``x.mtwb.scores.npz``."""
    name = file_name_text(Path(bundle_path).name)  # stored in the bundle: text, even for a name not in UTF-8
    return (name[: -len(".json")] if name.endswith(".json") else name) + SCORE_FILE_SUFFIX


def score_file_problem(name: str) -> str | None:
    """Why ``name`` is not a plain score file name beside the bundle; None when it is.

    A bundle may come from anyone: the name it gives must not make mtworkbench read
    or write anywhere but one ``*.scores.npz`` file in the bundle's own folder (no
    folders, no ``..``, no drive or stream, no device, not the bundle itself).
    """
    if not name.endswith(SCORE_FILE_SUFFIX) or name == SCORE_FILE_SUFFIX:
        return f"expected a file name ending in {SCORE_FILE_SUFFIX}"
    if "/" in name or "\\" in name or name in (".", ".."):
        return "expected a plain file name beside the bundle, not a path"
    if ":" in name:
        return "expected a plain file name beside the bundle, not a drive or stream (':')"
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        return "expected a file name without control characters"
    if len(name.encode("utf-8", "surrogatepass")) > 255:
        return "expected a file name of at most 255 bytes"
    if name.split(".")[0].upper().rstrip(" ") in _DEVICE_NAMES:
        return "expected a file name that is not a device name"
    return None


def _with_score_file(project: Project, path: str | Path) -> None:
    """Name the score file of the bundle about to be written at ``path``: the default
    one for a bundle without one, and for a project read from another bundle (saved
    under a new name, it must not name the original's file)."""
    name = file_name_text(Path(path).name)
    if not project.score_file or project.score_file_bundle not in ("", name):
        project.score_file = default_score_file(path)
    project.score_file_bundle = name


def dumps(project: Project) -> str:
    return json.dumps(project_to_dict(project), ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def content_hash(data: bytes) -> str:
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
    """Write atomically under the bundle's lock; the previous file is kept as ``<path>.bak``.

    With ``expected_hash`` (from ``read_bundle``), refuse with ``BundleChangedOnDisk``
    and write nothing when the file on disk is no longer what was loaded.
    ``timeout``: how long to wait for another writer's lock (``BundleLocked`` after).
    Returns the content hash of what was written (the next ``expected_hash``).
    """
    if not_a_file_target(path):
        # "-", /dev/stdout, a FIFO, a device: written as they are; nothing to lock, back up or replace.
        data = encode_text(dumps(project), path)
        write_output(path, data)
        return content_hash(data)
    _with_score_file(project, path)
    data = encode_text(dumps(project), path)
    with bundle_lock(path, timeout):
        if expected_hash is not None:
            actual = disk_hash(path)
            if actual != expected_hash:
                raise BundleChangedOnDisk(str(path), expected_hash, actual)
        atomic_write_bytes(path, data, keep_backup=True, locked=True)
    return content_hash(data)


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
    data = read_regular_bytes(path)  # a FIFO or a device is refused, not waited on
    text = decode_utf8(data, path, strip_bom=True)  # JSON itself has no BOM
    return LoadedBundle(loads(text, file=str(path)), content_hash(data), path)


def load_bundle(path: str | Path) -> Project:
    return read_bundle(path).project


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
    with bundle_lock(path, timeout):
        path = Path(path)
        data = read_regular_bytes(path)
        project = loads(decode_utf8(data, path, strip_bom=True), file=str(path))
        yield project
        after = encode_text(dumps(project), path)
        if after != data and not project.score_file:  # written anyway: name the score file too
            _with_score_file(project, path)
            after = encode_text(dumps(project), path)
        # Compared with the bytes read: a file saved by mtworkbench is byte-identical when
        # nothing changed (a hand-formatted one is rewritten in the standard layout).
        if after != data:
            atomic_write_bytes(path, after, keep_backup=True, locked=True)


def loads(text: str, file: str | None = None) -> Project:
    project = project_from_dict(parse_json(text, file=file, free_form=FREE_FORM_FIELDS), file=file)
    if file and project.score_file:
        project.score_file_bundle = file_name_text(Path(file).name)
    return project


def migrate(data: dict[str, Any], file: str | None = None) -> dict[str, Any]:
    """Bring a bundle dict of any supported version up to ``FORMAT_VERSION``."""
    r = _Reader(file)
    r.obj(data, "$")
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
    data = migrate(data, file)
    r = _Reader(file)
    r.keys(data, "$", required={"format", "format_version", "documents", "references", "systems"},
           optional={"name", "source_language", "target_language", "judges", "entity_spans", "judgments",
                     "settings", "judge_queues", "learned_model", "external_scores",
                     "campaign", "score_file"})

    documents: list[Document] = []
    seen_segments: dict[str, str] = {}
    seen_docs: set[str] = set()
    seen_pars: set[str] = set()
    for di, d in enumerate(r.list(data["documents"], "$.documents")):
        dp = f"$.documents[{di}]"
        r.keys(d, dp, required={"id", "paragraphs"}, optional={"attributes"})
        doc_id = r.ident(d["id"], f"{dp}.id")
        if doc_id in seen_docs:
            raise BundleError(f"duplicate document id {doc_id!r}", f"{dp}.id", file)
        seen_docs.add(doc_id)
        attributes = r.obj(d.get("attributes", {}), f"{dp}.attributes")
        for k, v in attributes.items():
            r.str(v, f"{dp}.attributes.{k}")
        paragraphs = []
        for pi, p in enumerate(r.list(d["paragraphs"], f"{dp}.paragraphs")):
            pp = f"{dp}.paragraphs[{pi}]"
            r.keys(p, pp, required={"id", "segments"})
            par_id = r.ident(p["id"], f"{pp}.id")
            if par_id in seen_pars:
                raise BundleError(f"duplicate paragraph id {par_id!r}", f"{pp}.id", file)
            seen_pars.add(par_id)
            segments = []
            for si, s in enumerate(r.list(p["segments"], f"{pp}.segments")):
                sp = f"{pp}.segments[{si}]"
                r.keys(s, sp, required={"id", "source"})
                seg_id = r.ident(s["id"], f"{sp}.id")
                if seg_id in seen_segments:
                    raise BundleError(f"duplicate segment id {seg_id!r} (first at {seen_segments[seg_id]})", f"{sp}.id", file)
                seen_segments[seg_id] = sp
                segments.append(Segment(seg_id, r.str(s["source"], f"{sp}.source")))
            paragraphs.append(Paragraph(par_id, segments))
        documents.append(Document(doc_id, paragraphs, dict(attributes)))

    def texts(value: Any, path: str, complete: bool) -> dict[str, str]:
        obj = r.obj(value, path)
        for seg_id, text in obj.items():
            if seg_id not in seen_segments:
                raise BundleError(f"text for unknown segment {seg_id!r}", f"{path}.{seg_id}", file)
            r.str(text, f"{path}.{seg_id}")
        if complete:
            for seg_id in seen_segments:
                if seg_id not in obj:
                    raise BundleError(f"missing text for segment {seg_id!r}", path, file)
        return dict(obj)

    project = Project(
        documents=documents,
        name=r.str(data.get("name", ""), "$.name"),
        source_language=r.str(data.get("source_language", ""), "$.source_language"),
        target_language=r.str(data.get("target_language", ""), "$.target_language"),
    )
    for ri, ref in enumerate(r.list(data["references"], "$.references")):
        rp = f"$.references[{ri}]"
        r.keys(ref, rp, required={"id", "texts"}, optional={"translator"})
        ref_id = r.ident(ref["id"], f"{rp}.id")
        if project.has_reference(ref_id):
            raise BundleError(f"duplicate reference id {ref_id!r}", f"{rp}.id", file)
        project.add_reference(
            Reference(ref_id, r.str(ref.get("translator", ""), f"{rp}.translator"),
                      texts(ref["texts"], f"{rp}.texts", complete=False))
        )
    for si, sys_ in enumerate(r.list(data["systems"], "$.systems")):
        sp = f"$.systems[{si}]"
        r.keys(sys_, sp, required={"id", "texts"}, optional={"kind"})
        sys_id = r.ident(sys_["id"], f"{sp}.id")
        if project.has_system(sys_id):
            raise BundleError(f"duplicate system id {sys_id!r}", f"{sp}.id", file)
        kind = r.str(sys_.get("kind", "machine"), f"{sp}.kind")
        if kind not in SYSTEM_KINDS:
            raise BundleError(f"kind must be one of {', '.join(SYSTEM_KINDS)}, found {kind!r}", f"{sp}.kind", file)
        project.add_system(System(sys_id, kind, texts(sys_["texts"], f"{sp}.texts", complete=True)))

    _load_settings(r, project, data.get("settings", {}))

    for ji, judge in enumerate(r.list(data.get("judges", []), "$.judges")):
        jp = f"$.judges[{ji}]"
        name = r.ident(judge, jp)
        if name in project.judges:
            raise BundleError(f"duplicate judge {name!r}", jp, file)
        project.add_judge(name)

    for i, s in enumerate(r.list(data.get("entity_spans", []), "$.entity_spans")):
        p = f"$.entity_spans[{i}]"
        r.keys(s, p, required={"id", "reference", "segment", "start", "end", "type", "annotator"})
        span = EntitySpan(
            id=r.ident(s["id"], f"{p}.id"),
            reference=r.ref_to(s["reference"], f"{p}.reference", project.has_reference, "reference"),
            segment=r.ref_to(s["segment"], f"{p}.segment", project.has_segment, "segment"),
            start=r.int(s["start"], f"{p}.start"),
            end=r.int(s["end"], f"{p}.end"),
            type=r.str(s["type"], f"{p}.type"),
            annotator=r.ident(s["annotator"], f"{p}.annotator"),
        )
        text = project.reference(span.reference).texts.get(span.segment)
        if text is None:
            raise BundleError(f"reference {span.reference!r} has no text for segment {span.segment!r}", p, file)
        if not 0 <= span.start < span.end <= len(text):
            raise BundleError(
                f"span {span.start}-{span.end} is outside its text (length {len(text)})", f"{p}.end", file
            )
        _wrap(lambda: project.add_span(span), p, file)

    rankings: dict[str, tuple[Judgment, set[str]]] = {}  # ranking id -> its first judgment, systems
    for i, j in enumerate(r.list(data.get("judgments", []), "$.judgments")):
        p = f"$.judgments[{i}]"
        r.keys(j, p, required={"id", "judge", "system", "segment"},
               optional={"reference", "adequacy", "fluency", "score", "scale", "timestamp", "seconds", "comment",
                         "protocol", "errors", "qc", "text", "ranking"})
        protocol = r.str(j.get("protocol", ""), f"{p}.protocol")
        if protocol and protocol not in PROTOCOLS:
            r.fail(f"unknown protocol {protocol!r}; expected one of {', '.join(PROTOCOLS)}", f"{p}.protocol")
        judgment = Judgment(
            id=r.ident(j["id"], f"{p}.id"),
            judge=r.ref_to(j["judge"], f"{p}.judge", lambda x: x in project.judges, "judge"),
            system=r.ref_to(j["system"], f"{p}.system", project.has_system, "system"),
            segment=r.ref_to(j["segment"], f"{p}.segment", project.has_segment, "segment"),
            reference=None if j.get("reference") is None else r.ref_to(
                j["reference"], f"{p}.reference", project.has_reference, "reference"),
            adequacy=r.rating(j.get("adequacy"), f"{p}.adequacy"),
            fluency=r.rating(j.get("fluency"), f"{p}.fluency"),
            score=None if j.get("score") is None else r.number(j["score"], f"{p}.score"),
            scale=None if j.get("scale") is None else r.str(j["scale"], f"{p}.scale"),
            timestamp=r.str(j.get("timestamp", ""), f"{p}.timestamp"),
            seconds=r.number(j.get("seconds", 0.0), f"{p}.seconds"),
            comment=r.str(j.get("comment", ""), f"{p}.comment"),
            protocol=protocol,
            errors=tuple(_read_error(r, e, f"{p}.errors[{k}]")
                         for k, e in enumerate(r.list(j.get("errors", []), f"{p}.errors"))),
            qc=r.str(j.get("qc", ""), f"{p}.qc"),
            text=None if j.get("text") is None else r.str(j["text"], f"{p}.text"),
            ranking=r.str(j.get("ranking", ""), f"{p}.ranking"),
        )
        if judgment.ranking:
            _check_ranking_judgment(r, judgment, p, rankings)
        _wrap(lambda: project.add_judgment(judgment), p, file)

    queues = r.obj(data.get("judge_queues", {}), "$.judge_queues")
    for judge, queue in queues.items():
        if judge not in project.judges:
            raise BundleError(f"queue for unknown judge {judge!r}", f"$.judge_queues.{judge}", file)
        project.set_judge_queue(judge, JudgeQueue.from_json(queue, f"$.judge_queues.{judge}", file))
    learned = data.get("learned_model")
    project.set_learned_model(None if learned is None else check_learned_model(learned, "$.learned_model", file))
    if data.get("external_scores"):
        from mtworkbench.io.scores.external_scores import check_bundle_value

        project.external_scores = check_bundle_value(data["external_scores"], project, file)
    if data.get("campaign") is not None:
        project.campaign = campaign_from_json(data["campaign"], project, file)
    if "score_file" in data:
        project.score_file = r.str(data["score_file"], "$.score_file")
        problem = score_file_problem(project.score_file)
        if problem is not None:
            r.fail(f"{problem}, found {project.score_file!r}", "$.score_file")
    return project


def _check_ranking_judgment(r: _Reader, j: Judgment, path: str, seen: dict[str, tuple[Judgment, set[str]]]) -> None:
    """A relative-ranking judgment (core.ranking): protocol rank, a whole rank 1-5, and the same
    judge, segment and reference as the other judgments of its ranking, each system once."""
    from mtworkbench.core.model import RANK_RANGE

    lo, hi = RANK_RANGE
    if j.protocol != "rank":
        r.fail(f"a judgment of ranking {j.ranking!r} needs protocol 'rank', found {j.protocol!r}", f"{path}.protocol")
    if j.score is None or not lo <= j.score <= hi or j.score != int(j.score):
        r.fail(f"expected the rank, a whole number from {lo} to {hi}, found {j.score!r}", f"{path}.score")
    first, systems = seen.setdefault(j.ranking, (j, set()))
    for name in ("judge", "segment", "reference"):
        if getattr(j, name) != getattr(first, name):
            r.fail(f"ranking {j.ranking!r}: {getattr(j, name)!r} differs from the {name} "
                   f"{getattr(first, name)!r} of judgment {first.id!r} of the same ranking", f"{path}.{name}")
    if j.system in systems:
        r.fail(f"ranking {j.ranking!r} ranks system {j.system!r} twice", f"{path}.system")
    systems.add(j.system)


def _read_error(r: _Reader, e: Any, path: str) -> ErrorSpan:
    r.keys(e, path, required={"start", "end", "severity"},
           optional={"category", "comment", "source_start", "source_end"})

    def offset(name: str) -> int | None:
        value = e.get(name)
        return None if value is None else r.int(value, f"{path}.{name}")

    return ErrorSpan(
        start=offset("start"),
        end=offset("end"),
        severity=r.str(e["severity"], f"{path}.severity"),
        category=r.str(e.get("category", ""), f"{path}.category"),
        comment=r.str(e.get("comment", ""), f"{path}.comment"),
        source_start=offset("source_start"),
        source_end=offset("source_end"),
    )


def _load_settings(r: _Reader, project: Project, value: Any) -> None:
    r.keys(value, "$.settings", required=set(),
           optional={"metrics", "baseline", "entity_types", "mqm_typology", "mqm_max_errors"})
    settings = Settings()
    if "mqm_typology" in value:
        settings.mqm_typology = typology_from_json(value["mqm_typology"], "$.settings.mqm_typology", r.file)
    if "mqm_max_errors" in value:
        settings.mqm_max_errors = r.int(value["mqm_max_errors"], "$.settings.mqm_max_errors")
        if settings.mqm_max_errors < 1:
            r.fail(f"expected a positive integer, found {settings.mqm_max_errors}", "$.settings.mqm_max_errors")
    if "metrics" in value:
        settings.metrics = [r.str(m, f"$.settings.metrics[{i}]") for i, m in
                            enumerate(r.list(value["metrics"], "$.settings.metrics"))]
        for i, spec in enumerate(settings.metrics):
            _refuse_file_options(spec, f"$.settings.metrics[{i}]", r.file)
    baseline = value.get("baseline")
    if baseline is not None:
        settings.baseline = r.ref_to(baseline, "$.settings.baseline", project.has_system, "system")
    if "entity_types" in value:
        types = []
        names: set[str] = set()
        keys: set[str] = set()
        for i, t in enumerate(r.list(value["entity_types"], "$.settings.entity_types")):
            p = f"$.settings.entity_types[{i}]"
            r.keys(t, p, required={"name", "key", "color"})
            style = EntityTypeStyle(r.ident(t["name"], f"{p}.name"), r.str(t["key"], f"{p}.key"),
                                    r.str(t["color"], f"{p}.color"))
            if style.name in names:
                raise BundleError(f"duplicate entity type {style.name!r}", f"{p}.name", r.file)
            if len(style.key) != 1 or style.key.upper() in keys:
                raise BundleError(f"key must be one character not used by another type, found {style.key!r}",
                                  f"{p}.key", r.file)
            names.add(style.name)
            keys.add(style.key.upper())
            types.append(style)
        settings.entity_types = types
    project.settings = settings


def _refuse_file_options(spec: str, path: str, file: str | None) -> None:
    """A bundle never makes the program open a path it names (``learned:model=PATH``).

    Such options are for the command line and the app's settings dialog, where a
    person types the path; in a bundle they are refused at load.
    """
    for option in file_options_in_spec(spec):
        name = spec.strip().partition(":")[0].strip()
        raise BundleError(
            f"metric {spec!r} names a file ({option}=...); a bundle may not make mtworkbench open a path - "
            f"remove the option from the bundle and give it on the command line "
            f"(--metric '{name}:{option}=PATH') or in the Metrics settings",
            path,
            file,
        )


def _wrap(action: Callable[[], None], path: str, file: str | None) -> None:
    try:
        action()
    except ModelError as exc:
        raise BundleError(str(exc), path, file) from None


class _Reader:
    """Type checks that name the JSON path of whatever is wrong."""

    def __init__(self, file: str | None) -> None:
        self.file = file

    def fail(self, message: str, path: str) -> NoReturn:
        raise BundleError(message, path, self.file)

    def obj(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(f"expected an object, found {_kind(value)}", path)
        return value

    def list(self, value: Any, path: str) -> list[Any]:
        if not isinstance(value, list):
            self.fail(f"expected a list, found {_kind(value)}", path)
        return value

    def str(self, value: Any, path: str) -> str:
        if not isinstance(value, str):
            self.fail(f"expected a string, found {_kind(value)}", path)
        return value

    def ident(self, value: Any, path: builtins.str) -> builtins.str:
        text = self.str(value, path)
        if not text.strip():
            self.fail("expected a non-empty id", path)
        return text

    def int(self, value: Any, path: builtins.str) -> builtins.int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"expected an integer, found {_kind(value)}", path)
        return value

    def number(self, value: Any, path: builtins.str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(f"expected a number, found {_kind(value)}", path)
        try:
            return float(value)
        except OverflowError:
            self.fail(f"number of {len(str(value))} digits is too large for a float", path)

    def rating(self, value: Any, path: builtins.str) -> builtins.int | None:
        if value is None:
            return None
        lo, hi = RATING_RANGE
        rating = self.int(value, path)
        if not lo <= rating <= hi:
            self.fail(f"rating out of range: expected {lo} to {hi}, found {rating}", path)
        return rating

    def ref_to(self, value: Any, path: builtins.str, exists: Callable[[builtins.str], bool], what: builtins.str) -> builtins.str:
        ident = self.ident(value, path)
        if not exists(ident):
            self.fail(f"unknown {what} {ident!r}", path)
        return ident

    def keys(self, value: Any, path: builtins.str, required: set[builtins.str], optional: set[builtins.str] | frozenset[builtins.str] = frozenset()) -> None:
        obj = self.obj(value, path)
        for key in sorted(required):
            if key not in obj:
                self.fail(f"missing field {key!r}", path)
        unknown = sorted(set(obj) - required - set(optional))
        if unknown:
            self.fail(f"unknown field {unknown[0]!r}", f"{path}.{unknown[0]}")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MIGRATIONS",
    "SUFFIX",
    "BundleChangedOnDisk",
    "BundleLocked",
    "DataError",
    "LoadedBundle",
    "bundle_transaction",
    "content_hash",
    "default_score_file",
    "disk_hash",
    "dumps",
    "load_bundle",
    "loads",
    "read_bundle",
    "project_from_dict",
    "project_to_dict",
    "save_bundle",
    "score_file_problem",
]
