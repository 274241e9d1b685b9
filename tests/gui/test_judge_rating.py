"""The Judge workspace driven by keys, as a judge would: rate, go back, change,
undo, comment, save with Ctrl+S and resume from the saved bundle."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication

from mtworkbench.core.judging import (
    ADEQUACY_LABELS,
    FLUENCY_LABELS,
    QueueConfig,
    build_queue,
)
from mtworkbench.core.overlap import word_overlap, words
from mtworkbench.gui import dialogs
from mtworkbench.gui.judge import queue_dialog
from mtworkbench.gui.judge import workspace as judge_module
from mtworkbench.gui.main_window import MainWindow
from mtworkbench.io.bundle.bundle import load_bundle


def plain(label) -> str:
    """What a rich-text label shows, as plain text."""
    document = QTextDocument()
    document.setHtml(label.text())
    return document.toPlainText()


def highlighted(label) -> set[int]:
    """Positions (in the plain text) of the characters drawn with a background."""
    document = QTextDocument()
    document.setHtml(label.text())
    marked = set()
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().background().style() != Qt.BrushStyle.NoBrush:
                marked.update(range(fragment.position(), fragment.position() + fragment.length()))
            it += 1
        block = block.next()
    return marked


class FakeTime:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def open_judge_window(qtbot, path) -> MainWindow:
    """A main window on screen with the bundle at ``path`` open in the Judge workspace."""
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(path)
    w.tabs.setCurrentWidget(w.workspaces["Judge"])
    return w


@pytest.fixture
def window(qtbot, legacy_demo_copy):
    return open_judge_window(qtbot, legacy_demo_copy)


@pytest.fixture
def workspace(window):
    return window.workspaces["Judge"]


@pytest.fixture
def fake_time(workspace):
    clock = FakeTime()
    workspace.rating.now = clock
    workspace.rating.clock.start()
    return clock


def add_judge(qtbot, workspace, monkeypatch, name):
    monkeypatch.setattr(judge_module, "ask_judge_name", lambda parent: name)
    qtbot.mouseClick(workspace.new_judge_button, Qt.MouseButton.LeftButton)


def start_queue(qtbot, workspace, monkeypatch, config):
    monkeypatch.setattr(queue_dialog, "ask_queue_config", lambda *args: config)
    qtbot.waitUntil(workspace.start_button.isVisible)
    qtbot.mouseClick(workspace.start_button, Qt.MouseButton.LeftButton)


def keys(qtbot, view, *sequence):
    for key in sequence:
        qtbot.keyClick(view, key)


K = Qt.Key
CONFIG = QueueConfig(seed=7, repeat_share=0.0)


@pytest.fixture
def judging(qtbot, workspace, monkeypatch, fake_time):
    """Judge 'ann' with a fresh queue of the demo's 50 items, no repeats."""
    add_judge(qtbot, workspace, monkeypatch, "ann")
    start_queue(qtbot, workspace, monkeypatch, CONFIG)
    return workspace.rating


def test_four_three_enter_stores_the_judgment_and_shows_the_next_item(qtbot, window, workspace, judging):
    view = judging
    project = window.session.project
    expected_order = build_queue(project, "ann", CONFIG).items
    first = view.current_item()
    assert (first.system, first.segment) == (expected_order[0].system, expected_order[0].segment)
    assert plain(view.candidate.text) == first.candidate
    assert "background-color" not in view.candidate.text.text()  # no highlighting by default
    assert first.system not in view.position_label.text()

    keys(qtbot, view, K.Key_4, K.Key_3, K.Key_Return)

    assert len(project.judgments) == 1
    stored = project.judgments[0]
    assert (stored.judge, stored.system, stored.segment, stored.reference) == ("ann", first.system, first.segment, first.reference)
    assert (stored.adequacy, stored.fluency) == (4, 3)
    shown = view.current_item()
    assert shown.index == 1 and shown.segment == expected_order[1].segment
    assert plain(view.candidate.text) == shown.candidate
    assert view.entry.adequacy is None and view.entry.fluency is None
    assert not any(b.isChecked() for b in view.adequacy.buttons.values())
    assert view.progress.value() == 1 and view.progress.maximum() == 50
    assert "Item 2 of 50" in view.position_label.text()
    assert window.isWindowModified()


