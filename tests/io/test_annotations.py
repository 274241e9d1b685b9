"""The annotation import/export facade: records line up with segments, texts
are checked against the reference, nothing changes when a file is refused."""

from __future__ import annotations

import pytest

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Document, EntitySpan, Paragraph, Project, Reference, Segment
from mtworkbench.io.annotations.annotations import export_entities, guess_format, import_entities, records_for


def project_with(texts: dict[str, str]) -> Project:
    project = Project(documents=[Document("d", [Paragraph("p", [Segment(s, "src") for s in ("1", "2", "3")])])])
    project.add_reference(Reference("r", texts=texts))
    return project


def test_missing_reference_texts_become_empty_lines_and_are_skipped_back(tmp_path):
    project = project_with({"1": "Ann sang.", "3": "Bob ran."})
    project.add_span(EntitySpan("x1", "r", "1", 0, 3, "PERSON", "a"))
    project.add_span(EntitySpan("x2", "r", "3", 0, 3, "PERSON", "a"))
    export_entities(project, "r", "a", "muc", tmp_path / "r.sgml")
    assert (tmp_path / "r.sgml").read_text(encoding="utf-8") == (
        '<ENAMEX TYPE="PERSON">Ann</ENAMEX> sang.\n\n<ENAMEX TYPE="PERSON">Bob</ENAMEX> ran.\n'
    )
    export_entities(project, "r", "a", "jsonl", tmp_path / "r.jsonl")
    assert len((tmp_path / "r.jsonl").read_text(encoding="utf-8").splitlines()) == 2  # no record for segment 2
    for fmt, name in (("muc", "r.sgml"), ("jsonl", "r.jsonl")):
        summary = import_entities(project, tmp_path / name, fmt, "r", f"b-{fmt}")
        assert summary.texts_set == 0 and summary.spans == 2
        assert [(s.segment, s.start, s.end) for s in summary.added] == [("1", 0, 3), ("3", 0, 3)]
    assert "2" not in project.reference("r").texts


def test_refused_file_leaves_the_project_unchanged(tmp_path):
    project = project_with({"1": "Ann sang.", "2": "x", "3": "Bob ran."})
    path = tmp_path / "r.sgml"
    path.write_text('<ENAMEX TYPE="PERSON">Ann</ENAMEX> sang.\nx\n', encoding="utf-8")
    with pytest.raises(DataError, match="2 records, but the project has 3 segments"):
        import_entities(project, path, "muc", "r", "a")
    path.write_text('<ENAMEX TYPE="PERSON">Ann</ENAMEX> sang.\nx\n<ENAMEX TYPE="ALIEN">Bob</ENAMEX> ran.\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"line 3: unknown entity type 'ALIEN'"):
        import_entities(project, path, "muc", "r", "a")
    assert project.spans == [] and "ALIEN" not in project.entity_type_names


def test_positional_jsonl_and_brat_through_the_facade(tmp_path):
    project = project_with({"1": "Ann sang.", "2": "", "3": "Bob ran."})
    (tmp_path / "p.jsonl").write_text(
        '{"text": "Ann sang.", "entities": [{"start": 0, "end": 3, "type": "PER"}]}\n{"text": ""}\n{"text": "Bob ran."}\n',
        encoding="utf-8",
    )
    import_entities(project, tmp_path / "p.jsonl", "jsonl", "r", "a")
    assert [(s.segment, s.type) for s in project.spans] == [("1", "PERSON")]  # PER -> PERSON
    (tmp_path / "b.txt").write_text("Ann sang.\n\nBob ran.\n", encoding="utf-8")
    (tmp_path / "b.ann").write_text("T1\tPERSON 11 14\tBob\n", encoding="utf-8")
    import_entities(project, tmp_path / "b.ann", "brat", "r", "c")
    assert [(s.segment, s.start, s.end) for s in project.spans if s.annotator == "c"] == [("3", 0, 3)]
    assert [r.text for r in records_for(project, "r", "c")] == ["Ann sang.", "", "Bob ran."]


def test_guess_format():
    assert [guess_format(p) for p in ("a.sgml", "a.CONLL", "a.ann", "a.jsonl", "a.txt")] == ["muc", "conll", "brat", "jsonl", None]
