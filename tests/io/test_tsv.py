"""TSV corpus import and export."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtworkbench.core.errors import DataError
from mtworkbench.io.bundle.bundle import project_to_dict
from mtworkbench.io.corpora.tsv import export_tsv, import_tsv

FULL = (
    "doc\tpara\tid\tsource\tref:A\tsys:online-B\n"
    "d1\tp1\ts1\tHello.\tHallo.\tHallo!\n"
    "d1\tp1\ts2\t\tleer\t\n"
    "d1\tp2\ts3\t   \t \tdrei\n"
    'd2\tp3\ts4\t"Quoted", he said.\t„Zitiert“\t"Zitiert"\n'
)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_bytes(text.encode("utf-8"))
    return path


def test_full_layout(tmp_path):
    project = import_tsv(write(tmp_path, "toy.tsv", FULL), "en", "de")
    assert project.name == "toy"
    assert (project.source_language, project.target_language) == ("en", "de")
    assert [d.id for d in project.documents] == ["d1", "d2"]
    assert [[p.id for p in d.paragraphs] for d in project.documents] == [["p1", "p2"], ["p3"]]
    assert project.segment_ids == ["s1", "s2", "s3", "s4"]
    # Cells are kept exactly: empty and whitespace-only texts stay, quotes are ordinary.
    assert [s.source for s in project.segments] == ["Hello.", "", "   ", '"Quoted", he said.']
    assert project.reference("A").texts == {"s1": "Hallo.", "s2": "leer", "s3": " ", "s4": "„Zitiert“"}
    assert project.reference("A").translator == "A"
    assert project.system("online-B").texts == {"s1": "Hallo!", "s2": "", "s3": "drei", "s4": '"Zitiert"'}


def test_minimal_layout_uses_defaults(tmp_path):
    text = "source\tsys:x\r\nA\ta\r\n\t\r\nC\tc\r\n"
    project = import_tsv(write(tmp_path, "corpus.tsv", text))
    assert [d.id for d in project.documents] == ["corpus"]
    assert [p.id for p in project.documents[0].paragraphs] == ["corpus:p1"]
    assert project.segment_ids == ["1", "2", "3"]
    assert [s.source for s in project.segments] == ["A", "", "C"]  # CRLF stripped, empty row kept
    assert project.references == []
    assert project.system("x").texts == {"1": "a", "2": "", "3": "c"}


def test_doc_column_without_para(tmp_path):
    text = "source\tdoc\nx\ta\ny\ta\nz\tb\n"
    project = import_tsv(write(tmp_path, "t.tsv", text))
    assert [(d.id, [p.id for p in d.paragraphs]) for d in project.documents] == [("a", ["a:p1"]), ("b", ["b:p1"])]


def test_round_trip(tmp_path):
    project = import_tsv(write(tmp_path, "toy.tsv", FULL), "en", "de")
    out = export_tsv(project, tmp_path / "out" / "toy.tsv")
    assert out[0].read_text(encoding="utf-8") == FULL  # same layout, same order
    again = import_tsv(out[0], "en", "de")
    assert project_to_dict(again) == project_to_dict(project)


def test_export_into_a_folder(tmp_path):
    project = import_tsv(write(tmp_path, "toy.tsv", FULL))
    assert export_tsv(project, tmp_path) == [tmp_path / "corpus.tsv"]


@pytest.mark.parametrize("bad", ["a\tb", "a\nb", "a\rb"])
def test_export_refuses_texts_tsv_cannot_hold(tmp_path, bad):
    project = import_tsv(write(tmp_path, "toy.tsv", FULL))
    project.set_segment_source("s2", bad)
    with pytest.raises(DataError, match=r"segment 's2' contains a"):
        export_tsv(project, tmp_path / "x.tsv")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"the file is empty; it needs a header row"),
        ("doc\tref:A\nd\tx\n", r"line 1: the header has no 'source' column \(found 'doc', 'ref:A'\)"),
        ("source\treference\nx\ty\n", r"line 1, field 2: unknown column 'reference'"),
        ("source\tsys:\nx\ty\n", r"line 1, field 2: 'sys:' needs an id after the colon"),
        ("source\tref:A\tref:A\nx\ty\tz\n", r"line 1: column 'ref:A' appears twice \(fields 2 and 3\)"),
        ("source\tref:A\nx\ty\nonly one field\n", r"line 3: 1 fields, but the header has 2"),
        ("source\tref:A\nx\ty\tz\n", r"line 2: 3 fields, but the header has 2"),
        ("doc\tsource\na\tx\nb\ty\na\tz\n", r"line 4: rows of document 'a' are not consecutive"),
        ("doc\tpara\tsource\na\tp\tx\nb\tp\ty\n", r"line 3: rows of paragraph 'p' are not consecutive"),
        ("id\tsource\n1\tx\n2\ty\n1\tz\n", r"line 4: segment id '1' appears again \(first on line 2\)"),
        ("doc\tsource\na\tx\n\ty\n", r"line 3: empty doc field"),
    ],
)
def test_malformed_tsv_is_refused_with_position(tmp_path, text, message):
    path = write(tmp_path, "bad.tsv", text)
    with pytest.raises(DataError, match=message) as err:
        import_tsv(path)
    assert str(err.value).startswith(str(path))


def test_invalid_utf8_names_file_and_byte_offset(tmp_path):
    path = tmp_path / "bad.tsv"
    path.write_bytes(b"source\nok\nbad \xc3\x28\n")
    # Offset: len("source\nok\nbad ") = 7 + 3 + 4 = 14.
    with pytest.raises(DataError, match=r"bad\.tsv: invalid UTF-8 at byte offset 14"):
        import_tsv(path)
