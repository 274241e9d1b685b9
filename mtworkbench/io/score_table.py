"""One file of segment-level human scores for every system at once.

The layout of WMT's MQM and DA releases (``mqm.tsv`` here): a tab-separated
header ``system<TAB>seg_id<TAB>SCORE`` (SCORE named ``mqm``, ``score``, ``da``,
``z`` or ``raw``), then one row per system and segment. Rows of systems the
project does not have (e.g. the references scored as systems) are left out and
reported, so one import covers all the systems of WMT21 en-de.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Project
from mtworkbench.io.judgments import JudgmentImport, _parse_score, _read_text, plan_scores

SCORE_COLUMNS = ("mqm", "score", "da", "z", "raw")


@dataclass
class SystemScoresImport:
    """The judgments of every matched system, and the file's systems left out."""

    plan: JudgmentImport
    systems: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def read_system_scores(path: str | Path) -> dict[str, dict[str, float | None]]:
    """system -> segment id -> score (None = not rated), in file order."""
    reader = csv.reader(io.StringIO(_read_text(path), newline=""), delimiter="\t", quoting=csv.QUOTE_NONE)
    header = [h.strip() for h in next(reader, None) or []]
    if len(header) != 3 or header[:2] != ["system", "seg_id"] or header[2].lower() not in SCORE_COLUMNS:
        raise DataError(
            f"{path}:1: expected the tab-separated header system, seg_id and one of "
            f"{', '.join(SCORE_COLUMNS)}; found {header!r}"
        )
    scores: dict[str, dict[str, float | None]] = {}
    for fields in reader:
        line = reader.line_num
        if not fields:
            continue
        if len(fields) != 3:
            raise DataError(f"{path}:{line}: expected 3 tab-separated fields, found {len(fields)}")
        system, segment, value = (f.strip() for f in fields)
        if not system or not segment:
            raise DataError(f"{path}:{line}: the system and seg_id must not be empty")
        rows = scores.setdefault(system, {})
        if segment in rows:
            raise DataError(f"{path}:{line}, column 'seg_id': segment {segment!r} of {system!r} appears twice")
        rows[segment] = _parse_score(value, f"{path}:{line}, column {header[2]!r}")
    if not scores:
        raise DataError(f"{path}: no score rows")
    return scores


def plan_all_systems(project: Project, judge: str, path: str | Path, scale: str) -> SystemScoresImport:
    """Judgments of pseudo-judge ``judge`` for every project system the file scores."""
    table = read_system_scores(path)
    matched = [s.id for s in project.systems if s.id in table]
    if not matched:
        raise DataError(
            f"{path}: none of the file's systems ({', '.join(table)}) is a system of the project "
            f"({', '.join(s.id for s in project.systems)})"
        )
    plan = JudgmentImport(judges=[])
    for system in matched:
        part = plan_scores(project, judge, system, table[system], scale, path)
        plan.judgments += part.judgments  # ids stay unique: the project's id counter only moves on
        plan.judges = plan.judges or part.judges
    skipped = [name for name in table if name not in matched]
    return SystemScoresImport(plan, matched, skipped)
