"""Keys only, in Chinese and Arabic: an outer span, a nested inner span, Tab between them,
a retype, a relation drawn by keys, then Ctrl+Z undoing each step in turn down to an empty
layer (and Ctrl+Y bringing them back); screenshots of the nested spans in both scripts."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment
from tests.gui.annotate_helpers import open_in_annotate

ANNOTATOR = "li"
ZH = "习近平在北京大学演讲。"  # 北京大学 (Peking University) holds 北京 (Beijing)
AR = "درس في جامعة القاهرة ."  # جامعة القاهرة (Cairo University) holds القاهرة (Cairo)
CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def ws(qtbot, tmp_path):
    doc = Document("d", [Paragraph("p", [Segment("1", "a"), Segment("2", "b")])])
    project = Project([doc], source_language="en", target_language="zh")
    project.add_reference(Reference("ref", "", {"1": ZH, "2": AR}))
    path = tmp_path / "n.mtwb.json"
    window, workspace = open_in_annotate(qtbot, project, path)
    editor = workspace.annotator_box.lineEdit()
    editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_A, CTRL)
    qtbot.keyClicks(editor, ANNOTATOR)
    assert workspace.annotator == ANNOTATOR
    workspace.view.setFocus()
    workspace.window_ = window
    return workspace


def press(qtbot, view, key, modifier=Qt.KeyboardModifier.NoModifier, times=1):
    for _ in range(times):
        qtbot.keyClick(view, key, modifier)


def layer(ws):
    project = ws.session.project
    return sorted((s.segment, project.reference_text("ref", s.segment)[s.start:s.end], s.type)
                  for s in project.spans if s.annotator == ANNOTATOR)


def selected(ws):
    return ws.session.project.span(ws.view.selected_span).type


@pytest.mark.parametrize("segment, text, outer, inner, forward", [
    ("1", ZH, "北京大学", "北京", Qt.Key.Key_Right),
    ("2", AR, "جامعة القاهرة", "القاهرة", Qt.Key.Key_Left),  # right to left: Left moves on in reading order
])
def test_outer_inner_tab_retype_relation_then_undo_each(qtbot, ws, screenshot_dir, segment, text, outer, inner,
                                                        forward):
    view, project = ws.view, ws.session.project
    press(qtbot, view, Qt.Key.Key_Home, CTRL)
    if segment == "2":
        press(qtbot, view, Qt.Key.Key_Down)
        press(qtbot, view, Qt.Key.Key_Home)
    assert view.caret() == (segment, 0)
    # The outer span: caret to its start, Shift+arrows over it, O.
    press(qtbot, view, forward, times=text.index(outer))
    press(qtbot, view, forward, SHIFT, times=len(outer))
    press(qtbot, view, Qt.Key.Key_O)
    assert layer(ws) == [(segment, outer, "ORGANIZATION")], ws.status.text()
    # The inner span nested in it (the caret sits at the outer span's start after tagging).
    assert view.caret() == (segment, text.index(outer))
    press(qtbot, view, forward, times=text.index(inner) - text.index(outer))
    press(qtbot, view, forward, SHIFT, times=len(inner))
    press(qtbot, view, Qt.Key.Key_L)
    assert layer(ws) == sorted([(segment, outer, "ORGANIZATION"), (segment, inner, "LOCATION")]), ws.status.text()
    # Tab cycles between the two spans at the caret, innermost first.
    assert selected(ws) == "LOCATION"
    press(qtbot, view, Qt.Key.Key_Tab)
    assert selected(ws) == "ORGANIZATION" and "2 of 2" in ws.status.text()
    press(qtbot, view, Qt.Key.Key_Tab)
    assert selected(ws) == "LOCATION"
    # Retype the inner one with a type key.
    press(qtbot, view, Qt.Key.Key_P)
    assert (segment, inner, "PERSON") in layer(ws)
    # A relation by keys: W (part-of) from the inner span, Tab to the outer one, Enter.
    press(qtbot, view, Qt.Key.Key_W)
    press(qtbot, view, Qt.Key.Key_Tab)
    press(qtbot, view, Qt.Key.Key_Return)
    [relation] = project.relations
    assert (project.span(relation.source).type, relation.type, project.span(relation.target).type) == (
        "PERSON", "part-of", "ORGANIZATION")
    QApplication.processEvents()
    ws.window_.grab().save(str(screenshot_dir / f"annotate_nested_{'zh' if segment == '1' else 'ar'}.png"))
    # Undo each step: the relation, the retype, the inner span, the outer span.
    press(qtbot, view, Qt.Key.Key_Z, CTRL)
    assert project.relations == [] and len(layer(ws)) == 2
    press(qtbot, view, Qt.Key.Key_Z, CTRL)
    assert (segment, inner, "LOCATION") in layer(ws)
    press(qtbot, view, Qt.Key.Key_Z, CTRL)
    assert layer(ws) == [(segment, outer, "ORGANIZATION")]
    press(qtbot, view, Qt.Key.Key_Z, CTRL)
    assert layer(ws) == [] and project.relations == []
    assert ws.status.text().startswith("Undone:")
    # Redo all four: the same spans and relation again.
    press(qtbot, view, Qt.Key.Key_Y, CTRL, times=4)
    assert layer(ws) == sorted([(segment, outer, "ORGANIZATION"), (segment, inner, "PERSON")])
    assert len(project.relations) == 1
