"""Reading a valid bundle section by section, typed in C.

The texts - every segment's source, every reference's and system's texts - are
almost all of a large bundle. Here each of those sections is decoded on its own
from its slice of the file (``msgspec.Raw``, no copy) straight into typed
records: msgspec checks every field's type, and refuses a missing or unknown
field, while it decodes, so no Python loop visits the 1.75 million strings of a
250,000-segment project. Between sections the file's pages are released
(``release_pages``), so the file and all of its decoded texts are never
resident at once.

Older versions are migrated as the general way migrates them (``MIGRATIONS``,
which only change the sections other than the texts). This path only ever
accepts: anything it does not take - a newer or unknown version, a missing or
unknown field, a wrong type, a blank or repeated id, a text for an unknown
segment, any refusal of a later section - makes ``read_valid_bundle`` return None, and the caller reads the file the general way
(``json_checks`` and ``bundle_read``), whose message names the first problem and
its JSON path exactly as before. What it accepts, the general way accepts too,
with the same project.
"""

from __future__ import annotations

import codecs
import mmap
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import msgspec

from mtworkbench.core.errors import DataError
from mtworkbench.core.files import release_pages
from mtworkbench.core.gc_pause import no_cyclic_gc
from mtworkbench.core.json_reader import JsonReader
from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.io.bundle.bundle_read import TOP_LEVEL_OPTIONAL, TOP_LEVEL_REQUIRED, read_rest
from mtworkbench.io.bundle.json_checks import MAX_DEPTH, check_tree

TEXT_SECTIONS = ("documents", "references", "systems")
Migration = Callable[[dict[str, Any]], dict[str, Any]]


