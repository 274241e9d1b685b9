"""Checking a bundle for ``validate`` (``io.bundle.sections_check``).

The texts nothing else reads are checked and dropped, piece by piece, shared with a
forked worker process that checks them from the last piece backwards; every file gets ``load_bundle``'s verdict: the same counts for a valid
one, the same message and JSON path - the first problem by file order - for a broken
one, whichever process met it. Texts in German, Chinese, Japanese, Russian and Arabic.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import msgspec
import pytest

from mtworkbench.cli import main
from mtworkbench.core import files
from mtworkbench.core.errors import BundleError
from mtworkbench.core.model import Document, ErrorSpan, Judgment, Paragraph, Project, Reference, Segment, System
from mtworkbench.io.bundle import sections_check, sections_read
from mtworkbench.io.bundle.bundle import (
    FORMAT,
    FORMAT_VERSION,
    FREE_FORM_FIELDS,
    MIGRATIONS,
    check_bundle,
    dumps,
    load_bundle,
    loads,
)
from mtworkbench.io.bundle.sections_check import CheckedTexts, keys_digest
from mtworkbench.io.bundle.sections_read import read_valid_bundle

SOURCES = ["Der Bär läuft „schnell“.", "这是一个测试。", "これはテストです。", "Это тест.", "هذا اختبار.",
           "Grüße aus Köln", "北京欢迎你", "東京タワー", "Москва", "مرحبا بالعالم"]
SYSTEMS = ["mt-de", "mt-zh", "mt-ja", "mt-ru", "mt-ar"]  # mt-de is judged: its texts are read


def project() -> Project:
    segs = [Segment(f"s{i}", text) for i, text in enumerate(SOURCES)]
    p = Project([Document("d1", [Paragraph("p1", segs)])], name="Prüfung", source_language="de",
                target_language="zh")
    p.add_reference(Reference("r-de", "Übersetzerin", {s.id: s.source[::-1] for s in segs}))
    p.add_reference(Reference("r-ja", "翻訳者", {s.id: "訳: " + s.source for s in segs}))
    for k, name in enumerate(SYSTEMS):
        p.add_system(System(name, "machine", {s.id: f"{s.source} ({'дкяاz'[k]})" for s in segs}))
    p.add_judge("ann")
    p.add_judgment(Judgment("j1", "ann", "mt-de", "s1", "r-de", score=-5.0, scale="mqm", protocol="mqm",
                            errors=(ErrorSpan(0, 2, "Major", "Accuracy/Mistranslation", "стоп"),)))
    return p


def tree() -> dict:
    return json.loads(dumps(project()))


def write(path: Path, value: dict) -> Path:
    path.write_text(json.dumps(value, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


def outcome(call, path: Path):
    try:
        return call(path)
    except BundleError as exc:
        return str(exc), exc.json_path


def counts(p: Project) -> tuple[int, ...]:
    return (len(p.documents), len(p.segments), len(p.references), len(p.systems), len(p.spans), len(p.judgments))


@pytest.fixture
def workers(monkeypatch):
    """Every file is mapped and checked on two cores; the workers started, as they ended."""
    monkeypatch.setattr(files, "MAP_FROM_BYTES", 1)
    monkeypatch.setattr(sections_check, "FORK_FROM_BYTES", 0)
    monkeypatch.setattr(sections_read, "PIECE_BYTES", 40)  # a piece every entry or two
    started: list[sections_check._Worker] = []

    class Recorded(sections_check._Worker):
        def __init__(self, *args):
            super().__init__(*args)
            started.append(self)

    monkeypatch.setattr(sections_check, "_Worker", Recorded)
    return started


@pytest.fixture
def finished(workers, monkeypatch):
    """As ``workers``, but this process comes to the texts only once the worker has ended:
    it takes the worker's answer for every piece the worker checked."""
    owners = CheckedTexts.owners

    def owners_when_the_worker_ended(self, *args):
        if self._worker is not None:
            os.set_blocking(self._worker._fd, True)
            self._worker._read()  # reads to the end: the worker has sent all it will
        return owners(self, *args)

    monkeypatch.setattr(CheckedTexts, "owners", owners_when_the_worker_ended)
    return workers


def checked(path: Path) -> tuple[int, ...]:
    found = check_bundle(path)
    return (found.documents, found.segments, found.references, found.systems, found.spans, found.judgments)


def test_a_valid_bundle_is_checked_with_a_worker_and_counted_as_loaded(tmp_path, workers):
    path = write(tmp_path / "prüfung.mtwb.json", tree())
    assert checked(path) == counts(load_bundle(path)) == (1, 10, 2, 5, 0, 1)
    assert len(workers) == 1
    assert workers[0]._pid is None  # stopped and reaped


