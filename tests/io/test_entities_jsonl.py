"""Entity JSONL: reading, writing, round trips, refused records with line and column."""

from __future__ import annotations

import json

import pytest

from mtworkbench.core.errors import DataError
from mtworkbench.core.scoring_input import EntityMention
from mtworkbench.io.annotations.entities_jsonl import format_record, read_entities_jsonl, write_entities_jsonl
from mtworkbench.io.annotations.entity_records import AnnotatedText


def test_reads_records_with_and_without_segment(tmp_path):
    path = tmp_path / "e.jsonl"
    path.write_text(
        '{"segment": "s1", "text": "Chirac visited Bonn.", "entities": [{"start": 0, "end": 6, "type": "PERSON", "text": "Chirac"}]}\n'
        "\n"
        '{"text": "Nothing", "entities": []}\n',
        encoding="utf-8",
    )
    records = read_entities_jsonl(path)
    assert [(r.segment, r.text, r.mentions, r.line) for r in records] == [
        ("s1", "Chirac visited Bonn.", [EntityMention(0, 6, "PERSON")], 1),
        (None, "Nothing", [], 3),
    ]


def test_writes_one_object_per_line_with_surface_text():
    line = format_record(AnnotatedText("Ça à Genève", [EntityMention(5, 11, "LOCATION")], segment="7"))
    assert json.loads(line) == {
        "segment": "7",
        "text": "Ça à Genève",
        "entities": [{"start": 5, "end": 11, "type": "LOCATION", "text": "Genève"}],
    }
    assert "Genève" in line  # UTF-8, not \u escapes


def test_round_trip(tmp_path):
    records = [
        AnnotatedText("Chirac visited Bonn.", [EntityMention(0, 6, "PERSON"), EntityMention(15, 19, "LOCATION")], segment="a"),
        AnnotatedText("", [], segment="b"),
        AnnotatedText("Line\u2028separator and \"quotes\"", [EntityMention(0, 4, "X")], segment="c"),
    ]
    path = tmp_path / "r.jsonl"
    write_entities_jsonl(path, records)
    back = read_entities_jsonl(path)
    assert [(b.segment, b.text, b.mentions) for b in back] == [(r.segment, r.text, r.mentions) for r in records]


@pytest.mark.parametrize(
    "line, column, message",
    [
        ('{"text": "abc", "entities": [}', 30, "invalid JSON"),
        ('["abc"]', 1, "expected a JSON object"),
        ('{"txt": "abc"}', 2, "unknown key 'txt'"),
        ('{"text": 5}', 2, "'text' must be a string"),
        ('{"text": "abc", "entities": [{"start": 0, "end": "2", "type": "X"}]}', 43, r"entities\[0\].end must be an integer"),
        ('{"text": "abc", "entities": [{"start": 2, "end": 9, "type": "X"}]}', 31, "outside the text"),
        ('{"text": "abc", "entities": [{"start": 0, "end": 2, "type": "X", "text": "bc"}]}', 17, "differs from the text"),
        ('{"text": "abcd", "entities": [{"start": 0, "end": 2, "type": "X"}, {"start": 1, "end": 3, "type": "X"}]}', 18, "overlaps"),
    ],
)
def test_malformed_records_name_line_and_column(tmp_path, line, column, message):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"text": "fine"}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=message) as info:
        read_entities_jsonl(path)
    assert str(info.value).startswith(f"{path}, line 2, column {column}:")