def test_rate_several_go_back_change_rating_timing_and_undo(qtbot, window, workspace, judging, fake_time):
    view = judging
    project = window.session.project
    ratings = [((5, 4), 5.0), ((2, 1), 7.0), ((3, 3), 3.0)]
    items = []
    for (adequacy, fluency), seconds in ratings:
        items.append(view.current_item())
        fake_time.t += seconds
        keys(qtbot, view, getattr(K, f"Key_{adequacy}"), getattr(K, f"Key_{fluency}"), K.Key_Return)
    by_segment = {j.segment: j for j in project.judgments}
    assert len(by_segment) == 3
    for item, ((adequacy, fluency), seconds) in zip(items, ratings):
        j = by_segment[item.segment]
        assert (j.adequacy, j.fluency) == (adequacy, fluency)
        assert j.seconds == pytest.approx(seconds)
    assert view.queue.progress.done == 3 and view.progress.value() == 3
    assert view.current_item().index == 3

    # Back twice: the stored ratings come back on screen.
    keys(qtbot, view, K.Key_Backspace)
    assert view.current_item().index == 2
    assert view.adequacy.buttons[3].isChecked() and view.fluency.buttons[3].isChecked()
    keys(qtbot, view, K.Key_Left)
    assert view.current_item().index == 1
    assert (view.entry.adequacy, view.entry.fluency) == (2, 1)
    assert "rated before" in view.position_label.text()

    # Change item 2's rating; time spent adds up, the judgment keeps its id.
    old = by_segment[items[1].segment]
    fake_time.t += 4.0
    keys(qtbot, view, K.Key_4, K.Key_4, K.Key_Return)
    changed = project.judgment(old.id)
    assert (changed.adequacy, changed.fluency) == (4, 4)
    assert changed.seconds == pytest.approx(7.0 + 4.0)
    assert len(project.judgments) == 3
    # Enter goes to the next item in queue order (item 3, rated before), not past it.
    assert view.current_item().index == 2
    assert "rated before" in view.position_label.text()
    assert view.progress.value() == 3

    # Undo (Ctrl+Z in the window) takes the change back and shows that item again.
    window.activateWindow()
    qtbot.keyClick(window, K.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert (project.judgment(old.id).adequacy, project.judgment(old.id).fluency) == (2, 1)
    assert project.judgment(old.id).seconds == pytest.approx(7.0)
    assert view.current_item().index == 1
    qtbot.keyClick(window, K.Key_Z, Qt.KeyboardModifier.ControlModifier)  # the third rating
    assert len(project.judgments) == 2 and view.queue.progress.done == 2
    assert view.current_item().index == 2
    qtbot.keyClick(window, K.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert len(project.judgments) == 3 and view.current_item().index == 3
    # Reviewing item 3 with Enter (keeping its rating) leads on to item 4, unrated.
    keys(qtbot, view, K.Key_Backspace)
    assert view.current_item().index == 2
    keys(qtbot, view, K.Key_Return)
    assert view.current_item().index == 3 and view.current_item().judgment is None


def test_time_stops_while_the_window_is_inactive(qtbot, workspace, judging, fake_time):
    view = judging
    fake_time.t += 2.0
    workspace._application_state_changed(Qt.ApplicationState.ApplicationInactive)
    fake_time.t += 600.0  # the judge went for coffee
    workspace._application_state_changed(Qt.ApplicationState.ApplicationActive)
    fake_time.t += 3.0
    keys(qtbot, view, K.Key_1, K.Key_2, K.Key_Return)
    assert workspace.session.project.judgments[0].seconds == pytest.approx(5.0)


def test_enter_needs_both_scales(qtbot, workspace, judging):
    view = judging
    keys(qtbot, view, K.Key_3)
    assert view.fluency.property("expecting") is True
    keys(qtbot, view, K.Key_Return)
    assert workspace.session.project.judgments == []
    assert "fluency" in view.status.text()
    assert view.current_item().index == 0
    # A slip is fixed by typing on: a third digit starts again with adequacy.
    keys(qtbot, view, K.Key_2, K.Key_5)
    assert (view.entry.adequacy, view.entry.fluency) == (5, None)
    keys(qtbot, view, K.Key_1, K.Key_Return)
    assert [(j.adequacy, j.fluency) for j in workspace.session.project.judgments] == [(5, 1)]


def test_buttons_show_the_ldc_labels_and_clicks_rate(qtbot, workspace, judging):
    view = judging
    for rating in range(1, 6):
        assert ADEQUACY_LABELS[rating] in view.adequacy.buttons[rating].text()
        assert FLUENCY_LABELS[rating] in view.fluency.buttons[rating].text()
    assert "None of the meaning" in view.adequacy.buttons[1].text()
    assert "Incomprehensible English" in view.fluency.buttons[1].text()
    qtbot.mouseClick(view.fluency.buttons[2], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(view.adequacy.buttons[5], Qt.MouseButton.LeftButton)
    assert view.submit_button.isEnabled()
    qtbot.mouseClick(view.submit_button, Qt.MouseButton.LeftButton)
    j = workspace.session.project.judgments[0]
    assert (j.adequacy, j.fluency) == (5, 2)
    for hint in ("1</b>–<b>5", "Enter", "Backspace"):
        assert hint in view.hints.text()


def test_typing_a_comment_does_not_rate(qtbot, workspace, judging):
    view = judging
    keys(qtbot, view, K.Key_Tab)
    assert view.comment.hasFocus() or QApplication.focusWidget() is view.comment
    qtbot.keyClicks(view.comment, "word 3 is 45% off")
    assert view.entry.adequacy is None and view.entry.fluency is None
    qtbot.keyClick(view.comment, K.Key_Escape)
    assert not view.comment.hasFocus()
    keys(qtbot, view, K.Key_2, K.Key_2)
    view.comment.setFocus()
    qtbot.keyClick(view.comment, K.Key_Return)  # Enter in the comment submits too
    j = workspace.session.project.judgments[0]
    assert (j.adequacy, j.fluency, j.comment) == (2, 2, "word 3 is 45% off")
    assert view.comment.text() == ""  # the next item starts with an empty comment
    assert view.current_item().index == 1


def test_overlap_highlighting_and_source_are_options(qtbot, window, workspace, judging):
    view = judging
    item = view.current_item()
    assert "background-color" not in view.candidate.text.text()
    assert not view.source.isVisible()
    qtbot.mouseClick(workspace.highlight, Qt.MouseButton.LeftButton)
    assert window.session.project.judge_queues["ann"].highlight_overlap is True
    assert "background-color" in view.candidate.text.text()
    assert plain(view.candidate.text) == item.candidate
    overlap = word_overlap(item.candidate, item.reference_text)
    assert 0 < overlap.matched < overlap.candidate_words
    marked = highlighted(view.candidate.text)
    for start, end in overlap.candidate_spans:
        assert set(range(start, end)) <= marked
    shared = {p for start, end in overlap.candidate_spans for p in range(start, end)}
    for word in words(item.candidate):
        if word.start not in shared:
            assert not set(range(word.start, word.end)) & marked, word.text
    assert {p for s, e in overlap.reference_spans for p in range(s, e)} <= highlighted(view.reference.text)
    qtbot.mouseClick(workspace.show_source, Qt.MouseButton.LeftButton)
    assert view.source.isVisible() and plain(view.source.text) == item.source
    qtbot.keyClick(window, K.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert not view.source.isVisible() and not workspace.show_source.isChecked()


def test_new_judge_is_undoable_and_duplicates_are_refused(qtbot, window, workspace, monkeypatch):
    add_judge(qtbot, workspace, monkeypatch, "bob")
    assert window.session.project.judges == ["bob"]
    assert workspace.judge == "bob"
    assert "no queue" in workspace.rating.message.text()
    shown = []
    monkeypatch.setattr(dialogs, "error", lambda parent, title, message: shown.append(message))
    add_judge(qtbot, workspace, monkeypatch, " bob ")
    assert shown and "bob" in shown[0]
    assert window.session.project.judges == ["bob"]
    qtbot.keyClick(window, K.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.session.project.judges == []
    assert workspace.judge is None


def test_starting_a_queue_is_undoable_and_marks_the_project_modified(qtbot, window, workspace, monkeypatch):
    add_judge(qtbot, workspace, monkeypatch, "ann")
    window.save()
    assert not window.isWindowModified()
    start_queue(qtbot, workspace, monkeypatch, QueueConfig(seed=1, repeat_share=0.1, reference_mode="per-segment"))
    state = window.session.project.judge_queues["ann"]
    assert len(state.items) == 55 and state.reference_mode == "per-segment"
    assert window.isWindowModified()
    assert workspace.rating.progress.maximum() == 55
    qtbot.keyClick(window, K.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert "ann" not in window.session.project.judge_queues
    assert not window.isWindowModified()
    assert workspace.rating.current_item() is None


def test_save_with_ctrl_s_reload_and_resume(qtbot, window, workspace, judging, legacy_demo_copy, fake_time):
    view = judging
    fake_time.t += 6.0
    keys(qtbot, view, K.Key_4, K.Key_3, K.Key_Return)
    fake_time.t += 2.5
    keys(qtbot, view, K.Key_2, K.Key_5, K.Key_Return)
    keys(qtbot, view, K.Key_Right)  # skip item 3
    resume_at = view.current_item()
    assert resume_at.index == 3
    window.activateWindow()
    qtbot.keyClick(window, K.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert not window.isWindowModified()

    saved = load_bundle(legacy_demo_copy)
    assert saved.judges == ["ann"]
    assert sorted((j.adequacy, j.fluency, j.seconds) for j in saved.judgments) == [(2, 5, 2.5), (4, 3, 6.0)]
    assert saved.judge_queues["ann"].position == 3

    other = MainWindow()
    qtbot.addWidget(other)
    assert other.open_path(legacy_demo_copy)
    ws = other.workspaces["Judge"]
    ws.select_judge("ann")
    resumed = ws.rating.current_item()
    assert (resumed.index, resumed.system, resumed.segment) == (3, resume_at.system, resume_at.segment)
    assert ws.rating.queue.progress.done == 2 and ws.rating.progress.value() == 2
    # The skipped item is still waiting at the end of the queue.
    assert ws.rating.queue.first_pending() == 2


def test_open_in_judge_shows_the_item(qtbot, window, workspace, judging):
    target = judging.queue.item(17)
    window.tabs.setCurrentIndex(0)
    window.session.open_in_judge_requested.emit(target.system, target.segment)
    assert window.tabs.currentWidget() is workspace
    assert judging.current_item().index == 17
    assert window.session.current_segment == target.segment


def test_open_in_judge_without_queue_lists_the_judgments(qtbot, window, workspace):
    workspace.show_item("mt", "5")
    assert workspace.tabs.currentWidget() is workspace.judgments
    assert workspace.judgments.system_filter.currentData() == "mt"
    assert "not in" in workspace.notice.text()


def test_a_whole_queue_with_repeats_by_keys_only(qtbot, window, workspace, monkeypatch, fake_time):
    add_judge(qtbot, workspace, monkeypatch, "ann")
    start_queue(qtbot, workspace, monkeypatch, QueueConfig(seed=2, repeat_share=0.1))
    view = workspace.rating
    # Choosing the judge and starting the queue leave the keys with the rating view.
    assert QApplication.focusWidget() is view
    total = view.queue.total
    assert total == 55  # 50 items and 5 repeats
    shown = []
    while view.current_item() is not None:
        item = view.current_item()
        shown.append(item)
        rating = 1 + len(shown) % 5
        fake_time.t += 1.5
        keys(qtbot, QApplication.focusWidget(), getattr(K, f"Key_{rating}"), getattr(K, f"Key_{6 - rating}"), K.Key_Return)
    project = window.session.project
    assert len(shown) == total == len(project.judgments)
    assert [i.index for i in shown] == list(range(total))
    assert sum(i.repeat for i in shown) == 5
    # A repeat is shown against the same reference as its original and stored as a judgment of its own.
    for repeat in (i for i in shown if i.repeat):
        original = next(i for i in shown if not i.repeat and (i.system, i.segment) == (repeat.system, repeat.segment))
        assert original.reference == repeat.reference
    assert all(j.seconds == pytest.approx(1.5) for j in project.judgments)
    assert view.progress.value() == view.progress.maximum() == 55
    assert "Finished" in view.position_label.text()
    assert view.message.isVisible() and "end of the queue" in view.message.text()
    # Digits and Enter do nothing at the end; Backspace reviews the last item.
    keys(qtbot, view, K.Key_3, K.Key_3, K.Key_Return)
    assert len(project.judgments) == 55
    keys(qtbot, view, K.Key_Backspace)
    assert view.current_item().index == 54
    # The repeats feed intra-judge consistency in the agreement view.
    workspace.tabs.setCurrentWidget(workspace.agreement)
    assert workspace.agreement.intra_model.rowCount() == 1
    assert workspace.agreement.intra_model.index(0, 1).data() == "5"


def test_skipped_items_wait_at_the_end(qtbot, workspace, judging):
    view = judging
    keys(qtbot, view, K.Key_Right)  # skip item 1
    for _ in range(49):
        keys(qtbot, view, K.Key_2, K.Key_2, K.Key_Return)
    # After the last item Enter comes back round to the one skipped.
    assert view.current_item().index == 0 and view.current_item().judgment is None
    for _ in range(50):
        keys(qtbot, view, K.Key_Right)
    assert view.current_item() is None
    assert "1 item is still unrated" in view.message.text()
    keys(qtbot, view, K.Key_Right)
    assert view.current_item().index == 0
    keys(qtbot, view, K.Key_4, K.Key_4, K.Key_Return)
    assert view.queue.progress.done == 50 and view.current_item() is None
    assert "still unrated" not in view.message.text()


def test_double_click_in_the_table_opens_the_judgment(qtbot, window, workspace, judging):
    view = judging
    for _ in range(3):
        keys(qtbot, view, K.Key_3, K.Key_4, K.Key_Return)
    second = view.queue.item(1)
    panel = workspace.judgments
    workspace.tabs.setCurrentWidget(panel)
    row = next(r for r in range(panel.proxy.rowCount()) if panel.proxy.index(r, 2).data() == second.segment)
    rect = panel.table.visualRect(panel.proxy.index(row, 0))
    qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert workspace.tabs.currentWidget() is view
    assert view.current_item().index == 1
    assert (view.entry.adequacy, view.entry.fluency) == (3, 4)


def test_new_queue_dialog_says_it_replaces_the_old_one(qtbot, window, workspace, judging):
    keys(qtbot, judging, K.Key_3, K.Key_4, K.Key_Return)
    dialog = queue_dialog.QueueSetupDialog(window.session.project, "ann", judging.queue.config)
    qtbot.addWidget(dialog)
    assert "1 of 50 items rated" in dialog.replacing.text()
    assert dialog.config() == CONFIG  # the old settings are offered again


def test_a_queue_naming_a_removed_system_says_so(qtbot, window, workspace, judging):
    window.session.project.remove_system("mt")
    view = judging
    assert view.current_item() is None
    assert "no longer in the project" in view.message.text()
    keys(qtbot, view, K.Key_3, K.Key_3, K.Key_Return)  # nothing to rate, nothing raised
    assert window.session.project.judgments == []


@pytest.mark.parametrize(
    "language, flawless",
    [("de", "Flawless German"), ("zh", "Flawless Chinese"), ("", "Flawless in the target language"),
     ("qqq", "Flawless in the target language")],
)
def test_fluency_scale_names_the_target_language(qtbot, window, workspace, judging, language, flawless):
    view = judging
    window.session.project.target_language = language
    view.refresh()
    assert flawless in view.fluency.buttons[5].text()
    assert flawless in view.fluency.buttons[5].toolTip()
    assert not any("English" in b.text() for b in view.fluency.buttons.values())
    keys(qtbot, view, K.Key_4, K.Key_5, K.Key_Return)  # rating still works
    assert [(j.adequacy, j.fluency) for j in window.session.project.judgments] == [(4, 5)]
