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
from mtworkbench.core.layers import ENTITIES, RELATIONS, Relation, layer_types, relation_layer, span_layer
from mtworkbench.core.model import EntitySpan, EntityTypeStyle, Project, Reference
from mtworkbench.core.scoring_input import EntityMention
from mtworkbench.core.text_display import clip, first_difference
from mtworkbench.io.annotations.entity_records import AnnotatedText, FormatError, MentionLink
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
    relations: list[Relation] = field(default_factory=list)
    removed_relations: list[Relation] = field(default_factory=list)


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
    # With every key taken the type has none (it is picked from the type list instead).
    key = next((ch for ch in candidates if ch not in used), "")
    return EntityTypeStyle(name, key, _PALETTE[len(styles) % len(_PALETTE)])


# --- export -----------------------------------------------------------------------
def records_for(project: Project, reference_id: str, annotator: str, layer: str = ENTITIES) -> list[AnnotatedText]:
    """One record per segment in document order ('' where the reference has no text)."""
    return records_and_links(project, reference_id, annotator, layer)[0]


def records_and_links(
    project: Project, reference_id: str, annotator: str, layer: str = ENTITIES
) -> tuple[list[AnnotatedText], list[MentionLink]]:
    """The records of one annotator's spans of a layer, and the relations of that annotator
    whose two ends are among them (in the project's relation order)."""
    ref = project.reference(reference_id)
    records: list[AnnotatedText] = []
    where: dict[str, tuple[int, int]] = {}
    for i, seg in enumerate(project.segments):
        spans = [s for s in project.spans_for(reference_id, seg.id, annotator) if s.layer == layer]
        for k, s in enumerate(spans):
            where[s.id] = (i, k)
        records.append(AnnotatedText(
            ref.texts.get(seg.id, ""),
            [EntityMention(s.start, s.end, s.type, s.fragments, origin=s.origin) for s in spans],
            segment=seg.id,
        ))
    links = [
        MentionLink(where[r.source], where[r.target], r.type, r.origin)
        for r in project.relations
        if r.annotator == annotator and r.source in where and r.target in where
    ]
    return records, links


# Formats that carry relations (their writers take ``links``).
LINK_FORMATS = ("brat", "webanno", "json")


def export_entities(project: Project, reference_id: str, annotator: str, fmt: str, path: str | Path,
                    layer: str = ENTITIES) -> list[Path]:
    """Write the annotator's spans of a layer on the reference; returns the files written."""
    name = ANNOTATION_FORMATS.get(fmt).name
    write = ANNOTATION_FORMATS.get(fmt).write
    records, links = records_and_links(project, reference_id, annotator, layer)
    if name in LINK_FORMATS:
        return write(path, records, project.reference(reference_id).texts, links)
    if any(m.fragments for r in records for m in r.mentions):
        raise DataError(f"{name} cannot hold discontinuous entities; export as brat, webanno or json")
    return write(path, records, project.reference(reference_id).texts)


def write_brat_records(path: str | Path, records: list[AnnotatedText], texts: dict[str, str],
                       links: list[MentionLink] | None = None) -> list[Path]:
    from mtworkbench.io.annotations.brat import write_brat

    return write_brat(path, records, links or [])


def write_muc_records(path: str | Path, records: list[AnnotatedText], texts: dict[str, str]) -> list[Path]:
    from mtworkbench.io.annotations.muc import write_muc

    write_muc(path, records)
    return [Path(path)]


def write_conll_records(path: str | Path, records: list[AnnotatedText], texts: dict[str, str]) -> list[Path]:
    from mtworkbench.io.annotations.conll import write_conll

    write_conll(path, records)
    return [Path(path)]




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
    layer: str = ENTITIES,
) -> ImportSummary:
    """Read a file and add its entities as ``annotator``'s spans of ``layer`` on the
    reference, and its relations (formats that carry them) as the annotator's relations.

    Nothing changes in the project when the file is refused.
    """
    annotator = annotator.strip()
    if not annotator:
        raise DataError("an annotator name is needed")
    if span_layer(project.settings, layer).on != "reference":
        raise DataError(f"layer {layer!r} does not sit on references; import onto sources with the "
                        "source-entities reader")
    ref = project.reference(reference_id) if project.has_reference(reference_id) else None
    existing = [s for s in project.spans
                if s.reference == reference_id and s.annotator == annotator and s.layer == layer]
    if existing and not replace_existing:
        raise DataError(
            f"annotator {annotator!r} already has {len(existing)} spans on reference "
            f"{reference_id!r}; replace them explicitly (--replace)"
        )
    placed, links = _place_records(project, path, fmt, ref)
    type_of, new_types = _map_types(
        [t.name for t in layer_types(project.settings, layer)],
        [(m.type, record.line) for _, record in placed for m in record.mentions], create_types, path,
        # brat, WebAnno and JSON files round-trip: their type names are kept as written.
        "entity" if ANNOTATION_FORMATS.get(fmt).name not in LINK_FORMATS else "span",
    )
    rel_layer = relation_layer(project.settings, RELATIONS)
    rel_of, new_rel_types = _map_types([t.name for t in rel_layer.types], [(k.type, 0) for k in links],
                                       create_types, path, "relation")
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
        _add_types(project, layer, new_types)
    if new_rel_types:
        styles = list(rel_layer.types)
        for name in new_rel_types:
            styles.append(new_type_style(styles, name))
        rel_layer.types = styles
    removed_relations = [project.remove_relation(r.id) for s in existing for r in project.relations_of(s.id)]
    removed = [project.remove_span(span.id) for span in existing]
    added: list[EntitySpan] = []
    ids: dict[tuple[int, int], str] = {}
    # A file may list one span twice (brat allows it); the project keeps it once and
    # relations of either copy link the one kept.
    seen: dict[tuple[str, tuple[tuple[int, int], ...], str], str] = {}
    try:
        for i, (seg_id, record) in enumerate(placed):
            for k, m in enumerate(record.mentions):
                twin = seen.get((seg_id, m.fragments or ((m.start, m.end),), type_of[m.type]))
                if twin is not None:
                    ids[(i, k)] = twin
                    continue
                span = EntitySpan(project.new_id("e"), reference_id, seg_id, m.start, m.end, type_of[m.type],
                                  annotator, layer, tuple(m.fragments), m.origin)
                project.add_span(span)
                added.append(span)
                ids[(i, k)] = seen[(seg_id, span.parts, span.type)] = span.id
        relations: list[Relation] = []
        for link in links:
            rel = Relation(project.new_id("r"), rel_of[link.type], ids[link.source], ids[link.target], annotator,
                           origin=link.origin)
            if any((r.type, r.source, r.target) == (rel.type, rel.source, rel.target) for r in relations):
                continue  # the same link twice (between twin spans)
            project.add_relation(rel)
            relations.append(rel)
    except DataError as exc:
        for rel in [r for r in project.relations if r.source in ids.values() or r.target in ids.values()]:
            project.remove_relation(rel.id)
        for span in reversed(added):
            project.remove_span(span.id)
        for span in removed:
            project.add_span(span)
        for rel in removed_relations:
            project.add_relation(rel)
        raise DataError(f"{path}: {exc}") from None
    return ImportSummary(
        reference_id,
        annotator,
        len({s.segment for s in added}),
        len(added),
        created_reference,
        texts_set,
        new_types + [f"{t} (relation)" for t in new_rel_types],
        added,
        removed,
        relations,
        removed_relations,
    )


