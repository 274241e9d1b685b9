"""The judgments table written: one row per judgment, optional columns only when some
judgment uses them, cells a spreadsheet would run as formulas guarded unless raw."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from mtworkbench.core.model import Judgment, Project
from mtworkbench.core.spreadsheet import format_row, neutralise
from mtworkbench.io.judgments.judgments import COLUMNS, OPTIONAL_COLUMNS


def number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def judgments_table(judgments: Sequence[Judgment], delimiter: str = ",", raw: bool = False) -> str:
    """The table as text; optional columns only when some judgment uses them.

    Cells a spreadsheet would evaluate (``=cmd``, ``+1+1``, ``@SUM``) get a leading
    ``'`` unless ``raw``; ``read_judgment_rows`` removes it again.
    """
    extra = [
        name
        for name in OPTIONAL_COLUMNS
        if any(getattr(j, name) not in (None, "") for j in judgments)
    ]
    out = [format_row(COLUMNS + tuple(extra), delimiter)]
    for j in judgments:
        row = [
            j.judge,
            j.system,
            j.segment,
            j.reference or "",
            "" if j.adequacy is None else str(j.adequacy),
            "" if j.fluency is None else str(j.fluency),
            number_text(j.seconds),
            j.comment,
        ]
        for name in extra:
            value = getattr(j, name)
            row.append("" if value is None else (repr(float(value)) if name == "score" else str(value)))
        out.append(format_row(row if raw else [neutralise(cell) for cell in row], delimiter))
    return "".join(out)


def ordered_judgments(project: Project) -> list[Judgment]:
    """By judge, then document order; a judge's repeats of an item stay in the order made."""
    return sorted(project.judgments, key=lambda j: (j.judge, project.segment_position(j.segment), j.system))


def export_judgments(project: Project, path: str | Path, raw: bool = False) -> int:
    """Write the project's judgments (``ordered_judgments``); returns how many."""
    from mtworkbench.core.output import write_output

    judgments = ordered_judgments(project)
    delimiter = "\t" if str(path).lower().endswith(".tsv") else ","
    write_output(path, judgments_table(judgments, delimiter, raw))
    return len(judgments)
