"""Annotate's "Layers and types…": the user defines a span layer in the app (name, text,
nesting and overlap, types with keys and colours), tags with it at once, and undoes it;
a layer that holds spans is not removed; relation types are edited the same way. Every
change is one step on the undo stack."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLineEdit, QPushButton

from mtworkbench.core.layers import SpanLayer
from mtworkbench.core.model import Document, EntitySpan, Paragraph, Project, Reference, Segment
from mtworkbench.core.records import EntityTypeStyle
from tests.gui.annotate_helpers import open_in_annotate

ANNOTATOR = "mia"
SOURCES = ["他打破了沙锅问到底。", "Иван живёт в Москве.", "Der Hund schläft."]
REFS = ["He got to the bottom of it.", "Ivan lives in Moscow.", "The dog sleeps."]
CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


def open_workspace(qtbot, tmp_path, project):
    path = tmp_path / "layers.mtwb.json"
    window, ws = open_in_annotate(qtbot, project, path)
    ws.annotator_box.setCurrentText(ANNOTATOR)
    qtbot.waitUntil(lambda: ws.annotator == ANNOTATOR)
    ws.window_ = window
    return ws


def new_project() -> Project:
    doc = Document("d", [Paragraph("p", [Segment(str(i + 1), s) for i, s in enumerate(SOURCES)])])
    project = Project([doc], source_language="zh", target_language="en")
    project.add_reference(Reference("ref", "", {str(i + 1): t for i, t in enumerate(REFS)}))
    return project


def press(qtbot, widget, key, modifier=Qt.KeyboardModifier.NoModifier, times=1):
    for _ in range(times):
        qtbot.keyClick(widget, key, modifier)


def click(qtbot, widget):
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def button(dialog, text: str) -> QPushButton:
    return next(b for b in dialog.findChildren(QPushButton) if b.text() == text)


def ok(dialog):
    return dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)


def open_dialog(qtbot, ws):
    click(qtbot, ws.toolbar.widgetForAction(ws.action_types))
    qtbot.waitUntil(lambda: getattr(ws, "types_dialog", None) is not None and ws.types_dialog.isVisible())
    return ws.types_dialog


def type_text(widget, text: str) -> None:
    """Key presses carrying each character, as a Russian keyboard sends them (QTest's
    keyClicks maps characters to Latin key codes only)."""
    for ch in text:
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(widget, QKeyEvent(kind, Qt.Key.Key_unknown, Qt.KeyboardModifier.NoModifier, ch))


def edit_cell(qtbot, table, row: int, column: int, text: str) -> None:
    """F2 on the cell, type over its text, Enter: as a user edits a table cell."""
    table.setFocus()
    table.setCurrentCell(row, column)
    press(qtbot, table, Qt.Key.Key_F2)
    editors = [w for w in table.viewport().findChildren(QLineEdit) if w.isVisible()]
    assert len(editors) == 1, "no cell editor opened"
    editor = editors[0]
    press(qtbot, editor, Qt.Key.Key_A, CTRL)
    type_text(editor, text)
    press(qtbot, editor, Qt.Key.Key_Return)
    QApplication.processEvents()  # the delegate commits Enter through a queued call
    assert table.item(row, column).text() == text


def choose_in_list(qtbot, dialog, label_start: str) -> None:
    lst = dialog.layer_list
    row = next(r for r in range(lst.count()) if lst.item(r).text().startswith(label_start))
    rect = lst.visualItemRect(lst.item(row))
    qtbot.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert lst.currentRow() == row


def choose_layer(qtbot, ws, name: str) -> None:
    box = ws.layer_box
    box.setFocus()
    press(qtbot, box, Qt.Key.Key_Home)
    for _ in range(box.count()):
        if box.currentData() == name:
            break
        press(qtbot, box, Qt.Key.Key_Down)
    assert box.currentData() == name and ws.layer == name
    ws.view.setFocus()


def spans_of(ws, layer: str):
    project = ws.session.project
    return sorted((s.segment, project.span_text(s)[s.start:s.end], s.type)
                  for s in project.spans if s.annotator == ANNOTATOR and s.layer == layer)


def select(qtbot, view, segment_index: int, start: int, length: int) -> None:
    press(qtbot, view, Qt.Key.Key_Home, CTRL)
    press(qtbot, view, Qt.Key.Key_Down, times=segment_index)
    press(qtbot, view, Qt.Key.Key_Home)
    press(qtbot, view, Qt.Key.Key_Right, times=start)
    press(qtbot, view, Qt.Key.Key_Right, SHIFT, times=length)


def layer_items(ws) -> list[str]:
    return [ws.layer_box.itemText(i) for i in range(ws.layer_box.count())]


def test_add_a_layer_on_sources_tag_with_its_key_and_undo(qtbot, tmp_path, screenshot_dir):
    ws = open_workspace(qtbot, tmp_path, new_project())
    assert layer_items(ws) == ["entities (on references)"]
    dialog = open_dialog(qtbot, ws)
    assert dialog.windowTitle() == "Layers and types"
    click(qtbot, button(dialog, "Add layer"))
    # The name box has focus with the proposed name selected: typing replaces it.
    assert dialog.focusWidget() is dialog.name_edit and dialog.name_edit.selectedText() == "layer1"
    qtbot.keyClicks(dialog.name_edit, "mwe")
    dialog.on_box.setFocus()
    press(qtbot, dialog.on_box, Qt.Key.Key_Down)  # references -> sources
    assert dialog.on_box.currentData() == "source"
    click(qtbot, dialog.overlap_box)  # nest, but never cross
    assert dialog.nesting_box.isChecked() and not dialog.overlap_box.isChecked()
    for name, key, row in (("IDIOM", "R", 0), ("ИМЯ", "Y", 1)):
        click(qtbot, button(dialog, "Add type"))
        edit_cell(qtbot, dialog.table, row, 0, name)
        edit_cell(qtbot, dialog.table, row, 1, key)
    # R is the translation-of relation's key in the editor: refused inside the dialog.
    click(qtbot, ok(dialog))
    assert dialog.isVisible() and "key R is taken by the relation translation-of" in dialog.message.text()
    edit_cell(qtbot, dialog.table, 0, 1, "I")
    QApplication.processEvents()
    dialog.grab().save(str(screenshot_dir / "annotate_layers_dialog.png"))
    click(qtbot, ok(dialog))
    assert not dialog.isVisible()
    # The Layer box in the top row lists it at once.
    assert layer_items(ws) == ["entities (on references)", "mwe (on sources)"]
    layer = ws.session.project.settings.span_layers[1]
    assert (layer.name, layer.on, layer.nesting, layer.overlap) == ("mwe", "source", True, False)
    assert [(t.name, t.key) for t in layer.types] == [("IDIOM", "I"), ("ИМЯ", "Y")]

    choose_layer(qtbot, ws, "mwe")
    assert ws.view.segment_text("1") == SOURCES[0]
    assert "<b>I</b> idiom" in ws.hint.text()
    ws.snap_box.setChecked(False)
    select(qtbot, ws.view, 0, 1, 8)
    press(qtbot, ws.view, Qt.Key.Key_I)
    assert spans_of(ws, "mwe") == [("1", "打破了沙锅问到底", "IDIOM")], ws.status.text()
    select(qtbot, ws.view, 1, 0, 4)
    press(qtbot, ws.view, Qt.Key.Key_Y)
    assert ("2", "Иван", "ИМЯ") in spans_of(ws, "mwe")
    QApplication.processEvents()
    ws.window_.grab().save(str(screenshot_dir / "annotate_layers_dialog_tagged.png"))

    # Undo takes the spans back first, then the layer as one step: nothing is stranded.
    # (Ctrl+Z is a window shortcut: the main window is active again once the dialog closed.)
    ws.window_.activateWindow()
    qtbot.waitUntil(ws.window_.isActiveWindow)
    press(qtbot, ws.view, Qt.Key.Key_Z, CTRL, times=2)
    assert spans_of(ws, "mwe") == []
    assert layer_items(ws) == ["entities (on references)", "mwe (on sources)"]
    press(qtbot, ws.view, Qt.Key.Key_Z, CTRL)
    assert layer_items(ws) == ["entities (on references)"]
    assert ws.layer == "entities" and ws.view.segment_text("1") == REFS[0]
    assert [s.name for s in ws.session.project.settings.span_layers] == ["entities"]
    # Redo brings the layer and its spans back.
    for _ in range(3):
        ws.session.undo_stack.redo()
    assert layer_items(ws)[-1] == "mwe (on sources)"
    assert len(spans_of(ws, "mwe")) == 2


def test_a_layer_with_spans_is_kept_and_relation_types_are_edited(qtbot, tmp_path, screenshot_dir):
    project = new_project()
    project.settings.span_layers.append(SpanLayer("mwe", "source", [EntityTypeStyle("IDIOM", "I", "#8e44ad")]))
    project.add_span(EntitySpan("m1", "", "1", 1, 9, "IDIOM", ANNOTATOR, "mwe"))
    ws = open_workspace(qtbot, tmp_path, project)
    dialog = open_dialog(qtbot, ws)
    choose_in_list(qtbot, dialog, "mwe")
    # Its name, text and rules are locked; removing it is refused with the count.
    assert not dialog.name_edit.isEnabled() and not dialog.on_box.isEnabled()
    click(qtbot, button(dialog, "Remove layer"))
    assert "Layer mwe holds 1 span: remove them" in dialog.message.text()
    assert dialog.layer_list.count() == 3
    # Relation types: add one (German name, key G); a key that an entity type has is refused.
    choose_in_list(qtbot, dialog, "relations")
    assert not dialog.on_box.isVisible() and not dialog.nesting_box.isVisible()  # no text, no rules
    assert [dialog.table.item(r, 0).text() for r in range(dialog.table.rowCount())] == ["translation-of", "part-of"]
    click(qtbot, button(dialog, "Add type"))
    edit_cell(qtbot, dialog.table, 2, 0, "Übersetzung")
    edit_cell(qtbot, dialog.table, 2, 1, "P")
    click(qtbot, ok(dialog))
    assert dialog.isVisible() and "key P is taken by the PERSON type of layer entities" in dialog.message.text()
    edit_cell(qtbot, dialog.table, 2, 1, "G")
    QApplication.processEvents()
    dialog.grab().save(str(screenshot_dir / "annotate_layers_dialog_relations.png"))
    click(qtbot, ok(dialog))
    assert not dialog.isVisible()
    relations = ws.session.project.settings.relation_layers[0]
    assert [(t.name, t.key) for t in relations.types][-1] == ("Übersetzung", "G")
    assert "<b>G</b> Übersetzung" in ws.hint.text()
    ws.session.undo_stack.undo()
    assert [t.name for t in ws.session.project.settings.relation_layers[0].types] == ["translation-of", "part-of"]


@pytest.mark.parametrize("new_name", ["idioms"])
def test_an_empty_layer_is_renamed_then_removed_each_one_undo_step(qtbot, tmp_path, new_name):
    project = new_project()
    project.settings.span_layers.append(SpanLayer("mwe", "source", [EntityTypeStyle("IDIOM", "I", "#8e44ad")]))
    ws = open_workspace(qtbot, tmp_path, project)
    dialog = open_dialog(qtbot, ws)
    choose_in_list(qtbot, dialog, "mwe")
    assert dialog.name_edit.isEnabled()
    dialog.name_edit.setFocus()
    press(qtbot, dialog.name_edit, Qt.Key.Key_A, CTRL)
    qtbot.keyClicks(dialog.name_edit, new_name)
    click(qtbot, ok(dialog))
    assert layer_items(ws) == ["entities (on references)", f"{new_name} (on sources)"]
    dialog = open_dialog(qtbot, ws)
    choose_in_list(qtbot, dialog, new_name)
    click(qtbot, button(dialog, "Remove layer"))
    assert dialog.layer_list.count() == 2
    click(qtbot, ok(dialog))
    assert layer_items(ws) == ["entities (on references)"]
    ws.session.undo_stack.undo()
    assert layer_items(ws) == ["entities (on references)", f"{new_name} (on sources)"]
    ws.session.undo_stack.undo()
    assert layer_items(ws) == ["entities (on references)", "mwe (on sources)"]
