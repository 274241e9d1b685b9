"""Google's raw MQM ratings TSV (``google/wmt-mqm-human-evaluation``) in and out.

The file: a header naming the columns ``system doc doc_id seg_id rater source
target category severity`` and, in most releases, ``comment`` (any order;
``docSegId``/``globalSegId`` are accepted for ``doc_id``/``seg_id``; other
columns are ignored); then one row per error a rater marked. A segment a rater
found flawless has one row with severity ``No-error``. The error's span is
marked in ``target`` with ``<v>`` and ``</v>``; an error marked in the source
(an omission, a source error) has the markers in ``source`` instead; an error
with no place (no markers) is kept without a span.

Quirks of the real files, handled here:

* Most releases are raw tab-separated text with no quoting, where a text may
  start with or contain ``"``; the newstest2020 releases quote fields the way
  Python's csv module does (a field with ``"`` is wrapped in quotes and its
  quotes doubled). A file is read as quoted only when every field that starts
  with ``"`` is such a well-formed quoted field, or when every field is in quotes
  (csv's QUOTE_ALL); an export writes the same way.
* A rater may mark several errors in one segment (several rows), and every row
  repeats the whole source and target. The first row's marker-free texts are
  the segment's source and the system's translation; a rater shown another
  translation keeps it as the judgment's ``text`` (the spans point into it). A
  row showing another source text is refused (naming it and the first row): a
  judgment has no place to keep it, and an export would rewrite it.
* ``seg_id`` numbers the segments of the whole test set and becomes the
  segment id as it is; ``doc_id`` is the segment's 1-based position in its
  document in full files, and is stored (as the document attribute
  ``mqm_doc_ids``) only where it is not.
* One ``<v>...</v>`` pair marks a row's one error; a lone marker reaches the
  text's end or start. Two pairs in one field, a repeated or out-of-order marker,
  or a marker inside a character are refused naming file, line, column and
  character (io/mqm_markers.py): one error has one span.
* The 2023 side-by-side releases end the header with a ``# Documentation: URL``
  note that is no column; put a rater's ``No-error`` row beside a ``HOTW-test``
  quality-control row of the same item (both kept, in file order, as zero-weight
  entries of the judgment, so that the export writes them back); and have rows
  whose span reaches past the text's end, showing the translation with a
  trailing space (such a row keeps its own judgment and text; human scores sum
  a rater's judgments of one item that show different texts).

Unbabel's variant (WMT22 en-ru, read by mt-metrics-eval's converter with
``--unbabel``) adds a ``misc`` column: a JSON object whose ``mqm`` number is the
rater's score of the segment, given on each of the rater's rows; such files are
csv-quoted (the JSON has quotes), which the quoting rule above recognises. A file
is read as Unbabel's when its ``misc`` column (or an unnamed last column that
every row has and the header does not name) holds such objects; every row must
then have one. Each judgment then carries, as its ``score`` on the scale
``mqm.unb``, the mean of the ``mqm`` values of all the rater's rows of the item
(the converter's default; ``human-scores --recompute`` weighs the errors
instead), and each row's ``misc`` text is kept (as the error's comment, or the
judgment's for a ``No-error`` row, when the file has no ``comment`` column) so
that the export writes it back.

Each (rater, system, segment) becomes one MQM judgment of judge ``rater``
carrying its errors in file order; a ``No-error`` row makes a judgment with no
errors ("rated, no errors").
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Document, ErrorSpan, Judgment, Paragraph, Project, Reference, Segment, System
from mtworkbench.core.mqm_typology import UNBABEL_SCALE
from mtworkbench.io.judgments.mqm_markers import CLOSE, OPEN, field_markers, insert_markers, strip_markers
from mtworkbench.io.judgments.mqm_records import split_records

__all__ = ["CLOSE", "OPEN", "insert_markers", "strip_markers"]  # the marker helpers, kept importable here
DEFAULT_COLUMNS: tuple[str, ...] = (
    "system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category", "severity", "comment",
)
MISC = "misc"  # Unbabel's column: JSON with the rater's "mqm" score
UNNAMED = ""  # a last column every row has but the header does not name
KNOWN_COLUMNS: tuple[str, ...] = (*DEFAULT_COLUMNS, MISC)
REQUIRED_COLUMNS: tuple[str, ...] = ("system", "seg_id", "rater", "source", "target", "category", "severity")
# Anthea/Marot exports name two columns differently; an export writes the file's names.
ALIASES = {"docsegid": "doc_id", "globalsegid": "seg_id"}
NO_ERROR = "No-error"
NO_ERROR_NAMES = frozenset({"no-error", "no_error", "noerror", "no error"})
# Document attributes that remember how the file was written, for an export like it.
COLUMNS_ATTRIBUTE = "mqm_columns"
QUOTING_ATTRIBUTE = "mqm_quoting"
DOC_IDS_ATTRIBUTE = "mqm_doc_ids"
NO_ERROR_ATTRIBUTE = "mqm_no_error"  # "category<TAB>severity" when not spelled No-error/No-error
HUMAN_SYSTEM = re.compile(r"^(ref|human)", re.IGNORECASE)


@dataclass(frozen=True)
class MqmRow:
    """One row of the file with its markers taken out."""

    line: int
    system: str
    doc: str
    doc_id: str
    seg_id: str
    rater: str
    source: str  # marker-free
    target: str  # marker-free
    category: str
    severity: str
    comment: str  # the comment column, or the misc text in a file without one
    span: tuple[int | None, int | None] | None  # in target
    source_span: tuple[int | None, int | None] | None
    mqm: float | None = None  # Unbabel's misc "mqm" score of the row

    @property
    def is_no_error(self) -> bool:
        severity = self.severity.strip().lower()
        return severity in NO_ERROR_NAMES or (not severity and self.category.strip().lower() in NO_ERROR_NAMES)

    def error(self) -> ErrorSpan:
        start, end = self.span if self.span else (None, None)
        s_start, s_end = self.source_span if self.source_span else (None, None)
        return ErrorSpan(start, end, self.severity, self.category, self.comment, s_start, s_end)


@dataclass
class MqmFile:
    path: str
    columns: list[str]  # the recognised columns as the header spells them, in file order
    quoted: bool
    rows: list[MqmRow] = field(default_factory=list)
    quote_all: bool = False  # every field was in quotes (csv's QUOTE_ALL)
    # Unbabel's variant: every row's misc column gives an "mqm" score (MqmRow.mqm).
    misc_scores: bool = False


# --- reading -------------------------------------------------------------------------------
def misc_mqm(value: str) -> float | None:
    """The ``mqm`` number of a misc field (``{"mqm": -5.0, ...}``), else None. A field
    still in csv quotes (a quoted file read as raw text) is unquoted first."""
    text = value.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1].replace('""', '"')
    if not text.startswith("{"):
        return None
    try:
        found = json.loads(text)
    except ValueError:
        return None
    number = found.get("mqm") if isinstance(found, dict) else None
    if isinstance(number, bool) or not isinstance(number, (int, float)) or not math.isfinite(number):
        return None
    return float(number)


def read_mqm_file(path: str | Path) -> MqmFile:
    """Parse the TSV; a malformed row raises DataError naming file, line and column."""
    from mtworkbench.io.corpora.plaintext import read_text

    path = str(path)
    text = read_text(path, strip_bom=True)
    records, quoting = split_records(text, path)
    quoted = bool(quoting)
    if not records:
        raise DataError(f"{path}: empty file; expected a header {chr(9).join(DEFAULT_COLUMNS)!r}")
    header_line, header = records[0]
    header = list(header)
    names = [ALIASES.get(h.strip().lower(), h.strip().lower()) for h in header]
    widths = {len(fields) for _, fields in records[1:]}
    if widths == {len(names) + 1}:
        # Every row has one field more than the header names: a last, unnamed column
        # (Unbabel's misc scores under a header naming Google's columns), kept as such.
        header.append(UNNAMED)
        names.append(UNNAMED)
    missing = [c for c in REQUIRED_COLUMNS if c not in names]
    if missing:
        raise DataError(
            f"{path}:{header_line}: header lacks column {missing[0]!r}; expected the tab-separated columns "
            f"{' '.join(DEFAULT_COLUMNS)} (Google's MQM format)"
        )
    twice = [n for n in names if n in KNOWN_COLUMNS and names.count(n) > 1]
    if twice:
        raise DataError(f"{path}:{header_line}: column {twice[0]!r} appears twice")
    index = {n: i for i, n in enumerate(names) if n in KNOWN_COLUMNS or n == UNNAMED}
    misc_at = index.get(MISC, index.get(UNNAMED))
    misc_name = f"column {misc_at + 1} (unnamed)" if MISC not in index and misc_at is not None else f"column {MISC!r}"
    result = MqmFile(path, [h.strip() for h, n in zip(header, names) if n in index], quoted,
                     quote_all=quoting == "csv-all")
    if len(widths) == 1 and len(names) not in widths:
        # Every row one width, the header another (Google's newstest2020 zh-en source-error
        # file names 9 columns over rows of 8): the header does not describe the rows.
        raise DataError(
            f"{path}:{header_line}: the header names {len(names)} columns but every row has {widths.pop()} "
            "tab-separated fields; expected a header naming the rows' columns"
        )
    for line, fields in records[1:]:
        if len(fields) != len(names):
            raise DataError(
                f"{path}:{line}: expected {len(names)} tab-separated fields, found {len(fields)}"
                + (" (a text with a tab or line break in it?)" if not quoted else "")
            )

        def get(name: str) -> str:
            return fields[index[name]] if name in index else ""  # noqa: B023 - used in this iteration only

        stray = next((k for k, f in enumerate(fields) if "\r" in f), None) if not quoted else None
        if stray is not None:
            raise DataError(f"{path}:{line}, column {stray + 1}: a carriage return inside a field, which an "
                            "unquoted MQM TSV cannot write back; expected tab-separated text on one line")
        for name in ("system", "seg_id", "rater"):
            if not get(name).strip():
                raise DataError(f"{path}:{line}, column {name!r}: must not be empty")
        source, source_span = field_markers(get("source"), path, line, "source")
        target, span = field_markers(get("target"), path, line, "target")
        misc = fields[misc_at] if misc_at is not None else ""
        comment = get("comment") if "comment" in index else misc
        result.rows.append(
            MqmRow(line, get("system").strip(), get("doc").strip(), get("doc_id").strip(), get("seg_id").strip(),
                   get("rater").strip(), source, target, get("category"), get("severity").strip(),
                   comment, span, source_span, misc_mqm(misc) if misc_at is not None else None)
        )
    _check_misc_scores(result, misc_name, [fields[misc_at] for _, fields in records[1:]] if misc_at is not None else [])
    return result


def _check_misc_scores(mqm: MqmFile, column: str, values: list[str]) -> None:
    """Unbabel's variant when any misc field gives an ``mqm`` score; then all must."""
    scored = [r for r in mqm.rows if r.mqm is not None]
    if not scored:
        return
    for row, value in zip(mqm.rows, values):
        if row.mqm is None:
            shown = value if len(value) <= 60 else value[:57] + "..."
            raise DataError(
                f"{mqm.path}:{row.line}, {column}: expected a JSON object with a number \"mqm\" (Unbabel's "
                f"rater score, as on line {scored[0].line}), found {shown!r}"
            )
    mqm.misc_scores = True


