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
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Project
from mtworkbench.io import plaintext
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


def export_corpus(project: Project, fmt: str, out: str | Path) -> list[Path]:
    """Write the project's texts; returns the files written.

    plain: ``out`` is a folder that receives source.txt, ref-<ID>.txt and
    sys-<ID>.txt, one segment per line in document order.
    sgml: ``out`` is a folder that receives source.sgm (srcset), ref-<ID>.sgm
    (refset) and sys-<ID>.sgm (tstset).
    wmt-xml, tsv: ``out`` is the file to write (``corpus.xml``/``corpus.tsv``
    inside it when ``out`` is an existing folder).
    """
    return CORPUS_FORMATS.get(fmt).write(project, out)


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
    from mtworkbench.io.tsv import import_tsv

    if references or systems:
        raise DataError(
            "a TSV file holds references and systems as its ref:<ID> and sys:<ID> columns; "
            "give only the TSV file as the source (no --ref or --system)"
        )
    return import_tsv(source, source_language, target_language)


def export_plain_corpus(project: Project, out: str | Path) -> list[Path]:
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    ids = project.segment_ids
    target = folder / "source.txt"
    plaintext.write_lines(target, [s.source for s in project.segments])
    written.append(target)
    for ref in project.references:
        target = folder / f"ref-{_safe(ref.id)}.txt"
        plaintext.write_lines(target, [ref.texts.get(sid, "") for sid in ids])
        written.append(target)
    for system in project.systems:
        target = folder / f"sys-{_safe(system.id)}.txt"
        plaintext.write_lines(target, [system.texts[sid] for sid in ids])
        written.append(target)
    return written


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
