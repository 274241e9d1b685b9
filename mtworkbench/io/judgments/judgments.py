"""Judgments in and out: CSV/TSV tables, and segment-level human scores as a pseudo-judge.

Table format: a header row naming the columns, then one judgment per row.
Required columns ``judge,system,segment,reference,adequacy,fluency,seconds,comment``
(any order); optional ``score,scale,timestamp`` carry scores on other scales
(DA, MQM), which export writes when any judgment has them. ``segment`` is the
segment's id -- for projects imported from plain text, its 1-based line
number; when a value is not a segment id but an integer n, it is taken as the
n-th segment in document order. Empty ``reference``, ``adequacy``,
``fluency``, ``seconds`` mean none (0 seconds). A ``.tsv`` file, or a header
with a tab in it, is tab-separated; otherwise comma-separated.

Every malformed row is refused with the file, line and column named; nothing
is imported from a file with an error.

Export guards cells a spreadsheet would evaluate (a leading ``=``, ``+``, ``-``,
``@``, TAB or CR, unless the cell is a number) with a leading ``'`` and doubles a
leading ``'``; reading removes one leading ``'`` from every cell, so export ->
import is exact (``core.spreadsheet``). ``raw`` export writes cells unchanged.

Segment-level scores (``read_score_lines``, ``read_mqm_tsv``) become
judgments of a named pseudo-judge with ``score`` and ``scale`` set: a DA
z-score or an MQM value is kept as the number it is (MQM: 0 best, more
negative worse), never squeezed into 1-5. Only ``--scale adequacy`` or
``fluency`` put the values into those 1-5 fields, and then they must be 1-5.
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Judgment, ModelError, Project
from mtworkbench.core.spreadsheet import restore

COLUMNS: tuple[str, ...] = ("judge", "system", "segment", "reference", "adequacy", "fluency", "seconds", "comment")
OPTIONAL_COLUMNS: tuple[str, ...] = ("score", "scale", "timestamp")
LDC_SCALES = ("adequacy", "fluency")
MISSING_SCORES = frozenset({"", "none", "na", "nan", "null"})


@dataclass(frozen=True)
class JudgmentRow:
    """One parsed table row, not yet checked against a project."""

    line: int
    judge: str
    system: str
    segment: str
    reference: str | None
    adequacy: int | None
    fluency: int | None
    seconds: float
    comment: str
    score: float | None = None
    scale: str | None = None
    timestamp: str = ""


@dataclass
class JudgmentImport:
    """What importing a file would add: compute first, then ``apply_import``."""

    judges: list[str] = field(default_factory=list)  # new judges, in order of appearance
    judgments: list[Judgment] = field(default_factory=list)
    # The project's MQM typology before the import added the categories it lacked (None: none added).
    typology_before: Any = None
    # Judgments of the file the project holds already, record for record (a file imported
    # twice): left out by ``apply_import`` rather than counted twice.
    already_present: int = 0

    def summary(self) -> str:
        """What the import added, in words, saying what it left out as already there."""
        if not self.judgments and self.already_present:
            return (f"nothing imported: all {self.already_present} judgments are in the project already "
                    "(the same records were imported before)")
        text = f"imported {len(self.judgments)} judgments"
        if self.already_present:
            text += f"; {self.already_present} already in the project (the same records) were not added again"
        return text


def _delimiter(path: str | Path, header_line: str) -> str:
    if str(path).lower().endswith(".tsv") or "\t" in header_line:
        return "\t"
    return ","


def _read_text(path: str | Path) -> str:
    from mtworkbench.io.corpora.plaintext import read_text

    return read_text(path, strip_bom=True)  # spreadsheets write a BOM


def _parse_rating(value: str, where: str, column: str) -> int | None:
    value = value.strip()
    if value == "":
        return None
    try:
        number = int(value)
    except ValueError:
        number = None
    if number is None or not 1 <= number <= 5:
        raise DataError(f"{where}, column {column!r}: expected an integer from 1 to 5, found {value!r}")
    return number


def _parse_float(value: str, where: str, column: str, non_negative: bool = False) -> float:
    try:
        number = float(value.strip())
    except ValueError:
        raise DataError(f"{where}, column {column!r}: expected a number, found {value!r}") from None
    if not math.isfinite(number):
        raise DataError(f"{where}, column {column!r}: expected a finite number, found {value!r}")
    if non_negative and number < 0:
        raise DataError(f"{where}, column {column!r}: must not be negative, found {value!r}")
    return number + 0.0  # -0.0 -> 0.0


def numbered_rows(reader: Any, path: str | Path, n_fields: int) -> Iterator[tuple[int, list[str]]]:
    """The data rows after the header, each with the number of the line it starts on
    (a quoted field may span lines); blank lines are skipped, a malformed row or one
    without ``n_fields`` fields is refused there."""
    line = reader.line_num
    while True:
        start = line + 1
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise DataError(f"{path}:{start}: {exc}") from None
        line = reader.line_num
        if not fields or (len(fields) == 1 and not fields[0].strip()):
            continue
        if len(fields) != n_fields:
            raise DataError(f"{path}:{start}: expected {n_fields} fields, found {len(fields)}")
        yield start, fields


def read_judgment_rows(path: str | Path) -> list[JudgmentRow]:
    """Parse a judgments CSV/TSV; a malformed row raises DataError naming file, line and column."""
    text = _read_text(path)
    first_line = text.split("\n", 1)[0]
    delimiter = _delimiter(path, first_line)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise DataError(f"{path}:1: {exc}") from None
    if header is None:
        raise DataError(f"{path}: empty file; expected a header row {','.join(COLUMNS)}")
    header = [h.strip().lower() for h in header]
    unknown = [h for h in header if h not in COLUMNS + OPTIONAL_COLUMNS]
    if unknown:
        col = header.index(unknown[0]) + 1
        raise DataError(
            f"{path}:1, column {col}: unknown column {unknown[0]!r}; expected {','.join(COLUMNS)}"
            f" (optionally {','.join(OPTIONAL_COLUMNS)})"
        )
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise DataError(f"{path}:1: header lacks column {missing[0]!r}; expected {','.join(COLUMNS)}")
    duplicated = [h for h in header if header.count(h) > 1]
    if duplicated:
        raise DataError(f"{path}:1: column {duplicated[0]!r} appears twice")
    index = {name: i for i, name in enumerate(header)}

    rows: list[JudgmentRow] = []
    for start, fields in numbered_rows(reader, path, len(header)):
        fields = [restore(f) for f in fields]  # undo the export's formula guard
        where = f"{path}:{start}"
        get = {name: fields[i] for name, i in index.items()}
        for name in ("judge", "system", "segment"):
            if not get[name].strip():
                raise DataError(f"{where}, column {name!r}: must not be empty")
        score = None
        if get.get("score", "").strip():
            score = _parse_float(get["score"], where, "score")
        scale = get.get("scale", "").strip() or None
        if score is not None and scale is None:
            raise DataError(f"{where}, column 'scale': a score needs its scale named")
        adequacy = _parse_rating(get["adequacy"], where, "adequacy")
        fluency = _parse_rating(get["fluency"], where, "fluency")
        if adequacy is None and fluency is None and score is None:
            raise DataError(f"{where}: a judgment needs adequacy, fluency or a score")
        seconds = _parse_float(get["seconds"], where, "seconds", non_negative=True) if get["seconds"].strip() else 0.0
        rows.append(
            JudgmentRow(
                line=start,
                judge=get["judge"].strip(),
                system=get["system"].strip(),
                segment=get["segment"].strip(),
                reference=get["reference"].strip() or None,
                adequacy=adequacy,
                fluency=fluency,
                seconds=seconds,
                comment=get["comment"],
                score=score,
                scale=scale,
                timestamp=get.get("timestamp", "").strip(),
            )
        )
    return rows


def rows_to_judgments(rows: Sequence[JudgmentRow]) -> list[Judgment]:
    """Judgments straight from rows, for analysis without a project (ids from line numbers)."""
    return [
        Judgment(
            id=f"line{r.line}",
            judge=r.judge,
            system=r.system,
            segment=r.segment,
            reference=r.reference,
            adequacy=r.adequacy,
            fluency=r.fluency,
            score=r.score,
            scale=r.scale,
            timestamp=r.timestamp,
            seconds=r.seconds,
            comment=r.comment,
        )
        for r in rows
    ]


def read_judgments(path: str | Path) -> list[Judgment]:
    return rows_to_judgments(read_judgment_rows(path))


def resolve_segment(project: Project, value: str) -> str | None:
    """A segment id, or the 1-based position of a segment when ``value`` is not an id."""
    if project.has_segment(value):
        return value
    try:
        n = int(value)
    except ValueError:
        return None
    if 1 <= n <= len(project.segments) and str(n) == value.strip():
        return project.segments[n - 1].id
    return None


def read_csv_header(path: str | Path) -> tuple[Any, list[str]]:
    """A strict csv reader over the file (a BOM dropped) and its header, stripped and
    lowercased; the reader stands at the first data row (``numbered_rows``)."""
    reader = csv.reader(io.StringIO(_read_text(path), newline=""), strict=True)
    try:
        header = [h.strip().lower() for h in next(reader, [])]
    except csv.Error as exc:
        raise DataError(f"{path}:1: {exc}") from None
    return reader, header


def row_rater(get: dict[str, str], where: str) -> str:
    """The row's ``rater`` column, which must not be empty."""
    rater = get["rater"].strip()
    if not rater:
        raise DataError(f"{where}, column 'rater': must not be empty")
    return rater


