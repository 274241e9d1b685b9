"""Import and export one annotator's entity spans on one reference, in any of
the four annotation formats (MUC-7 inline SGML, CoNLL BIO, brat standoff, JSONL).

Records line up with the project's segments in document order: line i of a
MUC or brat file is segment i (an empty line where the reference has no text);
CoNLL sentences go to the segments whose reference text has any token; JSONL
records name their segment (or go by position when they do not). When the
reference already has a text for a segment, the file must carry the same
text; when it has none (or the reference does not exist yet), the file's text
becomes the reference text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.text_display import clip, first_difference
from mtworkbench.core.model import EntitySpan, EntityTypeStyle, Project, Reference
from mtworkbench.io.annotations.entity_records import AnnotatedText, FormatError
from mtworkbench.core.scoring_input import EntityMention
from mtworkbench.io.formats import ANNOTATION_FORMATS

FORMATS: tuple[str, ...] = ANNOTATION_FORMATS.names  # the one list is in io.formats
# CoNLL-2003 short names for the MUC types a project has by default.
TYPE_ALIASES = {"PER": "PERSON", "ORG": "ORGANIZATION", "LOC": "LOCATION"}
_PALETTE = ("#808000", "#000075", "#f032e6", "#42d4f4", "#bfef45", "#dcbeff", "#800000", "#aaffc3", "#ffd8b1", "#a9a9a9")


@dataclass
class ImportSummary:
    reference: str
    annotator: str
    segments: int  # segments that received spans or text
    spans: int
    created_reference: bool = False
    texts_set: int = 0
    created_types: list[str] = field(default_factory=list)
    # What changed, so an editor can offer one undo step for the import.
    added: list[EntitySpan] = field(default_factory=list)
    removed: list[EntitySpan] = field(default_factory=list)


def guess_format(path: str | Path) -> str | None:
    return ANNOTATION_FORMATS.guess(path)


def resolve_format(fmt: str | None, path: str | Path) -> str:
    if fmt:
        return ANNOTATION_FORMATS.get(fmt).name
    guessed = guess_format(path)
    if guessed is None:
        raise DataError(f"{path}: cannot tell the annotation format from the file name; give --format")
    return guessed


def default_annotator(project: Project, reference_id: str) -> str:
    """The only annotator with spans on the reference; an error when there are none or several."""
    project.reference(reference_id)
    names = sorted({s.annotator for s in project.spans if s.reference == reference_id})
    if len(names) != 1:
        listing = ", ".join(names) if names else "none"
        raise DataError(f"reference {reference_id!r}: name the annotator (annotators: {listing})")
    return names[0]


def new_type_style(styles: list[EntityTypeStyle], name: str) -> EntityTypeStyle:
    """A style for a new entity type: the first letter of its name not yet used
    as a key (then any free letter or digit), and the next palette colour."""
    used = {t.key.upper() for t in styles}
    candidates = [ch.upper() for ch in name if ch.isalnum()] + list("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    key = next((ch for ch in candidates if ch not in used), "")
    if not key:
        raise DataError(f"no free key left for entity type {name!r}")
    return EntityTypeStyle(name, key, _PALETTE[len(styles) % len(_PALETTE)])


# --- export -----------------------------------------------------------------------
def records_for(project: Project, reference_id: str, annotator: str) -> list[AnnotatedText]:
    """One record per segment in document order ('' where the reference has no text)."""
    ref = project.reference(reference_id)
    return [
        AnnotatedText(
            ref.texts.get(seg.id, ""),
            [EntityMention(s.start, s.end, s.type) for s in project.spans_for(reference_id, seg.id, annotator)],
            segment=seg.id,
        )
        for seg in project.segments
    ]


def export_entities(project: Project, reference_id: str, annotator: str, fmt: str, path: str | Path) -> list[Path]:
    """Write the annotator's spans on the reference; returns the files written."""
    write = ANNOTATION_FORMATS.get(fmt).write
    records = records_for(project, reference_id, annotator)
    return write(path, records, project.reference(reference_id).texts)


def write_muc_records(path: str | Path, records: list[AnnotatedText], texts: dict[str, str]) -> list[Path]:
    from mtworkbench.io.annotations.muc import write_muc

    write_muc(path, records)
    return [Path(path)]


def write_conll_records(path: str | Path, records: list[AnnotatedText], texts: dict[str, str]) -> list[Path]:
    from mtworkbench.io.annotations.conll import write_conll

    write_conll(path, records)
    return [Path(path)]


def write_brat_records(path: str | Path, records: list[AnnotatedText], texts: dict[str, str]) -> list[Path]:
    from mtworkbench.io.annotations.brat import write_brat

    return write_brat(path, records)


def write_jsonl_records(path: str | Path, records: list[AnnotatedText], texts: dict[str, str]) -> list[Path]:
    from mtworkbench.io.annotations.entities_jsonl import write_entities_jsonl

    # JSONL names each record's segment, so segments without reference text are left out.
    write_entities_jsonl(path, [r for r in records if r.segment in texts])
    return [Path(path)]


