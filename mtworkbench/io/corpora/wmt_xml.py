"""WMT XML corpora (the format of WMT test sets from 2021 on).

One well-formed XML file holds the source, references and system outputs::

    <dataset id="wmttest2022">
      <collection id="general">                    (optional; WMT21 files put <doc> directly in <dataset>)
        <doc id="doc-1" origlang="en" domain="news">
          <src lang="en"><p><seg id="1">...</seg></p></src>
          <ref lang="de" translator="A"><p><seg id="1">...</seg></p></ref>
          <hyp lang="de" system="SystemX"><p><seg id="1">...</seg></p></hyp>
        </doc>

How the ``mtworkbench import --format wmt-xml`` arguments map to the format:

- ``--source FILE.xml`` alone is enough: the file's ``<src>`` blocks make the
  documents, every ``<ref>`` translator one reference, every ``<hyp>`` system
  one system. ``<dataset id>`` becomes the project name; ``<src lang>`` the
  source language; ``<ref lang>``/``<hyp lang>`` (or ``language``) the target.
- ``--ref FILE.xml`` (repeatable, optional): further files of the same test set
  whose ``<ref>`` blocks are added (their ``<src>`` is ignored).
- ``--system ID=FILE.xml`` (repeatable, optional): further files whose
  ``<hyp>`` blocks are added; the file must hold one system, renamed to ``ID``
  (an empty id keeps the file's ``system`` attribute and allows several).

Ids: a reference's id (and translator) is its ``translator`` attribute; an
unnamed ``<ref>`` is ``ref`` (``ref-2``... for further unnamed ones in the same
document). A label already taken by an earlier file gets ``-2``, ``-3``...
A system's id is its ``system`` attribute. Documents keep their ``id``;
segments are ``"<docid>:<seg id>"`` and paragraphs ``"<docid>:p<n>"`` (see
``doc_corpus``). Other ``<doc>`` attributes (``origlang``, ``domain``,
``testsuite``...) go to ``Document.attributes``, plus ``collection`` for a doc
inside a ``<collection>``. Paragraphs come from ``<src>``; a ``<seg>`` outside
``<p>`` is accepted and such runs form one paragraph each. ``<supplemental>``
blocks are skipped. A reference may leave out documents or segments (WMT
files do); a system must cover every segment.

Parsing uses the standard library's ``xml.sax`` (expat, no external entities).
Malformed XML, unknown or misplaced elements, text outside ``<seg>`` and ids
that do not line up are refused with the file, line and column. Empty and
whitespace-only segments are kept exactly.

Export writes one file (``corpus.xml`` if given a folder) that imports back to
an equal project when the project's ids follow the scheme above.
"""

from __future__ import annotations

import io
import re
import xml.sax
import xml.sax.handler
import xml.sax.xmlreader
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from mtworkbench.core.errors import DataError
from mtworkbench.core.files import read_regular_bytes
from mtworkbench.core.model import Project
from mtworkbench.core.output import write_output
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
from mtworkbench.io.corpora.plaintext import decode_utf8

# Characters XML 1.0 cannot hold at all, not even as character references.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ATTR_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")
BLOCK_ELEMENTS = ("src", "ref", "hyp")


@dataclass
class WmtXmlFile:
    """One parsed file: the dataset attributes and the text blocks by side."""

    attributes: dict[str, str]
    sources: list[DocBlock] = field(default_factory=list)
    references: list[DocBlock] = field(default_factory=list)
    hypotheses: list[DocBlock] = field(default_factory=list)
    source_languages: dict[str, str] = field(default_factory=dict)  # code -> where first seen
    target_languages: dict[str, str] = field(default_factory=dict)