def test_the_worker_answers_for_the_pieces_nothing_reads(tmp_path, finished, monkeypatch):
    path = write(tmp_path / "prüfung.mtwb.json", tree())
    decoded_here = []
    piece = sections_check.text_piece
    monkeypatch.setattr(sections_check, "text_piece", lambda *args: decoded_here.append(args) or piece(*args))
    assert checked(path) == (1, 10, 2, 5, 0, 1)
    answers = finished[0].answers
    # Every piece of the texts nothing reads (r-de and mt-de are named by the judgment), each
    # answered with the count and digest of the segment ids it holds, in segment order.
    assert {(section, owner) for section, owner, _ in answers} == {
        ("references", 1), ("systems", 1), ("systems", 2), ("systems", 3), ("systems", 4)}
    ids = [f"s{i}" for i in range(10)]
    for owner in (("references", 1), ("systems", 4)):
        pieces = sorted((number, answer) for (*key, number), answer in answers.items() if tuple(key) == owner)
        done = 0
        for _, (count, digest) in pieces:
            assert count > 0 and digest == keys_digest(ids[done:done + count])
            done += count
        assert done == len(ids) and len(pieces) > 1
    assert decoded_here == []  # this process took them all from the worker's answers


def test_only_texts_nothing_reads_are_dropped(tmp_path, finished):
    data = write(tmp_path / "x.mtwb.json", tree()).read_bytes()
    p = read_valid_bundle(data, "x", FORMAT_VERSION, FORMAT, FREE_FORM_FIELDS, MIGRATIONS, CheckedTexts(data))
    assert p is not None
    kept = {owner.id for owner in [*p.references, *p.systems] if type(owner.texts) is dict}
    assert kept == {"r-de", "mt-de"}  # named by the judgment: read and kept
    assert p.system("mt-de").texts == project().system("mt-de").texts
    assert dumps(loads(data.decode())) == dumps(project())


def _system_texts(t: dict, name: str) -> dict:
    return next(s for s in t["systems"] if s["id"] == name)["texts"]


BROKEN = [
    ("worker's text not a string", lambda t: _system_texts(t, "mt-ar").update(s3=["Привет"]),
     "$.systems[4].texts.s3"),
    ("worker's text for an unknown segment", lambda t: _system_texts(t, "mt-ru").update(s99="مرحبا"),
     "$.systems[3].texts.s99"),
    ("worker's system without a text", lambda t: _system_texts(t, "mt-ja").pop("s4"), "$.systems[2].texts"),
    ("here and in the worker's half: the first wins",
     lambda t: (t["references"][1]["texts"].update(s2=7), _system_texts(t, "mt-ar").update(s3=None)),
     "$.references[1].texts.s2"),
    ("in the worker's half and later: the worker's wins",
     lambda t: (_system_texts(t, "mt-ar").update(s3=None), t["settings"].update(mqm_max_errors=0)),
     "$.systems[4].texts.s3"),
    ("a later section only", lambda t: t["judgments"][0].update(system="mt-xx"), "$.judgments[0].system"),
]


@pytest.mark.parametrize("when", ["while the worker runs", "after the worker has answered"])
@pytest.mark.parametrize("name,change,path", BROKEN, ids=[c[0] for c in BROKEN])
def test_a_broken_section_names_the_general_readers_path(name, change, path, when, tmp_path, workers, request):
    if when == "after the worker has answered":
        request.getfixturevalue("finished")
    value = tree()
    change(value)
    bundle = write(tmp_path / "x.mtwb.json", value)
    found = outcome(checked, bundle)
    assert found == outcome(load_bundle, bundle)
    assert found[1] == path
    assert workers and all(w._pid is None for w in workers)  # a worker ran and was reaped
    if when == "after the worker has answered":
        assert workers[0].answers  # it answered for the pieces it could confirm


def test_pieces_the_worker_did_not_answer_for_are_read_where_it_found_the_texts(tmp_path, finished, monkeypatch):
    send = sections_check._send
    monkeypatch.setattr(sections_check, "_send", lambda fd, answer: isinstance(answer, sections_check._Owners)
                        and send(fd, answer))  # the worker tells of the owners, answers for no piece
    start = CheckedTexts.start

    def start_then_decode_no_section_here(self, *args):
        start(self, *args)
        for section in ("references", "systems"):  # were they decoded here, the reading would fail
            monkeypatch.setitem(sections_check.OWNER_DECODERS, section, None)

    monkeypatch.setattr(CheckedTexts, "start", start_then_decode_no_section_here)
    good = write(tmp_path / "gut.mtwb.json", tree())
    assert checked(good) == (1, 10, 2, 5, 0, 1)
    assert finished[0].told and not finished[0].answers
    value = tree()
    _system_texts(value, "mt-ru").update(s99="مرحبا")
    bad = write(tmp_path / "x.mtwb.json", value)
    monkeypatch.undo()
    assert outcome(checked, bad) == outcome(load_bundle, bad) == (
        outcome(load_bundle, bad)[0], "$.systems[3].texts.s99")


