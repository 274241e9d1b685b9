"""The section-by-section reader of a valid bundle (``io.bundle.sections_read``).

It takes only valid bundles of the current version, and builds the very project
the general reader builds; every other file goes the general way, so each
refusal keeps its message and JSON path - checked here for each check the
typed decoder now makes (in every language the texts may be in).
"""

from __future__ import annotations

import hashlib
import json
import mmap
from pathlib import Path

import pytest

from mtworkbench.core import files
from mtworkbench.core.errors import BundleError, DataError
from mtworkbench.io.bundle import sections_read
from mtworkbench.io.bundle.bundle import (
    FORMAT,
    FORMAT_VERSION,
    FREE_FORM_FIELDS,
    MIGRATIONS,
    dumps,
    loads,
    loads_bytes,
    read_bundle,
    save_bundle,
)
from mtworkbench.io.bundle.sections_read import read_valid_bundle

from .test_bundle_fast_json import world_project


def fast(data: bytes):
    return read_valid_bundle(data, "x.mtwb.json", FORMAT_VERSION, FORMAT, FREE_FORM_FIELDS, MIGRATIONS)


def outcome(load, value):
    """(message, JSON path) of a refusal, or the saved text of the project read."""
    try:
        return dumps(load(value, file="x.mtwb.json"))
    except DataError as exc:
        return str(exc), getattr(exc, "json_path", None)


def test_a_valid_bundle_is_read_by_sections_into_the_same_project():
    text = dumps(world_project())
    project = fast(text.encode("utf-8"))
    assert project is not None
    assert dumps(project) == dumps(loads(text)) == text
    # Every reference's and system's texts are keyed by the segments' own id strings.
    ids = [s.id for s in project.segments]
    for owner in [*project.references, *project.systems]:
        assert all(key is sid for key, sid in zip(owner.texts, ids, strict=True))
    assert project.system_text("mt", "s1") == "这是一个测试。"


def _tree() -> dict:
    return json.loads(dumps(world_project()))


def _edit(change):
    tree = _tree()
    change(tree)
    return json.dumps(tree, ensure_ascii=False, indent=2)


def _segment(tree: dict, i: int = 0) -> dict:
    return tree["documents"][0]["paragraphs"][0]["segments"][i]


REFUSED = [
    ("unknown segment field", lambda t: _segment(t).update(note="Привет"),
     "$.documents[0].paragraphs[0].segments[0].note"),
    ("missing segment source", lambda t: _segment(t).pop("source"), "$.documents[0].paragraphs[0].segments[0]"),
    ("segment source a number", lambda t: _segment(t).update(source=3),
     "$.documents[0].paragraphs[0].segments[0].source"),
    ("blank segment id", lambda t: _segment(t).update(id=" \u3000"), "$.documents[0].paragraphs[0].segments[0].id"),
    ("repeated segment id", lambda t: _segment(t, 2).update(id="s1"), "$.documents[0].paragraphs[0].segments[2].id"),
    ("blank paragraph id", lambda t: t["documents"][0]["paragraphs"][0].update(id=""),
     "$.documents[0].paragraphs[0].id"),
    ("unknown document field", lambda t: t["documents"][0].update(genre="news"), "$.documents[0].genre"),
    ("attribute not a string", lambda t: t["documents"][0]["attributes"].update(year=2024),
     "$.documents[0].attributes.year"),
    ("reference text for an unknown segment", lambda t: t["references"][0]["texts"].update(s99="هذا"),
     "$.references[0].texts.s99"),
    ("reference text not a string", lambda t: t["references"][0]["texts"].update(s1=None),
     "$.references[0].texts.s1"),
    ("blank reference id", lambda t: t["references"][0].update(id="  "), "$.references[0].id"),
    ("system without a text", lambda t: t["systems"][0]["texts"].pop("s3"), "$.systems[0].texts"),
    ("system of an unknown kind", lambda t: t["systems"][0].update(kind="robot"), "$.systems[0].kind"),
    ("repeated system id", lambda t: t["systems"].append(dict(t["systems"][0])), "$.systems[1].id"),
    ("references not a list", lambda t: t.update(references={}), "$.references"),
    ("unknown top-level field", lambda t: t.update(extra=1), "$.extra"),
    ("bad later section", lambda t: t["settings"].update(mqm_max_errors=0), "$.settings.mqm_max_errors"),
    ("name not a string", lambda t: t.update(name=["Bär"]), "$.name"),
]