class _Handler(xml.sax.handler.ContentHandler):
    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path
        self.locator: xml.sax.xmlreader.Locator | None = None
        self.stack: list[str] = []
        self.result: WmtXmlFile | None = None
        self.collection: str | None = None
        self.doc_id = ""
        self.doc_where: Where | None = None
        self.doc_attributes: dict[str, str] = {}
        self.doc_has_source = False
        self.unnamed_refs = 0
        self.block: DocBlock | None = None
        self.in_paragraph = False
        self.implicit_paragraph = False
        self.seg: tuple[str | None, Where] | None = None
        self.seg_text: list[str] = []
        self.skip_depth = 0  # > 0 inside <supplemental>
        # The first <doc> without <src>: an error only for the main file.
        self.doc_missing_source: tuple[str, Where] | None = None

    def setDocumentLocator(self, locator: xml.sax.xmlreader.Locator) -> None:
        self.locator = locator

    def _where(self) -> Where:
        assert self.locator is not None
        return Where(self.path, self.locator.getLineNumber() or 0, (self.locator.getColumnNumber() or 0) + 1)

    def _fail(self, message: str, where: Where | None = None) -> None:
        raise DataError(f"{where or self._where()}: {message}")

    def startElement(self, name: str, attrs: xml.sax.xmlreader.AttributesImpl) -> None:
        where = self._where()
        attributes = dict(attrs)
        parent = self.stack[-1] if self.stack else None
        self.stack.append(name)
        if self.skip_depth:
            self.skip_depth += 1
            return
        if self.seg is not None:
            self._fail(f"<{name}> inside <seg>; a segment holds text only", where)
        expected = {
            None: ("dataset",),
            "dataset": ("collection", "doc"),
            "collection": ("doc",),
            "doc": BLOCK_ELEMENTS + ("supplemental",),
            "src": ("p", "seg"),
            "ref": ("p", "seg"),
            "hyp": ("p", "seg"),
            "p": ("seg",),
        }.get(parent, ())
        if name not in expected:
            context = f"inside <{parent}>" if parent else "as the root element"
            allowed = ", ".join(f"<{e}>" for e in expected) or "no element"
            self._fail(f"unexpected <{name}> {context}; expected {allowed}", where)
        if name == "dataset":
            self.result = WmtXmlFile(attributes)
        elif name == "collection":
            self.collection = attributes.get("id", "")
        elif name == "doc":
            self.doc_id = attributes.pop("id", "")
            if not self.doc_id:
                self._fail("<doc> has no id attribute", where)
            if self.collection is not None:
                attributes["collection"] = self.collection
            self.doc_where, self.doc_attributes = where, attributes
            self.doc_has_source, self.unnamed_refs = False, 0
        elif name == "supplemental":
            self.skip_depth = 1
        elif name in BLOCK_ELEMENTS:
            self._start_block(name, attributes, where)
        elif name == "p":
            assert self.block is not None
            self.block.paragraphs.append([])
            self.in_paragraph, self.implicit_paragraph = True, False
        elif name == "seg":
            assert self.block is not None
            if not self.in_paragraph and not self.implicit_paragraph:
                self.block.paragraphs.append([])
                self.implicit_paragraph = True
            self.seg, self.seg_text = (attributes.get("id"), where), []

    def _start_block(self, name: str, attributes: dict[str, str], where: Where) -> None:
        assert self.result is not None
        lang = attributes.get("lang", attributes.get("language", ""))
        if name == "src":
            if self.doc_has_source:
                self._fail(f"document {self.doc_id!r} has a second <src>", where)
            self.doc_has_source = True
            assert self.doc_where is not None
            # Document-level errors (duplicate id) point at the <doc>.
            self.block = DocBlock(self.doc_id, self.doc_where, None, dict(self.doc_attributes))
            self.result.sources.append(self.block)
            self.result.source_languages.setdefault(lang, str(where))
        elif name == "ref":
            label = attributes.get("translator", "")
            if not label:
                self.unnamed_refs += 1
                label = "ref" if self.unnamed_refs == 1 else f"ref-{self.unnamed_refs}"
            self.block = DocBlock(self.doc_id, where, label)
            self.result.references.append(self.block)
            self.result.target_languages.setdefault(lang, str(where))
        else:
            label = attributes.get("system", "")
            if not label:
                self._fail("<hyp> has no system attribute", where)
            self.block = DocBlock(self.doc_id, where, label)
            self.result.hypotheses.append(self.block)
            self.result.target_languages.setdefault(lang, str(where))
        self.in_paragraph = self.implicit_paragraph = False

    def endElement(self, name: str) -> None:
        self.stack.pop()
        if self.skip_depth:
            self.skip_depth -= 1
            return
        if name == "seg":
            assert self.seg is not None and self.block is not None
            seg_id, where = self.seg
            self.block.paragraphs[-1].append(SegEntry(seg_id, "".join(self.seg_text), where))
            self.seg = None
        elif name == "p":
            self.in_paragraph = False
        elif name in BLOCK_ELEMENTS:
            self.block = None
        elif name == "doc":
            if not self.doc_has_source and self.doc_missing_source is None:
                assert self.doc_where is not None
                self.doc_missing_source = (self.doc_id, self.doc_where)
        elif name == "collection":
            self.collection = None

    def characters(self, content: str) -> None:
        if self.skip_depth:
            return
        if self.seg is not None:
            self.seg_text.append(content)
        elif content.strip():
            self._fail(f"text outside <seg>: {content.strip()[:40]!r}")


