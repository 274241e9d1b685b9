"""Annotate in scripts without spaces and right to left: selections snap to the
words the metrics use (Chinese characters, Japanese MeCab words), Arabic words
snap as before, and Find / "annotate every occurrence" work in these scripts."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from mtworkbench.gui.main_window import MainWindow
from tests.gui.annotate_helpers import select_with_keys, type_key

ANNOTATOR = "anna"
ZH = "国家主席习近平今天访问了美国。"


@pytest.fixture
def ws(qtbot, legacy_demo_copy):
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    assert w.open_path(legacy_demo_copy)
    workspace = w.workspaces["Annotate"]
    w.tabs.setCurrentWidget(workspace)
    editor = workspace.annotator_box.lineEdit()
    qtbot.waitUntil(editor.isVisible)
    qtbot.mouseClick(editor, Qt.MouseButton.LeftButton)
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(editor, ANNOTATOR)
    return workspace


def layer(ws):
    return [(s.segment, s.start, s.end, s.type) for s in ws.session.project.spans if s.annotator == ANNOTATOR]


def show(ws, language, texts):
    project = ws.session.project
    project.target_language = language
    for sid, text in texts.items():
        project.set_reference_text("ref-1", sid, text)
    ws.session.set_current_segment(next(iter(texts)))
    QApplication.processEvents()


def test_selecting_xi_jinping_tags_exactly_three_characters(qtbot, ws):
    show(ws, "zh", {"5": ZH})
    assert ws.view.snap_enabled
    select_with_keys(qtbot, ws.view, "5", 4, 3)
    type_key(qtbot, ws.view, "p")
    assert layer(ws) == [("5", 4, 7, "PERSON")]
    assert ZH[4:7] == "习近平"


def test_without_a_language_chinese_snaps_to_the_whole_run(qtbot, ws):
    show(ws, "", {"5": ZH})
    select_with_keys(qtbot, ws.view, "5", 4, 3)
    assert (ws.view.selection().start, ws.view.selection().end) == (0, len(ZH) - 1)


def test_japanese_snaps_to_mecab_words(qtbot, ws):
    text = "昨日東京大学に行きました。"
    show(ws, "ja", {"5": text})
    select_with_keys(qtbot, ws.view, "5", 3, 1)  # 京, inside the MeCab word 東京大学
    type_key(qtbot, ws.view, "o")
    assert [(a, b) for _s, a, b, _t in layer(ws)] == [(2, 6)]
    assert text[2:6] == "東京大学"


def test_arabic_right_to_left_reference_snaps_and_tags(qtbot, ws):
    text = "زار محمد القاهرة أمس"
    show(ws, "ar", {"5": text})
    ws.view.setFocus()
    ws.view.select_range("5", 5, 7)  # inside محمد
    sel = ws.view.selection()
    assert text[sel.start:sel.end] == "محمد"
    type_key(qtbot, ws.view, "p")
    assert layer(ws) == [("5", 4, 8, "PERSON")]
    assert ws.entities.data(ws.entities.index(0, 2)) == "محمد"


def test_find_and_annotate_every_occurrence_in_chinese(qtbot, ws):
    show(ws, "zh", {"5": ZH, "6": "习近平说，美国和中国是伙伴。"})
    ws.view.setFocus()
    qtbot.keyClick(ws.view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    bar = ws.find_bar
    bar.needle.insert("习近平")  # typed through an input method (QTest sends ASCII keys only)
    qtbot.keyClick(bar.needle, Qt.Key.Key_Return)
    assert ws.session.current_segment == "5"
    assert ws.view.selection(snap=False).start == 4
    bar.type.setCurrentText("PERSON")
    qtbot.mouseClick(bar.annotate_all, Qt.MouseButton.LeftButton)
    assert sorted(layer(ws)) == [("5", 4, 7, "PERSON"), ("6", 0, 3, "PERSON")]
