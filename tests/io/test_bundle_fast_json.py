"""The fast bundle reader and writer (msgspec) against the exact standard-library ones.

A valid file decodes to the very tree ``json.loads`` builds and saves to the very
bytes ``json.dumps`` writes; every file the fast decoder refuses is refused with
today's message and JSON path.
"""

from __future__ import annotations

import json

import pytest

from mtworkbench.core.errors import BundleError, DataError
from mtworkbench.core.model import Document, Judgment, Paragraph, Project, Reference, Segment, System
from mtworkbench.io.bundle.bundle import dumps, dumps_bytes, loads, loads_bytes, project_to_dict, read_bundle
from mtworkbench.io.bundle.json_checks import parse_json, parse_json_bytes
from mtworkbench.io.bundle.json_writer import dumps_text, fast_dumps

from ..safety.test_hostile_inputs import UNSAVABLE

TEXTS = ["Der Bär läuft „schnell“.", "这是一个测试。", "これはテストです。", "Это тест.", "هذا اختبار.",
         "emoji 😀 tab\t quote\" back\\ nl\n ctl\x01 ls\u2028 del\x7f"]


def world_project() -> Project:
    segs = [Segment(f"s{i}", t) for i, t in enumerate(TEXTS)]
    p = Project([Document("d1", [Paragraph("p1", segs)], {"domain": "新闻"})], name="wörld",
                source_language="de", target_language="zh")
    p.add_reference(Reference("r1", "Übersetzerin", {s.id: s.source[::-1] for s in segs}))
    p.add_system(System("mt", "machine", {s.id: s.source.upper() for s in segs}))
    p.add_judge("ann")
    p.add_judgment(Judgment("j1", "ann", "mt", "s1", "r1", score=1e16, scale="da", seconds=1e-05))
    p.add_judgment(Judgment("j2", "ann", "mt", "s2", "r1", score=-0.0, scale="da", seconds=0.1 + 0.2))
    return p


def test_fast_decode_builds_the_tree_json_loads_builds():
    text = dumps(world_project())
    tree = parse_json_bytes(text.encode("utf-8"), lambda raw: raw.decode("utf-8"))
    assert tree == json.loads(text)
    assert json.dumps(tree, ensure_ascii=False) == json.dumps(json.loads(text), ensure_ascii=False)


def test_a_byte_order_mark_is_skipped_as_before():
    data = b"\xef\xbb\xbf" + dumps(world_project()).encode("utf-8")
    assert dumps(loads_bytes(data)) == dumps(world_project())


@pytest.mark.parametrize("name,text,path,words", UNSAVABLE, ids=[c[0] for c in UNSAVABLE])
def test_unsavable_values_get_todays_message_from_bytes(name, text, path, words):
    with pytest.raises(BundleError) as fast:
        loads_bytes(text.encode("utf-8", "surrogatepass"), file="x.mtwb.json")
    with pytest.raises(BundleError) as slow:
        loads(text, file="x.mtwb.json")
    assert (str(fast.value), fast.value.json_path) == (str(slow.value), slow.value.json_path)
    assert fast.value.json_path == path


@pytest.mark.parametrize("data,words", [
    (b'{"format": "mtworkbench-project", "format_version": 2,', "not valid JSON"),
    (b'{"a": 1,}', "not valid JSON"),
    ('{"a": "b"}'.encode("utf-16"), "UTF-16"),
    (b'{"format": "\xff"}', "invalid UTF-8 at byte offset 12"),
])
def test_malformed_bytes_get_todays_message(data, words):
    def slow():
        from mtworkbench.io.corpora.plaintext import decode_utf8
        return parse_json(decode_utf8(data, "x.mtwb.json", strip_bom=True), file="x.mtwb.json")

    with pytest.raises((BundleError, DataError)) as fast:
        loads_bytes(data, file="x.mtwb.json")
    with pytest.raises((BundleError, DataError)) as exact:
        slow()
    assert str(fast.value) == str(exact.value)
    assert words in str(fast.value)


def test_a_repeated_key_keeps_its_last_value_as_json_loads_does():
    text = '{"a": 1, "b": [1, 2], "a": {"c": "日本"}}'
    assert parse_json_bytes(text.encode(), bytes.decode) == json.loads(text) == {"a": {"c": "日本"}, "b": [1, 2]}


def test_duplicate_segment_names_where_it_first_appeared(tmp_path):
    d = project_to_dict(world_project())
    segs = d["documents"][0]["paragraphs"][0]["segments"]
    segs[4]["id"] = "s2"
    target = tmp_path / "dup.mtwb.json"
    target.write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(BundleError) as info:
        read_bundle(target)
    assert info.value.json_path == "$.documents[0].paragraphs[0].segments[4].id"
    assert "duplicate segment id 's2' (first at $.documents[0].paragraphs[0].segments[2])" in str(info.value)


@pytest.mark.parametrize("value", [
    project_to_dict(world_project()),
    {"floats": [1e16, 1e-05, -0.0, 0.1, 1e300, 5e-324, 2.0 ** 53, 1 / 3, 123456789.0]},
    {"": "", "nested": [[], {}, [{}], {"x": [True, False, None, 10 ** 30, -5]}]},
    [{"a": "b"}, {"c": 1e16}], ({"a": 1e-7},),
    {"text": "".join(chr(i) for i in range(0x3000)) + "\U0001F600\ufeff"},
])
def test_fast_encoding_writes_the_bytes_json_dumps_writes(value):
    assert fast_dumps(value) == dumps_text(value).encode("utf-8")


def test_the_project_dict_is_left_as_it_was():
    value = {"judgments": [{"score": 1.5, "text": "x"}], "texts": {"s1": "a"}}
    fast_dumps(value)
    assert value == {"judgments": [{"score": 1.5, "text": "x"}], "texts": {"s1": "a"}}
    assert type(value["judgments"][0]["score"]) is float


