"""The Annotate workspace driven like a user: clicks, Shift+arrows, type keys,
Delete, undo/redo and Ctrl+S through the main window; reload checks the spans."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from mtworkbench.gui.annotate.offsets import from_utf16, to_utf16
from mtworkbench.gui.annotate.workspace import AnnotateWorkspace
from mtworkbench.gui.main_window import MainWindow
from mtworkbench.gui.session import ProjectSession
from mtworkbench.io.bundle.bundle import load_bundle
from tests.gui.annotate_helpers import (
    click_at,
    drag_select,
    point_of,
    select_with_keys,
    type_key,
)

ANNOTATOR = "anna"


@pytest.fixture
def window(qtbot, legacy_demo_copy):
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    assert w.open_path(legacy_demo_copy)
    return w


@pytest.fixture
def ws(qtbot, window):
    workspace = window.workspaces["Annotate"]
    window.tabs.setCurrentWidget(workspace)
    editor = workspace.annotator_box.lineEdit()
    qtbot.waitUntil(editor.isVisible)
    qtbot.mouseClick(editor, Qt.MouseButton.LeftButton)
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(editor, ANNOTATOR)
    assert workspace.annotator == ANNOTATOR
    return workspace


def ref_text(ws, segment):
    return ws.session.project.reference_text(ws.reference, segment)


def layer(ws):
    return [(s.segment, s.start, s.end, s.type) for s in ws.session.project.spans if s.annotator == ANNOTATOR]


def test_annotate_retype_delete_undo_redo_save_reload(qtbot, window, ws, legacy_demo_copy):
    view = ws.view
    project = ws.session.project
    ws.session.set_current_segment("4")
    assert "4" in view.shown_segments() and len(view.shown_segments()) == 25  # document scope

    # Tag a person: click inside "Irakli", Shift+Right into "Okruashvili": snapping widens to both words.
    text = ref_text(ws, "4")
    name = text.index("Irakli Okruashvili")
    select_with_keys(qtbot, view, "4", name + 2, 9)
    type_key(qtbot, view, "p")
    assert layer(ws) == [("4", name, name + len("Irakli Okruashvili"), "PERSON")]
    assert "Tagged “Irakli Okruashvili” as PERSON" in ws.status.text()

    # Tag "Interpol" as a location (a slip), click it, retype with O.
    interpol = text.index("Interpol")
    select_with_keys(qtbot, view, "4", interpol, 3)
    type_key(qtbot, view, "l")
    assert ("4", interpol, interpol + 8, "LOCATION") in layer(ws)
    click_at(qtbot, view, "4", name + 4)  # select the person first: the click picks the entity under it
    click_at(qtbot, view, "4", interpol + 3)
    assert project.span(view.selected_span).type == "LOCATION"
    type_key(qtbot, view, "o")
    assert ("4", interpol, interpol + 8, "ORGANIZATION") in layer(ws)

    # Tag "Georgian" as a location, then click it and press Delete.
    georgian = text.index("Georgian")
    select_with_keys(qtbot, view, "4", georgian, 2)
    type_key(qtbot, view, "l")
    assert len(layer(ws)) == 3
    click_at(qtbot, view, "4", georgian + 1)
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert ("4", georgian, georgian + 8, "LOCATION") not in layer(ws)
    assert len(layer(ws)) == 2

    # In a flat layer an overlapping selection is refused in the status line, not a dialog
    # (an error dialog fails the test).
    project.settings.span_layers[0].nesting = project.settings.span_layers[0].overlap = False
    select_with_keys(qtbot, view, "4", name - 7, 9)  # "former Irakli"
    type_key(qtbot, view, "d")
    assert len(layer(ws)) == 2
    assert "overlaps the PERSON entity" in ws.status.text()

    # Undo (Ctrl+Z) the delete and the retype; redo (Ctrl+Y) the retype.
    window.activateWindow()
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert ("4", georgian, georgian + 8, "LOCATION") in layer(ws)
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert ("4", interpol, interpol + 8, "LOCATION") in layer(ws)
    qtbot.keyClick(view, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert ("4", interpol, interpol + 8, "ORGANIZATION") in layer(ws)
    expected = sorted(layer(ws))
    assert len(expected) == 2  # person + organization; the location "Georgian" was undone away
    rows = [ws.entities.data(ws.entities.index(r, 2)) for r in range(ws.entities.rowCount())]
    assert rows == ["Irakli Okruashvili", "Interpol"]

    # Save with Ctrl+S and reload the bundle.
    assert window.isWindowModified()
    qtbot.keyClick(view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert not window.isWindowModified()
    reloaded = load_bundle(legacy_demo_copy)
    assert sorted((s.segment, s.start, s.end, s.type) for s in reloaded.spans if s.annotator == ANNOTATOR) == expected
    assert all(s.reference == "ref-1" for s in reloaded.spans)


def test_snapping_can_be_switched_off(qtbot, ws):
    view = ws.view
    ws.session.set_current_segment("5")
    text = ref_text(ws, "5")
    morna = text.index("Morna")
    select_with_keys(qtbot, view, "5", morna + 1, 2)
    type_key(qtbot, view, "l")
    assert layer(ws) == [("5", morna, morna + 5, "LOCATION")]
    qtbot.mouseClick(ws.snap_box, Qt.MouseButton.LeftButton)
    assert not ws.snap_box.isChecked() and not view.snap_enabled
    georg = text.index("Georg")
    select_with_keys(qtbot, view, "5", georg, 3)
    type_key(qtbot, view, "p")
    assert ("5", georg, georg + 3, "PERSON") in layer(ws)


def test_segment_keys_follow_and_set_the_current_segment(qtbot, window, ws):
    view = ws.view
    ws.session.set_current_segment("1")
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    assert ws.session.current_segment == "2"
    assert view.caret() == ("2", 0)
    qtbot.keyClick(view, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert ws.session.current_segment == "1"
    # The navigator follows the workspace.
    assert window.navigator.currentIndex().data(window.navigator_model.SegmentIdRole) == "1"

    # Annotate segments 1 and 2: Alt+N from segment 1 goes to 3, the first without entities.
    for segment in ("1", "2"):
        first_word = re.match(r"\w+", ref_text(ws, segment)).group()
        select_with_keys(qtbot, view, segment, 0, len(first_word))
        type_key(qtbot, view, "d")
    ws.session.set_current_segment("1")
    qtbot.keyClick(view, Qt.Key.Key_N, Qt.KeyboardModifier.AltModifier)
    assert ws.session.current_segment == "3"

    # Clicking into another segment makes it current (the navigator and segment panel follow).
    click_at(qtbot, view, "7", 1)
    assert ws.session.current_segment == "7"
    assert window.segment_panel.rows[("reference", "ref-1")].label.text() == ref_text(ws, "7")

    # The scope selector: one segment at a time.
    ws.scope_box.setCurrentIndex(0)
    assert view.shown_segments() == ["7"]
    qtbot.keyClick(view, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    assert view.shown_segments() == ["8"]
    ws.scope_box.setCurrentIndex(1)
    assert view.shown_segments() == ["6", "7", "8", "9", "10"]

    hints = ws.hint.text()
    for key in ("Alt+Up", "Alt+Down", "Alt+N", "Ctrl+F", "Delete"):
        assert key in hints


def test_entity_list_jumps_to_an_entity(qtbot, ws):
    view = ws.view
    ws.session.set_current_segment("4")
    text4 = ref_text(ws, "4")
    start = text4.index("Interpol")
    select_with_keys(qtbot, view, "4", start, 4)
    type_key(qtbot, view, "o")
    ws.session.set_current_segment("24")
    assert ws.entities.rowCount() == 1
    table = ws.entity_table
    rect = table.visualRect(ws.entities.index(0, 2))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert ws.session.current_segment == "4"
    assert view.caret() == ("4", start)
    assert ws.session.project.span(view.selected_span).type == "ORGANIZATION"
    # A document change lists that document's entities (none in the second document yet).
    ws.session.set_current_segment("30")
    assert ws.entities.rowCount() == 0
    assert "mlqe-et-en part 2" in ws.entities_title.text()


def test_find_and_annotate_every_occurrence_is_one_undo_step(qtbot, ws):
    ws.session.set_current_segment("1")
    ws.view.setFocus()
    qtbot.keyClick(ws.view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    bar = ws.find_bar
    assert bar.isVisible()
    qtbot.keyClicks(bar.needle, "Estonia")
    qtbot.keyClick(bar.needle, Qt.Key.Key_Return)
    project = ws.session.project
    texts = project.reference("ref-1").texts
    # Whole-word occurrences counted independently: "Estonia" not inside "Estonian".
    expected = [(sid, m.start()) for sid in project.segment_ids
                for m in re.finditer(r"(?<![\w])Estonia(?![\w])", texts.get(sid, ""))]
    assert len(expected) >= 3
    first = expected[0]
    assert ws.session.current_segment == first[0]
    assert ws.view.selection(snap=False).start == first[1]
    assert f"match 1 of {len(expected)}" in ws.status.text()
    qtbot.keyClick(bar.needle, Qt.Key.Key_Return)
    assert (ws.session.current_segment, ws.view.selection(snap=False).start) == expected[1]

    bar.type.setCurrentText("LOCATION")
    depth = ws.session.undo_stack.count()
    qtbot.mouseClick(bar.annotate_all, Qt.MouseButton.LeftButton)
    assert sorted((s, a) for s, a, _e, _t in layer(ws)) == sorted(expected)
    assert all(t == "LOCATION" and e - a == len("Estonia") for _s, a, e, t in layer(ws))
    assert ws.session.undo_stack.count() == depth + 1
    ws.session.undo_stack.undo()
    assert layer(ws) == []
    ws.session.undo_stack.redo()
    assert len(layer(ws)) == len(expected)
    qtbot.keyClick(bar.needle, Qt.Key.Key_Escape)
    assert not bar.isVisible()


def test_type_settings_dialog_saves_undoably(qtbot, ws):
    dialog = ws.edit_types()
    qtbot.waitUntil(dialog.isVisible)
    table = dialog.table
    assert [table.item(r, 0).text() for r in range(table.rowCount())] == [
        "PERSON", "ORGANIZATION", "LOCATION", "DATE", "TIME", "MONEY", "PERCENT"]
    # A duplicate key is refused inside the dialog.
    table.item(0, 1).setText("O")
    qtbot.mouseClick(dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and "used by two types" in dialog.message.text()
    table.item(0, 1).setText("q")
    table.item(0, 2).setText("#123456")
    qtbot.mouseClick(dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
    project = ws.session.project
    person = project.settings.entity_types[0]
    assert (person.name, person.key, person.color) == ("PERSON", "Q", "#123456")
    assert "<b>Q</b> person" in ws.hint.text()

    ws.session.set_current_segment("5")
    select_with_keys(qtbot, ws.view, "5", 0, 3)
    type_key(qtbot, ws.view, "q")
    assert layer(ws) == [("5", 0, 5, "PERSON")]
    ws.session.undo_stack.undo()  # the span
    ws.session.undo_stack.undo()  # the settings
    assert project.settings.entity_types[0].key == "P"
    assert project.settings.entity_types[0].color != "#123456"


def test_a_used_type_cannot_be_removed(qtbot, ws):
    ws.session.set_current_segment("5")
    select_with_keys(qtbot, ws.view, "5", 0, 3)
    type_key(qtbot, ws.view, "p")
    dialog = ws.edit_types()
    dialog.table.setCurrentCell(0, 0)
    dialog._remove()
    dialog.accept()
    assert dialog.isVisible() and "PERSON" in dialog.message.text()
    dialog.reject()
    assert ws.session.project.entity_type_names[0] == "PERSON"


def test_offsets_count_code_points_not_utf16_units():
    text = "😀 Paris"
    assert to_utf16(text, 2) == 3 and from_utf16(text, 3) == 2
    assert from_utf16(text, 1) == 0  # inside the surrogate pair
    assert to_utf16("Paris", 3) == 3 == from_utf16("Paris", 3)


def test_tagging_after_an_astral_character(qtbot, ws):
    project = ws.session.project
    project.set_reference_text("ref-1", "5", "😀 Georg visits Morna")
    ws.session.set_current_segment("5")
    QApplication.processEvents()
    ws.view.select_range("5", 2, 7)
    type_key(qtbot, ws.view, "p")
    assert layer(ws) == [("5", 2, 7, "PERSON")]
    assert ws.entities.data(ws.entities.index(0, 2)) == "Georg"


def test_entities_are_painted_in_their_type_colour(qtbot, ws):
    view = ws.view
    ws.session.set_current_segment("5")
    text = ref_text(ws, "5")
    start = text.index("Morna")
    QApplication.processEvents()
    point = point_of(view, "5", start) + QPoint(2, -6)  # near the line's top: on the highlight, above the ink
    before = view.viewport().grab().toImage().pixelColor(point)
    select_with_keys(qtbot, view, "5", start, 2)
    type_key(qtbot, view, "l")
    click_at(qtbot, view, "1", 0)  # move away so the selection colour does not cover the entity
    after = view.viewport().grab().toImage().pixelColor(point)
    assert before != after
    location = next(t for t in ws.session.project.settings.entity_types if t.name == "LOCATION")
    # The tint leans towards the type's colour (green for LOCATION): green dominates red and blue.
    assert QColor(location.color).green() > QColor(location.color).red()
    assert after.green() > after.red() and after.green() > after.blue()


def test_annotator_name_is_remembered(qtbot, ws):
    other = AnnotateWorkspace(ProjectSession())
    qtbot.addWidget(other)
    assert other.annotator == ANNOTATOR
    assert other.annotator_box.currentText() == ANNOTATOR


def test_choosing_the_reference_shows_its_text_and_layer(qtbot, ws):
    ws.session.set_current_segment("4")
    select_with_keys(qtbot, ws.view, "4", ref_text(ws, "4").index("Interpol"), 2)
    type_key(qtbot, ws.view, "o")
    ws.reference_box.setCurrentText("ref-2")
    project = ws.session.project
    assert ws.reference == "ref-2"
    assert ws.view.segment_text("4") == project.reference_text("ref-2", "4") != project.reference_text("ref-1", "4")
    assert ws.entities.rowCount() == 0  # anna's entity is on ref-1
    text = project.reference_text("ref-2", "4")
    select_with_keys(qtbot, ws.view, "4", text.index("Interpol"), 2)
    type_key(qtbot, ws.view, "o")
    assert {s.reference for s in project.spans} == {"ref-1", "ref-2"}
    assert ws.entities.rowCount() == 1


def test_find_backwards_and_from_a_selection_across_segments(qtbot, ws):
    ws.session.set_current_segment("1")
    ws.open_find()
    qtbot.keyClicks(ws.find_bar.needle, "Estonia")
    project = ws.session.project
    texts = project.reference("ref-1").texts
    hits = [(sid, m.start()) for sid in project.segment_ids
            for m in re.finditer(r"(?<![\w])Estonia(?![\w])", texts.get(sid, ""))]
    # A selection over two segments does not upset find.
    ws.view.select_range("1", 0, 3)
    cursor = ws.view.textCursor()
    cursor.setPosition(ws.view.document().findBlockByNumber(1).position() + 3, cursor.MoveMode.KeepAnchor)
    ws.view.setTextCursor(cursor)
    qtbot.keyClick(ws.find_bar.needle, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)  # previous: wraps to the last
    assert (ws.session.current_segment, ws.view.selection(snap=False).start) == hits[-1]
    qtbot.keyClick(ws.find_bar.needle, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert (ws.session.current_segment, ws.view.selection(snap=False).start) == hits[-2]


def test_a_mouse_selection_snaps_to_whole_words(qtbot, ws):
    view = ws.view
    ws.session.set_current_segment("7")
    text = ref_text(ws, "7")
    start = text.index("Kaja Sepp")
    drag_select(view, "7", start + 1, start + 7)  # "aja Se"
    assert view.textCursor().selectedText() == "Kaja Sepp"  # shown snapped on release
    type_key(qtbot, view, "p")
    assert layer(ws) == [("7", start, start + len("Kaja Sepp"), "PERSON")]