def read_wmt_xml(path: str | Path, need_source: bool = True) -> WmtXmlFile:
    """Parse one WMT XML file; with ``need_source`` every ``<doc>`` must have a ``<src>``."""
    data = read_regular_bytes(path)
    decode_utf8(data, path)  # invalid UTF-8: name the byte offset, not an expat token
    handler = _Handler(str(path))
    parser = xml.sax.make_parser()
    parser.setFeature(xml.sax.handler.feature_external_ges, False)
    parser.setFeature(xml.sax.handler.feature_external_pes, False)
    parser.setContentHandler(handler)
    try:
        # The bytes are valid UTF-8 (checked above) and WMT files are UTF-8: read them
        # as such whatever the XML declaration says.
        source = xml.sax.xmlreader.InputSource(str(path))
        source.setByteStream(io.BytesIO(data))
        source.setEncoding("utf-8")
        parser.parse(source)
    except xml.sax.SAXParseException as exc:
        raise DataError(
            f"{path}, line {exc.getLineNumber()}, column {(exc.getColumnNumber() or 0) + 1}: "
            f"not well-formed XML: {exc.getMessage()}"
        ) from None
    if handler.result is None:
        raise DataError(f"{path}: no <dataset> element; is this a WMT XML file?")
    missing = handler.doc_missing_source
    if need_source and missing:
        raise DataError(f"{missing[1]}: document {missing[0]!r} has no <src>")
    return handler.result


def import_wmt_xml(
    source: str | Path,
    references: Sequence[str | Path] = (),
    systems: Sequence[tuple[str, str | Path]] = (),
    source_language: str = "",
    target_language: str = "",
) -> Project:
    main = read_wmt_xml(source)
    ref_files = [(str(p), read_wmt_xml(p, need_source=False)) for p in references]
    sys_files = [(sys_id, str(p), read_wmt_xml(p, need_source=False)) for sys_id, p in systems]
    if not main.sources:
        raise DataError(f"{source}: the dataset holds no documents")

    targets: dict[str, str] = {}
    for parsed in [main] + [f for _, f in ref_files] + [f for _, _, f in sys_files]:
        for code, where in parsed.target_languages.items():
            targets.setdefault(code, where)
    project = build_project(
        main.sources,
        name=main.attributes.get("id", ""),
        source_language=pick_language(source_language, main.source_languages, "source"),
        target_language=pick_language(target_language, targets, "target"),
    )

    add_references(project, collect_texts(project, main.references, "reference"))
    add_systems(project, collect_texts(project, main.hypotheses, "system"), str(source))
    for path, parsed in ref_files:
        if not parsed.references:
            raise DataError(f"{path}: holds no <ref> blocks")
        add_references(project, collect_texts(project, parsed.references, "reference"))
    for given_id, path, parsed in sys_files:
        texts = collect_texts(project, parsed.hypotheses, "system")
        if not texts:
            raise DataError(f"{path}: holds no <hyp> blocks")
        add_systems(project, name_single_system(texts, given_id, path, "its own name"), path)
    return project