@pytest.mark.parametrize("name,change,path", REFUSED, ids=[c[0] for c in REFUSED])
def test_each_check_keeps_its_message_and_path(name, change, path):
    text = _edit(change)
    assert fast(text.encode("utf-8")) is None  # the general way reads it
    general = outcome(loads, text)
    assert outcome(loads_bytes, text.encode("utf-8")) == general
    assert general[1] == path


TAKEN_THE_GENERAL_WAY = [
    # A repeated top-level key: the decoder skips the first value unchecked (here not a number
    # JSON allows), so the general way, which checks it, must read the file.
    ("repeated key, bad first value", lambda s: s.replace('{\n  "format"', '{\n  "name": NaN,\n  "format"', 1)),
    ("repeated key, good first value", lambda s: s.replace('{\n  "format"', '{\n  "name": "старое",\n  "format"', 1)),
    ("repeated key, bad first UTF-8", lambda s: s.replace('{\n  "format"', '{\n  "name": "\udcff",\n  "format"', 1)),
    ("key written with an escape", lambda s: s.replace('"name"', '"n\\u0061me"', 1)),
    ("newer format version", lambda s: s.replace('"format_version": 3', '"format_version": 4', 1)),
    ("version a boolean", lambda s: s.replace('"format_version": 3', '"format_version": true', 1)),
    ("not a bundle", lambda s: s.replace('"mtworkbench-project"', '"other"', 1)),
    ("trailing text", lambda s: s + "}"),
    ("a list", lambda s: "[" + s + "]"),
]


@pytest.mark.parametrize("name,change", TAKEN_THE_GENERAL_WAY, ids=[c[0] for c in TAKEN_THE_GENERAL_WAY])
def test_files_only_the_general_way_reads_give_its_outcome(name, change):
    text = change(dumps(world_project()))
    data = text.encode("utf-8", "surrogateescape")
    assert fast(data) is None
    if "\udcff" in text:  # no text to give the general reader: the bytes' own message
        assert outcome(loads_bytes, data) == ("x.mtwb.json: invalid UTF-8 at byte offset 13 (line 2): byte 0xff", None)
    else:
        assert outcome(loads_bytes, data) == outcome(loads, text)


TEXT_ORDERS = [
    ("in segment order", lambda texts: texts),
    ("last segment without a reference", lambda texts: dict(list(texts.items())[:-1])),
    ("first segment without a reference", lambda texts: dict(list(texts.items())[1:])),
    ("reversed", lambda texts: dict(reversed(texts.items()))),
]


@pytest.mark.parametrize("piece", [8 * 1024 * 1024, 1, 40])
@pytest.mark.parametrize("name,order", TEXT_ORDERS, ids=[c[0] for c in TEXT_ORDERS])
def test_texts_read_in_pieces_or_whole_make_the_general_project(name, order, piece, monkeypatch):
    monkeypatch.setattr(sections_read, "PIECE_BYTES", piece)  # 1 and 40: a piece every entry or two
    text = _edit(lambda t: t["references"][0].update(texts=order(t["references"][0]["texts"])))
    project = fast(text.encode("utf-8"))
    assert project is not None
    assert dumps(project) == dumps(loads(text))
    assert list(project.reference("r1").texts) == list(json.loads(text)["references"][0]["texts"])


@pytest.mark.parametrize("piece", [1, 40])
@pytest.mark.parametrize("name,change,path", REFUSED[8:14], ids=[c[0] for c in REFUSED[8:14]])
def test_texts_read_in_pieces_keep_each_message(name, change, path, piece, monkeypatch):
    monkeypatch.setattr(sections_read, "PIECE_BYTES", piece)
    text = _edit(change)
    assert fast(text.encode("utf-8")) is None
    assert outcome(loads_bytes, text.encode("utf-8")) == outcome(loads, text)


