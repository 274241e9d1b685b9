"""Suggestions drawn in the Annotate editor (dashed, apart from the spans made) and
decided there with keys and the mouse: accept or reject the one at the caret, all of
the segment, all of the document, click accepts, right-click rejects; each an undo step
recorded as accepted or rejected, the accept rate in the status line."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment
from mtworkbench.core.suggestions import Suggestion
from tests.gui.annotate_helpers import click_at, open_in_annotate, point_of

ANNOTATOR = "anna"
TEXTS = ["习近平在北京大学演讲。", "ذهب محمد إلى القاهرة .", "Angela Merkel besuchte München ."]
CTRL, SHIFT, ALT = (Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier,
                    Qt.KeyboardModifier.AltModifier)


def suggestion(segment: str, word: str, label: str) -> Suggestion:
    text = TEXTS[int(segment) - 1]
    start = text.index(word)
    return Suggestion("ref", segment, start, start + len(word), label, "spacy:test")


SUGGESTED = [suggestion("1", "习近平", "PERSON"), suggestion("1", "北京大学", "ORGANIZATION"),
             suggestion("1", "北京", "LOCATION"), suggestion("2", "محمد", "PERSON"),
             suggestion("2", "القاهرة", "LOCATION"), suggestion("3", "Angela Merkel", "PERSON"),
             suggestion("3", "München", "LOCATION")]


@pytest.fixture
def ws(qtbot, tmp_path):
    doc = Document("d", [Paragraph("p", [Segment(str(i + 1), "x") for i in range(len(TEXTS))])])
    project = Project([doc], source_language="xx", target_language="zh")
    project.add_reference(Reference("ref", "", {str(i + 1): t for i, t in enumerate(TEXTS)}))
    path = tmp_path / "s.mtwb.json"
    window, workspace = open_in_annotate(qtbot, project, path)
    workspace.annotator_box.setCurrentText(ANNOTATOR)
    qtbot.waitUntil(lambda: workspace.annotator == ANNOTATOR)
    workspace.suggestions.set_suggestions(SUGGESTED)
    workspace.view.setFocus()
    workspace.window_ = window
    return workspace


def made(ws):
    project = ws.session.project
    return sorted((s.segment, project.reference_text("ref", s.segment)[s.start:s.end], s.type)
                  for s in project.spans if s.annotator == ANNOTATOR)


def decisions(ws):
    return [(d.suggestion.label, d.decision) for d in ws.session.project.suggestion_decisions]


def test_suggestions_are_drawn_dashed_in_the_editor_and_decided_by_keys_with_undo(qtbot, ws, screenshot_dir):
    view, project = ws.view, ws.session.project
    # Drawn in the text: the three suggestions of the Chinese segment, apart from spans.
    assert [(s.start, s.end, s.type) for s in view.suggestions_for("1")] == [(0, 3, "PERSON"), (4, 8, "ORGANIZATION"),
                                                                             (4, 6, "LOCATION")]
    assert all(s.id.startswith("?") for s in view.suggestions_for("1")) and view.spans_for("1") == []
    QApplication.processEvents()
    ws.window_.grab().save(str(screenshot_dir / "annotate_suggestions_in_editor.png"))
    # Enter accepts the one at the caret (the innermost: 北京 inside 北京大学).
    qtbot.keyClick(view, Qt.Key.Key_Home, CTRL)  # keys only: a click would accept what it lands on
    for _ in range(4):
        qtbot.keyClick(view, Qt.Key.Key_Right)
    assert view.caret() == ("1", 4)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert made(ws) == [("1", "北京", "LOCATION")]
    assert decisions(ws) == [("LOCATION", "accepted")]
    assert "Accepted the LOCATION “北京”" in ws.status.text() and "LOCATION 100% of 1" in ws.status.text()
    assert [s.type for s in view.suggestions_for("1")] == ["PERSON", "ORGANIZATION"]
    # Ctrl+Backspace rejects the one at the caret now (北京大学, the outer one).
    qtbot.keyClick(view, Qt.Key.Key_Backspace, CTRL)
    assert decisions(ws)[-1] == ("ORGANIZATION", "rejected") and len(made(ws)) == 1
    assert [s.type for s in view.suggestions_for("1")] == ["PERSON"]
    # Undo brings the rejected suggestion back; undo again takes the accepted span away.
    qtbot.keyClick(view, Qt.Key.Key_Z, CTRL)
    assert [s.type for s in view.suggestions_for("1")] == ["PERSON", "ORGANIZATION"]
    qtbot.keyClick(view, Qt.Key.Key_Z, CTRL)
    assert made(ws) == [] and decisions(ws) == [] and len(view.suggestions_for("1")) == 3
    # Ctrl+Shift+Enter accepts the segment's three (nested ones too) as one step.
    qtbot.keyClick(view, Qt.Key.Key_Return, CTRL | SHIFT)
    assert made(ws) == [("1", "习近平", "PERSON"), ("1", "北京", "LOCATION"), ("1", "北京大学", "ORGANIZATION")]
    assert view.suggestions_for("1") == [] and len(view.suggestions_for("2")) == 2
    qtbot.keyClick(view, Qt.Key.Key_Z, CTRL)
    assert made(ws) == []
    # Ctrl+Alt+Backspace rejects the whole document's seven.
    qtbot.keyClick(view, Qt.Key.Key_Backspace, CTRL | ALT)
    assert len(decisions(ws)) == 7 and all(d == "rejected" for _, d in decisions(ws))
    assert all(view.suggestions_for(s) == [] for s in "123")
    qtbot.keyClick(view, Qt.Key.Key_Z, CTRL)
    # Ctrl+Alt+Enter accepts them all; the accept rate per type is on the Suggestions tab.
    qtbot.keyClick(view, Qt.Key.Key_Return, CTRL | ALT)
    assert len(made(ws)) == 7 and [d for _, d in decisions(ws)] == ["accepted"] * 7
    rates = {ws.suggestions.rates.item(r, 0).text(): ws.suggestions.rates.item(r, 4).text()
             for r in range(ws.suggestions.rates.rowCount())}
    assert rates == {"LOCATION": "100%", "ORGANIZATION": "100%", "PERSON": "100%"}
    assert project.span_count == 7


def test_a_click_accepts_a_right_click_rejects_in_arabic_and_german(qtbot, ws, screenshot_dir):
    view = ws.view
    # Right-to-left: a click on محمد accepts it.
    click_at(qtbot, view, "2", TEXTS[1].index("محمد") + 1)
    assert made(ws) == [("2", "محمد", "PERSON")] and decisions(ws) == [("PERSON", "accepted")]
    # A right-click on القاهرة rejects it; no context menu opens.
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.RightButton, pos=point_of(view, "2", TEXTS[1].index("القاهرة") + 2))
    assert decisions(ws)[-1] == ("LOCATION", "rejected")
    assert QApplication.activePopupWidget() is None
    assert view.suggestions_for("2") == []
    # A click beside the suggestions only moves the caret.
    click_at(qtbot, view, "3", TEXTS[2].index("besuchte") + 2)
    assert len(decisions(ws)) == 2
    # A keyboard selection and a type key still tag, even over a suggestion (nesting allowed).
    click_at(qtbot, view, "3", 0)  # accepts Angela Merkel
    assert ("3", "Angela Merkel", "PERSON") in made(ws)
    QApplication.processEvents()
    ws.window_.grab().save(str(screenshot_dir / "annotate_suggestions_click.png"))
    # Plain Enter on a spot with no suggestion says so in red, and changes nothing.
    view.place_caret("3", TEXTS[2].index("besuchte") + 1)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert "No suggestion at the caret" in ws.status.text() and len(decisions(ws)) == 3
    # Undo of a click is one step.
    qtbot.keyClick(view, Qt.Key.Key_Z, CTRL)
    assert ("3", "Angela Merkel", "PERSON") not in made(ws) and len(view.suggestions_for("3")) == 2


def test_an_accept_the_layer_refuses_says_why(qtbot, ws):
    from mtworkbench.core.layers import SpanLayer

    project = ws.session.project
    project.settings.span_layers = [SpanLayer("entities", nesting=False, overlap=False)]
    view = ws.view
    view.place_caret("1", 4)
    qtbot.keyClick(view, Qt.Key.Key_Return, CTRL | SHIFT)  # 北京 nests in 北京大学: refused, nothing added
    assert made(ws) == [] and decisions(ws) == []
    assert "Not accepted" in ws.status.text() and "does not allow" in ws.status.text()


def test_a_type_key_on_a_suggestion_accepts_it_as_that_type_recorded_as_corrected(qtbot, ws):
    view = ws.view
    qtbot.keyClick(view, Qt.Key.Key_Home, CTRL)
    qtbot.keyClick(view, Qt.Key.Key_Down)
    qtbot.keyClick(view, Qt.Key.Key_Down)
    qtbot.keyClick(view, Qt.Key.Key_End)
    qtbot.keyClick(view, Qt.Key.Key_Left)
    qtbot.keyClick(view, Qt.Key.Key_Left)
    qtbot.keyClick(view, Qt.Key.Key_Left)  # inside München, where no span is yet
    assert view.caret()[0] == "3" and view.selected_span is None
    qtbot.keyClick(view, Qt.Key.Key_O)  # ORGANIZATION instead of the suggested LOCATION
    assert made(ws) == [("3", "München", "ORGANIZATION")]
    assert [(d.suggestion.label, d.decision, d.label) for d in ws.session.project.suggestion_decisions] == [
        ("LOCATION", "corrected", "ORGANIZATION")]
    assert "Accepted the LOCATION “München” as ORGANIZATION" in ws.status.text()
    # Now a span is under the caret: the same key retypes it instead, and undo takes each back.
    qtbot.keyClick(view, Qt.Key.Key_L)
    assert made(ws) == [("3", "München", "LOCATION")] and len(ws.session.project.suggestion_decisions) == 1
    qtbot.keyClick(view, Qt.Key.Key_Z, CTRL)
    qtbot.keyClick(view, Qt.Key.Key_Z, CTRL)
    assert made(ws) == [] and decisions(ws) == [] and len(view.suggestions_for("3")) == 2
