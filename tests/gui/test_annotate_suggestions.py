"""Annotate → Suggestions: a spaCy pipeline trained here suggests entities; keys accept,
correct and reject them one by one and all at once, with undo; the bundle keeps the decisions."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from mtworkbench.gui.main_window import MainWindow
from tests.io.test_spacy_pipeline import make_bundle, tiny_pipeline  # noqa: F401  (a fixture)

pytest.importorskip("spacy", reason="pre-annotation needs spaCy (the 'annotate' extra)")


@pytest.fixture
def panel(qtbot, tmp_path, tiny_pipeline, monkeypatch):  # noqa: F811
    bundle = tmp_path / "p.mtwb.json"
    make_bundle(bundle)
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(bundle)
    ws = w.workspaces["Annotate"]
    w.tabs.setCurrentWidget(ws)
    ws.annotator_box.setCurrentText("ann")
    qtbot.waitUntil(lambda: ws.annotator == "ann")
    ws.tabs.setCurrentWidget(ws.suggestions)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(tiny_pipeline))
    qtbot.mouseClick(ws.suggestions.load, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ws.suggestions.table.rowCount() > 0, timeout=30000)
    return w, ws.suggestions


def rows(table):
    return [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(table.rowCount())]


def test_keys_accept_correct_reject_and_undo(qtbot, panel, screenshot_dir):
    window, view = panel
    project = window.session.project
    shown = rows(view.table)
    assert ["1", "Anna", "PERSON", "spacy:tiny-ner"] in shown and ["2", "Moscow", "LOCATION", "spacy:tiny-ner"] in shown
    n = len(shown)
    window.grab().save(str(screenshot_dir / "annotate_suggestions.png"))
    # The context draws the current suggestion with a dashed underline.
    first = view.current()
    cursor = view.context.textCursor()
    cursor.setPosition(first.start + 1)
    assert cursor.charFormat().underlineStyle().name == "DashUnderline"
    view.table.setFocus()
    view.table.selectRow(0)
    qtbot.keyClick(view.table, Qt.Key.Key_Return)  # accept
    assert len(project.suggestion_decisions) == 1 and project.suggestion_decisions[0].decision == "accepted"
    assert any(s.annotator == "ann" and (s.start, s.end) == (first.start, first.end) for s in project.spans)
    assert view.table.rowCount() == n - 1
    second = view.current()
    qtbot.keyClick(view.table, Qt.Key.Key_O)  # ORGANIZATION's key: accepted as that type (corrected)
    assert project.suggestion_decisions[-1].decision == "corrected"
    assert project.suggestion_decisions[-1].label == "ORGANIZATION" and second.label != "ORGANIZATION"
    third = view.current()
    qtbot.keyClick(view.table, Qt.Key.Key_Delete)  # reject
    assert project.suggestion_decisions[-1].decision == "rejected"
    assert project.suggestion_decisions[-1].suggestion == third
    rates = rows(view.rates)
    assert rates and all(len(r) == 5 for r in rates)
    # Undo the rejection: the suggestion is back, the decision gone.
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(project.suggestion_decisions) == 2 and view.table.rowCount() == n - 2
    # All at once.
    qtbot.keyClick(view.table, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert view.table.rowCount() == 0
    assert len(project.suggestion_decisions) == n
    assert view.status.text() == f"0 of {n} suggestions to decide"
    window.grab().save(str(screenshot_dir / "annotate_suggestions_done.png"))


def test_reject_all_then_undo(qtbot, panel):
    window, view = panel
    n = view.table.rowCount()
    view.table.setFocus()
    qtbot.keyClick(view.table, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    project = window.session.project
    assert view.table.rowCount() == 0 and [d.decision for d in project.suggestion_decisions] == ["rejected"] * n
    assert not [s for s in project.spans if s.annotator == "ann"]
    window.session.undo_stack.undo()
    assert view.table.rowCount() == n and project.suggestion_decisions == []