def row_segment_and_reference(project: Project, get: dict[str, str], where: str) -> tuple[str, str | None]:
    """The segment the row's ``segment`` column names (id or 1-based number) and its
    optional ``reference`` (empty: none), both checked against the project."""
    segment = resolve_segment(project, get["segment"].strip())
    if segment is None:
        raise DataError(f"{where}, column 'segment': no segment {get['segment']!r} in the project")
    reference = get.get("reference", "").strip() or None
    if reference is not None and not project.has_reference(reference):
        raise DataError(f"{where}, column 'reference': no reference {reference!r} in the project")
    return segment, reference


def fresh_id(new: Callable[[], str], taken: set[str]) -> str:
    """An id from ``new`` not in ``taken`` (the ids an import has handed out already,
    which the project does not know yet); added to ``taken``."""
    candidate = new()
    while candidate in taken:
        candidate = new()
    taken.add(candidate)
    return candidate


def plan_import(project: Project, rows: Sequence[JudgmentRow], path: str | Path) -> JudgmentImport:
    """Check rows against the project; nothing is changed."""
    plan = JudgmentImport()
    known_judges = set(project.judges)
    taken: set[str] = set()
    for r in rows:
        where = f"{path}:{r.line}"
        if not project.has_system(r.system):
            raise DataError(f"{where}, column 'system': no system {r.system!r} in the project")
        segment = resolve_segment(project, r.segment)
        if segment is None:
            raise DataError(
                f"{where}, column 'segment': no segment {r.segment!r} (neither an id nor a line number "
                f"1-{len(project.segments)})"
            )
        if r.reference is not None and not project.has_reference(r.reference):
            raise DataError(f"{where}, column 'reference': no reference {r.reference!r} in the project")
        if r.judge not in known_judges:
            known_judges.add(r.judge)
            plan.judges.append(r.judge)
        judgment_id = fresh_id(lambda: project.new_id("j"), taken)
        plan.judgments.append(
            Judgment(
                id=judgment_id,
                judge=r.judge,
                system=r.system,
                segment=segment,
                reference=r.reference,
                adequacy=r.adequacy,
                fluency=r.fluency,
                score=r.score,
                scale=r.scale,
                timestamp=r.timestamp,
                seconds=r.seconds,
                comment=r.comment,
            )
        )
    return plan


