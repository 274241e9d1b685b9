"""Google's raw MQM ratings TSV written back: the project's MQM judgments as rows,
in the columns, quoting and No-error spelling of the file they came from (see
``io.judgments.mqm`` for the format and its quirks)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Judgment, Project
from mtworkbench.core.mqm_typology import UNBABEL_SCALE
from mtworkbench.io.judgments.mqm import (
    ALIASES,
    COLUMNS_ATTRIBUTE,
    DEFAULT_COLUMNS,
    DOC_IDS_ATTRIBUTE,
    MISC,
    NO_ERROR,
    NO_ERROR_ATTRIBUTE,
    QUOTING_ATTRIBUTE,
    UNNAMED,
)
from mtworkbench.io.judgments.mqm_markers import insert_markers


def _layout(project: Project) -> tuple[list[str], str, tuple[str, str]]:
    """Columns, quoting (``""``, ``"csv"`` or ``"csv-all"``) and the No-error spelling of
    the file the project came from."""
    for doc in project.documents:
        keys = (COLUMNS_ATTRIBUTE, QUOTING_ATTRIBUTE, NO_ERROR_ATTRIBUTE)
        if any(k in doc.attributes for k in keys):
            columns = doc.attributes.get(COLUMNS_ATTRIBUTE)
            category, _, severity = doc.attributes.get(NO_ERROR_ATTRIBUTE, f"{NO_ERROR}\t{NO_ERROR}").partition("\t")
            return ((columns.split(",") if columns else list(DEFAULT_COLUMNS)),
                    doc.attributes.get(QUOTING_ATTRIBUTE, ""), (category, severity))
    return list(DEFAULT_COLUMNS), "", (NO_ERROR, NO_ERROR)


def _doc_ids(project: Project) -> dict[str, str]:
    out: dict[str, str] = {}
    for doc in project.documents:
        segments = [s for p in doc.paragraphs for s in p.segments]
        stored = dict(item.split("=", 1) for item in doc.attributes.get(DOC_IDS_ATTRIBUTE, "").split() if "=" in item)
        for k, seg in enumerate(segments, 1):
            out[seg.id] = stored.get(seg.id, str(k))
    return out


def _misc(j: Judgment) -> str:
    """A misc field for a file with both a comment and a misc column (whose misc texts are
    not kept): the judgment's Unbabel score."""
    return json.dumps({"mqm": j.score}) if j.score is not None and j.scale == UNBABEL_SCALE else ""


def mqm_rows(project: Project) -> list[dict[str, str]]:
    """One dict per row (column -> text), markers reinserted, judgments in project order.
    ``comment`` is the row's note (the comment, or Unbabel's misc text); ``misc`` the misc
    text derived from the score, for a file that had both columns."""
    doc_ids = _doc_ids(project)
    no_error_category, no_error_severity = _layout(project)[2]
    rows = []
    for j in project.judgments:
        if j.protocol != "mqm" or j.qc:
            continue
        target = j.text if j.text is not None else project.system_text(j.system, j.segment)
        source = project.segment(j.segment).source
        base = {"system": j.system, "doc": project.document_of(j.segment), "doc_id": doc_ids[j.segment],
                "seg_id": j.segment, "rater": j.judge, MISC: _misc(j), UNNAMED: _misc(j)}
        if not j.errors:
            rows.append(dict(base, source=source, target=target, category=no_error_category,
                             severity=no_error_severity, comment=j.comment))
        for e in j.errors:
            span = (e.start, e.end)
            source_span = (e.source_start, e.source_end)
            rows.append(dict(base, source=insert_markers(source, source_span), target=insert_markers(target, span),
                             category=e.category, severity=e.severity, comment=e.comment))
    return rows


def _canonical(column: str) -> str:
    return ALIASES.get(column.lower(), column.lower())


def _keys(columns: list[str]) -> list[str]:
    """The row key of each column: the note (comment or Unbabel's misc text) goes to the
    comment column, else to the misc or unnamed last one."""
    canonical = [_canonical(c) for c in columns]
    note = next((c for c in ("comment", MISC, UNNAMED) if c in canonical), None)
    return ["comment" if c == note else c for c in canonical]


def mqm_table(project: Project, rows: list[dict[str, str]] | None = None) -> str:
    columns, quoting, _ = _layout(project)
    rows = mqm_rows(project) if rows is None else rows
    keys = _keys(columns)
    header = list(columns)
    while header and header[-1] == UNNAMED:  # a column the file's header did not name
        header.pop()
    if quoting:
        out = io.StringIO(newline="")
        writer = csv.writer(out, delimiter="\t", lineterminator="\n", quotechar='"',
                            quoting=csv.QUOTE_ALL if quoting == "csv-all" else csv.QUOTE_MINIMAL)
        writer.writerow(header)
        writer.writerows([row[k] for k in keys] for row in rows)
        return out.getvalue()
    lines = ["\t".join(header)]
    for row in rows:
        for c, k in zip(map(_canonical, columns), keys):
            if "\t" in row[k] or "\n" in row[k] or "\r" in row[k]:
                raise DataError(
                    f"segment {row['seg_id']!r} of {row['system']!r}: the {c or 'last'} column has a tab or line "
                    "break, which Google's unquoted MQM TSV cannot hold"
                )
        lines.append("\t".join(row[k] for k in keys))
    return "\n".join(lines) + "\n"


def export_mqm(project: Project, path: str | Path) -> int:
    """Write the project's MQM judgments as Google's TSV; returns the number of rows."""
    from mtworkbench.core.output import write_output

    rows = mqm_rows(project)
    write_output(path, mqm_table(project, rows))
    return len(rows)