# --- import -----------------------------------------------------------------------
def import_entities(
    project: Project,
    path: str | Path,
    fmt: str,
    reference_id: str,
    annotator: str,
    create_types: bool = False,
    replace_existing: bool = False,
) -> ImportSummary:
    """Read a file and add its entities as ``annotator``'s spans on the reference.

    Nothing changes in the project when the file is refused.
    """
    annotator = annotator.strip()
    if not annotator:
        raise DataError("an annotator name is needed")
    ref = project.reference(reference_id) if project.has_reference(reference_id) else None
    existing = [s for s in project.spans if s.reference == reference_id and s.annotator == annotator]
    if existing and not replace_existing:
        raise DataError(
            f"annotator {annotator!r} already has {len(existing)} spans on reference "
            f"{reference_id!r}; replace them explicitly (--replace)"
        )
    placed = _place_records(project, path, fmt, ref)
    known = {t: None for t in project.entity_type_names}
    type_of: dict[str, str] = {}
    new_types: list[str] = []
    for _seg_id, record in placed:
        for m in record.mentions:
            if m.type in type_of:
                continue
            if m.type in known:
                type_of[m.type] = m.type
            elif TYPE_ALIASES.get(m.type) in known:
                type_of[m.type] = TYPE_ALIASES[m.type]
            elif create_types:
                type_of[m.type] = m.type
                new_types.append(m.type)
            else:
                raise FormatError(
                    f"unknown entity type {m.type!r} (project types: {', '.join(known)}); "
                    "allow new types explicitly (--create-types)",
                    path,
                    record.line or None,
                )
    # All checks passed: change the project.
    created_reference = ref is None
    texts_set = 0
    if ref is None:
        ref = Reference(id=reference_id, translator=annotator, texts={})
        project.add_reference(ref)
    for seg_id, record in placed:
        if seg_id not in ref.texts and (record.text or record.mentions):
            project.set_reference_text(reference_id, seg_id, record.text)
            texts_set += 1
    if new_types:
        styles = list(project.settings.entity_types)
        for name in new_types:
            styles.append(new_type_style(styles, name))
        project.set_setting("entity_types", styles)
    removed = [project.remove_span(span.id) for span in existing]
    added: list[EntitySpan] = []
    for seg_id, record in placed:
        for m in record.mentions:
            span = EntitySpan(project.new_id("e"), reference_id, seg_id, m.start, m.end, type_of[m.type], annotator)
            project.add_span(span)
            added.append(span)
    return ImportSummary(
        reference_id,
        annotator,
        len({s.segment for s in added}),
        len(added),
        created_reference,
        texts_set,
        new_types,
        added,
        removed,
    )


def _place_records(
    project: Project, path: str | Path, fmt: str, ref: Reference | None
) -> list[tuple[str, AnnotatedText]]:
    """Read the file and pair each record with its segment id, checking texts."""
    read = ANNOTATION_FORMATS.get(fmt).read
    seg_ids = project.segment_ids
    texts = {} if ref is None else ref.texts
    result = read(path, seg_ids, texts)
    if result.placed is not None:
        return result.placed
    records, path = result.records, result.path
    placed: list[tuple[str, AnnotatedText]] = []
    positional = [r for r in records if r.segment is None]
    if positional and len(positional) != len(records):
        raise FormatError("some records name their segment and some do not", path, positional[0].line or None)
    if positional and len(records) != len(seg_ids):
        raise FormatError(f"{len(records)} records, but the project has {len(seg_ids)} segments", path)
    seen: set[str] = set()
    for i, record in enumerate(records):
        sid = seg_ids[i] if record.segment is None else record.segment
        if not project.has_segment(sid):
            raise FormatError(f"unknown segment {sid!r}", path, record.line or None, 1)
        if sid in seen:
            raise FormatError(f"segment {sid!r} appears twice", path, record.line or None, 1)
        seen.add(sid)
        if sid in texts and texts[sid] != record.text:
            raise FormatError(
                f"the text differs from reference segment {clip(sid)} {first_difference(texts[sid], record.text)}",
                path,
                record.line or None,
            )
        placed.append((sid, record))
    return placed


@dataclass
class ReadRecords:
    """What an annotation reader found: records to place on segments by the
    shared rules below, or (``placed``) records it paired with segments itself."""

    records: list[AnnotatedText]
    path: str | Path  # the file to name in messages
    placed: list[tuple[str, AnnotatedText]] | None = None


def read_conll_records(path: str | Path, seg_ids: list[str], texts: dict[str, str]) -> ReadRecords:
    from mtworkbench.io.annotations.conll import read_conll, sentence_mentions

    # CoNLL has no empty sentences: they go to the segments whose reference text has a token.
    sentences = read_conll(path)
    targets = [s for s in seg_ids if texts.get(s, "").strip()] if any(t.strip() for t in texts.values()) else seg_ids
    if len(sentences) != len(targets):
        raise FormatError(
            f"{len(sentences)} sentences, but {len(targets)} segments"
            + (" with reference text" if targets is not seg_ids else ""),
            path,
        )
    placed = [(sid, sentence_mentions(sent, texts.get(sid), path)) for sid, sent in zip(targets, sentences)]
    return ReadRecords([record for _, record in placed], path, placed)


def read_muc_records(path: str | Path, seg_ids: list[str], texts: dict[str, str]) -> ReadRecords:
    from mtworkbench.io.annotations.muc import read_muc

    return ReadRecords(read_muc(path), path)


def read_brat_records(path: str | Path, seg_ids: list[str], texts: dict[str, str]) -> ReadRecords:
    from mtworkbench.io.annotations.brat import brat_paths, read_brat

    return ReadRecords(read_brat(path), brat_paths(path)[0])


def read_jsonl_records(path: str | Path, seg_ids: list[str], texts: dict[str, str]) -> ReadRecords:
    from mtworkbench.io.annotations.entities_jsonl import read_entities_jsonl

    return ReadRecords(read_entities_jsonl(path), path)


def spans_as_mentions(project: Project, reference_id: str, segment_id: str, annotator: str | None = None) -> list[EntityMention]:
    return [EntityMention(s.start, s.end, s.type) for s in project.spans_for(reference_id, segment_id, annotator)]


__all__ = [
    "FORMATS",
    "ImportSummary",
    "default_annotator",
    "export_entities",
    "guess_format",
    "new_type_style",
    "import_entities",
    "records_for",
    "resolve_format",
    "spans_as_mentions",
]
