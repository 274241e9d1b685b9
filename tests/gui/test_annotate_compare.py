"""Comparison of two annotators and adjudication into a third layer, through clicks."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from mtworkbench.core.model import EntitySpan
from mtworkbench.gui.main_window import MainWindow


@pytest.fixture
def window(qtbot, legacy_demo_copy):
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(legacy_demo_copy)
    return w


def add(project, annotator, segment, needle, entity_type):
    text = project.reference_text("ref-1", segment)
    start = text.index(needle)
    project.add_span(EntitySpan(project.new_id("e"), "ref-1", segment, start, start + len(needle), entity_type, annotator))


@pytest.fixture
def two_annotators(window):
    p = window.session.project
    # ann (A) and ben (B): agree on two people; Interpol typed differently; Morna only A; German only B.
    # Both worked on segments 4 and 5 only, so those two are compared.
    add(p, "ann", "4", "Irakli Okruashvili", "PERSON")
    add(p, "ann", "4", "Interpol", "ORGANIZATION")
    add(p, "ann", "5", "Georg", "PERSON")
    add(p, "ann", "5", "Morna", "LOCATION")
    add(p, "ben", "4", "Irakli Okruashvili", "PERSON")
    add(p, "ben", "4", "Interpol", "LOCATION")
    add(p, "ben", "5", "Georg", "PERSON")
    add(p, "ben", "4", "German", "DATE")
    return p


def open_compare(qtbot, window):
    ws = window.workspaces["Annotate"]
    window.tabs.setCurrentWidget(ws)
    ws.tabs.setCurrentWidget(ws.comparison)
    view = ws.comparison
    qtbot.waitUntil(view.isVisible)
    view.annotator_a.setCurrentText("ann")
    view.annotator_b.setCurrentText("ben")
    QApplication.processEvents()
    return ws, view


def click_row(qtbot, view, row):
    rect = view.table.visualRect(view.model.index(row, 1))
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_agreement_figures(qtbot, window, two_annotators):
    _ws, view = open_compare(qtbot, window)
    summary = view.summary.text()
    # 4 spans each, 2 exact matches: F1 = 2*2/(4+4); ignoring type 3 match: 6/8.
    assert "Exact-span F1</td><td><b>0.500</b>" in summary
    assert "Span F1 ignoring type</td><td>0.750" in summary
    assert "A 4 · B 4 · agreed 2" in summary
    # Kappa by hand over the N words of segments 4 and 5: the labellings differ on 3 one-word
    # entities (Interpol ORG/LOC, Morna LOC/O, German O/DATE); both have 3 PERSON words.
    n = int(re.search(r"\((\d+) words\)", summary).group(1))
    assert n == 22 + 12  # words and the full stop: "The German police ... Interpol." and "Georg ... another."
    assert "over 2 of " in summary and "(both annotated)" in summary
    po = (n - 3) / n
    # A: PERSON 3, ORG 1, LOC 1, O n-5; B: PERSON 3, LOC 1, DATE 1, O n-5.
    pe = (3 * 3 + 1 * 1 + (n - 5) ** 2) / n**2
    kappa = (po - pe) / (1 - pe)
    assert f"<b>{kappa:.3f}</b> ({n} words)" in summary

    table = view.by_type
    rows = {table.item(r, 0).text(): [table.item(r, c).text() for c in range(1, 5)] for r in range(table.rowCount())}
    assert rows == {
        "DATE": ["0", "1", "0", "0.000"],
        "LOCATION": ["1", "1", "0", "0.000"],
        "ORGANIZATION": ["1", "0", "0", "0.000"],
        "PERSON": ["2", "2", "2", "1.000"],
    }
    listed = [(r.segment, r.a and r.a.type, r.b and r.b.type) for r in view.model.rows]
    assert listed == [("4", None, "DATE"), ("4", "ORGANIZATION", "LOCATION"), ("5", "LOCATION", None)]
    assert "Disagreements</b> (3)" in view.listing_title.text()


def adjudicated(project):
    return sorted((s.segment, project.reference_text("ref-1", s.segment)[s.start:s.end], s.type)
                  for s in project.spans if s.annotator == "adjudicated")


def test_adjudication_into_a_third_layer(qtbot, window, two_annotators):
    project = two_annotators
    _ws, view = open_compare(qtbot, window)
    assert view.target_layer() == "adjudicated"
    stack = window.session.undo_stack

    click_row(qtbot, view, 1)  # Interpol: ORGANIZATION (A) vs LOCATION (B)
    qtbot.mouseClick(view.accept_b, Qt.MouseButton.LeftButton)
    assert adjudicated(project) == [("4", "Interpol", "LOCATION")]
    # Changing one's mind replaces the decision (one span, one more undo step).
    qtbot.mouseClick(view.accept_a, Qt.MouseButton.LeftButton)
    assert adjudicated(project) == [("4", "Interpol", "ORGANIZATION")]
    assert stack.count() == 2
    assert "ORGANIZATION  “Interpol”" in view.model.data(view.model.index(1, 3))

    click_row(qtbot, view, 2)  # Morna: only A
    qtbot.mouseClick(view.accept_a, Qt.MouseButton.LeftButton)
    click_row(qtbot, view, 0)  # German: only B; taking A's "no entity" adds nothing
    qtbot.mouseClick(view.accept_a, Qt.MouseButton.LeftButton)
    assert "already" in view.status.text()
    qtbot.mouseClick(view.accept_agreed, Qt.MouseButton.LeftButton)
    assert adjudicated(project) == [
        ("4", "Interpol", "ORGANIZATION"), ("4", "Irakli Okruashvili", "PERSON"),
        ("5", "Georg", "PERSON"), ("5", "Morna", "LOCATION"),
    ]
    assert stack.count() == 4

    stack.undo()  # the agreed copies, as one step
    assert adjudicated(project) == [("4", "Interpol", "ORGANIZATION"), ("5", "Morna", "LOCATION")]
    stack.undo()
    stack.undo()
    assert adjudicated(project) == [("4", "Interpol", "LOCATION")]
    stack.redo()
    assert adjudicated(project) == [("4", "Interpol", "ORGANIZATION")]
    # The source layers are never touched by adjudication.
    assert sum(1 for s in project.spans if s.annotator in ("ann", "ben")) == 8


def test_same_annotator_twice_is_explained(qtbot, window, two_annotators):
    _ws, view = open_compare(qtbot, window)
    view.annotator_b.setCurrentText("ann")
    QApplication.processEvents()
    assert "two different annotators" in view.summary.text()
    assert view.model.rowCount() == 0


def test_a_and_b_default_to_the_two_largest_different_layers(qtbot, window, tmp_path):
    """A project whose layers appear one at a time (adjudicated first) still opens
    Compare on two different annotators: the two with the most spans."""
    p = window.session.project
    add(p, "adjudicated", "4", "Interpol", "ORGANIZATION")
    ws = window.workspaces["Annotate"]
    window.tabs.setCurrentWidget(ws)
    ws.tabs.setCurrentWidget(ws.comparison)
    view = ws.comparison
    qtbot.waitUntil(view.isVisible)
    QApplication.processEvents()
    add(p, "annot-anna", "4", "Irakli Okruashvili", "PERSON")
    add(p, "annot-anna", "5", "Georg", "PERSON")
    add(p, "annot-anna", "5", "Morna", "LOCATION")
    add(p, "annot-bert", "4", "Irakli Okruashvili", "PERSON")
    add(p, "annot-bert", "5", "Georg", "PERSON")
    QApplication.processEvents()
    qtbot.waitUntil(lambda: view.annotator_a.count() == 3)
    view.grab().save(str(tmp_path / "compare-defaults.png"))
    assert (view.annotator_a.currentText(), view.annotator_b.currentText()) == ("annot-anna", "annot-bert")
    qtbot.waitUntil(lambda: "annot-anna" in view.summary.text())
    assert "over 2 of " in view.summary.text() and "(both annotated)" in view.summary.text()