# --- export ----------------------------------------------------------------------------
def _check_chars(text: str, what: str) -> str:
    bad = _NOT_XML.search(text)
    if bad:
        raise DataError(f"{what} contains the character U+{ord(bad.group()):04X}, which XML cannot hold")
    return text


def _text(text: str, what: str) -> str:
    # Line breaks as references: a parser would turn a raw CR into LF.
    return escape(_check_chars(text, what), {"\r": "&#13;", "\n": "&#10;"})


def _attrs(pairs: list[tuple[str, str]]) -> str:
    out = ""
    for name, value in pairs:
        if not _ATTR_NAME.match(name):
            raise DataError(f"attribute name {name!r} cannot be written as XML")
        out += f" {name}={quoteattr(_check_chars(value, f'attribute {name!r}'))}"
    return out


def _block(project: Project, doc_id: str, tag: str, attrs: list[tuple[str, str]],
           texts: dict[str, str] | None, indent: str) -> list[str]:
    """One <src>/<ref>/<hyp> of a document; [] when ``texts`` covers none of it."""
    doc = project.document(doc_id)
    body = []
    for par in doc.paragraphs:
        segs = [s for s in par.segments if texts is None or s.id in texts]
        if texts is not None and not segs:
            continue
        body.append(f"{indent}  <p>")
        for seg in segs:
            text = seg.source if texts is None else texts[seg.id]
            body.append(
                f"{indent}    <seg{_attrs([('id', local_segment_id(doc.id, seg.id))])}>"
                f"{_text(text, f'segment {seg.id!r}')}</seg>"
            )
        body.append(f"{indent}  </p>")
    if texts is not None and not body:
        return []
    return [f"{indent}<{tag}{_attrs(attrs)}>", *body, f"{indent}</{tag}>"]


def render_wmt_xml(project: Project) -> str:
    src_lang = [("lang", project.source_language)] if project.source_language else []
    tgt_lang = [("lang", project.target_language)] if project.target_language else []
    lines = ['<?xml version="1.0" encoding="utf-8"?>', f"<dataset{_attrs([('id', project.name)])}>"]
    open_collection: str | None = None
    for doc in project.documents:
        attributes = dict(doc.attributes)
        collection = attributes.pop("collection", None)
        attributes.pop("id", None)
        if collection != open_collection:
            if open_collection is not None:
                lines.append("  </collection>")
            if collection is not None:
                lines.append(f"  <collection{_attrs([('id', collection)])}>")
            open_collection = collection
        indent = "    " if collection is not None else "  "
        lines.append(f"{indent}<doc{_attrs([('id', doc.id), *attributes.items()])}>")
        inner = indent + "  "
        lines += _block(project, doc.id, "src", src_lang, None, inner)
        for ref in project.references:
            lines += _block(project, doc.id, "ref", tgt_lang + [("translator", ref.id)], ref.texts, inner)
        for system in project.systems:
            lines += _block(project, doc.id, "hyp", tgt_lang + [("system", system.id)], system.texts, inner)
        lines.append(f"{indent}</doc>")
    if open_collection is not None:
        lines.append("  </collection>")
    lines.append("</dataset>")
    return "\n".join(lines) + "\n"


def export_wmt_xml(project: Project, out: str | Path) -> list[Path]:
    target = Path(out)
    if target.is_dir():
        target = target / "corpus.xml"
    text = render_wmt_xml(project)  # before creating anything: a refused text leaves no folder
    target.parent.mkdir(parents=True, exist_ok=True)
    write_output(target, text)
    return [target]
