"""TSV corpora: one segment per row, one text per column, a header row naming the columns.

Layout (UTF-8, rows end with LF or CRLF, fields split at every TAB; there is no
quoting, so ``"`` is an ordinary character and texts cannot hold TABs or line
breaks)::

    doc      para     id       source         ref:A          sys:online-B
    d1       d1:p1    d1:1     Hello.         Hallo.         Hallo.
    d1       d1:p1    d1:2     Goodbye.       Tschüss.       Auf Wiedersehen.

Columns, in any order:

- ``source`` (required): the source text.
- ``ref:<ID>`` (any number): a reference translation with id and translator ``<ID>``.
- ``sys:<ID>`` (any number): a system output with id ``<ID>``.
- ``doc`` (optional): the document id; a document's rows must be consecutive.
  Without it the whole file is one document named after the file.
- ``para`` (optional): the paragraph id (unique in the project); a paragraph's
  rows must be consecutive within its document. Without it each document is one
  paragraph ``"<doc>:p1"``.
- ``id`` (optional): the segment id, unique in the file. Without it segments
  are numbered 1, 2, ... by data row.

Every cell is kept exactly, so empty and whitespace-only texts stay segments.
Export guards cells a spreadsheet would evaluate (``=``, ``+``, ``-``, ``@`` at the
start, unless a number) with a leading ``'``, and doubles a leading ``'``; import
removes one leading ``'`` from every data cell, so export -> import is exact
(``core.spreadsheet``). ``raw`` export writes cells unchanged.
Each row must have as many fields as the header.

How the ``mtworkbench import --format tsv`` arguments map: ``--source FILE.tsv``
alone; the references and systems are the file's columns, so ``--ref`` and
``--system`` are refused. Languages come from ``--src-lang``/``--tgt-lang``.

Export writes all columns (``doc``, ``para``, ``id``, ``source``, then one per
reference and system) to one file (``corpus.tsv`` if given a folder); it
imports back to an equal project except for what TSV cannot hold: document
attributes, languages (give them again on import), the project name (taken
from the file name, as for plain text) and a reference's missing segments
(written as empty cells).
"""

from __future__ import annotations

from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.core.output import write_output
from mtworkbench.core.spreadsheet import neutralise, restore
from mtworkbench.core.text_display import shown
from mtworkbench.io.corpora.plaintext import read_text, split_lines

STRUCTURE_COLUMNS = ("doc", "para", "id")
REF_PREFIX = "ref:"
SYS_PREFIX = "sys:"


def _parse_header(path: str, header: list[str]) -> None:
    seen: dict[str, int] = {}
    for column, name in enumerate(header, 1):
        if name in seen:
            raise DataError(f"{path}, line 1: column {name!r} appears twice (fields {seen[name]} and {column})")
        seen[name] = column
        if name in STRUCTURE_COLUMNS or name == "source":
            continue
        for prefix in (REF_PREFIX, SYS_PREFIX):
            if name.startswith(prefix):
                if not name[len(prefix):]:
                    raise DataError(f"{path}, line 1, field {column}: {name!r} needs an id after the colon")
                break
        else:
            raise DataError(
                f"{path}, line 1, field {column}: unknown column {name!r}; expected source, doc, para, id, "
                "ref:<ID> or sys:<ID> (the first row must be the header)"
            )
    if "source" not in seen:
        raise DataError(f"{path}, line 1: the header has no 'source' column (found {', '.join(map(repr, header))})")