def test_texts_are_found_in_their_section_where_the_decoder_left_them():
    data = '[{"id": "a", "texts": {"s1": "Bär"}}, {"id": "b", "texts": {"s1": "Bär"}}]'.encode()
    section = msgspec.Raw(memoryview(data)[1:-1])
    owners = sections_read.OWNER_DECODERS["systems"].decode(b"[" + data[1:-1] + b"]")
    assert sections_check.texts_places(section, [owner.texts for owner in owners]) == [-1, -1]  # another buffer
    section = msgspec.Raw(data)
    owners = sections_read.OWNER_DECODERS["systems"].decode(section)
    places = sections_check.texts_places(section, [owner.texts for owner in owners])
    assert places == [data.index(b'{"s1"'), data.rindex(b'{"s1"')]  # the same bytes, each one's own
    assert all(data[at:at + len(owner.texts)] == bytes(owner.texts) for at, owner in zip(places, owners))


def test_an_answer_that_does_not_match_the_ids_sends_the_texts_the_usual_way(tmp_path, finished, monkeypatch):
    # Were the worker's keys not the segment ids expected there, the digests differ: the texts are
    # read here the usual way (and kept), not taken as checked.
    start = CheckedTexts.start

    def start_then_expect_other_keys(self, *args):
        start(self, *args)
        monkeypatch.setattr(sections_check, "keys_digest", lambda keys: b"other keys")

    monkeypatch.setattr(CheckedTexts, "start", start_then_expect_other_keys)
    data = write(tmp_path / "x.mtwb.json", tree()).read_bytes()
    p = read_valid_bundle(data, "x", FORMAT_VERSION, FORMAT, FREE_FORM_FIELDS, MIGRATIONS, CheckedTexts(data))
    assert p is not None and finished[0].answers
    assert all(type(owner.texts) is dict for owner in [*p.references, *p.systems])
    assert dumps(p) == dumps(project())


def test_the_validate_command_says_the_same(tmp_path, workers, capsys):
    value = tree()
    _system_texts(value, "mt-ar").update(s3=None)
    bad = write(tmp_path / "schlecht.mtwb.json", value)
    good = write(tmp_path / "gut.mtwb.json", tree())
    assert main(["validate", str(good)]) == 0
    assert capsys.readouterr().out == (f"{good}: ok: 1 document, 10 segments, 2 references, 5 systems, "
                                       "0 entity spans, 1 judgment\n")
    assert main(["validate", str(bad)]) == 1
    with pytest.raises(BundleError) as general:
        loads(bad.read_text(encoding="utf-8"), file=str(bad))
    assert capsys.readouterr().err == f"mtworkbench validate: error: {general.value}\n"


@pytest.mark.parametrize("order", ["reversed", "one missing"])
def test_texts_out_of_order_in_the_worker_are_read_here(order, tmp_path, workers):
    value = tree()
    texts = _system_texts(value, "mt-ar")
    items = list(texts.items())
    texts.clear()
    texts.update(reversed(items) if order == "reversed" else items[1:])
    bundle = write(tmp_path / "x.mtwb.json", value)
    assert outcome(checked, bundle) == outcome(lambda p: counts(load_bundle(p)), bundle)
    if order == "reversed":
        assert checked(bundle) == (1, 10, 2, 5, 0, 1)


def test_a_failed_worker_leaves_its_share_to_this_process(tmp_path, workers, monkeypatch):
    monkeypatch.setattr(sections_check, "_work", lambda *_: os._exit(1))
    good = write(tmp_path / "gut.mtwb.json", tree())
    assert checked(good) == (1, 10, 2, 5, 0, 1)
    value = tree()
    _system_texts(value, "mt-ar").update(s3=None)
    bad = write(tmp_path / "x.mtwb.json", value)
    assert outcome(checked, bad) == outcome(load_bundle, bad)
    assert len(workers) == 2


