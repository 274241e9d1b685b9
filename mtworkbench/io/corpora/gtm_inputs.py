"""GTM 1.4's input formats: its SGML (default) and plain text (``-t``).

SGML: ``<doc docid="...">`` ... ``<seg id=N> text </seg>`` ... ``</doc>``, tags
and attribute names matched case-insensitively, attribute values quoted or
bare. Plain text: every line is a segment and the whole file is one document
(GTM names it ``sampledoc-0``). Lines end as Java's ``BufferedReader.readLine``
ends them (LF, CR or CRLF) and nothing else is removed: a byte-order mark stays
in the text, as GTM leaves it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from mtworkbench.core.errors import DataError

PLAIN_DOCUMENT_ID = "sampledoc-0"


@dataclass(frozen=True)
class GTMSegment:
    doc_id: str
    seg_id: str
    text: str


_DOC = re.compile(r"<doc\b([^>]*)>", re.IGNORECASE)
_DOC_END = re.compile(r"</doc\s*>", re.IGNORECASE)
_SEG = re.compile(r"<seg\b([^>]*)>(.*?)</seg\s*>", re.IGNORECASE | re.DOTALL)
_ATTR = re.compile(r"""([A-Za-z_:][-\w:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")


def _attributes(raw: str) -> dict[str, str]:
    return {
        m.group(1).lower(): next(g for g in m.groups()[1:] if g is not None)
        for m in _ATTR.finditer(raw)
    }


def _decode(path: str | Path) -> str:
    from mtworkbench.core.files import read_regular_bytes
    from mtworkbench.io.corpora.plaintext import check_not_utf16_32

    data = read_regular_bytes(path)
    check_not_utf16_32(data, path)  # GTM's own line rules (CR ends a line) stay as they are
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: invalid UTF-8 at byte offset {exc.start}") from None


def java_lines(text: str) -> list[str]:
    """Lines as ``BufferedReader.readLine`` returns them (LF, CR, CRLF end a line)."""
    lines = re.split(r"\r\n|\r|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def read_gtm_plain(path: str | Path) -> list[GTMSegment]:
    """A ``-t`` file: one segment per line, ids 1.. in one document."""
    return [
        GTMSegment(PLAIN_DOCUMENT_ID, str(k), line)
        for k, line in enumerate(java_lines(_decode(path)), 1)
    ]


def read_gtm_sgml(path: str | Path) -> list[GTMSegment]:
    """The segments of a GTM SGML file in file order."""
    text = _decode(path)
    segments: list[GTMSegment] = []
    pos = 0
    for doc in _DOC.finditer(text):
        if doc.start() < pos:
            continue
        attrs = _attributes(doc.group(1))
        doc_id = attrs.get("docid")
        if doc_id is None:
            line = text.count("\n", 0, doc.start()) + 1
            raise DataError(f"{path}: line {line}: <doc> without a docid attribute")
        end = _DOC_END.search(text, doc.end())
        stop = end.start() if end else len(text)
        for seg in _SEG.finditer(text, doc.end(), stop):
            seg_attrs = _attributes(seg.group(1))
            if "id" not in seg_attrs:
                line = text.count("\n", 0, seg.start()) + 1
                raise DataError(f"{path}: line {line}: <seg> without an id attribute")
            segments.append(GTMSegment(doc_id, seg_attrs["id"], seg.group(2)))
        pos = end.end() if end else len(text)
    if not segments:
        raise DataError(f"{path}: no <doc> ... <seg id=...> ... </seg> segments found")
    return segments


def align_references(
    test: list[GTMSegment], refs: list[list[GTMSegment]], ref_names: list[str]
) -> list[list[str]]:
    """Reference texts per stream, aligned to the test segments by (docid, seg id)."""
    aligned = []
    for name, ref in zip(ref_names, refs):
        by_key = {(s.doc_id, s.seg_id): s.text for s in ref}
        texts = []
        for seg in test:
            try:
                texts.append(by_key[(seg.doc_id, seg.seg_id)])
            except KeyError:
                raise DataError(
                    f"{name}: no segment {seg.seg_id} in document {seg.doc_id}"
                ) from None
        aligned.append(texts)
    return aligned
