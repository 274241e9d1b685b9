"""One file of segment-level human scores for every system at once.

The layout of WMT's MQM and DA releases (``mqm.tsv`` here): a tab-separated
header ``system<TAB>seg_id<TAB>SCORE`` (SCORE named ``mqm``, ``score``, ``da``,
``z`` or ``raw``), then one row per system and segment. Rows of systems the
project does not have (e.g. the references scored as systems) are left out and
reported, so one import covers all the systems of WMT21 en-de.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Project
from mtworkbench.io.judgments.judgments import SCORE_COLUMNS, JudgmentImport, plan_scores, read_system_scores

__all__ = ["SCORE_COLUMNS", "SystemScoresImport", "plan_all_systems", "read_system_scores", "score_column"]


@dataclass
class SystemScoresImport:
    """The judgments of every matched system, and the file's systems left out."""

    plan: JudgmentImport
    systems: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    # rows of each skipped system (rated or not): what the import left out, to say so
    skipped_rows: dict[str, int] = field(default_factory=dict)

    def skipped_note(self) -> str:
        """What was left out and why, in one sentence; empty when nothing was."""
        if not self.skipped:
            return ""
        rows = sum(self.skipped_rows.values())
        return (f"skipped {rows:,} row{'' if rows == 1 else 's'} of {', '.join(self.skipped)}: not systems of the project "
                "(import the references as systems to keep them)")


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
    return SystemScoresImport(plan, matched, skipped, {name: len(table[name]) for name in skipped})


def score_column(path: str | Path) -> str:
    """The name of the table's score column (``mqm``, ``da``, ...), lower-case."""
    from mtworkbench.io.corpora.plaintext import read_text

    header = read_text(path, strip_bom=True).split("\n", 1)[0]
    fields = [f.strip().lower() for f in header.replace(",", "\t").split("\t")]
    if len(fields) != 3 or fields[2] not in SCORE_COLUMNS:
        raise DataError(f"{path}:1: expected the header system, seg_id and {' or '.join(SCORE_COLUMNS)}, "
                        f"found {header[:200]!r}")
    return fields[2]
