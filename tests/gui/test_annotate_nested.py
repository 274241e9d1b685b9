"""Nested spans and relations in the Annotate workspace, driven with keys only: tag an
entity, tag another inside it, cycle between them with Tab, link them with a relation
key and Enter, undo each step; Arabic with harakat keeps whole graphemes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.io.bundle.bundle import load_bundle
from tests.gui.annotate_helpers import open_in_annotate

ANNOTATOR = "anna"
TEXTS = ["Peking University is in Beijing .", "ذَهَبَ مُحَمَّدٌ إلى القاهرة .", "习近平在北京大学演讲。"]
SHOTS = Path(os.environ.get("MTWB_SHOTS", "")) if os.environ.get("MTWB_SHOTS") else None


@pytest.fixture
def ws(qtbot, tmp_path):
    doc = Document("d", [Paragraph("p", [Segment(str(i + 1), t) for i, t in enumerate(["a", "b", "c"])])])
    project = Project([doc], source_language="xx", target_language="en")
    project.add_reference(Reference("ref", "", {str(i + 1): t for i, t in enumerate(TEXTS)}))
    project.add_system(System("mt", "machine", {str(i + 1): t for i, t in enumerate(TEXTS)}))
    path = tmp_path / "nested.mtwb.json"
    window, workspace = open_in_annotate(qtbot, project, path)
    editor = workspace.annotator_box.lineEdit()
    qtbot.waitUntil(editor.isVisible)
    editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(editor, ANNOTATOR)
    assert workspace.annotator == ANNOTATOR
    workspace.view.setFocus()
    workspace.window_ = window
    return workspace


def press(qtbot, view, key, modifier=Qt.KeyboardModifier.NoModifier, times=1):
    for _ in range(times):
        qtbot.keyClick(view, key, modifier)


def spans(ws):
    project = ws.session.project
    return sorted((s.segment, project.reference_text("ref", s.segment)[s.start:s.end], s.type)
                  for s in project.spans if s.annotator == ANNOTATOR)


def test_nested_spans_and_a_relation_with_keys_only_then_undo(qtbot, ws):
    view = ws.view
    shift = Qt.KeyboardModifier.ShiftModifier
    press(qtbot, view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert view.caret() == ("1", 0)
    press(qtbot, view, Qt.Key.Key_Right, shift, times=17)
    press(qtbot, view, Qt.Key.Key_O)  # ORGANIZATION: Peking University
    press(qtbot, view, Qt.Key.Key_Right, shift, times=6)
    press(qtbot, view, Qt.Key.Key_L)  # LOCATION inside it: Peking
    assert spans(ws) == [("1", "Peking", "LOCATION"), ("1", "Peking University", "ORGANIZATION")]
    # The caret sits in both: the inner one is selected, Tab reaches the outer one and back.
    project = ws.session.project
    assert project.span(view.selected_span).type == "LOCATION"
    press(qtbot, view, Qt.Key.Key_Tab)
    assert project.span(view.selected_span).type == "ORGANIZATION"
    assert "2 of 2" in ws.status.text()
    press(qtbot, view, Qt.Key.Key_Tab)
    assert project.span(view.selected_span).type == "LOCATION"
    # A relation: W (part-of) from the selected LOCATION, Tab to the ORGANIZATION, Enter.
    press(qtbot, view, Qt.Key.Key_W)
    assert "part-of" in ws.status.text()
    press(qtbot, view, Qt.Key.Key_Tab)
    press(qtbot, view, Qt.Key.Key_Return)
    [relation] = project.relations
    assert (project.span(relation.source).type, relation.type, project.span(relation.target).type) == (
        "LOCATION", "part-of", "ORGANIZATION")
    if SHOTS:
        QApplication.processEvents()
        ws.window_.grab().save(str(SHOTS / "annotate-nested-relation.png"))
    # Retype the outer span with its key while it is selected (Tab picked it).
    assert project.span(view.selected_span).type == "ORGANIZATION"
    press(qtbot, view, Qt.Key.Key_C)  # PERCENT: any other type
    assert ("1", "Peking University", "PERCENT") in spans(ws)
    # Undo: the retype, the relation, the nested span; redo brings the relation back.
    undo = Qt.KeyboardModifier.ControlModifier
    press(qtbot, view, Qt.Key.Key_Z, undo)
    assert ("1", "Peking University", "ORGANIZATION") in spans(ws)
    press(qtbot, view, Qt.Key.Key_Z, undo)
    assert project.relations == []
    press(qtbot, view, Qt.Key.Key_Z, undo)
    assert spans(ws) == [("1", "Peking University", "ORGANIZATION")]
    press(qtbot, view, Qt.Key.Key_Y, undo)
    press(qtbot, view, Qt.Key.Key_Y, undo)
    assert len(project.relations) == 1
    # Delete on the nested span removes it with its relation, as one undo step.
    press(qtbot, view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    if project.span(view.selected_span).type != "LOCATION":
        press(qtbot, view, Qt.Key.Key_Tab)
    assert project.span(view.selected_span).type == "LOCATION"
    press(qtbot, view, Qt.Key.Key_Delete)
    assert project.relations == [] and spans(ws) == [("1", "Peking University", "ORGANIZATION")]
    press(qtbot, view, Qt.Key.Key_Z, undo)
    assert len(project.relations) == 1 and len(spans(ws)) == 2
    # Saved and opened again: the same spans and relation.
    press(qtbot, view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert not ws.window_.isWindowModified()
    back = load_bundle(ws.session.path)
    assert [(r.type, back.span(r.source).type) for r in back.relations] == [("part-of", "LOCATION")]


def test_arabic_selection_keeps_whole_graphemes_and_escape_cancels_a_relation(qtbot, ws):
    view = ws.view
    press(qtbot, view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    press(qtbot, view, Qt.Key.Key_Down)
    assert view.caret()[0] == "2"
    press(qtbot, view, Qt.Key.Key_Home)
    ws.snap_box.setChecked(False)  # character by character: the grapheme rule alone keeps marks
    text = TEXTS[1]
    # Right-to-left: Shift+Left extends the selection forwards in reading order.
    press(qtbot, view, Qt.Key.Key_Left, Qt.KeyboardModifier.ShiftModifier, times=3)
    press(qtbot, view, Qt.Key.Key_P)
    assert len(spans(ws)) == 1, ws.status.text()
    [(segment, covered, kind)] = spans(ws)
    assert segment == "2" and kind == "PERSON"
    # Three characters from the start would cut ذَهَ from its fatha: the span holds whole letters.
    assert covered == text[:len(covered)] and len(covered) >= 3
    import regex

    assert len(covered) in {m.end() for m in regex.finditer(r"\X", text)}
    press(qtbot, view, Qt.Key.Key_R)  # translation-of from the selected span
    assert ws.pending_relation is not None
    press(qtbot, view, Qt.Key.Key_Escape)
    assert ws.pending_relation is None and ws.session.project.relations == []


def test_an_imported_file_with_relations_is_one_undo_step(qtbot, ws, tmp_path):
    (tmp_path / "d.txt").write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    (tmp_path / "d.ann").write_text(
        "T1\tORGANIZATION 0 17\tPeking University\nT2\tLOCATION 0 6\tPeking\nR1\tpart-of Arg1:T2 Arg2:T1\n",
        encoding="utf-8")
    from mtworkbench.gui.annotate.commands import ReplaceSpansCommand
    from mtworkbench.io.annotations.annotations import import_entities

    project = ws.session.project
    summary = import_entities(project, tmp_path / "d.ann", "brat", "ref", ANNOTATOR)
    ws.session.push(ReplaceSpansCommand(project, summary.removed, summary.added, "Import", applied=True,
                                        removed_relations=summary.removed_relations,
                                        added_relations=summary.relations))
    assert len(project.relations) == 1 and len(spans(ws)) == 2
    ws.session.undo_stack.undo()
    assert project.relations == [] and spans(ws) == []
    ws.session.undo_stack.redo()
    assert len(project.relations) == 1 and len(spans(ws)) == 2


def test_a_relation_by_mouse_ctrl_click(qtbot, ws):
    from mtworkbench.core.model import EntitySpan
    from tests.gui.annotate_helpers import click_at, point_of

    project = ws.session.project
    project.add_span(EntitySpan("a", "ref", "1", 0, 17, "ORGANIZATION", ANNOTATOR))
    project.add_span(EntitySpan("b", "ref", "1", 24, 31, "LOCATION", ANNOTATOR))
    view = ws.view
    click_at(qtbot, view, "1", 3)
    assert view.selected_span == "a"
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier,
                     pos=point_of(view, "1", 26))
    [relation] = project.relations
    assert (relation.source, relation.target, relation.type) == ("a", "b", "translation-of")
    assert view.caret() == ("1", 3)  # the Ctrl+click did not move the caret
