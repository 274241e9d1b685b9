"""One entry point for corpus import and export in every supported format.

Formats and how ``source``/``references``/``systems`` map onto their files
(each module's docstring has the details and the id scheme):

- ``plain`` (``plaintext``): one segment per line; a source file, 1..k
  reference files and 1..m ``(ID, FILE)`` system files with equal line counts.
- ``sgml`` (``sgml``): WMT/NIST mteval SGML; source = srcset, references =
  refset files, systems = tstset files (an empty ID takes the file's sysid).
- ``wmt-xml`` (``wmt_xml``): WMT 2021+ XML; the source file alone holds
  source, references and systems; further reference/system XML files are merged.
- ``tsv`` (``tsv``): one file with a header row (``source``, ``ref:<ID>``,
  ``sys:<ID>``, optional ``doc``, ``para``, ``id``); no further files.
- ``mqm`` (``mqm``, import only): Google's raw MQM ratings TSV; the file alone
  holds documents, sources, systems and every rater's error spans;
  ``references`` name systems whose texts also become references.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Project
from mtworkbench.io.corpora import plaintext
from mtworkbench.io.formats import CORPUS_FORMATS

# The formats' names, from the one registry (io.formats).
IMPORT_FORMATS = CORPUS_FORMATS.readable()
EXPORT_FORMATS = CORPUS_FORMATS.writable()


def import_corpus(
    fmt: str,
    *,
    source: str | Path,
    references: Sequence[str | Path] = (),
    systems: Sequence[tuple[str, str | Path]] = (),
    source_language: str = "",
    target_language: str = "",
) -> Project:
    """Build a project from corpus files of the given format."""
    read = CORPUS_FORMATS.get(fmt).read
    return read(source, references, systems, source_language, target_language)


def export_corpus(
    project: Project, fmt: str, out: str | Path, raw: bool = False, renamed: dict[str, str] | None = None
) -> list[Path]:
    """Write the project's texts; returns the files written.

    plain: ``out`` is a folder that receives source.txt, ref-<ID>.txt and
    sys-<ID>.txt, one segment per line in document order; an id that is not a
    safe file name (``a/b``), or that would collide with another (``a_b``, ``A_B``
    on a case-insensitive disk), gets a changed (numbered) name, recorded in
    ``renamed`` (id -> file name) so the caller can say so.
    sgml: ``out`` is a folder that receives source.sgm (srcset), ref-<ID>.sgm
    (refset) and sys-<ID>.sgm (tstset), named the same way.
    wmt-xml, tsv: ``out`` is the file to write (``corpus.xml``/``corpus.tsv``
    inside it when ``out`` is an existing folder). tsv guards formula cells
    unless ``raw`` (see ``core.spreadsheet``).

    All or nothing: plain and sgml are written into a staging folder beside
    ``out`` and moved in only when every file is written; a refused export
    leaves ``out`` as it was.
    """
    write = CORPUS_FORMATS.get(fmt).write
    if fmt == "tsv":
        return write(project, out, raw=raw)
    if fmt not in FOLDER_FORMATS:
        return write(project, out)  # one file, written atomically
    written = _export_folder(write, project, Path(out))
    if renamed is not None:
        _note_renamed(project, written, ".txt" if fmt == "plain" else ".sgm", renamed)
    return written


# Formats that write a folder of files rather than one file.
FOLDER_FORMATS = ("plain", "sgml")


def _export_folder(write, project: Project, folder: Path) -> list[Path]:
    """Write into a fresh folder beside ``folder``, then move the files in: all or nothing.

    A refused text or a full disk stops the export before ``folder`` is touched, so
    it never holds some new files and some of an older export.
    """
    parent = folder.parent if str(folder.parent) else Path(".")
    parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.export-", dir=parent))
    try:
        staged = write(project, staging)
        folder.mkdir(exist_ok=True)
        written = []
        for path in staged:
            target = folder / path.name
            os.replace(path, target)
            written.append(target)
        return written
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _note_renamed(project: Project, written: list[Path], ext: str, renamed: dict[str, str]) -> None:
    """Ids whose file is not simply ``ref-<ID>``/``sys-<ID>``: the caller reports them."""
    items = [("ref-", r.id) for r in project.references] + [("sys-", s.id) for s in project.systems]
    for (prefix, item), path in zip(items, written[1:]):
        if path.name != f"{prefix}{item}{ext}":
            renamed[item] = path.name


def import_plain_corpus(
    source: str | Path,
    references: Sequence[str | Path],
    systems: Sequence[tuple[str, str | Path]],
    source_language: str = "",
    target_language: str = "",
) -> Project:
    if not references:
        raise DataError("plain-text import needs at least one reference file")
    return plaintext.import_plain(source, references, systems, source_language, target_language)


def import_tsv_corpus(
    source: str | Path,
    references: Sequence[str | Path],
    systems: Sequence[tuple[str, str | Path]],
    source_language: str = "",
    target_language: str = "",
) -> Project:
    from mtworkbench.io.corpora.tsv import import_tsv

    if references or systems:
        raise DataError(
            "a TSV file holds references and systems as its ref:<ID> and sys:<ID> columns; "
            "give only the TSV file as the source (no --ref or --system)"
        )
    return import_tsv(source, source_language, target_language)


def export_plain_corpus(project: Project, out: str | Path) -> list[Path]:
    """One file per text stream; names from ``sgml``'s scheme (unsafe or colliding ids changed)."""
    from mtworkbench.io.corpora.sgml import file_stems

    folder = Path(out)
    ids = project.segment_ids
    files: list[tuple[str, list[str]]] = [("source", [s.source for s in project.segments])]
    taken = {"source"}
    ref_stems = file_stems("ref-", [r.id for r in project.references], taken)
    files += [(stem, [r.texts.get(sid, "") for sid in ids]) for r, stem in zip(project.references, ref_stems)]
    sys_stems = file_stems("sys-", [s.id for s in project.systems], taken)
    files += [(stem, [s.texts[sid] for sid in ids]) for s, stem in zip(project.systems, sys_stems)]
    for stem, lines in files:  # every refusal before the first file is written
        plaintext.check_writable_lines(folder / f"{stem}.txt", lines)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for stem, lines in files:
        target = folder / f"{stem}.txt"
        plaintext.write_lines(target, lines)
        written.append(target)
    return written
