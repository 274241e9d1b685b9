"""Import and export of annotations from the Annotate workspace, and the
screenshots of the editor and the comparison view at 1280x800."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from mtworkbench.core.model import EntitySpan
from mtworkbench.gui import dialogs
from mtworkbench.gui.annotate import transfer
from mtworkbench.gui.main_window import MainWindow
from tests.gui.annotate_helpers import select_with_keys, type_key


@pytest.fixture
def window(qtbot, legacy_demo_copy):
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(legacy_demo_copy)
    ws = w.workspaces["Annotate"]
    w.tabs.setCurrentWidget(ws)
    ws.annotator_box.setEditText("anna")
    return w


def spans_of(project, annotator):
    return sorted((s.segment, s.start, s.end, s.type) for s in project.spans if s.annotator == annotator)


def click_toolbar(qtbot, ws, action):
    button = ws.toolbar.widgetForAction(action)
    qtbot.waitUntil(button.isVisible)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_export_then_import_into_another_layer_undoably(qtbot, window, tmp_path, monkeypatch):
    ws = window.workspaces["Annotate"]
    ws.session.set_current_segment("4")
    text = ws.session.project.reference_text("ref-1", "4")
    start = text.index("Interpol")
    select_with_keys(qtbot, ws.view, "4", start, 3)
    type_key(qtbot, ws.view, "o")
    start = text.index("Irakli")
    select_with_keys(qtbot, ws.view, "4", start, 9)  # into "Okruashvili": snapping takes both words
    type_key(qtbot, ws.view, "p")

    target = tmp_path / "anna.sgml"
    monkeypatch.setattr(transfer, "ask_export_path", lambda parent, folder: (target, "muc"))
    click_toolbar(qtbot, ws, ws.action_export)
    lines = target.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 50
    assert '<ENAMEX TYPE="PERSON">Irakli Okruashvili</ENAMEX>' in lines[3]
    assert '<ENAMEX TYPE="ORGANIZATION">Interpol</ENAMEX>' in lines[3]
    assert "Exported 2 entities" in ws.status.text()

    # Import the file as another annotator: the same spans in a new layer, one undo step.
    ws.annotator_box.setEditText("bert")
    monkeypatch.setattr(transfer, "ask_import_path", lambda parent, folder: (target, "muc"))
    depth = ws.session.undo_stack.count()
    click_toolbar(qtbot, ws, ws.action_import)
    project = ws.session.project
    assert spans_of(project, "bert") == spans_of(project, "anna")
    assert ws.entities.rowCount() == 2
    assert ws.session.undo_stack.count() == depth + 1
    ws.session.undo_stack.undo()
    assert spans_of(project, "bert") == []
    ws.session.undo_stack.redo()
    assert len(spans_of(project, "bert")) == 2

    # Importing again over an existing layer asks first; "No" changes nothing.
    asked = []
    monkeypatch.setattr(transfer, "ask_replace_existing", lambda parent, name, n: asked.append(n) or False)
    click_toolbar(qtbot, ws, ws.action_import)
    assert asked == [2] and ws.session.undo_stack.count() == depth + 1


def test_malformed_file_is_refused_with_line_and_column(qtbot, window, tmp_path, monkeypatch):
    ws = window.workspaces["Annotate"]
    project = ws.session.project
    lines = [project.reference_text("ref-1", sid) or "" for sid in project.segment_ids]
    lines[1] = '<ENAMEX TYPE="PERSON">' + lines[1]  # never closed
    bad = tmp_path / "bad.sgml"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setattr(transfer, "ask_import_path", lambda parent, folder: (bad, "muc"))
    shown = []
    monkeypatch.setattr(dialogs, "error", lambda parent, title, message: shown.append((title, message)))
    click_toolbar(qtbot, ws, ws.action_import)
    assert len(shown) == 1
    title, message = shown[0]
    assert title == "Cannot import annotations"
    assert f"{bad}, line 2, column 1" in message and "not closed" in message
    assert project.spans == [] and ws.session.undo_stack.count() == 0


def test_screenshots_of_editor_and_comparison(qtbot, window, screenshot_dir):
    ws = window.workspaces["Annotate"]
    project = ws.session.project

    def add(annotator, segment, needle, entity_type):
        text = project.reference_text("ref-1", segment)
        start = text.index(needle)
        project.add_span(EntitySpan(project.new_id("e"), "ref-1", segment, start, start + len(needle), entity_type, annotator))

    for annotator in ("anna", "bert"):
        add(annotator, "2", "Evald", "PERSON")
        add(annotator, "2", "Kuslap", "PERSON")
        add(annotator, "4", "Irakli Okruashvili", "PERSON")
        add(annotator, "5", "Georg", "PERSON")
    add("anna", "2", "Külaline", "ORGANIZATION")
    add("anna", "4", "Interpol", "ORGANIZATION")
    add("bert", "4", "Interpol", "LOCATION")
    add("anna", "4", "German", "LOCATION")
    add("anna", "5", "Morna", "LOCATION")
    add("bert", "1", "War", "DATE")
    add("anna", "6", "International Court", "ORGANIZATION")
    add("anna", "6", "Nauru", "LOCATION")
    add("anna", "7", "Kaja Sepp", "PERSON")
    add("anna", "8", "31%", "PERCENT")
    add("anna", "8", "Labour Party", "ORGANIZATION")
    ws.session.set_current_segment("4")
    ws.view.place_caret("4", project.reference_text("ref-1", "4").index("Interpol"))
    QApplication.processEvents()
    assert ws.view.selected_span is not None
    image = window.grab()
    assert (image.width(), image.height()) == (1280, 800)
    assert image.save(str(screenshot_dir / "annotate-editor.png"))

    ws.tabs.setCurrentWidget(ws.comparison)
    ws.comparison.annotator_a.setCurrentText("anna")
    ws.comparison.annotator_b.setCurrentText("bert")
    QApplication.processEvents()
    ws.comparison.table.selectRow(1)
    QApplication.processEvents()
    # only segments 2-5 are compared (bert worked on 1-5, anna on 2-8): Külaline, German and Morna
    # only anna, Interpol typed apart
    assert ws.comparison.model.rowCount() == 4
    image = window.grab()
    assert image.save(str(screenshot_dir / "annotate-compare.png"))
