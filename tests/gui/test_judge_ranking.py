"""Relative ranking in the Judge workspace, driven by keys as a rater would: focus a
translation, type its rank (ties allowed), Enter submits once all are ranked; go back,
change, undo; texts shown as plain text; the queue dialog offers the protocol."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import Qt

from mtworkbench.core.judging import QueueConfig
from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.core.ranking import rankings_of
from mtworkbench.gui.judge import queue_dialog
from mtworkbench.gui.judge import workspace as judge_module
from mtworkbench.gui.judge.queue_dialog import QueueSetupDialog
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
from tests.gui.test_judge_rating import open_judge_window

SHOTS = os.environ.get("MTWB_SHOTS", "/tmp")  # MTWB_SHOTS=docs/images regenerates the screenshot in docs/
K = Qt.Key

SOURCES = ["The committee approved the new budget on Tuesday.",
           "Heavy rain is expected in the north this weekend.",
           "She said the museum would reopen in spring."]
REFERENCE = ["委员会周二批准了新预算。", "预计本周末北方将有大雨。", "她说博物馆将于春季重新开放。"]
SYSTEMS = {
    "sys-alpha": ["委员会周二批准了新预算。", "预计本周末北部将有大雨。", "她说博物馆将在春天重新开放。"],
    "sys-beta": ["委员会在星期二通过了新的预算。", "本周末北方预计会下大雨。", "她表示博物馆春季将重开。"],
    "sys-gamma": ["周二委员会批准新的预算案。", "这个周末北方期待大雨。", "她说，博物馆会在春天再开。"],
    "sys-delta": ["委员会批准了星期二的新预算。", "预计北方本周末有暴雨。", "She said the museum reopens in spring."],
}


def ranking_project() -> Project:
    segs = [Segment(f"s{k + 1}", text) for k, text in enumerate(SOURCES)]
    ids = [s.id for s in segs]
    return Project([Document("news-1", [Paragraph("p1", segs)])],
                   references=[Reference("ref", texts=dict(zip(ids, REFERENCE)))],
                   systems=[System(name, texts=dict(zip(ids, texts))) for name, texts in SYSTEMS.items()],
                   source_language="en", target_language="zh", name="ranking demo")


@pytest.fixture
def window(qtbot, tmp_path):
    path = tmp_path / "rank.mtwb.json"
    save_bundle(ranking_project(), path)
    w = open_judge_window(qtbot, path)
    w.test_path = path
    return w


@pytest.fixture
def ranking(qtbot, window, monkeypatch):
    """Judge 'ann' with a ranking queue of the three segments (four systems each)."""
    workspace = window.workspaces["Judge"]
    monkeypatch.setattr(judge_module, "ask_judge_name", lambda parent: "ann")
    qtbot.mouseClick(workspace.new_judge_button, Qt.MouseButton.LeftButton)
    config = QueueConfig(seed=3, repeat_share=0.0, protocol="rank")
    monkeypatch.setattr(queue_dialog, "ask_queue_config", lambda *args: config)
    qtbot.mouseClick(workspace.start_button, Qt.MouseButton.LeftButton)
    view = workspace.ranking
    clock = [100.0]
    view.now = lambda: clock[0]
    view.clock.start()
    view.test_clock = clock
    return view


def keys(qtbot, view, *sequence):
    for key in sequence:
        qtbot.keyClick(view, key)


def test_dialog_offers_ranking_with_the_number_of_systems(qtbot, window):
    dialog = QueueSetupDialog(window.session.project, "ann")
    qtbot.addWidget(dialog)
    assert "rank" in [dialog.protocol.itemData(i) for i in range(dialog.protocol.count())]
    assert not dialog.max_systems.isEnabled() and dialog.max_systems.value() == 5
    assert dialog.summary.text().startswith("12 items")  # 4 systems x 3 segments
    dialog.protocol.setCurrentIndex(dialog.protocol.findData("rank"))
    assert dialog.max_systems.isEnabled()
    assert dialog.summary.text().startswith("3 items to rank")  # one screen of 4 a segment
    dialog.max_systems.setValue(3)
    assert dialog.summary.text().startswith("6 items to rank")  # 4 = 2 + 2
    config = dialog.config()
    assert (config.protocol, config.max_systems) == ("rank", 3)


def test_rank_by_keys_with_ties_then_enter(qtbot, window, ranking):
    view, workspace, project = ranking, window.workspaces["Judge"], window.session.project
    tabs = workspace.tabs
    assert tabs.currentWidget() is view and tabs.isTabVisible(tabs.indexOf(view))
    assert not tabs.isTabVisible(tabs.indexOf(workspace.rating))
    item = view.current_item()
    assert len(view.rows) == 4 and [r.text.text() for r in view.rows] == list(item.candidates)
    # No system name anywhere on screen.
    from PySide6.QtWidgets import QLabel

    shown = " ".join(label.text() for label in view.findChildren(QLabel))
    assert not any(name in shown for name in SYSTEMS)
    assert view.source.text() == SOURCES[int(item.segment[1:]) - 1] or not view.source.isVisible()
    assert view.reference.text() == REFERENCE[int(item.segment[1:]) - 1]

    keys(qtbot, view, K.Key_Return)  # nothing ranked: nothing stored, the rater is told
    assert "4 still without a rank" in view.status.text() and project.judgment_count == 0
    keys(qtbot, view, K.Key_2)  # translation 1 -> 2, focus moves to 2
    assert view.entry.ranks == [2, None, None, None] and view.rows[1].property("focused")
    keys(qtbot, view, K.Key_1, K.Key_1)  # 2 and 3 tie at 1
    keys(qtbot, view, K.Key_Up, K.Key_3)  # back to translation 3: rank 3 instead; focus to 4
    assert view.entry.ranks == [2, 1, 3, None] and view.entry.focus == 3
    qtbot.keyClick(view, K.Key_Tab)  # Tab moves the focus round to translation 1
    assert view.entry.focus == 0 and view.hasFocus()
    qtbot.keyClick(view, K.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert view.entry.focus == 3
    assert not view.submit_button.isEnabled()
    keys(qtbot, view, K.Key_5)
    assert view.rows[3].buttons[5].isChecked() and view.submit_button.isEnabled()
    view.test_clock[0] += 9
    qtbot.mouseClick(workspace.show_source, Qt.MouseButton.LeftButton)  # the source above the reference
    assert view.source.isVisible() and view.source.text() == SOURCES[int(item.segment[1:]) - 1]
    assert view.entry.ranks == [2, 1, 3, 5] and view.hasFocus()  # the option keeps the ranks and the keys
    window.grab().save(f"{SHOTS}/judge-ranking.png")
    keys(qtbot, view, K.Key_Return)

    (stored,) = rankings_of(project, {r.id: item.systems for r in rankings_of(project)})
    assert stored.systems == item.systems and stored.ranks == (2, 1, 3, 5)
    assert (stored.judge, stored.segment, stored.reference, stored.seconds) == ("ann", item.segment, "ref", 9.0)
    assert view.current_item().index == 1 and view.entry.ranks == [None] * 4
    assert view.progress.value() == 1

    keys(qtbot, view, K.Key_Backspace)  # back: the stored ranks are shown, and can change
    assert view.entry.ranks == [2, 1, 3, 5]
    keys(qtbot, view, K.Key_Down, K.Key_4, K.Key_Return)  # translation 2 -> 4
    (changed,) = rankings_of(project)
    assert changed.id == stored.id
    assert sorted(changed.ranks) == [2, 3, 4, 5] and project.judgment_count == 4

    qtbot.keyClick(window, K.Key_Z, Qt.KeyboardModifier.ControlModifier)  # the change is taken back
    assert sorted(rankings_of(project)[0].ranks) == [1, 2, 3, 5]
    qtbot.keyClick(window, K.Key_Z, Qt.KeyboardModifier.ControlModifier)  # and the ranking itself
    assert project.judgment_count == 0 and view.current_item().index == 0 and view.entry.ranks == [None] * 4
    qtbot.keyClick(window, K.Key_Y, Qt.KeyboardModifier.ControlModifier)  # redo: stored again
    assert rankings_of(project)[0].ranks == (2, 1, 3, 5) and view.progress.value() == 1


def test_clear_key_and_mouse_clicks(qtbot, ranking):
    view = ranking
    keys(qtbot, view, K.Key_3)
    keys(qtbot, view, K.Key_Up, K.Key_0)
    assert view.entry.ranks == [None] * 4
    qtbot.mouseClick(view.rows[2].buttons[1], Qt.MouseButton.LeftButton)
    assert view.entry.ranks[2] == 1 and view.hasFocus()


def test_texts_are_plain_never_markup(qtbot, window, ranking):
    view, project = ranking, window.session.project
    item = view.current_item()
    project.set_system_text(item.systems[0], item.segment, "<b>bold</b> &amp; <i>中文</i>")
    assert view.rows[0].text.text() == "<b>bold</b> &amp; <i>中文</i>"
    assert view.rows[0].text.textFormat() == Qt.TextFormat.PlainText
    assert view.reference.textFormat() == Qt.TextFormat.PlainText


def test_saved_and_reopened_the_queue_resumes(qtbot, window, ranking, tmp_path):
    view = ranking
    keys(qtbot, view, K.Key_1, K.Key_2, K.Key_3, K.Key_4, K.Key_Return)
    first = rankings_of(window.session.project)[0]
    path = tmp_path / "again.mtwb.json"
    save_bundle(window.session.project, path)
    reloaded = load_bundle(path)
    assert rankings_of(reloaded)[0].ranks == first.ranks
    assert reloaded.judge_queues["ann"].position == 1 and reloaded.judge_queues["ann"].protocol == "rank"


def test_an_ldc_queue_afterwards_gives_the_rate_tab_back(qtbot, window, ranking, monkeypatch):
    workspace = window.workspaces["Judge"]
    monkeypatch.setattr(queue_dialog, "ask_queue_config", lambda *args: QueueConfig(seed=1, repeat_share=0.0))
    qtbot.mouseClick(workspace.start_button, Qt.MouseButton.LeftButton)
    tabs = workspace.tabs
    assert tabs.currentWidget() is workspace.rating and not tabs.isTabVisible(tabs.indexOf(workspace.ranking))
    assert workspace.rating.judge == "ann" and workspace.ranking.judge is None
    window.session.undo_stack.undo()  # the ranking queue is back, and with it the Rank tab
    assert tabs.currentWidget() is workspace.ranking and workspace.ranking.queue is not None


def test_comment_by_c_then_enter_submits_with_it(qtbot, window, ranking):
    view = ranking
    keys(qtbot, view, K.Key_1, K.Key_1, K.Key_2, K.Key_2, K.Key_C)
    assert view.comment.hasFocus()
    qtbot.keyClicks(view.comment, "two pairs tie")
    qtbot.keyClick(view.comment, K.Key_Escape)
    assert view.hasFocus() and view.comment.text() == "two pairs tie"
    keys(qtbot, view, K.Key_Return)
    (stored,) = rankings_of(window.session.project)
    assert stored.comment == "two pairs tie" and sorted(stored.ranks) == [1, 1, 2, 2]
    assert view.comment.text() == "" and view.hasFocus()


def test_a_ranking_judgment_opened_from_the_table_shows_its_screen(qtbot, window, ranking):
    view, workspace, project = ranking, window.workspaces["Judge"], window.session.project
    first = view.current_item()
    keys(qtbot, view, K.Key_1, K.Key_2, K.Key_3, K.Key_4, K.Key_Return)
    assert view.current_item().index == 1
    judgment = next(j for j in project.judgments if j.system == first.systems[2])
    workspace.tabs.setCurrentWidget(workspace.judgments)
    workspace.judgments.judgment_activated.emit(judgment)
    assert workspace.tabs.currentWidget() is view and view.current_item().index == 0
    assert view.entry.ranks == [1, 2, 3, 4]
    keys(qtbot, view, K.Key_Right)
    workspace.show_item(first.systems[1], first.segment)  # from the sentence browser
    assert view.current_item().index == 0 and workspace.tabs.currentWidget() is view


def test_the_sources_around_the_item_stand_above_and_below_it(qtbot, window, ranking):
    """Document context: a ranking shows the document's sources before and after the item
    (with the source shown), as WMT's ranking screens did; the translations stay the item's."""
    view, workspace = ranking, window.workspaces["Judge"]
    qtbot.mouseClick(workspace.show_source, Qt.MouseButton.LeftButton)
    seen = {}
    for _ in range(3):
        item = view.current_item()
        at = int(item.segment[1:]) - 1
        seen[item.segment] = (view.context_before.isVisible(), view.context_before.text(),
                              view.context_after.isVisible(), view.context_after.text())
        assert view.source.text() == SOURCES[at]
        keys(qtbot, view, K.Key_Right)  # skip to the next item
    first, middle, last = seen["s1"], seen["s2"], seen["s3"]
    assert first[:2] == (False, "") and first[2] and SOURCES[1] in first[3] and SOURCES[2] in first[3]
    assert middle[0] and middle[1].endswith(SOURCES[0]) and middle[2] and middle[3].endswith(SOURCES[2])
    assert last[0] and SOURCES[0] in last[1] and SOURCES[1] in last[1] and last[2:] == (False, "")