def test_older_versions_are_migrated_as_the_general_way_does():
    v2 = dumps(world_project()).replace('"format_version": 3', '"format_version": 2', 1)
    v1 = (Path(__file__).parents[1] / "fixtures" / "bundle-v1.mtwb.json").read_text(encoding="utf-8")
    for text in (v2, v1):
        project = fast(text.encode("utf-8"))
        assert project is not None
        assert dumps(project) == dumps(loads(text))
    # Judgments of version 1 got their protocol from the migration.
    assert {j.protocol for j in fast(v1.encode("utf-8")).judgments} == {j.protocol for j in loads(v1).judgments}


def test_a_byte_order_mark_is_skipped_by_the_section_reader():
    text = dumps(world_project())
    project = fast(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert project is not None and dumps(project) == text


def test_a_large_file_is_mapped_released_and_closed(tmp_path, monkeypatch):
    path = tmp_path / "wörld.mtwb.json"
    save_bundle(world_project(), path)
    data = path.read_bytes()
    monkeypatch.setattr(files, "MAP_FROM_BYTES", 1)  # every file is "large"
    seen: list[object] = []
    real_release = files.release_pages

    def release(mapped):
        seen.append(mapped)
        real_release(mapped)

    monkeypatch.setattr(sections_read, "release_pages", release)
    loaded = read_bundle(path)
    assert loaded.sha256 == hashlib.sha256(data).hexdigest()
    assert dumps(loaded.project).encode("utf-8") == data
    assert seen and all(isinstance(m, mmap.mmap) for m in seen)
    assert all(m.closed for m in seen)  # type: ignore[attr-defined]


MAPPED_REFUSED = [c for c in REFUSED if c[0] in (
    "blank segment id", "reference text not a string", "system without a text", "bad later section")]


@pytest.mark.parametrize("name,change,path", MAPPED_REFUSED, ids=[c[0] for c in MAPPED_REFUSED])
def test_a_mapped_broken_file_gets_the_general_message(name, change, path, tmp_path, monkeypatch):
    path_on_disk = tmp_path / "x.mtwb.json"
    text = _edit(change)
    path_on_disk.write_text(text, encoding="utf-8")
    monkeypatch.setattr(files, "MAP_FROM_BYTES", 1)
    monkeypatch.setattr(sections_read, "PIECE_BYTES", 1)  # the texts in pieces, pages released
    with pytest.raises(BundleError) as mapped:
        read_bundle(path_on_disk)
    with pytest.raises(BundleError) as general:
        loads(text, file=str(path_on_disk))
    assert (str(mapped.value), mapped.value.json_path) == (str(general.value), general.value.json_path)
    assert mapped.value.json_path == path


@pytest.mark.parametrize("piece", [1, 40, 8 * 1024 * 1024])
def test_segments_are_decoded_in_pieces_into_the_general_project(piece, monkeypatch):
    # One decode call holds the interpreter's lock throughout: the app's reader thread decodes
    # a paragraph's segments a piece at a time so the window keeps answering.
    monkeypatch.setattr(sections_read, "PIECE_BYTES", piece)
    calls = []
    real = sections_read._SEGMENTS

    class Counting:
        def decode(self, data):
            calls.append(len(data))
            return real.decode(data)

    monkeypatch.setattr(sections_read, "_SEGMENTS", Counting())
    text = dumps(world_project())
    project = fast(text.encode("utf-8"))
    assert project is not None
    assert dumps(project) == dumps(loads(text)) == text
    n_paragraphs = sum(len(d.paragraphs) for d in project.documents)
    longest = max(len(p.segments) for d in project.documents for p in d.paragraphs)
    assert longest > 1
    if piece == 1:  # a piece per segment
        assert len(calls) == len(project.segments)
    elif piece > len(text):
        assert len(calls) == n_paragraphs


def test_segments_written_on_one_line_are_decoded_whole(monkeypatch):
    monkeypatch.setattr(sections_read, "PIECE_BYTES", 1)
    tree = json.loads(dumps(world_project()))
    compact = json.dumps(tree, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    project = fast(compact)
    assert project is not None
    assert dumps(project) == dumps(world_project())


@pytest.mark.parametrize("piece", [1, 40])
@pytest.mark.parametrize("name,change,path", REFUSED, ids=[c[0] for c in REFUSED])
def test_segments_read_in_pieces_keep_each_message(name, change, path, piece, monkeypatch):
    monkeypatch.setattr(sections_read, "PIECE_BYTES", piece)
    text = _edit(change)
    assert fast(text.encode("utf-8")) is None
    assert outcome(loads_bytes, text.encode("utf-8")) == outcome(loads, text)


class _Finding(bytes):
    """A file's bytes that record each search for a top-level key line (start, end)."""

    searches: list[tuple[int, int]]

    def find(self, sub, start=None, end=None):
        self.searches.append((start, end))
        return super().find(sub, start, end)


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_the_top_level_is_found_in_bounded_pieces(bom, monkeypatch):
    # One decode of the whole object held the interpreter's lock for the whole file: the app's
    # reader thread now finds the top-level keys a bounded step at a time, decoding only small values.
    monkeypatch.setattr(sections_read, "_SCAN_BYTES", 64)
    monkeypatch.setattr(sections_read, "PIECE_BYTES", 200)
    decoded = []
    real = sections_read._TOP

    class Counting:
        def decode(self, data):
            decoded.append(len(data))
            return real.decode(data)

    monkeypatch.setattr(sections_read, "_TOP", Counting())
    text = dumps(world_project())
    data = _Finding(bom + text.encode("utf-8"))
    data.searches = []
    project = fast(data)
    assert project is not None
    assert dumps(project) == text
    assert len(data.searches) > len(text) // 64 and all(end - start <= 64 for start, end in data.searches)
    assert decoded and max(decoded) <= 202  # a small value with its key and braces; the texts as slices
    assert len(text) > 4 * 200


@pytest.mark.parametrize("piece", [1, 8 * 1024 * 1024])
def test_a_repeated_top_level_key_goes_the_general_way(piece, monkeypatch):
    monkeypatch.setattr(sections_read, "PIECE_BYTES", piece)
    text = dumps(world_project())
    twice = text.replace('\n  "name": ', '\n  "name": "first",\n  "name": ', 1)
    assert twice != text
    assert fast(twice.encode("utf-8")) is None
    assert outcome(loads_bytes, twice.encode("utf-8")) == outcome(loads, twice)


@pytest.mark.parametrize("scan", [16, 4 * 1024 * 1024])
def test_references_and_systems_are_decoded_an_element_per_call(scan, monkeypatch):
    # Decoding the list of systems at once scanned all of their texts (150 MB for four systems of
    # a quarter of a million segments) in one call holding the interpreter's lock.
    monkeypatch.setattr(sections_read, "_SCAN_BYTES", scan)
    calls: dict[str, list[int]] = {}

    def counting(name):
        real = getattr(sections_read, name)

        class Counting:
            def decode(self, data):
                calls.setdefault(name, []).append(len(data))
                return real.decode(data)

        monkeypatch.setattr(sections_read, name, Counting())

    for name in ("_REFERENCES", "_SYSTEMS", "_REFERENCE", "_SYSTEM"):
        counting(name)
    text = _edit(lambda t: t["systems"].append(dict(t["systems"][0], id="второй-系统")))
    project = fast(text.encode("utf-8"))
    assert project is not None
    assert dumps(project) == dumps(loads(text))
    tree = json.loads(text)
    assert len(calls["_REFERENCE"]) == len(tree["references"]) and len(calls["_SYSTEM"]) == len(tree["systems"]) == 2
    assert "_REFERENCES" not in calls and "_SYSTEMS" not in calls
    assert [s.id for s in project.systems] == [s["id"] for s in tree["systems"]]


def test_owners_written_on_one_line_are_decoded_whole(monkeypatch):
    calls = []
    real = sections_read._SYSTEMS

    class Counting:
        def decode(self, data):
            calls.append(len(data))
            return real.decode(data)

    monkeypatch.setattr(sections_read, "_SYSTEMS", Counting())
    text = dumps(world_project())
    compact = text.replace('"systems": [\n    {', '"systems": [{', 1)
    assert compact != text
    project = fast(compact.encode("utf-8"))
    assert project is not None and len(calls) == 1
    assert dumps(project) == text


@pytest.mark.parametrize("name,change,path", REFUSED, ids=[c[0] for c in REFUSED])
def test_owners_read_an_element_at_a_time_keep_each_message(name, change, path, monkeypatch):
    monkeypatch.setattr(sections_read, "_SCAN_BYTES", 16)
    text = _edit(change)
    assert fast(text.encode("utf-8")) is None
    assert outcome(loads_bytes, text.encode("utf-8")) == outcome(loads, text)
