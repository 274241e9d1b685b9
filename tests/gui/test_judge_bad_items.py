"""BAD items in the Judge workspace: asked for in the real queue dialog, rated by keys
like any other item (nothing tells them apart), judged in the Agreement tab."""

from __future__ import annotations

import os
from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox
from scipy import stats

from mtworkbench.core.judging import JudgeSession, apply_judgment
from mtworkbench.gui.judge.pair_scatter import JITTER
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
        # A careful rater: the degraded copies get low scores, the others their quality.
        typed = "15" if item.qc else str(ann_score(item.segment))
        keys(qtbot, view, *(getattr(K, f"Key_{digit}") for digit in typed), K.Key_Return)
    assert shown_bad == 5
    mine = [j for j in project.judgments if j.judge == "ann"]
    assert len(mine) == 55 and sorted(j.score for j in mine if j.qc == "bad") == [15.0] * 5
    assert {j.text for j in mine if j.qc} == {state.items[i].text for i in bad_at}

    # Opening an item from elsewhere (the sentence browser) shows its original, never its BAD copy.
    bad_item = state.items[bad_at[0]]
    workspace.show_item(bad_item.system, bad_item.segment)
    shown = view.current_item()
    assert (shown.system, shown.segment, shown.qc) == (bad_item.system, bad_item.segment, "")

    # A second rater who does not notice: a BAD copy scored like its original. Bob's queue
    # repeats a fifth of his items; his second look is 4 points kinder.
    project.add_judge("bob")
    bob = JudgeSession.start(project, "bob", replace(JudgeSession(project, "ann").config, repeat_share=0.2))
    while not bob.finished:
        item = bob.current
        apply_judgment(project, bob.submit_scored(bob_score(item.segment) + (4 if item.repeat else 0)))

    workspace.tabs.setCurrentWidget(workspace.agreement)
    panel = workspace.agreement
    panel.refresh()
    qtbot.waitUntil(lambda: not panel.span_table.isVisible())  # no span protocol here: that table goes
    QApplication.processEvents()
    assert panel.qc_table.isVisible()
    rows = {c.rater: c for c in panel.qc_model.rows}
    originals = np.mean([ann_score(state.items[i].segment) for i in bad_at])
    assert (rows["ann"].n_pairs, rows["ann"].passed, rows["ann"].mean_bad) == (5, True, 15.0)
    assert rows["ann"].mean_original == pytest.approx(originals)
    assert rows["bob"].passed is False
    model = panel.qc_model
    cells = [[model.data(model.index(r, c)) for c in range(model.columnCount())] for r in range(model.rowCount())]
    assert cells[0] == ["ann", "5", "5", f"{originals:.1f}", "15.0", "0.031", "pass"]
    assert cells[1][0] == "bob" and cells[1][-1] == "FAIL"

    # Between judges: the DA section only (no empty adequacy/fluency columns), BAD ratings
    # left out (ann and bob share 50 items, not 55), scores compared as the user sees them.
    assert [panel.protocol.itemData(k) for k in range(panel.protocol.count())] == ["da"]
    assert [panel.quantity.itemText(k) for k in range(panel.quantity.count())] == ["DA score"]
    headers = [panel.pairs_model.headerData(c, Qt.Orientation.Horizontal) for c in range(panel.pairs_model.columnCount())]
    assert not any("Adequacy" in h or "Fluency" in h for h in headers)
    segments = [str(k) for k in range(1, 51)]
    a = np.array([ann_score(s) for s in segments], dtype=float)
    b = np.array([bob_score(s) for s in segments], dtype=float)
    pair = panel.pairs_model
    assert [pair.data(pair.index(0, c)) for c in range(pair.columnCount())] == [
        "ann  ×  bob", "50", f"{stats.pearsonr(a, b).statistic:.3f}", f"{stats.spearmanr(a, b).statistic:.3f}",
        f"{np.mean(np.abs(a - b)):.2f}"]
    # Each judge against themselves: bob's 10 repeats, each 4 points above his first score.
    intra = panel.intra_model
    assert [intra.data(intra.index(0, c)) for c in range(intra.columnCount())] == ["bob", "10", "4.00", "1.000", "1.000"]
    # The scatter plots the 50 shared items, within the jitter of both raters' scores.
    scatter = panel.scatter
    order = [int(s) - 1 for _system, s in panel.selected_pair().paired.items]
    assert len(scatter.x) == 50
    assert np.all(np.abs(scatter.x - a[order]) <= JITTER) and np.all(np.abs(scatter.y - b[order]) <= JITTER)
    assert "50 items" in scatter.getPlotItem().titleLabel.text
    window.grab().save(f"{SHOTS}/judge-agreement-qc.png")


def ann_score(segment: str) -> int:
    """ann's DA score of a segment: spread over 30-90."""
    return 30 + (int(segment) * 37) % 61


def bob_score(segment: str) -> int:
    """bob's: ann's give or take 10 points."""
    return ann_score(segment) - 10 + (int(segment) * 7) % 21


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
