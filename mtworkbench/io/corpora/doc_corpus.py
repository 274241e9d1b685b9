"""Document-structured corpora (WMT/NIST SGML, WMT XML) turned into a project.

Both formats describe the same thing: documents with ids, paragraphs, and
segments with ids local to their document, given once for the source and once
per reference translator or system. The parsers produce ``DocBlock`` lists
(one block = one document's text from one side) and this module lines them up.

Id scheme (documented for users, relied on by the exporters):

- document id = the file's document id (``docid`` / ``id``);
- segment id  = ``"<docid>:<segid>"`` so it is unique across the project;
  a segment without an id attribute takes its 1-based position in the document;
- paragraph id = ``"<docid>:p<n>"``, n counting the document's paragraphs from 1.

Translations are matched to the source by document id and segment id, never by
position, so documents may come in any order. A reference may leave out whole
documents or segments (that segment then has no text from that translator); a
system must translate every source segment. Anything that does not line up is a
``DataError`` that names the file, the position and both ids.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Document, Paragraph, Project, Segment


@dataclass(frozen=True)
class Where:
    """A position in an input file, for error messages (line and column from 1)."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}, line {self.line}, column {self.column}"


@dataclass
class SegEntry:
    local_id: str | None
    text: str
    where: Where


@dataclass
class DocBlock:
    """One document's text from one side (source, a reference or a system)."""

    doc_id: str
    where: Where
    # Who wrote it: sysid / translator / system label; None for the source.
    label: str | None = None
    attributes: dict[str, str] = field(default_factory=dict)
    paragraphs: list[list[SegEntry]] = field(default_factory=list)

    def segments(self) -> Iterable[SegEntry]:
        for par in self.paragraphs:
            yield from par


def segment_id(doc_id: str, local_id: str) -> str:
    return f"{doc_id}:{local_id}"


def paragraph_id(doc_id: str, n: int) -> str:
    return f"{doc_id}:p{n}"


def local_segment_id(doc_id: str, seg_id: str) -> str:
    """The id to write inside a document: the part after ``<docid>:`` when present."""
    prefix = f"{doc_id}:"
    return seg_id[len(prefix):] if seg_id.startswith(prefix) else seg_id


def _local_ids(block: DocBlock) -> list[tuple[str, SegEntry]]:
    """Each segment's id within its document; duplicates are an error."""
    seen: dict[str, Where] = {}
    out = []
    for position, seg in enumerate(block.segments(), 1):
        local = seg.local_id if seg.local_id is not None else str(position)
        if local in seen:
            raise DataError(
                f"{seg.where}: segment id {local!r} appears twice in document {block.doc_id!r} "
                f"(first at line {seen[local].line})"
            )
        seen[local] = seg.where
        out.append((local, seg))
    return out


def build_project(
    source_blocks: list[DocBlock],
    name: str = "",
    source_language: str = "",
    target_language: str = "",
) -> Project:
    """A project holding the source documents, without references or systems."""
    documents: list[Document] = []
    seen_docs: dict[str, Where] = {}
    for block in source_blocks:
        if block.doc_id in seen_docs:
            raise DataError(
                f"{block.where}: document id {block.doc_id!r} appears twice "
                f"(first at line {seen_docs[block.doc_id].line})"
            )
        seen_docs[block.doc_id] = block.where
        local_ids = iter(_local_ids(block))
        paragraphs = []
        for n, par in enumerate(block.paragraphs, 1):
            segments = []
            for _ in par:
                local, seg = next(local_ids)
                segments.append(Segment(segment_id(block.doc_id, local), seg.text))
            paragraphs.append(Paragraph(paragraph_id(block.doc_id, n), segments))
        documents.append(Document(block.doc_id, paragraphs, dict(block.attributes)))
    return Project(
        documents=documents,
        source_language=source_language,
        target_language=target_language,
        name=name,
    )


