"""WMT/NIST SGML corpora (the ``mteval`` format used by WMT up to 2020).

Three kinds of file, each one set element holding ``<doc>`` elements::

    <srcset setid="newstest2015" srclang="en">          the source
    <refset setid=... srclang=... trglang="ru">         reference translations
    <tstset setid=... srclang=... trglang="ru">         system outputs
      <doc docid="1012-bbc" sysid="ref" genre="news" origlang="en">
        <p>
          <seg id="1">India &amp; Japan ...</seg>
        </p>
      </doc>

How the ``mtworkbench import --format sgml`` arguments map to the files:

- ``--source FILE``: the srcset; its ``setid`` becomes the project name, its
  ``srclang`` the source language (NIST's placeholder ``any`` means unknown),
  its documents and segments the project's structure.
- ``--ref FILE`` (repeatable): refsets. Each ``sysid`` in a file is one
  reference translation (one file may hold several, as mteval allows); the
  reference id is the sysid (``ref`` when missing), made unique with ``-2``,
  ``-3``... when two files use the same sysid (WMT files all say ``ref``).
- ``--system ID=FILE`` (repeatable): tstsets. ``ID`` names the system; with an
  empty id (``systems=[("", FILE)]``) the file's ``sysid`` is used, and a file
  holding several sysids gives several systems.
- ``trglang`` of the refsets/tstsets gives the target language. Explicit
  ``--src-lang``/``--tgt-lang`` win over the files.

Ids: documents keep their ``docid``; a segment's project id is
``"<docid>:<seg id>"`` and a paragraph's ``"<docid>:p<n>"`` (see
``doc_corpus``). Other ``<doc>`` attributes of the srcset (``genre``,
``origlang``...) are kept in ``Document.attributes`` (names lower-cased, as
SGML attribute names are case-insensitive). ``<p>`` and NIST's ``<hl>``
(headline) make paragraphs; segments outside them form one paragraph per run
(so a document without ``<p>`` is one paragraph).

Text: everything between ``<seg ...>`` and ``</seg>`` is the segment, exactly,
after decoding ``&amp; &lt; &gt; &quot; &apos;`` and numeric references
(``&#233;``, ``&#xE9;``). Other ``&`` sequences, such as the bare ``&`` of
``M&S`` found in real WMT files or unknown named entities, are kept as written,
as mteval does. Empty and whitespace-only segments are kept.

The files are SGML, not XML (real WMT files contain bare ``&``), so they are
read with the standard library's tolerant ``html.parser`` tokenizer, and this
module checks the structure itself: unknown or misnested elements, text
outside ``<seg>``, markup inside ``<seg>``, duplicate ids and unclosed
elements are refused with the file, line and column.

Export writes ``source.sgm``, ``ref-<ID>.sgm`` per reference and
``sys-<ID>.sgm`` per system into a folder; importing them back
(references in order, systems without ids) gives an equal project when its ids
follow the scheme above.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from mtworkbench.core.atomic import atomic_write_text
from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Project
from mtworkbench.io.corpora.doc_corpus import (
    DocBlock,
    SegEntry,
    Where,
    add_references,
    add_systems,
    build_project,
    collect_texts,
    local_segment_id,
    name_single_system,
    pick_language,
)
from mtworkbench.io.corpora.plaintext import read_text

SET_ELEMENTS = ("srcset", "refset", "tstset")
PARAGRAPH_ELEMENTS = ("p", "hl")

# The five predefined entities and numeric character references; nothing else
# is decoded (see module docstring).
_CHAR_REF = re.compile(r"&(?:#([0-9]+)|#[xX]([0-9a-fA-F]+)|(amp|lt|gt|quot|apos));")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
_ATTR_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]*\Z")


@dataclass
class SgmlSet:
    """One parsed file: the set element's name and attributes, and its documents."""

    kind: str
    attributes: dict[str, str]
    documents: list[DocBlock] = field(default_factory=list)


