"""ESA and DA judgments as CSV (one judgment per row, comma-separated, csv quoting).

ESA (error span annotation): ``rater,system,segment,score,errors`` and optionally
``reference,qc,text,seconds,timestamp,comment`` (``qc``/``text`` as for DA; written only
when the project has ESA quality-control items, so other exports stay as they were). ``score`` is the 0-100 segment score;
``errors`` lists the marked spans as ``START-END:SEVERITY`` items separated by
``;`` (character offsets into the translation, ``[START, END)``; severity
``minor`` or ``major``); empty = no errors. A project whose ESA judgments started from a
model's error spans adds ``suggestions`` (``START-END:SEVERITY[:CATEGORY]=DECISION[@ERROR]``
items, DECISION kept, changed or deleted, ERROR the 1-based item of ``errors`` the suggestion
became) and ``suggested_by`` (``MODEL sha256:FINGERPRINT``).

DA (direct assessment): ``rater,system,segment,score`` and optionally
``reference,qc,text,seconds,timestamp,comment``. ``score`` is the 0-100 slider;
``reference`` the reference shown (empty: source-based); ``qc`` is ``bad`` for a
quality-control item, whose degraded ``text`` the rater saw.

``segment`` is the segment id (or its 1-based number when it is not an id). A
row naming an unknown system, segment or reference, or a malformed value, is
refused with file, line and column; nothing is imported from such a file.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import ErrorSpan, Judgment, Project
from mtworkbench.core.spreadsheet import restore, table_text
from mtworkbench.core.suggested_spans import SpanOutcome, SuggestedSpan, format_outcomes

SCORE_RANGE = (0.0, 100.0)
ESA_SEVERITIES = ("minor", "major")
COLUMNS = {
    "esa": (("rater", "system", "segment", "score", "errors"),
            ("reference", "qc", "text", "seconds", "timestamp", "comment", "suggestions", "suggested_by")),
    "da": (("rater", "system", "segment", "score"), ("reference", "qc", "text", "seconds", "timestamp", "comment")),
}
_ERROR = re.compile(r"^\s*(\d+)\s*-\s*(\d+)\s*:\s*(\S+)\s*$")
_SUGGESTION = re.compile(r"^\s*(\d+)-(\d+):([^:=;]+)(?::([^=;]*))?=(kept|changed|deleted)(?:@(\d+))?\s*$")
_MODEL = re.compile(r"^\s*(\S+) sha256:([0-9a-f]*)\s*$")
SUGGESTION_COLUMNS = ("suggestions", "suggested_by")


def format_errors(errors: tuple[ErrorSpan, ...]) -> str:
    return ";".join(f"{e.start}-{e.end}:{e.severity}" for e in errors)


def parse_errors(text: str, where: str) -> tuple[ErrorSpan, ...]:
    out = []
    for item in filter(None, (part.strip() for part in text.split(";"))):
        m = _ERROR.match(item)
        if not m:
            raise DataError(f"{where}, column 'errors': expected START-END:SEVERITY items separated by ';', found {item!r}")
        severity = m.group(3).lower()
        if severity not in ESA_SEVERITIES:
            raise DataError(f"{where}, column 'errors': severity must be minor or major, found {m.group(3)!r}")
        out.append(ErrorSpan(int(m.group(1)), int(m.group(2)), severity))
    return tuple(out)


def model_cell(outcomes: tuple[SpanOutcome, ...]) -> str:
    models = {(o.suggestion.model, o.suggestion.fingerprint) for o in outcomes}
    if len(models) > 1:
        raise DataError(f"a judgment's suggested spans come from one model, not {len(models)}")
    return "".join(f"{m} sha256:{f}" for m, f in models)


def parse_suggestions(text: str, model: str, where: str, n_errors: int) -> tuple[SpanOutcome, ...]:
    """The ``suggestions`` cell (``format_outcomes``), with the ``suggested_by`` cell's model."""
    items = [part for part in (p.strip() for p in text.split(";")) if part]
    if not items:
        return ()
    m = _MODEL.match(model)
    if not m:
        raise DataError(f"{where}, column 'suggested_by': expected MODEL sha256:FINGERPRINT, found {model!r}")
    out = []
    for item in items:
        found = _SUGGESTION.match(item)
        if not found:
            raise DataError(f"{where}, column 'suggestions': expected START-END:SEVERITY[:CATEGORY]=kept|changed|"
                            f"deleted[@ERROR] items separated by ';', found {item!r}")
        start, end, severity, category, decision, error = found.groups()
        index = None if error is None else int(error) - 1
        if (index is None) != (decision == "deleted") or (index is not None and not 0 <= index < n_errors):
            raise DataError(f"{where}, column 'suggestions': {item!r} needs @ERROR (1 to {n_errors}) when kept or "
                            "changed, and none when deleted")
        suggestion = SuggestedSpan(int(start), int(end), severity, category or "", None, m.group(1), m.group(2))
        out.append(SpanOutcome(suggestion, decision, index))
    return tuple(out)


def parse_number(value: str, where: str, column: str, lo: float | None = None, hi: float | None = None) -> float:
    try:
        number = float(value.strip())
    except ValueError:
        raise DataError(f"{where}, column {column!r}: expected a number, found {value!r}") from None
    if not math.isfinite(number) or (lo is not None and number < lo) or (hi is not None and number > hi):
        bounds = f" from {lo:g} to {hi:g}" if lo is not None and hi is not None else (
            " not below 0" if lo is not None else "")
        raise DataError(f"{where}, column {column!r}: expected a finite number{bounds}, found {value!r}")
    return number + 0.0


