"""Metric scores computed elsewhere (COMET, MetricX, BLEURT, ...) stored in a project.

A project keeps them as one plain JSON object, ``project.external_scores``, saved
under the bundle's optional top-level key ``external_scores`` (absent when empty,
so older bundles and their readers are unaffected)::

    {"COMET": {"higher_is_better": true,
               "systems": {"A": {"segments": {"s1": 0.81, "s2": null, ...}, "system": null}},
               "provenance": [{"file": "comet.A.txt", "sha256": "...", "date": "2026-...Z",
                               "level": "segment", "systems": ["A"]}]}}

Segment scores are keyed by segment id (null = no score); ``system`` is a
system-level score from a ``*.sys.score`` file, else null (the mean of the
segments is used). Readers: one score per line in segment order, and
mt-metrics-eval's ``SYSTEM<whitespace>SCORE`` files (``NAME-REF.seg.score`` with a
block of one line per segment for each system, ``NAME-REF.sys.score`` with one line
per system).
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mtworkbench.core.errors import BundleError, DataError
from mtworkbench.core.model import Project
from mtworkbench.core.text_display import shown
from mtworkbench.io.corpora.plaintext import read_text, split_lines

MISSING = frozenset({"", "none", "na", "nan", "null"})
_NAME = re.compile(r"^[^\s:,=]+$")


def check_metric_name(name: str) -> str:
    name = name.strip()
    if not _NAME.match(name):
        raise DataError(f"metric name {name!r}: expected a non-empty name without spaces, ':', ',' or '='")
    return name


def _score(value: str, where: str, allow_missing: bool = True) -> float | None:
    value = value.strip()
    if value.lower() in MISSING:
        if allow_missing:
            return None
        raise DataError(f"{where}: expected a number, found {value!r}")
    try:
        number = float(value)
    except ValueError:
        raise DataError(f"{where}: expected a number, found {value!r}") from None
    if not math.isfinite(number):
        raise DataError(f"{where}: expected a finite number, found {value!r}")
    return number + 0.0  # -0.0 is the same score as 0


def file_provenance(path: str | Path, level: str, systems: list[str]) -> dict[str, Any]:
    data = Path(path).read_bytes()
    return {
        "file": shown(Path(path).name),
        "sha256": hashlib.sha256(data).hexdigest(),
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "level": level,
        "systems": systems,
    }


# --- readers ----------------------------------------------------------------------------
def read_score_lines(path: str | Path) -> list[float | None]:
    """One score per line (line i = segment i); an empty or None line = no score."""
    lines = split_lines(read_text(path, strip_bom=True))
    return [_score(line, f"{path}:{i}") for i, line in enumerate(lines, 1)]


@dataclass
class SystemScoreFile:
    """An mt-metrics-eval score file: system -> its scores in file order."""

    level: str  # "seg" or "sys"
    scores: dict[str, list[float | None]] = field(default_factory=dict)


def mt_metrics_eval_level(path: str | Path) -> str:
    name = Path(path).name
    for level in ("seg", "sys"):
        if name.endswith(f".{level}.score"):
            return level
    raise DataError(f"{path}: expected an mt-metrics-eval score file named NAME.seg.score or NAME.sys.score")


def read_system_scores(path: str | Path, level: str | None = None) -> SystemScoreFile:
    """``SYSTEM<whitespace>SCORE`` lines; a segment file holds a block per system."""
    level = level or mt_metrics_eval_level(path)
    out = SystemScoreFile(level)
    last = None
    for i, line in enumerate(split_lines(read_text(path, strip_bom=True)), 1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2:
            raise DataError(f"{path}:{i}: expected SYSTEM and SCORE separated by a tab, found {line!r}")
        system, value = parts
        if system in out.scores and system != last:
            raise DataError(f"{path}:{i}: the lines of system {system!r} are not one contiguous block")
        if level == "sys" and system in out.scores:
            raise DataError(f"{path}:{i}: system {system!r} has a second system-level score")
        out.scores.setdefault(system, []).append(_score(value, f"{path}:{i}"))
        last = system
    if not out.scores:
        raise DataError(f"{path}: no scores")
    return out


# --- storing in a project ---------------------------------------------------------------
def _record(project: Project, metric: str, higher_is_better: bool | None) -> dict[str, Any]:
    rec = project.external_scores.get(metric)
    if rec is None:
        rec = {"higher_is_better": True if higher_is_better is None else higher_is_better,
               "systems": {}, "provenance": []}
        project.external_scores[metric] = rec
        spec = f"ext:{metric}"
        if spec not in project.settings.metrics:  # shown like every other metric from now on
            project.set_setting("metrics", [*project.settings.metrics, spec])
    elif higher_is_better is not None:
        rec["higher_is_better"] = higher_is_better
    return rec


def _system_entry(rec: dict[str, Any], system: str) -> dict[str, Any]:
    return rec["systems"].setdefault(system, {"segments": {}, "system": None})


def _check_system(project: Project, system: str, source: str | Path) -> None:
    if not project.has_system(system):
        raise DataError(f"{source}: no system {system!r} in the project; systems: "
                        + ", ".join(s.id for s in project.systems))


def _segment_map(project: Project, values: list[float | None], source: str | Path, system: str) -> dict:
    if len(values) != len(project.segments):
        raise DataError(f"{source}: {len(values)} scores for system {system!r}, but the project has "
                        f"{len(project.segments)} segments (one score per segment, in document order)")
    return {sid: v for sid, v in zip(project.segment_ids, values)}


@dataclass
class ExternalImport:
    metric: str
    systems: list[str]
    level: str
    skipped: list[str] = field(default_factory=list)


def import_score_lines(project: Project, metric: str, path: str | Path, system: str | None = None,
                       higher_is_better: bool | None = None) -> ExternalImport:
    """Segment scores of one system, one per line in segment order."""
    metric = check_metric_name(metric)
    if not system:
        raise DataError(f"{path}: one score per line belongs to one system: name it")
    _check_system(project, system, path)
    segments = _segment_map(project, read_score_lines(path), path, system)
    rec = _record(project, metric, higher_is_better)
    _system_entry(rec, system)["segments"] = segments
    rec["provenance"].append(file_provenance(path, "segment", [system]))
    return ExternalImport(metric, [system], "segment")


def import_mt_metrics_eval(project: Project, metric: str, path: str | Path, system: str | None = None,
                           higher_is_better: bool | None = None) -> ExternalImport:
    """All systems of an mt-metrics-eval ``.seg.score`` or ``.sys.score`` file.

    Systems the project does not have (e.g. references scored as systems) are
    skipped and reported; every project system present must be complete. The file
    names its systems, so ``system`` is not used.
    """
    metric = check_metric_name(metric)
    parsed = read_system_scores(path)
    known = [s for s in parsed.scores if project.has_system(s)]
    skipped = [s for s in parsed.scores if not project.has_system(s)]
    if not known:
        raise DataError(f"{path}: none of its systems ({', '.join(parsed.scores)}) is in the project; "
                        f"systems: {', '.join(s.id for s in project.systems)}")
    checked: dict[str, Any] = {}
    for system in known:
        values = parsed.scores[system]
        if parsed.level == "seg":
            checked[system] = _segment_map(project, values, path, system)
        else:
            if values[0] is None:
                raise DataError(f"{path}: system {system!r}: expected a number, found None")
            checked[system] = values[0]
    rec = _record(project, metric, higher_is_better)
    for system, value in checked.items():
        entry = _system_entry(rec, system)
        if parsed.level == "seg":
            entry["segments"] = value
        else:
            entry["system"] = value
    level = "segment" if parsed.level == "seg" else "system"
    rec["provenance"].append(file_provenance(path, level, known))
    return ExternalImport(metric, known, level, skipped)


def default_metric_name(path: str | Path) -> str:
    """``COMET-22-refA.seg.score`` -> ``COMET-22-refA``."""
    name = shown(Path(path).name)  # a metric's name is data: text, even from a name that is not UTF-8
    for suffix in (".seg.score", ".sys.score"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return shown(Path(path).stem)


# --- bundle saving and validation -------------------------------------------------------
def bundle_value(project: Project) -> dict[str, Any]:
    """What the bundle stores: the imported scores of systems and segments the project
    still has (a system removed in the app keeps its scores in memory, so undo brings
    them back, but a saved file never names a system it lacks)."""
    segments = set(project.segment_ids)
    out: dict[str, Any] = {}
    for metric, rec in project.external_scores.items():
        systems = {
            system: {"segments": {k: v for k, v in entry.get("segments", {}).items() if k in segments},
                     "system": entry.get("system")}
            for system, entry in rec.get("systems", {}).items() if project.has_system(system)
        }
        out[metric] = {"higher_is_better": rec.get("higher_is_better", True), "systems": systems,
                       "provenance": rec.get("provenance", [])}
    return out



def check_bundle_value(value: Any, project: Project, file: str | None) -> dict[str, Any]:
    """Validate ``$.external_scores`` of a bundle against the loaded project."""
    base = "$.external_scores"

    def fail(message: str, path: str) -> None:
        raise BundleError(message, path, file)

    if not isinstance(value, dict):
        fail(f"expected an object, found {type(value).__name__}", base)
    for metric, rec in value.items():
        p = f"{base}.{metric}"
        if not isinstance(metric, str) or not _NAME.match(metric):
            fail("expected a metric name without spaces, ':', ',' or '='", p)
        if not isinstance(rec, dict):
            fail(f"expected an object, found {type(rec).__name__}", p)
        unknown = set(rec) - {"higher_is_better", "systems", "provenance"}
        if unknown:
            fail(f"unknown key {min(unknown)!r}; expected higher_is_better, systems, provenance", p)
        if not isinstance(rec.get("higher_is_better", True), bool):
            fail("expected true or false", f"{p}.higher_is_better")
        systems = rec.get("systems", {})
        if not isinstance(systems, dict):
            fail("expected an object of systems", f"{p}.systems")
        for system, entry in systems.items():
            sp = f"{p}.systems.{system}"
            if not project.has_system(system):
                fail(f"unknown system {system!r}", sp)
            if not isinstance(entry, dict) or set(entry) - {"segments", "system"}:
                fail("expected an object with segments and system", sp)
            sys_value = entry.get("system")
            if sys_value is not None and not _finite(sys_value):
                fail(f"expected a number or null, found {sys_value!r}", f"{sp}.system")
            segments = entry.get("segments", {})
            if not isinstance(segments, dict):
                fail("expected an object of segment id -> score", f"{sp}.segments")
            for seg, v in segments.items():
                if not project.has_segment(seg):
                    fail(f"unknown segment {seg!r}", f"{sp}.segments.{seg}")
                if v is not None and not _finite(v):
                    fail(f"expected a number or null, found {v!r}", f"{sp}.segments.{seg}")
        if not isinstance(rec.get("provenance", []), list):
            fail("expected a list", f"{p}.provenance")
    return value


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