def decode_text(raw: str, where: Where) -> str:
    def replace(match: re.Match[str]) -> str:
        decimal, hexadecimal, name = match.groups()
        if name:
            return _NAMED[name]
        code = int(decimal) if decimal else int(hexadecimal, 16)
        if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            raise DataError(f"{where}: {match.group(0)} is not a valid character")
        return chr(code)

    return _CHAR_REF.sub(replace, raw)


def escape_text(text: str) -> str:
    """Escape for a ``<seg>``: & < > and ", plus line breaks so a segment stays on one line."""
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("\r", "&#13;")
        .replace("\n", "&#10;")
    )


class _Reader(HTMLParser):
    """Builds an ``SgmlSet`` from tokenizer events, checking the structure."""

    def __init__(self, path: str, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.path = path
        self.text = text
        self.line_starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
        self.result: SgmlSet | None = None
        self.stack: list[tuple[str, Where]] = []
        self.doc: DocBlock | None = None
        self.implicit_paragraph = False  # the doc's last paragraph collects bare <seg>s
        self.seg: tuple[str | None, int, Where] | None = None  # id, text start offset, where

    # --- positions -------------------------------------------------------------
    def _where(self) -> Where:
        line, col = self.getpos()
        return Where(self.path, line, col + 1)

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.line_starts[line - 1] + col

    def _fail(self, message: str, where: Where | None = None) -> None:
        raise DataError(f"{where or self._where()}: {message}")

    def _open_tag(self) -> str | None:
        return self.stack[-1][0] if self.stack else None

    # --- events ------------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, self_closing=False)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, self_closing=True)

    def _start(self, tag: str, attrs: list[tuple[str, str | None]], self_closing: bool) -> None:
        where = self._where()
        if self.seg is not None:
            self._fail(
                f"<{tag}> inside <seg> (opened at line {self.seg[2].line}); "
                "a segment holds text only (write a literal '<' as &lt;)",
                where,
            )
        attributes = {name: value if value is not None else "" for name, value in attrs}
        parent = self._open_tag()
        if tag in SET_ELEMENTS:
            if self.result is not None:
                self._fail(f"a second set element <{tag}>; a file holds one set", where)
            self.result = SgmlSet(tag, attributes)
        elif tag == "doc":
            if parent not in SET_ELEMENTS:
                self._fail(self._misplaced(tag, "inside <srcset>, <refset> or <tstset>"), where)
            doc_id = attributes.pop("docid", "")
            if not doc_id:
                self._fail("<doc> has no docid attribute", where)
            label = attributes.pop("sysid", None)
            assert self.result is not None
            self.doc = DocBlock(doc_id, where, label, attributes)
            self.result.documents.append(self.doc)
            self.implicit_paragraph = False
        elif tag in PARAGRAPH_ELEMENTS:
            if parent != "doc":
                self._fail(self._misplaced(tag, "directly inside <doc>"), where)
            assert self.doc is not None
            self.doc.paragraphs.append([])
            self.implicit_paragraph = False
        elif tag == "seg":
            if parent != "doc" and parent not in PARAGRAPH_ELEMENTS:
                self._fail(self._misplaced(tag, "inside <doc> or <p>"), where)
            assert self.doc is not None
            if parent == "doc" and not self.implicit_paragraph:
                self.doc.paragraphs.append([])
                self.implicit_paragraph = True
            seg_id = attributes.get("id")
            if self_closing:
                self.doc.paragraphs[-1].append(SegEntry(seg_id, "", where))
            else:
                start = self._offset() + len(self.get_starttag_text() or "")
                self.seg = (seg_id, start, where)
            return
        else:
            self._fail(f"unknown element <{tag}>; expected {', '.join(SET_ELEMENTS)}, doc, p, hl or seg", where)
        if not self_closing:
            self.stack.append((tag, where))
        elif tag in SET_ELEMENTS or tag == "doc":
            self.doc = None

    def _misplaced(self, tag: str, expected: str) -> str:
        parent = self._open_tag()
        context = f"inside <{parent}>" if parent else "at the top level"
        return f"<{tag}> {context}; it belongs {expected}"

    def handle_endtag(self, tag: str) -> None:
        where = self._where()
        if self.seg is not None:
            seg_id, start, seg_where = self.seg
            if tag != "seg":
                self._fail(f"</{tag}> inside <seg> (opened at line {seg_where.line})", where)
            raw = self.text[start:self._offset()]
            assert self.doc is not None
            self.doc.paragraphs[-1].append(SegEntry(seg_id, decode_text(raw, seg_where), seg_where))
            self.seg = None
            return
        if not self.stack:
            self._fail(f"</{tag}> closes nothing", where)
        open_tag, open_where = self.stack[-1]
        if tag != open_tag:
            self._fail(f"</{tag}> does not match <{open_tag}> opened at line {open_where.line}, column {open_where.column}", where)
        self.stack.pop()
        if tag == "doc":
            self.doc = None
        if tag in PARAGRAPH_ELEMENTS:
            self.implicit_paragraph = False

    def handle_data(self, data: str) -> None:
        if self.seg is None and data.strip():
            # Point at the first visible character, not at the line break before it.
            leading = data[: len(data) - len(data.lstrip())]
            line, col = self.getpos()
            if "\n" in leading:
                line, col = line + leading.count("\n"), len(leading) - leading.rfind("\n") - 1
            else:
                col += len(leading)
            snippet = data.strip().splitlines()[0][:40]
            self._fail(f"text outside <seg>: {snippet!r}", Where(self.path, line, col + 1))

    def handle_entityref(self, name: str) -> None:
        if self.seg is None:
            self._fail(f"text outside <seg>: '&{name}'")

    def handle_charref(self, name: str) -> None:
        if self.seg is None:
            self._fail(f"text outside <seg>: '&#{name}'")

    def handle_comment(self, data: str) -> None:
        if self.seg is not None:
            self._fail("comment inside <seg>; a segment holds text only")

    def finish(self, expect: str) -> SgmlSet:
        self.close()
        if self.seg is not None:
            self._fail("<seg> is never closed", self.seg[2])
        if self.stack:
            tag, where = self.stack[-1]
            self._fail(f"<{tag}> is never closed", where)
        if self.result is None:
            raise DataError(f"{self.path}: no <{expect}> element found; is this a WMT/NIST SGML file?")
        if self.result.kind != expect:
            raise DataError(f"{self.path}: expected a <{expect}> file, found <{self.result.kind}>")
        return self.result


def read_sgml(path: str | Path, expect: str) -> SgmlSet:
    """Parse one SGML file whose set element must be ``expect`` (srcset/refset/tstset)."""
    text = read_text(path, strip_bom=True).replace("\r\n", "\n")
    reader = _Reader(str(path), text)
    reader.feed(text)
    return reader.finish(expect)


def import_sgml(
    source: str | Path,
    references: Sequence[str | Path] = (),
    systems: Sequence[tuple[str, str | Path]] = (),
    source_language: str = "",
    target_language: str = "",
) -> Project:
    src = read_sgml(source, "srcset")
    refsets = [(str(p), read_sgml(p, "refset")) for p in references]
    tstsets = [(sys_id, str(p), read_sgml(p, "tstset")) for sys_id, p in systems]

    target_found: dict[str, str] = {}
    for path, parsed in [(str(source), src)] + refsets + [(p, s) for _, p, s in tstsets]:
        target_found.setdefault(parsed.attributes.get("trglang", ""), path)
    project = build_project(
        src.documents,
        name=src.attributes.get("setid", ""),
        source_language=pick_language(source_language, {src.attributes.get("srclang", ""): str(source)}, "source"),
        target_language=pick_language(target_language, target_found, "target"),
    )

    for path, refset in refsets:
        for block in refset.documents:
            block.label = block.label or "ref"
        texts = collect_texts(project, refset.documents, "reference")
        if not texts:
            raise DataError(f"{path}: the refset holds no documents")
        add_references(project, texts)

    for given_id, path, tstset in tstsets:
        texts = collect_texts(project, tstset.documents, "system")
        if not texts:
            raise DataError(f"{path}: the tstset holds no documents")
        texts = name_single_system(texts, given_id, path, "its sysid")
        if "" in texts:
            raise DataError(f"{path}: <doc> elements have no sysid; give the system an id (ID=FILE)")
        add_systems(project, texts, path)
    return project


# --- export ----------------------------------------------------------------------------
def _attr(name: str, value: str) -> str:
    if not _ATTR_NAME.match(name):
        raise DataError(f"document attribute name {name!r} cannot be written as an SGML attribute")
    escaped = escape_text(value).replace("\t", "&#9;")
    return f' {name}="{escaped}"'


def render_set(project: Project, kind: str, label: str | None, texts: dict[str, str] | None) -> str:
    """One set file. ``texts`` None writes the source; otherwise a ref/tst side."""
    header = _attr("setid", project.name) + _attr("srclang", project.source_language or "any")
    header += _attr("trglang", project.target_language or "any")
    lines = [f"<{kind}{header}>"]
    for doc in project.documents:
        body = []
        for par in doc.paragraphs:
            segs = [s for s in par.segments if texts is None or s.id in texts]
            if texts is not None and not segs:
                continue
            body.append("<p>")
            for seg in segs:
                text = seg.source if texts is None else texts[seg.id]
                seg_id = escape_text(local_segment_id(doc.id, seg.id))
                body.append(f'<seg id="{seg_id}">{escape_text(text)}</seg>')
            body.append("</p>")
        if texts is not None and not body:
            continue  # a reference that does not cover this document
        attrs = (_attr("sysid", label) if label is not None else "") + _attr("docid", doc.id)
        for name, value in doc.attributes.items():
            if name.lower() not in ("docid", "sysid"):
                attrs += _attr(name, value)
        lines.append(f"<doc{attrs}>")
        lines.extend(body)
        lines.append("</doc>")
    lines.append(f"</{kind}>")
    return "\n".join(lines) + "\n"


# Room for a prefix, a collision number and an extension within a 255-byte file name.
MAX_STEM_BYTES = 200


def file_stems(prefix: str, ids: Sequence[str], taken: set[str]) -> list[str]:
    """File names made from ids: unsafe characters replaced, collisions numbered.

    ``taken`` holds lower-cased stems, so names also differ on case-insensitive file systems.
    """
    safes = []
    for item in ids:
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in item)
        if len(safe.encode("utf-8")) > MAX_STEM_BYTES:  # file names are at most 255 bytes
            digest = hashlib.sha1(item.encode("utf-8", "surrogatepass"), usedforsecurity=False).hexdigest()[:10]
            safe = safe.encode("utf-8")[:MAX_STEM_BYTES - 11].decode("utf-8", "ignore") + "-" + digest
        safes.append(safe)
    stems = []
    for safe in safes:
        stem, n = f"{prefix}{safe}", 2
        while stem.lower() in taken:
            stem, n = f"{prefix}{safe}-{n}", n + 1
        taken.add(stem.lower())
        stems.append(stem)
    return stems


def export_sgml(project: Project, folder: str | Path) -> list[Path]:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []

    def write(stem: str, content: str) -> None:
        target = folder / f"{stem}.sgm"
        if "\x00" in content:  # the reader refuses NUL: never write a file that cannot be read back
            line = content.count("\n", 0, content.index("\x00")) + 1
            raise DataError(f"{target}:{line}: a text contains a NUL character, which an SGML file cannot hold")
        atomic_write_text(target, content, keep_backup=False)
        written.append(target)

    taken = {"source"}
    write("source", render_set(project, "srcset", None, None))
    ref_stems = file_stems("ref-", [r.id for r in project.references], taken)
    for ref, stem in zip(project.references, ref_stems):
        write(stem, render_set(project, "refset", ref.id, ref.texts))
    sys_stems = file_stems("sys-", [s.id for s in project.systems], taken)
    for system, stem in zip(project.systems, sys_stems):
        write(stem, render_set(project, "tstset", system.id, system.texts))
    return written
