"""The navigator answers from the project on demand: documents, paragraphs and ranges of a long paragraph are its only
nodes, every segment is found, shown and parented as before."""

from __future__ import annotations

from mtworkbench.gui.navigator_model import NavigatorModel
from mtworkbench.io.bundle.bundle import load_bundle


def walk(model, parent):
    for row in range(model.rowCount(parent)):
        index = model.index(row, 0, parent)
        yield index
        yield from walk(model, index)


def test_every_segment_is_in_the_tree_in_order(qapp, demo_copy):
    project = load_bundle(demo_copy)
    model = NavigatorModel(project)
    n_paragraphs = sum(len(d.paragraphs) for d in project.documents)
    assert len(model._nodes) == len(project.documents) + n_paragraphs  # no node per segment
    segments = [i for i in walk(model, model.index(-1, 0).parent()) if i.data(NavigatorModel.KindRole) == "segment"]
    assert [i.data(NavigatorModel.SegmentIdRole) for i in segments] == project.segment_ids
    for index in segments:
        seg_id = index.data(NavigatorModel.SegmentIdRole)
        assert index.siblingAtColumn(1).data() == project.segment(seg_id).source
        assert model.segment_index(seg_id) == index
        paragraph = index.parent()
        assert paragraph.data(NavigatorModel.KindRole) == "paragraph"
        assert model.index(index.row(), 0, paragraph) == index
        assert paragraph.parent().data(NavigatorModel.KindRole) == "document"
    assert model.rowCount(segments[0]) == 0
    assert not model.segment_index("no such segment").isValid()


def test_a_document_leads_to_its_first_segment(qapp, demo_copy):
    project = load_bundle(demo_copy)
    model = NavigatorModel(project)
    document = model.index(0, 0)
    assert document.data(NavigatorModel.SegmentIdRole) == project.documents[0].paragraphs[0].segments[0].id


def _long_paragraph_project(n: int):
    from mtworkbench.core.model import Document, Paragraph, Project, Segment

    texts = ["这是一个句子。", "これは文です。", "Das ist ein Satz.", "Это предложение.", "هذه جملة."]
    short = Paragraph("short", [Segment("s1", "Kurz.")])
    long = Paragraph("long", [Segment(f"L{i + 1}", texts[i % len(texts)]) for i in range(n)])
    return Project([Document("doc", [short, long])])


def test_a_long_paragraph_lists_its_segments_in_ranges(qapp, monkeypatch):
    # A tree view lays out every child of a node it expands: 250,000 children of one paragraph
    # held the window for seconds when the first was selected.
    from mtworkbench.gui import navigator_model

    monkeypatch.setattr(navigator_model, "RANGE_SIZE", 4)
    project = _long_paragraph_project(10)
    model = NavigatorModel(project)
    paragraph = model.index(1, 0, model.index(0, 0))
    assert model.rowCount(paragraph) == 3  # 1-4, 5-8, 9-10
    ranges = [model.index(r, 0, paragraph) for r in range(3)]
    assert [r.data() for r in ranges] == ["1-4", "5-8", "9-10"]
    assert [r.data(NavigatorModel.KindRole) for r in ranges] == ["range"] * 3
    assert [model.rowCount(r) for r in ranges] == [4, 4, 2]
    assert paragraph.data(NavigatorModel.SegmentIdRole) == "L1"
    assert ranges[1].data(NavigatorModel.SegmentIdRole) == "L5"
    segments = [i for i in walk(model, model.index(-1, 0).parent()) if i.data(NavigatorModel.KindRole) == "segment"]
    assert [i.data(NavigatorModel.SegmentIdRole) for i in segments] == project.segment_ids
    for index in segments:
        seg_id = index.data(NavigatorModel.SegmentIdRole)
        assert index.siblingAtColumn(1).data() == project.segment(seg_id).source
        assert model.segment_index(seg_id) == index
        assert model.index(index.row(), 0, index.parent()) == index
    ninth = model.segment_index("L9")
    assert ninth.parent() == ranges[2] and ninth.row() == 0
    assert ranges[2].parent() == paragraph
    assert model.index(0, 0, model.segment_index("s1").parent()).data(NavigatorModel.KindRole) == "segment"


def test_selecting_a_segment_of_a_long_paragraph_lays_out_only_its_range(qtbot, monkeypatch):
    from PySide6.QtWidgets import QTreeView

    project = _long_paragraph_project(20_000)
    model = NavigatorModel(project)
    asked = []
    original = NavigatorModel.index
    monkeypatch.setattr(NavigatorModel, "index", lambda self, *a: asked.append(a) or original(self, *a))
    view = QTreeView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.setUniformRowHeights(True)
    view.resize(400, 700)
    view.show()
    target = model.segment_index("L12345")
    view.setCurrentIndex(target)
    view.scrollTo(target)
    qtbot.wait(50)
    assert view.currentIndex().data(NavigatorModel.SegmentIdRole) == "L12345"
    assert view.currentIndex().siblingAtColumn(1).data() == project.segment("L12345").source
    assert len(asked) < 5 * navigator_model_range_size()  # its range, not all 20,000 rows


def navigator_model_range_size() -> int:
    from mtworkbench.gui import navigator_model

    return navigator_model.RANGE_SIZE