def test_texts_read_after_all_send_the_file_the_general_way(tmp_path, workers, monkeypatch):
    # Were a later section to read texts its ids do not name, the dropped texts refuse to be
    # read: the general way reads the file, instead of a check against a missing text.
    monkeypatch.setattr(sections_check, "_named", lambda rest: set())
    data = write(tmp_path / "x.mtwb.json", tree()).read_bytes()
    assert read_valid_bundle(data, "x", FORMAT_VERSION, FORMAT, FREE_FORM_FIELDS, MIGRATIONS,
                             CheckedTexts(data)) is None
    value = tree()
    value["judgments"][0]["errors"][0]["end"] = 99  # outside mt-de's text: only its text can tell
    bundle = write(tmp_path / "y.mtwb.json", value)
    found = outcome(checked, bundle)
    assert found == outcome(load_bundle, bundle)
    assert found[1] == "$.judgments[0]"


def test_a_campaign_may_read_any_text():
    assert sections_check._named({"campaign": {}}) is None
    assert sections_check._named({"campaign": None, "judgments": [{"system": "مرحبا", "x": {"k": ["r"]}}]}) == {
        "مرحبا", "system", "x", "k", "r"}


def test_without_a_process_to_spare_one_core_checks_everything(tmp_path, workers, monkeypatch):
    def no_fork():
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(sections_check.os, "fork", no_fork)
    good = write(tmp_path / "gut.mtwb.json", tree())
    assert checked(good) == (1, 10, 2, 5, 0, 1)
    value = tree()
    _system_texts(value, "mt-ar").update(s3=None)
    bad = write(tmp_path / "x.mtwb.json", value)
    assert outcome(checked, bad) == outcome(load_bundle, bad)
    assert workers == []


def test_a_worker_reaped_by_the_system_leaves_its_share_here(tmp_path, workers):
    # With SIGCHLD ignored the kernel reaps the worker itself: its exit status is unknown.
    before = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        good = write(tmp_path / "gut.mtwb.json", tree())
        assert checked(good) == (1, 10, 2, 5, 0, 1)
        value = tree()
        _system_texts(value, "mt-zh").update(s0=False)
        bad = write(tmp_path / "x.mtwb.json", value)
        assert outcome(checked, bad) == outcome(load_bundle, bad)
    finally:
        signal.signal(signal.SIGCHLD, before)
    assert len(workers) == 2


TOP_LEVEL_ODDITIES = [
    ("repeated key, bad first value", lambda s: s.replace('{\n  "format"', '{\n  "name": NaN,\n  "format"', 1)),
    ("repeated key, good first value", lambda s: s.replace('\n  "name": ', '\n  "name": "старое",\n  "name": ', 1)),
    ("key written with an escape", lambda s: s.replace('"name"', '"n\\u0061me"', 1)),
    ("written on one line", lambda s: json.dumps(json.loads(s), ensure_ascii=False)),
    # The scan looks for the key written after a large section; here another comes between.
    ("a key between the large sections", lambda s: s.replace('\n  "judges": ["ann"],', "", 1).replace(
        '\n  "references": ', '\n  "judges": ["ann"],\n  "references": ', 1)),
    ("a line like that key's inside a section", lambda s: s.replace(
        '"attributes": {}', '"attributes": {\n  "references": "Bär"}', 1)),
    ("that key's line, broken", lambda s: s.replace('\n  "systems": ', '\n  "systems": {},\n  "x": ', 1)),
]


@pytest.mark.parametrize("name,change", TOP_LEVEL_ODDITIES, ids=[c[0] for c in TOP_LEVEL_ODDITIES])
def test_the_top_level_scan_gives_the_general_outcome(name, change, tmp_path, workers):
    # A file the top-level scan does not take goes the general way, as the app's does.
    path = tmp_path / "x.mtwb.json"
    text = dumps(project())
    assert change(text) != text
    path.write_text(change(text), encoding="utf-8")
    assert outcome(checked, path) == outcome(lambda p: counts(load_bundle(p)), path)


def test_too_many_judgments_to_walk_keep_every_text(tmp_path, workers, monkeypatch):
    # Finding the ids the later sections name must not cost more than keeping the texts would.
    rest = {"judgments": [{"system": "mt-de", "comment": "gut"}] * 3}
    assert sections_check._named(rest) == {"system", "mt-de", "comment", "gut"}
    monkeypatch.setattr(sections_check, "NAMED_WALK_LIMIT", 6)
    assert sections_check._named(rest) is None
    data = write(tmp_path / "x.mtwb.json", tree()).read_bytes()
    p = read_valid_bundle(data, "x", FORMAT_VERSION, FORMAT, FREE_FORM_FIELDS, MIGRATIONS, CheckedTexts(data))
    assert p is not None and all(type(o.texts) is dict for o in [*p.references, *p.systems])
    assert dumps(p) == dumps(project())
    assert workers == []
