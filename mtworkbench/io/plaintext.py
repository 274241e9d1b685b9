"""Plain-text corpora: one segment per line, UTF-8.

Lines are kept exactly as written except for their line ending: empty and
whitespace-only lines stay as (empty) segments, never dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from mtworkbench.core.errors import DataError

if TYPE_CHECKING:  # the model loads only where a project is built: reading lines stays light
    from mtworkbench.core.model import Project


def decode_utf8(data: bytes, path: str | Path, strip_bom: bool = False) -> str:
    """Decode UTF-8; invalid bytes are an error naming the file and byte offset.

    A byte-order mark is kept unless ``strip_bom``: corpus lines are read
    "without any change but stripping the line ending", as sacrebleu reads them.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DataError(
            f"{path}: invalid UTF-8 at byte offset {exc.start} (line {line}): "
            f"byte 0x{data[exc.start]:02x}"
        ) from None
    return text[1:] if strip_bom and text.startswith("\ufeff") else text


def read_text(path: str | Path, strip_bom: bool = False) -> str:
    """A whole UTF-8 file; structured formats (SGML, TSV, CSV) pass ``strip_bom``."""
    return decode_utf8(Path(path).read_bytes(), path, strip_bom=strip_bom)


def split_lines(text: str) -> list[str]:
    """Split on LF, stripping one CR before it; a final newline ends the last line.

    Only ``\\n`` (and ``\\r\\n``) end a line: U+2028, form feed and other
    characters that ``str.splitlines`` would treat as breaks stay in the text.
    """
    if text == "":
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_lines(path: str | Path) -> list[str]:
    """The segments of a one-segment-per-line UTF-8 file."""
    return split_lines(read_text(path))


def write_lines(path: str | Path, lines: Sequence[str]) -> None:
    from mtworkbench.io.atomic import atomic_write_text

    for i, line in enumerate(lines, 1):
        if "\n" in line:
            raise DataError(f"{path}: segment {i} contains a line break and cannot be written one per line")
    atomic_write_text(path, "".join(f"{line}\n" for line in lines), keep_backup=False)


def check_same_length(files: dict[str, list[str]]) -> int:
    """All files must have the same number of lines; the error names each count."""
    counts = {name: len(lines) for name, lines in files.items()}
    if len(set(counts.values())) > 1:
        listing = ", ".join(f"{name}: {n} lines" for name, n in counts.items())
        raise DataError(f"line counts differ: {listing}")
    return next(iter(counts.values()), 0)


def import_plain(
    source: str | Path,
    references: Sequence[str | Path],
    systems: Sequence[tuple[str, str | Path]],
    source_language: str = "",
    target_language: str = "",
    system_kinds: dict[str, str] | None = None,
) -> Project:
    """Build a project from a source file, 1..k reference files and 1..m system files.

    The whole file is one document with one paragraph; segment ids are the
    1-based line numbers, so judgments and scores refer to lines as users expect.
    """
    from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System

    files: dict[str, list[str]] = {str(source): read_lines(source)}
    for ref in references:
        files[str(ref)] = read_lines(ref)
    for _, path in systems:
        files[str(path)] = read_lines(path)
    n = check_same_length(files)
    src_lines = files[str(source)]
    seg_ids = [str(i) for i in range(1, n + 1)]
    doc = Document(
        id=Path(source).stem or "doc1",
        paragraphs=[Paragraph(id="p1", segments=[Segment(sid, text) for sid, text in zip(seg_ids, src_lines)])],
    )
    project = Project(
        documents=[doc],
        source_language=source_language,
        target_language=target_language,
        name=Path(source).stem,
    )
    for k, ref in enumerate(references, 1):
        project.add_reference(
            Reference(id=f"ref{k}", translator=Path(ref).name, texts=dict(zip(seg_ids, files[str(ref)])))
        )
    kinds = system_kinds or {}
    seen_systems: set[str] = set()
    for system_id, path in systems:
        if system_id in seen_systems:
            raise DataError(f"system id {system_id!r} is given twice")
        seen_systems.add(system_id)
        project.add_system(
            System(id=system_id, kind=kinds.get(system_id, "machine"), texts=dict(zip(seg_ids, files[str(path)])))
        )
    return project

