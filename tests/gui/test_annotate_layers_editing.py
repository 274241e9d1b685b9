"""Editing a layer other than the entities: the user picks it in Annotate's top row, the
editor shows its text (sources, a system's output), tags, retypes, deletes and links with its
types and keys, and refuses what its nesting and overlap rules forbid with a clear message."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from mtworkbench.core.layers import SpanLayer
from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.core.records import EntityTypeStyle
from mtworkbench.io.bundle.bundle import load_bundle
from tests.gui.annotate_helpers import open_in_annotate

ANNOTATOR = "mia"
SOURCES = ["他打破了沙锅问到底。", "Иван живёт в Москве."]
REFS = ["He got to the bottom of it.", "Ivan lives in Moscow."]
OUTPUTS = ["كسر القدر وسأل .", "Ivan wohnt in Moskau."]
CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def ws(qtbot, tmp_path):
    doc = Document("d", [Paragraph("p", [Segment(str(i + 1), s) for i, s in enumerate(SOURCES)])])
    project = Project([doc], source_language="zh", target_language="en")
    project.add_reference(Reference("ref", "", {str(i + 1): t for i, t in enumerate(REFS)}))
    project.add_system(System("mt", "machine", {str(i + 1): t for i, t in enumerate(OUTPUTS)}))
    project.settings.span_layers = [
        *project.settings.span_layers,
        # Multiword expressions on the sources: flat (no nesting, no overlap).
        SpanLayer("mwe", "source", [EntityTypeStyle("IDIOM", "I", "#8e44ad"), EntityTypeStyle("NAME", "N", "#16a085")],
                  nesting=False, overlap=False),
        # Error spans on the outputs: one may lie inside another, never cross it.
        SpanLayer("errors", "output", [EntityTypeStyle("MAJOR", "J", "#c0392b"), EntityTypeStyle("MINOR", "K", "#e67e22")],
                  nesting=True, overlap=False),
    ]
    path = tmp_path / "layers.mtwb.json"
    window, workspace = open_in_annotate(qtbot, project, path)
    workspace.annotator_box.setCurrentText(ANNOTATOR)
    qtbot.waitUntil(lambda: workspace.annotator == ANNOTATOR)
    workspace.window_ = window
    return workspace


def press(qtbot, widget, key, modifier=Qt.KeyboardModifier.NoModifier, times=1):
    for _ in range(times):
        qtbot.keyClick(widget, key, modifier)


def choose_layer(qtbot, ws, name: str) -> None:
    """Pick a layer in the top row with the keyboard (Home, then Down until it shows)."""
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
    return sorted((s.segment, s.reference, project.span_text(s)[s.start:s.end], s.type)
                  for s in project.spans if s.annotator == ANNOTATOR and s.layer == layer)


def select(qtbot, view, segment_index: int, start: int, length: int, forward=Qt.Key.Key_Right) -> None:
    press(qtbot, view, Qt.Key.Key_Home, CTRL)
    press(qtbot, view, Qt.Key.Key_Down, times=segment_index)
    press(qtbot, view, Qt.Key.Key_Home)
    press(qtbot, view, forward, times=start)
    press(qtbot, view, forward, SHIFT, times=length)


def test_a_layer_on_sources_with_its_own_types_keys_and_flat_rule(qtbot, ws, screenshot_dir):
    view = ws.view
    assert [ws.layer_box.itemText(i) for i in range(ws.layer_box.count())] == [
        "entities (on references)", "mwe (on sources)", "errors (on outputs)"]
    choose_layer(qtbot, ws, "mwe")
    # The editor shows the sources; the text box needs no choice; the hint lists the layer's keys.
    assert view.segment_text("1") == SOURCES[0] and view.segment_text("2") == SOURCES[1]
    assert not ws.reference_box.isEnabled() and ws.text_label.text() == "Text"
    assert "<b>I</b> idiom" in ws.hint.text() and "<b>N</b> name" in ws.hint.text()
    assert "Editing layer mwe on sources" in ws.status.text()
    # Tag 打破了沙锅问到底 (an idiom) with I: a span of the mwe layer on the source.
    ws.snap_box.setChecked(False)
    select(qtbot, view, 0, 1, 8)
    press(qtbot, view, Qt.Key.Key_I)
    assert spans_of(ws, "mwe") == [("1", "", "打破了沙锅问到底", "IDIOM")], ws.status.text()
    # The layer is flat: a span inside it is refused, with the rule named.
    select(qtbot, view, 0, 4, 2)
    press(qtbot, view, Qt.Key.Key_N)
    assert len(spans_of(ws, "mwe")) == 1
    assert "Not tagged" in ws.status.text() and "layer 'mwe' does not allow it" in ws.status.text()
    # An entity key of the entities layer means nothing here (P is not one of mwe's keys).
    select(qtbot, view, 1, 0, 4)
    press(qtbot, view, Qt.Key.Key_P)
    assert len(spans_of(ws, "mwe")) == 1
    press(qtbot, view, Qt.Key.Key_N)  # Иван as a NAME
    assert ("2", "", "Иван", "NAME") in spans_of(ws, "mwe")
    # Retype with the layer's key, delete, undo: all on this layer.
    press(qtbot, view, Qt.Key.Key_I)
    assert ("2", "", "Иван", "IDIOM") in spans_of(ws, "mwe")
    press(qtbot, view, Qt.Key.Key_Delete)
    assert spans_of(ws, "mwe") == [("1", "", "打破了沙锅问到底", "IDIOM")]
    press(qtbot, view, Qt.Key.Key_Z, CTRL)
    assert ("2", "", "Иван", "IDIOM") in spans_of(ws, "mwe")
    # The side list shows this layer's spans with their text.
    rows = [ws.entities.data(ws.entities.index(r, 2)) for r in range(ws.entities.rowCount())]
    assert rows == ["打破了沙锅问到底", "Иван"] and "Spans of mwe" in ws.entities_title.text()
    QApplication.processEvents()
    ws.window_.grab().save(str(screenshot_dir / "annotate_layer_sources.png"))
    # Tools bound to one reference say so rather than search the wrong text.
    press(qtbot, view, Qt.Key.Key_N, Qt.KeyboardModifier.AltModifier)
    assert "works on layers on references; layer mwe sits on sources" in ws.status.text()
    # Back on the entities: the reference is shown, the mwe spans are not.
    choose_layer(qtbot, ws, "entities")
    assert view.segment_text("1") == REFS[0] and view.spans_for("1") == [] and ws.reference_box.isEnabled()
    assert ws.entities.rowCount() == 0


def test_a_layer_on_outputs_nests_but_never_crosses_and_links_by_keys(qtbot, ws, screenshot_dir):
    view, project = ws.view, ws.session.project
    choose_layer(qtbot, ws, "errors")
    assert ws.text_label.text() == "System" and ws.reference_box.currentText() == "mt"
    assert view.segment_text("1") == OUTPUTS[0]
    ws.snap_box.setChecked(False)
    # Arabic output, right to left (Left moves on in reading order): كسر القدر as MAJOR, القدر inside as MINOR.
    select(qtbot, view, 0, 0, 9, Qt.Key.Key_Left)
    press(qtbot, view, Qt.Key.Key_J)
    select(qtbot, view, 0, 4, 5, Qt.Key.Key_Left)
    press(qtbot, view, Qt.Key.Key_K)
    assert spans_of(ws, "errors") == [("1", "mt", "القدر", "MINOR"), ("1", "mt", "كسر القدر", "MAJOR")], ws.status.text()
    # Crossing the MAJOR span is refused: the layer allows nesting only.
    select(qtbot, view, 0, 6, 6, Qt.Key.Key_Left)
    press(qtbot, view, Qt.Key.Key_K)
    assert len(spans_of(ws, "errors")) == 2
    assert "overlaps the MAJOR entity 0-9" in ws.status.text() and "layer 'errors' does not allow it" in ws.status.text()
    # A relation by keys between the nested spans: caret in them, W, Tab to the outer one, Enter.
    select(qtbot, view, 0, 5, 0, Qt.Key.Key_Left)
    if project.span(view.selected_span).type != "MINOR":  # the caret keeps the span it came with: Tab on
        press(qtbot, view, Qt.Key.Key_Tab)
    assert project.span(view.selected_span).type == "MINOR"
    press(qtbot, view, Qt.Key.Key_W)
    press(qtbot, view, Qt.Key.Key_Tab)
    press(qtbot, view, Qt.Key.Key_Return)
    [relation] = project.relations
    assert (project.span(relation.source).type, project.span(relation.target).type) == ("MINOR", "MAJOR")
    QApplication.processEvents()
    ws.window_.grab().save(str(screenshot_dir / "annotate_layer_outputs.png"))
    # Saved and opened again: the spans keep their layer and system.
    press(qtbot, view, Qt.Key.Key_S, CTRL)
    back = load_bundle(ws.session.path)
    assert sorted((s.layer, s.reference, s.type) for s in back.spans) == [
        ("errors", "mt", "MAJOR"), ("errors", "mt", "MINOR")]