def collect_texts(project: Project, blocks: list[DocBlock], what: str) -> dict[str, dict[str, str]]:
    """Texts per label (in first-seen order), each mapping segment id -> text.

    ``what`` names the side in messages ("reference", "system"). Every
    document and segment must exist in the source; a label may give a segment
    only once.
    """
    known_docs = {doc.id: doc for doc in project.documents}
    texts: dict[str, dict[str, str]] = {}
    for block in blocks:
        label = block.label or ""
        if block.doc_id not in known_docs:
            raise DataError(
                f"{block.where}: {what} {label!r} has document {block.doc_id!r}, "
                "which is not in the source"
            )
        doc_texts = texts.setdefault(label, {})
        for local, seg in _local_ids(block):
            sid = segment_id(block.doc_id, local)
            if not project.has_segment(sid) or project.document_of(sid) != block.doc_id:
                n_source = len(project.segments_of_document(block.doc_id))
                raise DataError(
                    f"{seg.where}: {what} {label!r} has segment {local!r} in document "
                    f"{block.doc_id!r}, which the source does not have (the source document has "
                    f"{n_source} segments)"
                )
            if sid in doc_texts:
                raise DataError(
                    f"{seg.where}: {what} {label!r} gives segment {local!r} of document "
                    f"{block.doc_id!r} twice"
                )
            doc_texts[sid] = seg.text
    return texts


def check_complete(project: Project, texts: dict[str, str], what: str, files: str) -> None:
    """A system must translate every source segment; name the first gap and the count."""
    missing = [s.id for s in project.segments if s.id not in texts]
    if missing:
        first = missing[0]
        doc_id = project.document_of(first)
        raise DataError(
            f"{files}: {what} has no translation for segment "
            f"{local_segment_id(doc_id, first)!r} of document {doc_id!r} "
            f"({len(missing)} of {len(project.segments)} source segments are missing)"
        )


def unique_label(label: str, taken: Iterable[str]) -> str:
    """``label`` or, if that is taken, ``label-2``, ``label-3``..."""
    taken = set(taken)
    if label not in taken:
        return label
    n = 2
    while f"{label}-{n}" in taken:
        n += 1
    return f"{label}-{n}"


def pick_language(explicit: str, found: dict[str, str], what: str) -> str:
    """The explicit language, else the one the files agree on.

    ``found`` maps each language code seen to the file where it was seen;
    "any" and empty values (NIST's placeholder) mean unknown.
    """
    if explicit:
        return explicit
    codes = {code: where for code, where in found.items() if code and code.lower() != "any"}
    if len(codes) > 1:
        listing = ", ".join(f"{code!r} in {where}" for code, where in codes.items())
        raise DataError(f"the files disagree on the {what} language: {listing}")
    return next(iter(codes), "")


def add_references(project: Project, texts_by_label: dict[str, dict[str, str]]) -> None:
    """One reference per label, renamed ``label-2`` ... where a label is taken."""
    from mtworkbench.core.model import Reference

    for label, texts in texts_by_label.items():
        ref_id = unique_label(label, (r.id for r in project.references))
        project.add_reference(Reference(ref_id, translator=ref_id, texts=texts))


def name_single_system(
    texts_by_label: dict[str, dict[str, str]], given_id: str, path: str, hint: str
) -> dict[str, dict[str, str]]:
    """Apply an ID given on the command line: the file must then hold one system."""
    if not given_id:
        return texts_by_label
    if len(texts_by_label) > 1:
        raise DataError(
            f"{path}: holds several systems ({', '.join(map(repr, texts_by_label))}); "
            f"give the file without a system id to import each under {hint}"
        )
    return {given_id: next(iter(texts_by_label.values()))}


def add_systems(project: Project, texts_by_label: dict[str, dict[str, str]], path: str) -> None:
    """One complete system per label; a repeated id is an error naming the file."""
    from mtworkbench.core.model import System

    for label, texts in texts_by_label.items():
        if project.has_system(label):
            raise DataError(f"{path}: system id {label!r} is used twice")
        check_complete(project, texts, f"system {label!r}", path)
        project.add_system(System(label, texts=texts))
