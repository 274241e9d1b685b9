"""DA, ESA and MQM queues in the Judge workspace, driven by keys as a rater would."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import Qt

from mtworkbench.core.judging import QueueConfig
from mtworkbench.gui.judge.queue_dialog import QueueSetupDialog
from tests.gui.test_judge_rating import K, add_judge, fake_time, keys, start_queue, window, workspace  # noqa: F401

SHOTS = os.environ.get("MTWB_SHOTS", "/tmp")  # MTWB_SHOTS=docs/images regenerates the screenshots in docs/


@pytest.fixture
def rate(qtbot, workspace, monkeypatch, fake_time):  # noqa: F811
    def start(config: QueueConfig):
        add_judge(qtbot, workspace, monkeypatch, "ann")
        start_queue(qtbot, workspace, monkeypatch, config)
        return workspace.rating
    return start


def shift(qtbot, view, key, times):
    for _ in range(times):
        qtbot.keyClick(view, key, Qt.KeyboardModifier.ShiftModifier)


def test_queue_dialog_offers_the_protocols_and_returns_them(qtbot, window):  # noqa: F811
    dialog = QueueSetupDialog(window.session.project, "ann")
    qtbot.addWidget(dialog)
    assert [dialog.protocol.itemData(i) for i in range(dialog.protocol.count())] == ["ldc", "da", "esa", "mqm", "rank"]
    assert not dialog.max_errors.isEnabled()
    dialog.protocol.setCurrentIndex(dialog.protocol.findData("mqm"))
    assert dialog.max_errors.isEnabled() and not dialog.da_basis.isEnabled()
    dialog.max_errors.setValue(3)
    config = dialog.config()
    assert (config.protocol, config.max_errors) == ("mqm", 3)


def test_da_typed_number_arrows_pages_then_enter(qtbot, window, rate):  # noqa: F811
    view = rate(QueueConfig(seed=7, repeat_share=0.0, protocol="da"))
    project = window.session.project
    panel = view.protocol_panel
    assert panel.isVisible() and not view.adequacy.isVisible()
    first = view.current_item()
    keys(qtbot, view, K.Key_Return)
    assert "score" in view.status.text().lower() and view.current_item() == first  # nothing set yet
    keys(qtbot, view, K.Key_7, K.Key_2)
    assert panel.score.label.text() == "Score: 72 / 100" and panel.score.slider.value() == 72
    keys(qtbot, view, K.Key_Right, K.Key_Right, K.Key_Down, K.Key_PageUp, K.Key_PageUp, K.Key_PageUp)
    assert panel.score.slider.value() == 100  # 73 + 30 stops at the top
    keys(qtbot, view, K.Key_PageDown, K.Key_Left)
    assert panel.score.label.text() == "Score: 89 / 100"
    window.grab().save(f"{SHOTS}/judge-da.png")
    keys(qtbot, view, K.Key_Return)
    stored = [j for j in project.judgments if j.judge == "ann"]
    assert [(j.protocol, j.score, j.system, j.segment) for j in stored] == [("da", 89.0, first.system, first.segment)]
    assert view.current_item().index == 1 and panel.score.value is None
    keys(qtbot, view, K.Key_Backspace)  # back: the stored score is shown again
    assert panel.score.label.text() == "Score: 89 / 100"


def test_esa_spans_by_keys_then_score(qtbot, window, rate):  # noqa: F811
    view = rate(QueueConfig(seed=7, repeat_share=0.0, protocol="esa"))
    panel = view.protocol_panel
    item = view.current_item()
    assert panel.translation.toPlainText() == item.candidate and not view.candidate.isVisible()
    keys(qtbot, view, K.Key_Home)
    shift(qtbot, view, K.Key_Right, 3)
    keys(qtbot, view, K.Key_1)  # minor
    keys(qtbot, view, K.Key_Right)
    shift(qtbot, view, K.Key_Right, 2)
    keys(qtbot, view, K.Key_2)  # major
    assert [(s.start, s.end, s.severity) for s in panel.spans] == [(0, 3, "minor"), (4, 6, "major")]
    assert len(panel.translation.extraSelections()) == 2
    assert item.candidate[0:3] in panel.spans_label.text()
    keys(qtbot, view, K.Key_Left, K.Key_Delete)  # cursor at 5: inside the major span
    assert [(s.start, s.end) for s in panel.spans] == [(0, 3)]
    keys(qtbot, view, K.Key_Right)
    shift(qtbot, view, K.Key_Right, 2)
    keys(qtbot, view, K.Key_2, K.Key_6, K.Key_5, K.Key_Up)
    assert panel.score.value == 66
    window.grab().save(f"{SHOTS}/judge-esa.png")
    keys(qtbot, view, K.Key_Return)
    j = next(j for j in window.session.project.judgments if j.judge == "ann")
    assert (j.protocol, j.score) == ("esa", 66.0)
    assert [(e.start, e.end, e.severity) for e in j.errors] == [(0, 3, "minor"), (6, 8, "major")]


def test_mqm_severity_category_limit_and_non_translation(qtbot, window, rate):  # noqa: F811
    view = rate(QueueConfig(seed=7, repeat_share=0.0, protocol="mqm", max_errors=2))
    panel = view.protocol_panel
    picked = iter(["Accuracy/Mistranslation", "Fluency/Grammar"])
    panel.ask_category = lambda parent: next(picked)
    assert not panel.score.isVisible()
    keys(qtbot, view, K.Key_Home)
    shift(qtbot, view, K.Key_Right, 2)
    keys(qtbot, view, K.Key_2)
    shift(qtbot, view, K.Key_Right, 2)
    keys(qtbot, view, K.Key_1)
    shift(qtbot, view, K.Key_Right, 1)
    keys(qtbot, view, K.Key_3)  # a third error: over the limit of 2
    assert [(s.severity, s.category) for s in panel.spans] == [("Major", "Accuracy/Mistranslation"), ("Minor", "Fluency/Grammar")]
    assert "At most 2" in panel.spans_label.text()
    window.grab().save(f"{SHOTS}/judge-mqm.png")
    keys(qtbot, view, K.Key_Return)
    first = next(j for j in window.session.project.judgments if j.judge == "ann")
    assert (first.protocol, first.score, len(first.errors)) == ("mqm", None, 2)
    keys(qtbot, view, K.Key_N, K.Key_Return)
    second = [j for j in window.session.project.judgments if j.judge == "ann"][1]
    assert [(e.start, e.severity, e.category) for e in second.errors] == [(0, "Major", "Non-translation")]
    assert second.errors[0].end == len(window.session.project.system_text(second.system, second.segment))


def test_category_picker_filters_as_you_type(qtbot):
    from mtworkbench.gui.judge.protocol_rating import CategoryPicker
    picker = CategoryPicker(("Accuracy/Omission", "Fluency/Grammar", "Fluency/Spelling"))
    qtbot.addWidget(picker)
    picker.show()
    picker.filter.setFocus()
    qtbot.keyClicks(picker.filter, "flu")
    assert picker.visible_names() == ["Fluency", "Fluency/Grammar", "Fluency/Spelling"]
    qtbot.keyClick(picker.filter, K.Key_Down)
    qtbot.keyClick(picker.filter, K.Key_Return)
    assert picker.chosen == "Fluency/Spelling"


def test_document_context_shows_neighbours_of_the_same_document(qtbot, window, rate):  # noqa: F811
    view = rate(QueueConfig(seed=7, repeat_share=0.0, protocol="da"))
    project = window.session.project
    item = view.current_item()
    segments = project.segments_of_document(item.document)
    at = [s.id for s in segments].index(item.segment)
    panel = view.protocol_panel
    for neighbour in segments[max(0, at - 2):at]:
        assert neighbour.source in panel.context_before.text()
    for neighbour in segments[at + 1:at + 3]:
        assert neighbour.source in panel.context_after.text()
    assert item.source not in panel.context_before.text() + panel.context_after.text()


def test_mouse_drag_selects_a_span_and_ctrl_chords_are_not_marks(qtbot):
    from PySide6.QtTest import QTest

    from mtworkbench.gui.judge.protocol_rating import ProtocolPanel
    panel = ProtocolPanel()
    qtbot.addWidget(panel)
    panel.protocol, panel.max_errors = "mqm", 5
    panel.translation.setPlainText("Hallo wunderbare Welt")
    panel.resize(600, 300)
    panel.show()
    qtbot.waitExposed(panel)
    cursor = panel.translation.textCursor()
    cursor.setPosition(6)
    a = panel.translation.cursorRect(cursor).center()
    cursor.setPosition(16)
    b = panel.translation.cursorRect(cursor).center()
    viewport = panel.translation.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, a)
    QTest.mouseMove(viewport, b)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, b)
    assert panel.translation.textCursor().selectedText() == "wunderbare"
    from PySide6.QtGui import QKeyEvent
    ctrl_n = QKeyEvent(QKeyEvent.Type.KeyPress, K.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert panel.handle_key(ctrl_n) is False and panel.spans == []
    panel.ask_category = lambda parent: "Accuracy/Mistranslation"
    two = QKeyEvent(QKeyEvent.Type.KeyPress, K.Key_2, Qt.KeyboardModifier.NoModifier)
    assert panel.handle_key(two)
    assert [(s.start, s.end, s.severity, s.category) for s in panel.spans] == [(6, 16, "Major", "Accuracy/Mistranslation")]


def test_esa_judgment_is_undoable_and_listed_with_its_score(qtbot, window, workspace, rate):  # noqa: F811
    view = rate(QueueConfig(seed=7, repeat_share=0.0, protocol="esa"))
    project = window.session.project
    panel = view.protocol_panel
    keys(qtbot, view, K.Key_Home)
    shift(qtbot, view, K.Key_Right, 2)
    keys(qtbot, view, K.Key_2, K.Key_4, K.Key_0, K.Key_Return)
    assert [(j.protocol, j.score, len(j.errors)) for j in project.judgments] == [("esa", 40.0, 1)]
    stored_errors = project.judgments[0].errors
    workspace.tabs.setCurrentWidget(workspace.judgments)
    table = workspace.judgments.table.model()
    headers = [table.headerData(c, Qt.Orientation.Horizontal) for c in range(table.columnCount())]
    row = [table.index(0, c).data() for c in range(table.columnCount())]
    assert table.rowCount() == 1 and str(row[headers.index("Score")]).startswith("40")
    workspace.tabs.setCurrentWidget(workspace.agreement)  # one rater: nothing to compare, no error
    workspace.tabs.setCurrentWidget(view)
    window.activateWindow()
    qtbot.keyClick(window, K.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert project.judgments == [] and view.current_item().index == 0
    # the item is back with its span as it was at the submit; a further undo takes the span back
    assert [(s.start, s.end) for s in panel.spans] == [(e.start, e.end) for e in stored_errors]
    assert panel.score.value is None
    qtbot.keyClick(window, K.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert panel.spans == []


def test_source_based_da_shows_the_source_not_the_reference(qtbot, window, rate):  # noqa: F811
    view = rate(QueueConfig(seed=7, repeat_share=0.0, protocol="da", da_basis="source"))
    item = view.current_item()
    assert view.source.isVisible() and not view.reference.isVisible()
    assert item.source in view.source.text.text()
    keys(qtbot, view, K.Key_5, K.Key_5, K.Key_Return)
    (j,) = window.session.project.judgments
    assert (j.protocol, j.score, j.reference) == ("da", 55.0, None)
