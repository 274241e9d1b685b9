"""One entry point for corpus import and export in every supported format."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Project
from mtworkbench.io import plaintext

IMPORT_FORMATS = ("plain", "sgml", "wmt-xml", "tsv")
EXPORT_FORMATS = ("plain", "sgml", "wmt-xml", "tsv")


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
    if fmt == "plain":
        if not references:
            raise DataError("plain-text import needs at least one reference file")
        return plaintext.import_plain(source, references, systems, source_language, target_language)
    raise DataError(f"unknown corpus format {fmt!r}; expected one of {', '.join(IMPORT_FORMATS)}")


def export_corpus(project: Project, fmt: str, out: str | Path) -> list[Path]:
    """Write the project's texts; returns the files written.

    plain: ``out`` is a folder that receives source.txt, ref-<ID>.txt and
    sys-<ID>.txt, one segment per line in document order.
    """
    if fmt == "plain":
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
    raise DataError(f"unknown corpus format {fmt!r}; expected one of {', '.join(EXPORT_FORMATS)}")


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