# --- building a project ----------------------------------------------------------------------
def _segment_order(seg_ids: Iterable[str]) -> list[str]:
    """Numeric ids in numeric order (``seg_id`` numbers the test set), else first appearance."""
    ids = list(dict.fromkeys(seg_ids))
    if all(s.isdigit() for s in ids):
        return sorted(ids, key=int)
    return ids


def project_from_mqm(
    mqm: MqmFile,
    references: Sequence[str] | None = None,
    source_language: str = "",
    target_language: str = "",
) -> Project:
    """A project from the file: documents, segments, one system per ``system`` value, and
    every rater's ratings as MQM judgments.

    ``references`` names systems whose texts also become references (so that
    reference-based metrics can run); None takes every system named like a human
    translation (``ref...``, ``Human...``), and those systems are of kind human.
    """
    path = mqm.path
    sources: dict[str, tuple[str, int]] = {}
    docs: dict[str, str] = {}
    doc_ids: dict[str, str] = {}
    targets: dict[str, dict[str, tuple[str, int]]] = {}
    for row in mqm.rows:
        seen = sources.get(row.seg_id)
        if seen is None:
            sources[row.seg_id] = (row.source, row.line)
            docs[row.seg_id] = row.doc
            doc_ids[row.seg_id] = row.doc_id
        else:
            if row.source != seen[0]:
                raise DataError(
                    f"{path}:{row.line}, column 'source': segment {row.seg_id!r} has another source text "
                    f"on line {seen[1]} ({_first_difference(seen[0], row.source)}); every row of a segment "
                    "must show the same source"
                )
            if docs[row.seg_id] != row.doc:
                raise DataError(
                    f"{path}:{row.line}, column 'doc': segment {row.seg_id!r} is in document {docs[row.seg_id]!r} "
                    f"on line {seen[1]}"
                )
        # The first row's translation becomes the system's; a rater shown another one
        # (seen in Google's source-error files) keeps it as the judgment's text.
        targets.setdefault(row.system, {}).setdefault(row.seg_id, (row.target, row.line))
    by_doc: dict[str, list[str]] = {}
    for seg_id in _segment_order(sources):
        by_doc.setdefault(docs[seg_id] or Path(path).stem, []).append(seg_id)
    documents = []
    for doc, seg_ids in by_doc.items():
        attributes: dict[str, str] = {}
        if list(mqm.columns) != list(DEFAULT_COLUMNS):
            attributes[COLUMNS_ATTRIBUTE] = ",".join(mqm.columns)
        if mqm.quoted:
            attributes[QUOTING_ATTRIBUTE] = "csv-all" if mqm.quote_all else "csv"
        spelling = next(((r.category, r.severity) for r in mqm.rows if r.is_no_error), (NO_ERROR, NO_ERROR))
        if spelling != (NO_ERROR, NO_ERROR):
            attributes[NO_ERROR_ATTRIBUTE] = "\t".join(spelling)
        if any(doc_ids[s] != str(k) for k, s in enumerate(seg_ids, 1)):
            attributes[DOC_IDS_ATTRIBUTE] = " ".join(f"{s}={doc_ids[s]}" for s in seg_ids)
        documents.append(Document(doc, [Paragraph(doc, [Segment(s, sources[s][0]) for s in seg_ids])], attributes))
    project = Project(documents, source_language=source_language, target_language=target_language,
                      name=Path(path).stem)
    for name, texts in targets.items():
        kind = "human" if HUMAN_SYSTEM.match(name) else "machine"
        full = {s: texts[s][0] if s in texts else "" for s in project.segment_ids}
        project.add_system(System(name, kind, full))
    chosen = [s for s in targets if HUMAN_SYSTEM.match(s)] if references is None else list(references)
    for name in chosen:
        if name not in targets:
            raise DataError(f"{path}: no system {name!r} to use as a reference; systems: {', '.join(targets)}")
        project.add_reference(Reference(name, name, {s: t for s, (t, _) in targets[name].items()}))
    from mtworkbench.io.judgments.judgments import apply_import

    apply_import(project, plan_mqm_judgments(project, mqm, strict=False))
    return project