@pytest.mark.parametrize("value", [
    {"x": float("nan")}, {"x": [float("inf")]}, {1.5: "non-string key"}, {"x": "\ud800"}, {"x": {1, 2}},
    [{"a": "b"}, {2.5: "c"}],
])
def test_what_only_json_dumps_writes_exactly_takes_its_way(value):
    assert fast_dumps(value) is None


def test_a_lone_surrogate_in_a_saved_project_names_the_file(tmp_path):
    p = world_project()
    p.set_system_text("mt", "s1", "bad \ud800 text")
    with pytest.raises(DataError, match=r"out\.mtwb\.json: cannot be written"):
        dumps_bytes(p, tmp_path / "out.mtwb.json")


def test_a_saved_project_reads_back_unchanged(tmp_path):
    p = world_project()
    data = dumps_bytes(p, tmp_path / "x.mtwb.json")
    assert data == dumps(p).encode("utf-8") == dumps_text(project_to_dict(p)).encode("utf-8")
    assert dumps(loads_bytes(data)) == dumps(p)


def test_every_character_is_escaped_as_json_dumps_escapes_it():
    every = "".join(chr(i) for i in range(0x110000) if not 0xD800 <= i <= 0xDFFF)
    value = {every: [every, {"ключ": every[:5000]}], "مفتاح": every[::-1]}
    assert fast_dumps(value) == dumps_text(value).encode("utf-8")


def test_floats_in_every_spelling_python_uses():
    import random

    rng = random.Random(7)
    value = {"scores": [rng.random() * 10 ** rng.randint(-30, 30) for _ in range(2000)]
             + [float(rng.randint(-10 ** 18, 10 ** 18)) for _ in range(200)] + [2.0 ** -1074, 1.7976931348623157e308]}
    assert fast_dumps(value) == dumps_text(value).encode("utf-8")


class Word(str):
    pass


def test_what_the_fast_encoder_would_write_but_json_dumps_refuses_takes_its_way():
    import dataclasses
    import datetime
    import enum
    import uuid

    @dataclasses.dataclass
    class Record:
        x: int

    class Colour(enum.Enum):
        RED = "red"

    for value in ({"x": Record(1)}, {"x": [Colour.RED]}, {"x": datetime.date(2024, 1, 1)}, {"x": uuid.uuid4()},
                  {"x": [float("-inf")]}):
        with pytest.raises(TypeError):  # the standard library refuses each (allow_nan=False: ValueError for -inf)
            try:
                dumps_text(value)
            except ValueError as exc:
                raise TypeError from exc
        assert fast_dumps(value) is None, value
    for value in ({"big": [2 ** 64, -(2 ** 70)], "n": [True, 0, -1, 2 ** 63 - 1]}, {"word": Word("Wort 字")}):
        assert fast_dumps(value) == dumps_text(value).encode("utf-8")


def _nested(rng, depth):
    leaves = ["x", "Wort „ü“", "字\n\t", "шаг", "نص", 1, -7, True, None, 1e-05, 0.5, 1e16, "", 2 ** 40]
    roll = rng.random()
    if depth > 3 or roll < 0.4:
        return rng.choice(leaves)
    sizes = [0, 1, 3, 10, 12]
    if roll < 0.7:
        return [_nested(rng, depth + 1) for _ in range(rng.choice(sizes))]
    return {f"k{i}{rng.choice(['', 'é', '中'])}": _nested(rng, depth + 1) for i in range(rng.choice(sizes))}


def test_a_big_value_written_in_pieces_has_the_bytes_json_dumps_writes(monkeypatch):
    """Pieces of a few values each (as a big project's are of 2,048): indents, separators and
    floats at every depth, dicts and lists cut anywhere, exactly as one json.dumps."""
    import random

    from mtworkbench.io.bundle import json_writer

    monkeypatch.setattr(json_writer, "PIECE_ITEMS", 7)
    rng = random.Random(11)
    for _ in range(400):
        value = {"top": _nested(rng, 0), "texts": {f"s{i}": TEXTS[i % len(TEXTS)] for i in range(rng.randint(0, 30))},
                 "segments": [{"id": f"s{i}", "source": "源"} for i in range(rng.randint(0, 30))]}
        assert fast_dumps(value) == dumps_text(value).encode("utf-8")
    assert fast_dumps({"x": [{"a": [1]}] * 20 + [{1: 2}]}) is None  # a non-string key deep in a piece
    assert fast_dumps({"x": {f"k{i}": i for i in range(20)} | {"bad": float("nan")}}) is None


def test_a_big_value_is_encoded_in_bounded_calls(monkeypatch):
    """orjson holds the GIL for a whole call: a big project's document goes in many small calls."""
    import orjson

    from mtworkbench.io.bundle import json_writer

    calls = []
    real = orjson.dumps

    class Counting:
        Fragment = orjson.Fragment
        OPT_INDENT_2 = orjson.OPT_INDENT_2

        @staticmethod
        def dumps(value, option=None):
            data = real(value) if option is None else real(value, option=option)
            calls.append(data.count(b"\n"))
            return data

    monkeypatch.setattr(json_writer, "orjson", Counting)
    value = {"texts": {f"s{i}": "Текст 文本" for i in range(10_000)},
             "segments": [{"id": f"s{i}", "source": "Quelle"} for i in range(10_000)], "score": 0.25}
    assert fast_dumps(value) == dumps_text(value).encode("utf-8")
    # a segment is 4 lines: 2,048 of them at most per call (the whole value is 60,000 lines)
    assert len(calls) >= 10 and max(calls) <= 4 * json_writer.PIECE_ITEMS + 10
