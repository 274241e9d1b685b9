"""Plain-text corpora: one segment per line, UTF-8.

Lines are kept exactly as written except for their line ending: empty and
whitespace-only lines stay as (empty) segments, never dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from mtworkbench.core.errors import DataError
from mtworkbench.core.files import read_regular_bytes
from mtworkbench.core.text_display import shown

if TYPE_CHECKING:  # the model loads only where a project is built: reading lines stays light
    from mtworkbench.core.model import Project


def decode_utf8(data: bytes, path: str | Path, strip_bom: bool = False) -> str:
    """Decode UTF-8; invalid bytes are an error naming the file and byte offset.

    UTF-16 and UTF-32 (with or without a byte-order mark) are refused by name
    first: ASCII text in UTF-16 is valid UTF-8 full of NUL bytes and would
    otherwise be read as garbage. A UTF-8 byte-order mark is kept unless
    ``strip_bom``: corpus lines are read "without any change but stripping the
    line ending", as sacrebleu reads them.
    """
    check_not_utf16_32(data, path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DataError(
            f"{path}: invalid UTF-8 at byte offset {exc.start} (line {line}): "
            f"byte 0x{data[exc.start]:02x}"
        ) from None
    return text[1:] if strip_bom and text.startswith("\ufeff") else text


_BOMS = (  # UTF-32 first: its little-endian mark begins with UTF-16's
    (b"\xff\xfe\x00\x00", "UTF-32 (little-endian, with byte-order mark)"),
    (b"\x00\x00\xfe\xff", "UTF-32 (big-endian, with byte-order mark)"),
    (b"\xff\xfe", "UTF-16 (little-endian, with byte-order mark)"),
    (b"\xfe\xff", "UTF-16 (big-endian, with byte-order mark)"),
)
_SAMPLE = 4096


def detect_wide_encoding(data: bytes) -> str | None:
    """"UTF-16 ..." / "UTF-32 ..." when the bytes look like one, by BOM or by NUL-byte pattern."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    sample = data[:_SAMPLE]
    if len(sample) < 6 or b"\x00" not in sample:  # too short to tell a pattern from one NUL
        return None
    quads = len(sample) // 4
    if quads:
        le32 = sum(1 for i in range(0, quads * 4, 4) if sample[i] and not any(sample[i + 1 : i + 4]))
        be32 = sum(1 for i in range(0, quads * 4, 4) if sample[i + 3] and not any(sample[i : i + 3]))
        if max(le32, be32) >= quads / 2:
            return f"UTF-32 ({'little' if le32 >= be32 else 'big'}-endian, no byte-order mark)"
    pairs = len(sample) // 2
    even_nul = sample[0 : pairs * 2 : 2].count(0)
    odd_nul = sample[1 : pairs * 2 : 2].count(0)
    # Text in a Latin script: one byte of every pair is NUL, the other almost never.
    if odd_nul >= pairs / 2 and even_nul <= pairs / 10:
        return "UTF-16 (little-endian, no byte-order mark)"
    if even_nul >= pairs / 2 and odd_nul <= pairs / 10:
        return "UTF-16 (big-endian, no byte-order mark)"
    # Text in other scripts (CJK) has few NUL bytes, but its line breaks are still "\n\0" / "\0\n".
    for order, unit in (("little", b"\n\x00"), ("big", b"\x00\n")):
        newline = unit.index(b"\n")
        at = [i for i in range(len(sample)) if sample[i] == 0x0A]
        if len(at) >= 2 and all((i - newline) % 2 == 0 and sample[i - newline:i - newline + 2] == unit for i in at):
            return f"UTF-16 ({order}-endian, no byte-order mark)"
    return None


def check_not_utf16_32(data: bytes, path: str | Path) -> None:
    encoding = detect_wide_encoding(data)
    if encoding is not None:
        short = encoding.split(" ", 1)[0]
        raise DataError(f"{path}: looks like {encoding}; save it as UTF-8 (only UTF-8 is read, not {short})")


def check_line_text(text: str, path: str | Path) -> None:
    """Refuse NUL characters (naming their line) and CR-only line endings (naming the count)."""
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        column = nul - (text.rfind("\n", 0, nul) + 1) + 1
        raise DataError(f"{path}:{line}: NUL byte at column {column}; a text file has no NUL bytes")
    bare_cr = text.count("\r") - text.count("\r\n")
    if bare_cr:
        lf = text.count("\n")
        if lf < bare_cr:
            raise DataError(
                f"{path}: uses CR-only line endings ({bare_cr} CR line breaks, {lf} LF); "
                "save it with LF or CRLF line endings"
            )


def read_text(path: str | Path, strip_bom: bool = False) -> str:
    """A whole UTF-8 text file, checked: the one reader of corpus, annotation and judgment files.

    Only a regular file of bounded size is read (see ``core.files``); UTF-16/32,
    NUL bytes and CR-only line endings are refused with a message. Structured
    formats (SGML, TSV, CSV) pass ``strip_bom``.
    """
    text = decode_utf8(read_regular_bytes(path), path, strip_bom=strip_bom)
    check_line_text(text, path)
    return text


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


def check_writable_lines(path: str | Path, lines: Sequence[str]) -> None:
    """Refuse what a one-segment-per-line file cannot hold (and ``read_lines`` would refuse)."""
    for i, line in enumerate(lines, 1):
        if "\n" in line:
            raise DataError(f"{path}: segment {i} contains a line break and cannot be written one per line")
        if "\x00" in line:
            raise DataError(f"{path}: segment {i} contains a NUL character, which a text file cannot hold")
        if line.endswith("\r"):
            raise DataError(f"{path}: segment {i} ends in a carriage return, which would read back as a CRLF line end")
    bare_cr = sum(line.count("\r") for line in lines)
    if bare_cr > len(lines):
        raise DataError(
            f"{path}: the segments hold {bare_cr} carriage returns in {len(lines)} lines; the file would read "
            "as CR-only line endings"
        )


def write_lines(path: str | Path, lines: Sequence[str]) -> None:
    from mtworkbench.core.atomic import atomic_write_text

    check_writable_lines(path, lines)
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
        id=shown(Path(source).stem) or "doc1",
        paragraphs=[Paragraph(id="p1", segments=[Segment(sid, text) for sid, text in zip(seg_ids, src_lines)])],
    )
    project = Project(
        documents=[doc],
        source_language=source_language,
        target_language=target_language,
        name=shown(Path(source).stem),
    )
    for k, ref in enumerate(references, 1):
        project.add_reference(
            Reference(id=f"ref{k}", translator=shown(Path(ref).name), texts=dict(zip(seg_ids, files[str(ref)])))
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