def import_mqm_corpus(
    source: str | Path,
    references: Sequence[str | Path] = (),
    systems: Sequence[tuple[str, str | Path]] = (),
    source_language: str = "",
    target_language: str = "",
) -> Project:
    """The corpus-format registry's reader: ``references`` name systems to copy as
    references (none given: the human ones; ``none``: no references)."""
    if systems:
        raise DataError("an MQM file holds its systems; give only the file as the source (no --system)")
    names = [str(r) for r in references]
    chosen = None if not names else ([] if names == ["none"] else names)
    return import_mqm(source, chosen, source_language, target_language)


def plan_mqm_file(project: Project, path: str | Path):
    """The judgment-format registry's reader: the file's ratings planned into ``project``."""
    return plan_mqm_judgments(project, read_mqm_file(path))


def import_mqm(
    path: str | Path,
    references: Sequence[str] | None = None,
    source_language: str = "",
    target_language: str = "",
) -> Project:
    return project_from_mqm(read_mqm_file(path), references, source_language, target_language)


# --- ratings into an existing project ----------------------------------------------------------
def plan_mqm_judgments(project: Project, mqm: MqmFile, strict: bool = True):
    """The judges and MQM judgments the file adds to ``project`` (nothing is changed yet).

    Every row's system and segment must be in the project. With ``strict`` the
    marker-free translation must be the project's but for surrounding whitespace;
    otherwise a rater shown another text keeps it as the judgment's ``text`` (as
    does one shown it with other whitespace: the spans are offsets into it). The
    marker-free source must be the segment's: a judgment has no place to keep
    another (an export would rewrite it), so a row showing one is refused.
    """
    from mtworkbench.io.judgments.judgments import JudgmentImport

    path = mqm.path
    plan = JudgmentImport()
    known = set(project.judges)
    grouped: dict[tuple[str, str, str, str], list[MqmRow]] = {}
    systems = {s.id: s for s in project.systems}
    for row in mqm.rows:
        system = systems.get(row.system)
        if system is None:
            raise DataError(f"{path}:{row.line}, column 'system': no system {row.system!r} in the project")
        if not project.has_segment(row.seg_id):
            raise DataError(f"{path}:{row.line}, column 'seg_id': no segment {row.seg_id!r} in the project")
        source = project.segment(row.seg_id).source
        if row.source != source:
            raise DataError(
                f"{path}:{row.line}, column 'source': the source of segment {row.seg_id!r} differs from the "
                f"project's ({_first_difference(source, row.source)}); markers removed, it must be the same"
            )
        # A text differing only in surrounding whitespace (a span past the text's end in
        # the 2023 releases) is the same translation: kept as the judgment's text.
        if strict and system.texts[row.seg_id].strip() != row.target.strip():
            raise DataError(
                f"{path}:{row.line}, column 'target': the translation of segment {row.seg_id!r} by {row.system!r} "
                "differs from the project's (markers removed)"
            )
        # Rows of one rater on one item showing different texts (a corrupted row in
        # Google's source-error files) stay separate judgments, each with its text.
        grouped.setdefault((row.rater, row.system, row.seg_id, row.target), []).append(row)
        if row.rater not in known:
            known.add(row.rater)
            plan.judges.append(row.rater)
    # Unbabel's scores: a rater's score of an item is the mean of the mqm values of all
    # their rows of it (mt-metrics-eval's converter), whatever text each row shows.
    misc_scores: dict[tuple[str, str, str], float] = {}
    if mqm.misc_scores:
        values: dict[tuple[str, str, str], list[float]] = {}
        for row in mqm.rows:
            if row.mqm is not None:  # every row has one (read_mqm_file checks it)
                values.setdefault((row.rater, row.system, row.seg_id), []).append(row.mqm)
        misc_scores = {key: math.fsum(v) / len(v) for key, v in values.items()}
    taken: set[str] = set()
    for (rater, system_id, seg_id, _), rows in grouped.items():
        judgment_id = project.new_id("j")
        while judgment_id in taken:
            judgment_id = project.new_id("j")
        taken.add(judgment_id)
        errors = tuple(r.error() for r in _error_rows(rows))
        comment = next((r.comment for r in rows if r.is_no_error), "") if not errors else ""
        shown = rows[0].target
        score = misc_scores.get((rater, system_id, seg_id))
        plan.judgments.append(
            Judgment(judgment_id, rater, system_id, seg_id, protocol="mqm", errors=errors, comment=comment,
                     text=None if shown == systems[system_id].texts[seg_id] else shown, score=score,
                     scale=UNBABEL_SCALE if score is not None else None)
        )
    return plan


def _error_rows(rows: list[MqmRow]) -> list[MqmRow]:
    """The rows of one judgment that become its errors.

    A lone ``No-error`` row is "rated, no errors" (no error). A ``No-error`` row
    beside other rows of the same rater and item (the 2023 side-by-side releases
    put one beside a ``HOTW-test`` quality-control row) is kept among the errors
    in file order, so that the export writes it back; it weighs 0, as every scorer
    of Google's gives it.
    """
    if len(rows) > 1 and any(r.is_no_error for r in rows):
        return rows
    return [r for r in rows if not r.is_no_error]


def _first_difference(first: str, other: str) -> str:
    """Where two texts part, in words short enough for one line."""
    k = next((i for i, (a, b) in enumerate(zip(first, other)) if a != b), min(len(first), len(other)))
    return f"they differ at character {k + 1}: {first[k:k + 20]!r} against {other[k:k + 20]!r}"


def import_mqm_judgments(project: Project, path: str | Path):
    from mtworkbench.io.judgments.judgments import apply_import

    plan = plan_mqm_judgments(project, read_mqm_file(path))
    apply_import(project, plan)
    return plan
