"""The navigator answers from the project on demand: documents and paragraphs are its only
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