def import_tsv(
    path: str | Path,
    source_language: str = "",
    target_language: str = "",
) -> Project:
    name = str(path)
    lines = split_lines(read_text(path, strip_bom=True))
    if not lines:
        raise DataError(f"{name}: the file is empty; it needs a header row")
    header = lines[0].split("\t")
    _parse_header(name, header)
    column = {col_name: i for i, col_name in enumerate(header)}
    default_doc = shown(Path(path).stem) or "doc1"

    documents: list[Document] = []
    opened_docs: set[str] = set()
    opened_pars: set[str] = set()
    seg_lines: dict[str, int] = {}
    ref_texts: dict[str, dict[str, str]] = {h[len(REF_PREFIX):]: {} for h in header if h.startswith(REF_PREFIX)}
    sys_texts: dict[str, dict[str, str]] = {h[len(SYS_PREFIX):]: {} for h in header if h.startswith(SYS_PREFIX)}

    for row_number, line in enumerate(lines[1:], 1):
        line_number = row_number + 1
        fields = [restore(f) for f in line.split("\t")]  # undo the export's formula guard
        if len(fields) != len(header):
            raise DataError(
                f"{name}, line {line_number}: {len(fields)} fields, but the header has {len(header)}"
            )

        def cell(col: str, default: str) -> str:
            return fields[column[col]] if col in column else default  # noqa: B023 - used in this iteration only

        doc_id = cell("doc", default_doc)
        par_id = cell("para", f"{doc_id}:p1")
        seg_id = cell("id", str(row_number))
        for what, value in (("doc", doc_id), ("para", par_id), ("id", seg_id)):
            if not value:
                raise DataError(f"{name}, line {line_number}: empty {what} field")
        if not documents or documents[-1].id != doc_id:
            if doc_id in opened_docs:
                raise DataError(
                    f"{name}, line {line_number}: rows of document {doc_id!r} are not consecutive"
                )
            opened_docs.add(doc_id)
            documents.append(Document(doc_id))
        doc = documents[-1]
        if not doc.paragraphs or doc.paragraphs[-1].id != par_id:
            if par_id in opened_pars:
                raise DataError(
                    f"{name}, line {line_number}: rows of paragraph {par_id!r} are not consecutive "
                    "(paragraph ids are unique in the whole file)"
                )
            opened_pars.add(par_id)
            doc.paragraphs.append(Paragraph(par_id))
        if seg_id in seg_lines:
            raise DataError(
                f"{name}, line {line_number}: segment id {seg_id!r} appears again (first on line {seg_lines[seg_id]})"
            )
        seg_lines[seg_id] = line_number
        doc.paragraphs[-1].segments.append(Segment(seg_id, fields[column["source"]]))
        for ref_id, texts in ref_texts.items():
            texts[seg_id] = fields[column[REF_PREFIX + ref_id]]
        for sys_id, texts in sys_texts.items():
            texts[seg_id] = fields[column[SYS_PREFIX + sys_id]]

    project = Project(
        documents=documents,
        source_language=source_language,
        target_language=target_language,
        name=shown(Path(path).stem),
    )
    for ref_id, texts in ref_texts.items():
        project.add_reference(Reference(ref_id, translator=ref_id, texts=texts))
    for sys_id, texts in sys_texts.items():
        project.add_system(System(sys_id, texts=texts))
    return project


def _field(value: str, what: str) -> str:
    for char, label in (("\t", "a TAB"), ("\n", "a line break"), ("\r", "a carriage return"),
                        ("\x00", "a NUL character")):
        if char in value:
            raise DataError(f"{what} contains {label}, which a TSV field cannot hold")
    return value


def render_tsv(project: Project, raw: bool = False) -> str:
    """The TSV text; cells a spreadsheet would evaluate are neutralised unless ``raw``."""
    guard = (lambda c: c) if raw else neutralise
    header = ["doc", "para", "id", "source"]
    header += [REF_PREFIX + _field(r.id, f"reference id {r.id!r}") for r in project.references]
    header += [SYS_PREFIX + _field(s.id, f"system id {s.id!r}") for s in project.systems]
    rows = ["\t".join(header)]
    for doc in project.documents:
        for par in doc.paragraphs:
            for seg in par.segments:
                cells = [doc.id, par.id, seg.id, seg.source]
                cells += [r.texts.get(seg.id, "") for r in project.references]
                cells += [s.texts[seg.id] for s in project.systems]
                rows.append("\t".join(guard(_field(c, f"segment {seg.id!r}")) for c in cells))
    return "\n".join(rows) + "\n"


def export_tsv(project: Project, out: str | Path, raw: bool = False) -> list[Path]:
    target = Path(out)
    if target.is_dir():
        target = target / "corpus.tsv"
    text = render_tsv(project, raw)  # before creating anything: a refused cell leaves no folder
    target.parent.mkdir(parents=True, exist_ok=True)
    write_output(target, text)
    return [target]
