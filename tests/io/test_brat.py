"""brat standoff (.txt + .ann): reading, writing, round trips, refused annotations."""

from __future__ import annotations

import pytest

from mtworkbench.core.errors import DataError
from mtworkbench.core.scoring_input import EntityMention
from mtworkbench.io.annotations.brat import brat_paths, format_brat, read_brat, write_brat
from mtworkbench.io.annotations.entity_records import AnnotatedText


def write_pair(tmp_path, txt: str, ann: str):
    (tmp_path / "doc.txt").write_text(txt, encoding="utf-8", newline="")
    (tmp_path / "doc.ann").write_text(ann, encoding="utf-8", newline="")
    return tmp_path / "doc.ann"


def test_reads_offsets_into_the_whole_file(tmp_path):
    # Line 2 starts at offset 21 ("Chirac visited Bonn.\n" is 21 characters).
    path = write_pair(
        tmp_path,
        "Chirac visited Bonn.\nKohl met him.\n",
        "T1\tPERSON 0 6\tChirac\nT2\tLOCATION 15 19\tBonn\nT3\tPERSON 21 25\tKohl\n"
        "R1\tMeets Arg1:T3 Arg2:T1\n#1\tAnnotatorNotes T1\tfamous\nA1\tNegated T2\n",
    )
    records = read_brat(path)
    assert [r.text for r in records] == ["Chirac visited Bonn.", "Kohl met him."]
    assert records[0].mentions == [EntityMention(0, 6, "PERSON"), EntityMention(15, 19, "LOCATION")]
    assert records[1].mentions == [EntityMention(0, 4, "PERSON")]
    # Any of the two file names, or their stem, names the pair.
    assert read_brat(tmp_path / "doc.txt")[1].mentions == records[1].mentions
    assert brat_paths(tmp_path / "doc") == (tmp_path / "doc.txt", tmp_path / "doc.ann")


def test_writes_standoff():
    txt, ann = format_brat([
        AnnotatedText("Chirac visited Bonn.", [EntityMention(0, 6, "PERSON"), EntityMention(15, 19, "LOCATION")]),
        AnnotatedText("", []),
        AnnotatedText("Kohl met him.", [EntityMention(0, 4, "PERSON")]),
    ])
    assert txt == "Chirac visited Bonn.\n\nKohl met him.\n"
    assert ann == "T1\tPERSON 0 6\tChirac\nT2\tLOCATION 15 19\tBonn\nT3\tPERSON 22 26\tKohl\n"


def test_round_trip(tmp_path):
    records = [
        AnnotatedText("Ça va à Genève, Müller?", [EntityMention(8, 14, "LOCATION"), EntityMention(16, 22, "PERSON")]),
        AnnotatedText("", []),
        AnnotatedText("No entities.", []),
        AnnotatedText("NATO", [EntityMention(0, 4, "ORGANIZATION")]),
    ]
    written = write_brat(tmp_path / "r", records)
    assert written == [tmp_path / "r.txt", tmp_path / "r.ann"]
    back = read_brat(tmp_path / "r.ann")
    assert [(b.text, b.mentions) for b in back] == [(r.text, r.mentions) for r in records]


@pytest.mark.parametrize(
    "ann, line, column, message",
    [
        ("T1\tPERSON 0 6\tChirac\nT2\tLOCATION 15 19;20 21\tBonn\n", 2, 13, "crosses the end of line 1"),
        ("T1\tPERSON 0 6 Chirac\n", 1, 4, "expected 'T<id><TAB><type> <start> <end><TAB><text>'"),
        ("T1\tPERSON 0 7\tChirac\n", 1, 15, "differs from the text at 0-7"),
        ("T1\tPERSON 15 25\tBonn.\nKohl\n", 1, 11, "crosses the end of line 1"),
        ("T1\tPERSON 30 90\tx\n", 1, 11, "outside the text"),
        ("X1\tfoo\n", 1, 1, "unknown annotation kind 'X1'"),
    ],
)
def test_malformed_annotations_name_line_and_column(tmp_path, ann, line, column, message):
    path = write_pair(tmp_path, "Chirac visited Bonn.\nKohl met him.\n", ann)
    with pytest.raises(DataError, match=message) as info:
        read_brat(path)
    assert str(info.value).startswith(f"{path}, line {line}, column {column}:")


def test_overlapping_spans_are_read(tmp_path):
    path = write_pair(tmp_path, "New York City\n", "T1\tLOCATION 0 8\tNew York\nT2\tLOCATION 4 13\tYork City\n")
    [record] = read_brat(path)
    assert [(m.start, m.end) for m in record.mentions] == [(0, 8), (4, 13)]


def test_missing_text_file(tmp_path):
    (tmp_path / "a.ann").write_text("", encoding="utf-8")
    with pytest.raises(DataError, match=r"a\.txt: brat text file not found"):
        read_brat(tmp_path / "a.ann")