class _Paragraph(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    segments: msgspec.Raw  # decoded piece by piece (``_segments``)


class _Document(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    paragraphs: list[_Paragraph]
    attributes: dict[str, str] = {}


class _Reference(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    texts: msgspec.Raw  # decoded piece by piece (``_texts``)
    translator: str = ""


class _System(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    texts: msgspec.Raw
    kind: str = "machine"


_TOP = msgspec.json.Decoder(dict[str, msgspec.Raw])
_DOCUMENTS = msgspec.json.Decoder(list[_Document])
_REFERENCES = msgspec.json.Decoder(list[_Reference])
_SYSTEMS = msgspec.json.Decoder(list[_System])
_REFERENCE = msgspec.json.Decoder(_Reference)
_SYSTEM = msgspec.json.Decoder(_System)
_TEXTS = msgspec.json.Decoder(dict[str, str])
_SEGMENTS = msgspec.json.Decoder(list[Segment])
_ANY = msgspec.json.Decoder()
# The sections of texts' owners: each one's decoder (the owners' texts left as slices), the type
# of its owners (made of an id, texts and this field) and the field.
OWNER_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {"references": _REFERENCES, "systems": _SYSTEMS}
OWNER_TYPES: dict[str, type[_Reference | _System]] = {"references": _Reference, "systems": _System}
OWNER_FIELDS = {"references": "translator", "systems": "kind"}
# What the typed decoders raise for a file they do not take (the general way names why).
GIVES_UP_ON = (msgspec.MsgspecError, DataError, UnicodeDecodeError, RecursionError, ValueError, OverflowError)


class NotTaken(Exception):
    """The file is not one this path reads; the general way reads it and names the problem."""


class TextSections:
    """How the reader gets each reference's and system's texts: decoded and kept, as the
    project needs them. ``sections_check`` replaces it where the project is only checked."""

    def __init__(self, data: bytes | mmap.mmap) -> None:
        self.data = data

    def found(self, sections: dict[str, msgspec.Raw], rest: dict[str, Any]) -> None:
        """Called once the top-level sections are found and the sections other than texts and
        documents decoded (and migrated), before the references and systems are decoded."""

    def owners(self, references: msgspec.Raw, systems: msgspec.Raw) -> tuple[list[Any], list[Any]]:
        """The references and the systems (``_Reference``, ``_System``) of those sections."""
        return _owners(references, _REFERENCES, _REFERENCE), _owners(systems, _SYSTEMS, _SYSTEM)

    def start(self, owners: list[tuple[str, msgspec.Raw]], references: int) -> None:
        """Called before any texts are read: the id and the texts of every reference, then
        every system, in file order, and how many of them are references."""

    def texts(self, index: int, raw: msgspec.Raw, ids: list[str]) -> tuple[dict[str, str], bool]:
        """The texts of the ``index``-th owner and whether they are every segment's in order."""
        return _texts(raw, ids, self.data)

    def close(self) -> None:
        """Called when the reading ends, however it ends."""


def read_valid_bundle(data: bytes | mmap.mmap, file: str | None, version: int, format_name: str,
                      free_form: tuple[str, ...], migrations: Mapping[int, Migration] | None = None,
                      texts: TextSections | None = None) -> Project | None:
    """The project of a bundle file's bytes (or map) of format ``version``; None where
    the general reader must read it (any problem, a newer version, an older one without
    ``migrations``). A migration is given the sections other than the texts - documents,
    references, systems - and must change only those (as every one so far does)."""
    body = memoryview(data)
    if data[:3] == codecs.BOM_UTF8:
        body = body[3:]
    texts = TextSections(data) if texts is None else texts
    try:
        # Millions of new objects and no cycles among them: the cyclic collector, which would
        # walk the growing heap again and again, waits until the project is built.
        with no_cyclic_gc():
            return _read(body, data, file, version, format_name, free_form, migrations or {}, texts)
    except (NotTaken, *GIVES_UP_ON):
        return None
    finally:
        texts.close()
        body.release()


def _read(body: memoryview, data: bytes | mmap.mmap, file: str | None, version: int, format_name: str,
          free_form: tuple[str, ...], migrations: Mapping[int, Migration], texts: TextSections) -> Project:
    sections = _top_level(body, data)
    keys = sections.keys()
    if not (TOP_LEVEL_REQUIRED <= keys and keys <= TOP_LEVEL_REQUIRED | TOP_LEVEL_OPTIONAL):
        raise NotTaken
    _check_layout(body, sections)
    release_pages(data)
    rest = {key: _ANY.decode(raw) for key, raw in sections.items() if key not in TEXT_SECTIONS}
    found = rest["format_version"]
    if rest["format"] != format_name or type(found) is not int or not 1 <= found <= version:
        raise NotTaken  # another format, or a version the general way refuses
    while found < version:  # as the general way migrates, on the sections migrations change
        if found not in migrations:
            raise NotTaken
        rest = migrations[found](dict(rest))
        found += 1
        rest["format_version"] = found
    for key in free_form:  # as the general way: depth of the parts no type check bounds
        if key in rest:
            check_tree(rest[key], file, MAX_DEPTH, strings=False, path=f"$.{key}", depth=1)
    texts.found(sections, rest)
    r = JsonReader(file)
    documents = _documents(sections.pop("documents"))
    release_pages(data)
    project = Project(documents=documents, name=r.str(rest.get("name", ""), "$.name"),
                      source_language=r.str(rest.get("source_language", ""), "$.source_language"),
                      target_language=r.str(rest.get("target_language", ""), "$.target_language"))
    del documents
    # The texts stay slices of the file here (the decoder only runs over them to find their end);
    # ``texts`` decodes them piece by piece.
    references, systems = texts.owners(sections.pop("references"), sections.pop("systems"))
    release_pages(data)
    owners = [(ref.id, ref.texts) for ref in references] + [(system.id, system.texts) for system in systems]
    if any(_blank(owner) for owner, _ in owners):
        raise NotTaken
    texts.start(owners, len(references))
    del owners
    ids = project.segment_ids
    # ``Project`` refuses a repeated id, a text for an unknown segment, a system without
    # every segment's text or of another kind (ModelError: the general way names it).
    for i, ref in enumerate(references):
        found, in_order = texts.texts(i, ref.texts, ids)
        project.add_reference(Reference(ref.id, ref.translator, found), in_segment_order=in_order)
    for i, system in enumerate(systems, len(references)):
        found, in_order = texts.texts(i, system.texts, ids)
        project.add_system(System(system.id, system.kind, found), in_segment_order=in_order)
    del sections, references, systems
    read_rest(r, rest, project)
    return project


# Where a top-level key begins, as bundles are written: on a line of its own, indented two
# spaces (deeper lines are indented further, and a raw line break cannot occur in a string).
_TOP_KEY_LINE = b'\n  "'
_SCAN_BYTES = 4 * 1024 * 1024  # searched per call: a few milliseconds of the interpreter's lock


def _top_level(body: memoryview, data: bytes | mmap.mmap) -> dict[str, msgspec.Raw]:
    """The top-level object's values as slices of ``body``, found in bounded steps.

    One decode of the whole object only to find where its values start and end held the
    interpreter's lock for the whole file (0.4 s and more for 270 MB), and the app reads a
    large bundle on a worker thread while its window must keep answering. Here the key lines
    are found ``_SCAN_BYTES`` at a time; each small value is decoded with its key, and a
    large one is taken as its slice unchecked: every value is decoded whole afterwards (the
    texts by their typed decoders, the rest by ``_ANY``), which fails unless the slice is
    exactly one JSON value, so every cut was between two top-level values. A file written
    otherwise (no key line right after the opening brace) is decoded whole, as before.
    """
    opening = _OPEN.match(body)
    offset = len(data) - len(body)  # the byte order mark before ``body``
    if opening is None or body[opening.end():opening.end() + len(_TOP_KEY_LINE)] != _TOP_KEY_LINE:
        return _TOP.decode(body)
    end = _before_space(body, 0, len(body))  # just after the closing brace
    if body[end - 1:end] != b"}":
        raise ValueError("the top-level object does not end the file")
    end -= 1
    starts, pos = [opening.end()], opening.end() + 1
    needle = _next_key_line(body, opening.end())
    while pos < end:
        step_end = min(end, pos + _SCAN_BYTES)
        found = data.find(needle, offset + pos, offset + step_end)
        if found >= 0:
            starts.append(found - offset)
            pos = found - offset + 1
            needle = _next_key_line(body, pos - 1)
        elif step_end < end:  # a key line across the step's end is found by the next step
            pos = step_end - len(needle) + 1
        elif needle != _TOP_KEY_LINE:  # not in the order bundles are written: any key line
            needle, pos = _TOP_KEY_LINE, starts[-1] + 1
        else:
            break
    values: dict[str, msgspec.Raw] = {}
    for at, cut in zip(starts, starts[1:] + [end]):
        stop = _before_space(body, at, cut)
        if cut < end:  # a comma after every value but the last
            if body[stop - 1:stop] != b",":
                raise ValueError("top-level values not separated by a comma")
            stop = _before_space(body, at, stop - 1)
        if stop - at <= PIECE_BYTES:
            found_values = list(_TOP.decode(b"{" + body[at:stop] + b"}").items())
        else:
            key = _KEY.match(body, at)
            if key is None:
                raise ValueError("a top-level key not written plainly")
            found_values = [(key.group(1).decode(), msgspec.Raw(body[key.end():stop]))]
        for name, value in found_values:
            if name in values:
                raise ValueError(f"the top-level key {name!r} is repeated")
            values[name] = value
    return values


# Where an element of a top-level list begins, as bundles are written: its opening brace on a
# line of its own after this indent (deeper lines are indented further).
_ELEMENT_INDENT = b"\n    "


def _owners(raw: msgspec.Raw, whole: msgspec.json.Decoder, one: msgspec.json.Decoder) -> list:
    """The references or systems, one element decoded per call where the list is laid out as
    bundles are written: decoding the list at once scans all of their texts (150 MB for four
    systems of a quarter of a million segments) in one call that holds the interpreter's lock.
    The elements' braces are found ``_SCAN_BYTES`` at a time; a list laid out otherwise, or any
    element that does not decode on its own, is decoded whole (which takes or refuses it as
    before): the pieces decode only if every cut was between two elements."""
    body = memoryview(raw)
    starts: list[int] = []
    for pos in range(0, len(body), _SCAN_BYTES):
        # Braces are rare in texts: a search for one byte is many times faster than for the line.
        chunk = bytes(body[pos:pos + _SCAN_BYTES])
        found = chunk.find(b"{")
        while found >= 0:
            if body[max(0, pos + found - 5):pos + found] == _ELEMENT_INDENT:
                starts.append(pos + found)
            found = chunk.find(b"{", found + 1)
    if not starts or body[:1] != b"[" or _before_space(body, 1, starts[0]) != 1 or body[-1:] != b"]":
        return whole.decode(raw)
    items = []
    try:
        for at, cut in zip(starts, starts[1:] + [len(body) - 1]):
            stop = _before_space(body, at, cut)
            if cut != len(body) - 1:  # a comma after every element but the last
                if body[stop - 1:stop] != b",":
                    return whole.decode(raw)
                stop = _before_space(body, at, stop - 1)
            items.append(one.decode(body[at:stop]))
    except msgspec.MsgspecError:
        return whole.decode(raw)
    return items


# The large sections and the key bundles write right after each. Looking for that key's line
# skips a section's bytes several times faster than looking for any key line, whose last byte
# (a quote) is in every line of the texts. A key line skipped (another key written between
# them) leaves two values in one slice, which does not decode: the general way reads the file.
_FOLLOWED_BY = {b"documents": b"references", b"references": b"systems", b"systems": b"judges"}


def _next_key_line(body: memoryview, at: int) -> bytes:
    """What to look for after the key line at ``at``: the key written after it, or any key line."""
    key = _KEY.match(body, at)
    follower = _FOLLOWED_BY.get(key.group(1)) if key is not None else None
    return _TOP_KEY_LINE if follower is None else _TOP_KEY_LINE + follower + b'":'


def _before_space(body: memoryview, start: int, stop: int) -> int:
    """Where the JSON whitespace that ends ``body[start:stop]`` begins."""
    while stop > start and body[stop - 1] in b" \t\n\r":
        stop -= 1
    return stop


# Between two top-level values: JSON whitespace, a comma, and the next key written plainly.
_KEY = re.compile(rb'[ \t\n\r]*"([^"\\]*)"[ \t\n\r]*:[ \t\n\r]*')
_OPEN = re.compile(rb'[ \t\n\r]*{')
_NEXT = re.compile(rb'[ \t\n\r]*([,}])')
_END = re.compile(rb'[ \t\n\r]*\Z')
_EDGE = 4096


def _check_layout(body: memoryview, sections: dict[str, msgspec.Raw]) -> None:
    """The top-level object holds exactly ``sections``, in this order, each key once.

    A key given twice keeps its last value, and the decoder only skips over the first
    one (its strings and numbers unchecked): such a file, or one whose keys are written
    with escapes, goes the general way, which checks every value.
    """
    m = _OPEN.match(body)
    if m is None:
        raise NotTaken
    end = b","
    for key, raw in sections.items():
        if end != b",":
            raise NotTaken
        m = _KEY.match(body, m.end())
        if m is None or m.group(1) != key.encode():
            raise NotTaken
        pos = m.end() + len(raw)
        if not _same(body[m.end():pos], memoryview(raw)):
            raise NotTaken
        m = _NEXT.match(body, pos)
        if m is None:
            raise NotTaken
        end = m.group(1)
    if end != b"}" or _END.match(body, m.end()) is None:
        raise NotTaken


def _same(found: memoryview, value: memoryview) -> bool:
    """Whether the file holds ``value`` where the walk expects it: a long value by its
    length and both ends. Comparing all of it would cost a quarter of a second per 100 MB;
    a value of the same length and ends that still leaves the walk on the next key and on
    the file's last brace would have to be made for it, and could only hide a value the
    decoder dropped (a repeated key's first value), never one the project keeps."""
    if len(found) != len(value):
        return False
    if len(value) <= 2 * _EDGE:
        return found == value
    return found[:_EDGE] == value[:_EDGE] and found[-_EDGE:] == value[-_EDGE:]


def _documents(raw: msgspec.Raw) -> list[Document]:
    """The documents, their paragraphs and segments; ids must not be blank (a repeated id
    is refused by ``Project``'s index, which then sends the file the general way)."""
    documents = []
    for d in _DOCUMENTS.decode(raw):
        paragraphs = [Paragraph(p.id, _segments(p.segments)) for p in d.paragraphs]
        if _blank(d.id) or any(_blank(p.id) for p in paragraphs) or \
                any(_any_blank([s.id for s in p.segments]) for p in paragraphs):
            raise NotTaken
        documents.append(Document(d.id, paragraphs, d.attributes))
    return documents


# Between two segments of a paragraph as bundles are written (one a line): a segment holds
# only strings, and a raw line break cannot occur inside a JSON string.
_SEGMENT_BREAK = re.compile(rb'}[ \t\r]*,[ \t\r]*\n[ \t\r\n]*{')


def _segments(raw: msgspec.Raw) -> list[Segment]:
    """A paragraph's segments, decoded in pieces of about ``PIECE_BYTES``: one decode call
    holds the interpreter's lock from start to end, and the app reads a large bundle on a
    worker thread while its window must keep answering. A piece that does not decode (a
    break found elsewhere than between two segments leaves its brackets unbalanced) sends
    the paragraph to one decode of the whole, as written."""
    body = memoryview(raw)
    segments: list[Segment] = []
    start = 1  # after the opening bracket
    try:
        while True:
            found = _SEGMENT_BREAK.search(body, start + PIECE_BYTES) if start + PIECE_BYTES < len(body) else None
            if found is None:
                segments += _SEGMENTS.decode(b"[" + body[start:])
                return segments
            segments += _SEGMENTS.decode(b"[" + body[start:found.start() + 1] + b"]")
            start = found.end() - 1
    except msgspec.MsgspecError:
        return _SEGMENTS.decode(raw)


def _blank(text: str) -> bool:
    return not text or text.isspace()  # what ``str.strip`` takes away: nothing is left


def _any_blank(ids: list[str]) -> bool:
    return "" in ids or any(map(str.isspace, ids))


# A text section or a paragraph's segments are decoded in pieces of about this size, each
# piece's pages released before the next is decoded: the file's pages resident at once stay
# this small, and no decode call holds the interpreter's lock for long (about 12 ms a MiB).
PIECE_BYTES = 1024 * 1024
# Where one entry of a text section ends and the next begins, as bundles are written (one entry
# a line). A raw line break cannot occur inside a JSON string, so this is always between two
# entries of the object or of a value in it - and a value that is not a string is refused.
_ENTRY_BREAK = re.compile(rb',[ \t\r]*\n[ \t\r\n]*"')


def _texts(raw: msgspec.Raw, ids: list[str], data: bytes | mmap.mmap) -> tuple[dict[str, str], bool]:
    """A reference's or system's texts, and whether they are every segment's in segment
    order, as saved: then keyed by the segments' own id strings (one string per id, not
    one more per reference and system) and decoded in pieces. Any other section is
    decoded whole, as written (``Project`` checks its keys)."""
    texts: dict[str, str] = {}
    done = 0
    for piece in text_pieces(raw, data):
        if list(piece) != ids[done:done + len(piece)]:
            break
        texts.update(zip(ids[done:done + len(piece)], piece.values()))
        done += len(piece)
    else:
        if done == len(ids):
            return texts, True
    del texts
    whole = _TEXTS.decode(raw)
    release_pages(data)
    return whole, False


def text_pieces(raw: msgspec.Raw, data: bytes | mmap.mmap) -> Iterator[dict[str, str]]:
    """A texts object decoded in pieces of about ``PIECE_BYTES`` (each one's pages released
    before the next is decoded), in file order; a wrong type raises as the decoder does."""
    body = memoryview(raw)
    for start, end in piece_bounds(body):
        yield text_piece(body, start, end, data)


def piece_bounds(body: memoryview) -> Iterator[tuple[int, int]]:
    """Where the pieces of a texts object (its bytes) begin and end, in file order: each
    piece's entries are ``body[start:end]``, cut between two entries about every ``PIECE_BYTES``."""
    start = 1  # after the opening brace
    while True:
        found = _ENTRY_BREAK.search(body, start + PIECE_BYTES) if start + PIECE_BYTES < len(body) else None
        yield start, len(body) - 1 if found is None else found.start()
        if found is None:
            return
        start = found.start() + 1


def text_piece(body: memoryview, start: int, end: int, data: bytes | mmap.mmap) -> dict[str, str]:
    """One piece of a texts object decoded (its pages released after); a wrong type raises."""
    piece = _TEXTS.decode(b"{" + body[start:end] + b"}")
    release_pages(data)
    return piece