def judgment_record(j: Judgment) -> Judgment:
    """A judgment as a record, its id aside: two judgments with the same record are one
    rating imported twice (same judge, item, ratings, errors, comment and time)."""
    return replace(j, id="")


def drop_already_present(project: Project, plan: JudgmentImport) -> None:
    """Leave out of ``plan`` each judgment whose record the project holds already, one
    for one (a file with two equal rows imported again adds neither). A judge's other
    rating of the same item (another session, another file) is kept: a real repeat."""
    held = Counter(judgment_record(j) for j in project.judgments)
    kept = []
    for j in plan.judgments:
        record = judgment_record(j)
        if held[record] > 0:
            held[record] -= 1
            plan.already_present += 1
        else:
            kept.append(j)
    if plan.already_present:
        plan.judgments = kept
        used = {j.judge for j in kept}
        plan.judges = [judge for judge in plan.judges if judge in used]


def apply_import(project: Project, plan: JudgmentImport) -> None:
    """Add the planned judges and judgments, but for those already present (see
    ``drop_already_present``). All or nothing: on an error the project is restored."""
    drop_already_present(project, plan)
    added_judges: list[str] = []
    added: list[str] = []
    try:
        for judge in plan.judges:
            project.add_judge(judge)
            added_judges.append(judge)
        for j in plan.judgments:
            project.add_judgment(j)
            added.append(j.id)
        # Categories of imported MQM errors that the typology lacks are added, not dropped.
        from mtworkbench.core.typology_edits import add_missing_categories

        plan.typology_before = add_missing_categories(project, plan.judgments)
    except ModelError:
        for jid in reversed(added):
            project.remove_judgment(jid)
        for judge in reversed(added_judges):
            project.remove_judge(judge)
        raise


