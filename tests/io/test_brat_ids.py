"""A brat file imported into a project and exported again keeps its ids and lines: T, R,
A, N and note lines in the file's order, ids out of reading order included; what was added
since gets fresh ids that collide with none. Chinese and Arabic text: offsets in characters."""

from __future__ import annotations

from mtworkbench.core.layers import Relation
from mtworkbench.core.model import Document, EntitySpan, Paragraph, Project, Reference, Segment
from mtworkbench.io.annotations.annotations import export_entities, import_entities
from mtworkbench.io.bundle.bundle import dumps, loads

# Line 1 is Chinese (12 characters and the line end: line 2 starts at 13), line 2 Arabic.
TEXT = "北京大学位于北京市海淀区\nزار محمد القاهرة أمس\n"
ANN = (
    "T7\tLOCATION 6 9\t北京市\n"          # ids out of reading order: T7 is after T3 in the text...
    "T3\tORGANIZATION 0 4\t北京大学\n"    # ...but before it in the file
    "A1\tNegated T7\n"
    "R2\tlocated-in Arg1:T3 Arg2:T7\n"
    "T12\tPERSON 17 21\tمحمد\n"
    "N1\tReference T12 Wikidata:Q9458\tمحمد\n"
    "T5\tLOCATION 22 29\tالقاهرة\n"
    "#1\tAnnotatorNotes T5\tعاصمة مصر\n"
    "R9\tlives-in Arg1:T12 Arg2:T5\n"
)


def _project() -> Project:
    segments = [Segment("1", "Peking University is in Haidian, Beijing"), Segment("2", "Muhammad visited Cairo")]
    project = Project(documents=[Document("d", [Paragraph("p", segments)])], source_language="en")
    project.add_reference(Reference("r", texts={}))
    return project


def _imported(tmp_path) -> Project:
    (tmp_path / "in.txt").write_text(TEXT, encoding="utf-8", newline="")
    (tmp_path / "in.ann").write_text(ANN, encoding="utf-8", newline="")
    project = _project()
    import_entities(project, tmp_path / "in.ann", "brat", "r", "ann", create_types=True)
    return project


def _exported(project: Project, path) -> str:
    export_entities(project, "r", "ann", "brat", path)
    return path.with_suffix(".ann").read_text(encoding="utf-8")


def test_an_imported_file_is_written_back_line_for_line(tmp_path):
    project = _imported(tmp_path)
    assert _exported(project, tmp_path / "out.ann") == ANN
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == TEXT
    # ... also after the project went through its bundle (saved and opened again).
    assert _exported(loads(dumps(project)), tmp_path / "again.ann") == ANN


def test_new_annotations_get_fresh_ids_after_the_kept_ones(tmp_path):
    project = _imported(tmp_path)
    cairo = next(s for s in project.spans if project.reference("r").texts["2"][s.start:s.end] == "القاهرة")
    # A new span on the Arabic line ("أمس", yesterday: characters 17-20 of the line) and a
    # new relation from it; the Cairo span retyped keeps its id.
    project.add_span(EntitySpan("e-new", "r", "2", 17, 20, "DATE", "ann"))
    project.add_relation(Relation("r-new", "located-in", "e-new", cairo.id, "ann"))
    project.set_span_type(cairo.id, "ORGANIZATION")
    ann = _exported(project, tmp_path / "out.ann")
    lines = ann.splitlines()
    assert lines[:9] == ANN.replace("T5\tLOCATION", "T5\tORGANIZATION").splitlines()
    assert lines[9:] == ["T13\tDATE 30 33\tأمس", "R10\tlocated-in Arg1:T13 Arg2:T5"]


def test_a_deleted_span_takes_its_notes_and_relations_with_it(tmp_path):
    project = _imported(tmp_path)
    cairo = next(s for s in project.spans if s.origin and s.origin.id == "T5")
    for rel in project.relations_of(cairo.id):
        project.remove_relation(rel.id)
    project.remove_span(cairo.id)
    ann = _exported(project, tmp_path / "out.ann")
    kept = [line for line in ANN.splitlines() if "T5" not in line]
    assert ann.splitlines() == kept


def test_a_copied_span_does_not_write_its_originals_id_twice(tmp_path):
    project = _imported(tmp_path)
    t3 = next(s for s in project.spans if s.origin and s.origin.id == "T3")
    # The same origin on a second span of the same export (a copy): one keeps T3, the
    # other is numbered after the highest id, and the notes are not written twice.
    project.add_span(EntitySpan("e-copy", "r", "1", 0, 2, t3.type, "ann", origin=t3.origin))
    ids = [line.split("\t")[0] for line in _exported(project, tmp_path / "out.ann").splitlines()]
    assert len(ids) == len(set(ids)) and ids.count("T3") == 1 and "T13" in ids


def test_a_project_made_here_numbers_in_reading_order(tmp_path):
    project = _project()
    project.set_reference_text("r", "1", "北京大学位于北京市海淀区")
    project.add_span(EntitySpan("b", "r", "1", 6, 9, "LOCATION", "ann"))
    project.add_span(EntitySpan("a", "r", "1", 0, 4, "ORGANIZATION", "ann"))
    assert _exported(project, tmp_path / "out.ann") == "T1\tORGANIZATION 0 4\t北京大学\nT2\tLOCATION 6 9\t北京市\n"