def plan_protocol_csv(project: Project, path: str | Path, protocol: str):
    """The judges and judgments an ESA or DA CSV adds (nothing is changed yet)."""
    from mtworkbench.io.judgments.judgments import (
        JudgmentImport,
        fresh_id,
        numbered_rows,
        read_csv_header,
        row_rater,
        row_segment_and_reference,
    )

    required, optional = COLUMNS[protocol]
    reader, header = read_csv_header(path)
    missing = [c for c in required if c not in header]
    if missing:
        raise DataError(f"{path}:1: header lacks column {missing[0]!r}; expected {','.join(required)} "
                        f"(optionally {','.join(optional)})")
    unknown = [h for h in header if h not in required + optional]
    if unknown:
        raise DataError(f"{path}:1, column {header.index(unknown[0]) + 1}: unknown column {unknown[0]!r}; "
                        f"expected {','.join(required + optional)}")
    plan = JudgmentImport()
    known = set(project.judges)
    taken: set[str] = set()
    for start, fields in numbered_rows(reader, path, len(header)):
        where = f"{path}:{start}"
        get = dict(zip(header, (restore(f) for f in fields)))  # undo the export's formula guard
        rater, system = row_rater(get, where), get["system"].strip()
        if not project.has_system(system):
            raise DataError(f"{where}, column 'system': no system {system!r} in the project")
        segment, reference = row_segment_and_reference(project, get, where)
        qc = get.get("qc", "").strip().lower()
        if qc not in ("", "bad"):
            raise DataError(f"{where}, column 'qc': expected empty or bad, found {get['qc']!r}")
        shown = get.get("text") or None
        if qc and shown is None:
            raise DataError(f"{where}, column 'text': a quality-control item needs the text the rater saw")
        errors = parse_errors(get.get("errors", ""), where)
        target = shown if shown is not None else project.system_text(system, segment)
        for e in errors:
            assert e.start is not None and e.end is not None  # parse_errors always places the span
            if not 0 <= e.start <= e.end <= len(target):
                raise DataError(f"{where}, column 'errors': span {e.start}-{e.end} is outside the translation "
                                f"(0-{len(target)})")
        if rater not in known:
            known.add(rater)
            plan.judges.append(rater)
        plan.judgments.append(Judgment(
            fresh_id(lambda: project.new_id("j"), taken), rater, system, segment, reference,
            score=parse_number(get["score"], where, "score", *SCORE_RANGE), scale=protocol, protocol=protocol,
            errors=errors, qc=qc, text=shown,
            suggestions=parse_suggestions(get.get("suggestions", ""), get.get("suggested_by", ""), where,
                                          len(errors)),
            seconds=parse_number(get["seconds"], where, "seconds", 0.0) if get.get("seconds", "").strip() else 0.0,
            timestamp=get.get("timestamp", "").strip(), comment=get.get("comment", ""),
        ))
    return plan


def protocol_table(project: Project, protocol: str, raw: bool = False) -> str:
    """The project's judgments of ``protocol`` (``esa`` or ``da``) as CSV text, project order;
    cells a spreadsheet would run as formulas are guarded unless ``raw`` (``core.spreadsheet``)."""
    from mtworkbench.io.judgments.judgments_export import number_text as seconds_text  # 60 for 60.0, repr otherwise

    required, all_optional = COLUMNS[protocol]
    optional: tuple[str, ...] = all_optional
    if protocol == "esa" and not any(j.qc for j in project.judgments if j.protocol == protocol):
        optional = tuple(c for c in all_optional if c not in ("qc", "text"))
    if not any(j.suggestions for j in project.judgments if j.protocol == protocol):
        optional = tuple(c for c in optional if c not in SUGGESTION_COLUMNS)
    rows: list[list[str]] = [list(required + optional)]
    for j in project.judgments:
        if j.protocol != protocol:
            continue
        values = {"rater": j.judge, "system": j.system, "segment": j.segment,
                  "score": "" if j.score is None else seconds_text(j.score), "errors": format_errors(j.errors),
                  "reference": j.reference or "", "qc": j.qc, "text": j.text or "",
                  "seconds": seconds_text(j.seconds), "timestamp": j.timestamp, "comment": j.comment,
                  "suggestions": format_outcomes(j.suggestions), "suggested_by": model_cell(j.suggestions)}
        rows.append([values[c] for c in required + optional])
    return table_text(rows, raw=raw)


# --- the judgment-format registry's entries --------------------------------------------------
def plan_esa_file(project: Project, path: str | Path):
    return plan_protocol_csv(project, path, "esa")


def plan_da_file(project: Project, path: str | Path):
    return plan_protocol_csv(project, path, "da")


def _export(project: Project, path: str | Path, protocol: str, raw: bool = False) -> int:
    from mtworkbench.core.output import write_output

    write_output(path, protocol_table(project, protocol, raw))
    return sum(1 for j in project.judgments if j.protocol == protocol)


def export_esa(project: Project, path: str | Path, raw: bool = False) -> int:
    return _export(project, path, "esa", raw)


def export_da(project: Project, path: str | Path, raw: bool = False) -> int:
    return _export(project, path, "da", raw)