def revert_import(project: Project, plan: JudgmentImport) -> None:
    """The inverse of ``apply_import`` (for an undo command)."""
    if plan.typology_before is not None:
        project.set_setting("mqm_typology", plan.typology_before)
    for j in reversed(plan.judgments):
        project.remove_judgment(j.id)
    for judge in reversed(plan.judges):
        project.remove_judge(judge)


def plan_table_file(project: Project, path: str | Path) -> JudgmentImport:
    """The judgments table's plan (the judgment-format registry's reader)."""
    return plan_import(project, read_judgment_rows(path), path)


def import_judgments(project: Project, path: str | Path) -> JudgmentImport:
    plan = plan_import(project, read_judgment_rows(path), path)
    apply_import(project, plan)
    return plan


# --- segment-level scores as a pseudo-judge -----------------------------------------------
def _parse_score(value: str, where: str) -> float | None:
    value = value.strip()
    if value.lower() in MISSING_SCORES:
        return None
    try:
        number = float(value)
    except ValueError:
        raise DataError(f"{where}: expected a number, found {value!r}") from None
    if not math.isfinite(number):
        raise DataError(f"{where}: expected a finite number, found {value!r}")
    return number + 0.0  # MQM writes -0.000000: the same number as 0


def read_score_lines(path: str | Path) -> list[float | None]:
    """One score per line (line i = segment i); empty or None/NA lines mean not rated."""
    from mtworkbench.io.corpora.plaintext import read_text, split_lines

    return [_parse_score(line, f"{path}:{i}") for i, line in enumerate(split_lines(read_text(path, strip_bom=True)), 1)]


# Score columns a ``system<TAB>seg_id<TAB>SCORE`` table may name (WMT's MQM and DA releases).
SCORE_COLUMNS = ("mqm", "score", "da", "z", "raw")


def read_system_scores(
    path: str | Path, columns: tuple[str, ...] = SCORE_COLUMNS
) -> dict[str, dict[str, float | None]]:
    """The ``system<TAB>seg_id<TAB>SCORE`` table: system -> segment id -> score (None =
    not rated), in file order; SCORE is one of ``columns``."""
    text = _read_text(path)
    # WMT's files are tab-separated; a spreadsheet's export of the same table may be comma-separated
    if _delimiter(path, text.split("\n", 1)[0]) == "\t":
        reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t", quoting=csv.QUOTE_NONE)
    else:
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=",")
    try:
        return _system_scores(path, reader, columns)
    except csv.Error as exc:  # e.g. a field longer than the csv module's limit (named in the message)
        raise DataError(f"{path}:{reader.line_num}: {exc}") from None