def _map_types(known_names: list[str], found: list[tuple[str, int]], create: bool, path: str | Path,
               what: str) -> tuple[dict[str, str], list[str]]:
    """The project type for each type a file uses (CoNLL short names as their MUC types),
    and the new types to create (only with ``create``)."""
    known = dict.fromkeys(known_names)
    type_of: dict[str, str] = {}
    new_types: list[str] = []
    for name, line in found:
        if name in type_of:
            continue
        if name in known:
            type_of[name] = name
        elif what == "entity" and TYPE_ALIASES.get(name) in known:
            type_of[name] = TYPE_ALIASES[name]
        elif create:
            type_of[name] = name
            new_types.append(name)
        else:
            raise FormatError(
                f"unknown {what} type {name!r} (project types: {', '.join(known) or 'none'}); "
                "allow new types explicitly (--create-types)",
                path,
                line or None,
            )
    return type_of, new_types


def _add_types(project: Project, layer: str, names: list[str]) -> None:
    styles = list(layer_types(project.settings, layer))
    for name in names:
        styles.append(new_type_style(styles, name))
    if layer == ENTITIES:
        project.set_setting("entity_types", styles)
    else:
        span_layer(project.settings, layer).types = styles


def _place_records(
    project: Project, path: str | Path, fmt: str, ref: Reference | None
) -> tuple[list[tuple[str, AnnotatedText]], list[MentionLink]]:
    """Read the file and pair each record with its segment id, checking texts."""
    read = ANNOTATION_FORMATS.get(fmt).read
    seg_ids = project.segment_ids
    texts = {} if ref is None else ref.texts
    result = read(path, seg_ids, texts)
    if result.placed is not None:
        return result.placed, []
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
    return placed, result.links


@dataclass
class ReadRecords:
    """What an annotation reader found: records to place on segments by the
    shared rules below, or (``placed``) records it paired with segments itself."""

    records: list[AnnotatedText]
    path: str | Path  # the file to name in messages
    placed: list[tuple[str, AnnotatedText]] | None = None
    # Relations between mentions, by (record index, mention index) in ``records``.
    links: list[MentionLink] = field(default_factory=list)


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
    from mtworkbench.io.annotations.brat import brat_paths, read_brat_with_links

    records, links = read_brat_with_links(path)
    return ReadRecords(records, brat_paths(path)[0], links=links)


def read_jsonl_records(path: str | Path, seg_ids: list[str], texts: dict[str, str]) -> ReadRecords:
    from mtworkbench.io.annotations.entities_jsonl import read_entities_jsonl

    return ReadRecords(read_entities_jsonl(path), path)


def read_webanno_records(path: str | Path, seg_ids: list[str], texts: dict[str, str]) -> ReadRecords:
    from mtworkbench.io.annotations.webanno import read_webanno

    records, links = read_webanno(path)
    return ReadRecords(records, path, links=links)


def write_webanno_records(path: str | Path, records: list[AnnotatedText], texts: dict[str, str],
                          links: list[MentionLink] | None = None) -> list[Path]:
    from mtworkbench.io.annotations.webanno import write_webanno

    write_webanno(path, records, links or [])
    return [Path(path)]


def read_json_records(path: str | Path, seg_ids: list[str], texts: dict[str, str]) -> ReadRecords:
    from mtworkbench.io.annotations.spans_json import read_spans_json

    records, links = read_spans_json(path)
    return ReadRecords(records, path, links=links)


def write_json_records(path: str | Path, records: list[AnnotatedText], texts: dict[str, str],
                       links: list[MentionLink] | None = None) -> list[Path]:
    from mtworkbench.io.annotations.spans_json import write_spans_json

    write_spans_json(path, records, links or [])
    return [Path(path)]


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
