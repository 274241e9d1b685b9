"""BAD items in the Judge workspace: asked for in the real queue dialog, rated by keys
like any other item (nothing tells them apart), judged in the Agreement tab."""

from __future__ import annotations

import os

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from mtworkbench.core.judging import JudgeSession, apply_judgment
from mtworkbench.gui.judge.queue_dialog import QueueSetupDialog
from tests.gui.test_judge_rating import K, add_judge, fake_time, keys, plain, window, workspace  # noqa: F401

SHOTS = os.environ.get("MTWB_SHOTS", "/tmp")


def _fill_dialog(qtbot, seen: list) -> None:
    """Answer the modal queue dialog as a user would: DA, no repeats, 10% BAD."""
    dialog = QApplication.activeModalWidget()
    try:
        _answer(qtbot, dialog, seen)
    except BaseException as exc:  # a failed check must not leave the modal dialog waiting
        seen.append(exc)
        if dialog is not None:
            dialog.reject()


def _answer(qtbot, dialog, seen: list) -> None:
    assert isinstance(dialog, QueueSetupDialog)
    seen.append(dialog)
    assert not dialog.bad_rate.isEnabled()  # LDC first: no BAD items
    dialog.protocol.setFocus()
    dialog.protocol.setCurrentIndex(dialog.protocol.findData("da"))
    assert dialog.bad_rate.isEnabled()
    for box, text in ((dialog.repeats, "0"), (dialog.bad_rate, "10")):
        box.setFocus()
        box.selectAll()
        qtbot.keyClicks(box.lineEdit(), text)
        qtbot.keyClick(box, K.Key_Tab)
    seen.append(dialog.summary.text())
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)


def test_bad_items_from_the_dialog_rated_by_keys_and_judged_in_the_agreement_tab(
        qtbot, window, workspace, monkeypatch, fake_time):  # noqa: F811
    project = window.session.project
    add_judge(qtbot, workspace, monkeypatch, "ann")
    seen: list = []
    QTimer.singleShot(0, lambda: _fill_dialog(qtbot, seen))
    qtbot.mouseClick(workspace.start_button, Qt.MouseButton.LeftButton)
    assert not any(isinstance(s, BaseException) for s in seen), seen
    assert seen and seen[1] == "50 items to rate, plus 0 repeated and about 5 BAD (quality control)."
    state = project.judge_queues["ann"]
    assert (state.protocol, state.bad_rate, len(state.items)) == ("da", 0.1, 55)
    bad_at = [i for i, e in enumerate(state.items) if e.qc == "bad"]
    assert len(bad_at) == 5

    view = workspace.rating
    shown_bad = 0
    while view.current_item() is not None:
        item = view.current_item()
        # The rater sees the degraded text exactly where a translation goes, and nothing else differs.
        assert plain(view.candidate.text) == item.candidate
        assert "bad" not in view.position_label.text().lower() and "quality" not in view.position_label.text().lower()
        if item.qc:
            shown_bad += 1
            assert item.candidate != project.system_text(item.system, item.segment)
            if shown_bad == 1:
                window.grab().save(f"{SHOTS}/judge-da-bad-item.png")
        # A careful rater: the degraded copies get low scores.
        keys(qtbot, view, *((K.Key_1, K.Key_5) if item.qc else (K.Key_8, K.Key_0)), K.Key_Return)
    assert shown_bad == 5
    mine = [j for j in project.judgments if j.judge == "ann"]
    assert len(mine) == 55 and sorted(j.score for j in mine if j.qc == "bad") == [15.0] * 5
    assert {j.text for j in mine if j.qc} == {state.items[i].text for i in bad_at}

    # Opening an item from elsewhere (the sentence browser) shows its original, never its BAD copy.
    bad_item = state.items[bad_at[0]]
    workspace.show_item(bad_item.system, bad_item.segment)
    shown = view.current_item()
    assert (shown.system, shown.segment, shown.qc) == (bad_item.system, bad_item.segment, "")

    # A second rater who does not notice: every item alike.
    project.add_judge("bob")
    bob = JudgeSession.start(project, "bob", JudgeSession(project, "ann").config)
    while not bob.finished:
        apply_judgment(project, bob.submit_scored(60))

    workspace.tabs.setCurrentWidget(workspace.agreement)
    panel = workspace.agreement
    panel.refresh()
    qtbot.waitUntil(lambda: not panel.span_table.isVisible())  # no span protocol here: that table goes
    QApplication.processEvents()
    assert panel.qc_table.isVisible()
    rows = {c.rater: c for c in panel.qc_model.rows}
    assert (rows["ann"].n_pairs, rows["ann"].passed, rows["ann"].mean_bad, rows["ann"].mean_original) == (5, True, 15.0, 80.0)
    assert rows["bob"].passed is False
    model = panel.qc_model
    cells = [[model.data(model.index(r, c)) for c in range(model.columnCount())] for r in range(model.rowCount())]
    assert cells[0] == ["ann", "5", "5", "80.0", "15.0", "0.031", "pass"]
    assert cells[1][0] == "bob" and cells[1][-1] == "FAIL"
    # BAD ratings are not agreement data: ann and bob share 50 items, not 55.
    pair = panel.report.pair("ann", "bob")
    assert pair is not None and pair.n == 50
    window.grab().save(f"{SHOTS}/judge-agreement-qc.png")


def test_an_esa_bad_item_is_marked_in_the_text_shown(qtbot, window, workspace, monkeypatch, fake_time):  # noqa: F811
    from mtworkbench.core.judging import QueueConfig
    from tests.gui.test_judge_rating import start_queue

    add_judge(qtbot, workspace, monkeypatch, "ann")
    start_queue(qtbot, workspace, monkeypatch, QueueConfig(seed=3, repeat_share=0.0, protocol="esa", bad_rate=0.2))
    view = workspace.rating
    panel = view.protocol_panel
    while not view.current_item().qc:  # ordinary items: no spans, score 90
        keys(qtbot, view, K.Key_9, K.Key_0, K.Key_Return)
    item = view.current_item()
    assert panel.translation.toPlainText() == item.candidate  # the degraded text, in the span editor
    keys(qtbot, view, K.Key_End)
    for _ in range(4):
        qtbot.keyClick(view, K.Key_Left, Qt.KeyboardModifier.ShiftModifier)
    keys(qtbot, view, K.Key_2, K.Key_3, K.Key_0, K.Key_Return)  # a major span at the end, score 30
    j = next(j for j in window.session.project.judgments if j.qc)
    n = len(item.candidate)
    assert (j.qc, j.text, j.score, [(e.start, e.end, e.severity) for e in j.errors]) == (
        "bad", item.candidate, 30.0, [(n - 4, n, "major")])