def _system_scores(path: str | Path, reader, columns: tuple[str, ...]) -> dict[str, dict[str, float | None]]:
    header = [h.strip() for h in next(reader, None) or []]
    if len(header) != 3 or header[:2] != ["system", "seg_id"] or header[2].lower() not in columns:
        raise DataError(
            f"{path}:1: expected the header system, seg_id and {' or '.join(columns)} (tab- or comma-separated), "
            f"found {repr(header)[:200]}"
        )
    scores: dict[str, dict[str, float | None]] = {}
    for fields in reader:
        line = reader.line_num
        if not fields:
            continue
        if len(fields) != 3:
            raise DataError(f"{path}:{line}: expected 3 fields (system, seg_id, score), found {len(fields)}")
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


def read_mqm_tsv(path: str | Path, system: str) -> dict[str, float | None]:
    """The ``system<TAB>seg_id<TAB>mqm`` file: seg_id -> score for one system (empty = not rated)."""
    table = read_system_scores(path, ("mqm",))
    if system not in table:
        raise DataError(f"{path}: no rows for system {system!r}; systems in the file: {', '.join(table)}")
    return table[system]


def plan_scores(
    project: Project,
    judge: str,
    system: str,
    scores: dict[str, float | None],
    scale: str,
    source: str | Path,
) -> JudgmentImport:
    """Judgments of pseudo-judge ``judge`` for ``system`` from segment key -> score.

    Keys are segment ids or 1-based segment numbers. Unrated segments (None)
    get no judgment.
    """
    judge = judge.strip()
    if not judge:
        raise DataError("the pseudo-judge needs a name")
    if not scale:
        raise DataError("the scores need their scale named")
    if not project.has_system(system):
        raise DataError(
            f"no system {system!r} in the project; systems: {', '.join(s.id for s in project.systems)}"
        )
    if any(j.judge == judge and j.system == system for j in project.judgments):
        raise DataError(f"judge {judge!r} already has judgments of system {system!r}")
    plan = JudgmentImport(judges=[] if judge in project.judges else [judge])
    taken: set[str] = set()
    for key, value in scores.items():
        segment = resolve_segment(project, key)
        if segment is None:
            raise DataError(f"{source}: segment {key!r} is not in the project ({len(project.segments)} segments)")
        if value is None:
            continue
        adequacy = fluency = None
        score: float | None = value
        score_scale: str | None = scale
        if scale in LDC_SCALES:
            if not (value.is_integer() and 1 <= value <= 5):
                raise DataError(f"{source}: segment {key!r}: {scale} must be an integer from 1 to 5, found {value!r}")
            adequacy = int(value) if scale == "adequacy" else None
            fluency = int(value) if scale == "fluency" else None
            score, score_scale = None, None
        judgment_id = fresh_id(lambda: project.new_id("j"), taken)
        plan.judgments.append(
            Judgment(
                id=judgment_id,
                judge=judge,
                system=system,
                segment=segment,
                adequacy=adequacy,
                fluency=fluency,
                score=score,
                scale=score_scale,
            )
        )
    return plan


def plan_score_lines(
    project: Project, judge: str, system: str, path: str | Path, scale: str
) -> JudgmentImport:
    values = read_score_lines(path)
    if len(values) != len(project.segments):
        raise DataError(
            f"{path}: {len(values)} lines, but the project has {len(project.segments)} segments "
            "(one score per segment, in document order)"
        )
    keyed = {seg.id: value for seg, value in zip(project.segments, values)}
    return plan_scores(project, judge, system, keyed, scale, path)


def plan_mqm_tsv(
    project: Project, judge: str, system: str, path: str | Path, file_system: str | None = None, scale: str = "mqm"
) -> JudgmentImport:
    """MQM scores of ``file_system`` (default: the project's system id) for ``system``."""
    scores = read_mqm_tsv(path, file_system or system)
    return plan_scores(project, judge, system, scores, scale, path)
