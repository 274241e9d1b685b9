"""The Agreement scatter labels each axis with what it is: imported DA z-scores set
against 1-5 adequacy get their own axes and no "perfect agreement" diagonal."""

from __future__ import annotations

from PySide6.QtCore import Qt

from mtworkbench.gui.main_window import MainWindow
from tests.gui.test_trial import click_tab, open_workspace, shot


def axis_text(scatter, name):
    return scatter.getPlotItem().getAxis(name).labelText


def test_unlike_scales_get_their_own_axes(qtbot, demo_copy, screenshot_dir):
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    assert window.open_path(demo_copy)
    judge = open_workspace(qtbot, window, "Judge")
    click_tab(qtbot, judge.tabs, judge.agreement)
    panel = judge.agreement
    qtbot.waitUntil(lambda: panel.report is not None and panel.pairs_model.rowCount() >= 2)
    rows = {r.judges: k for k, r in enumerate(panel.pairs_model.rows)}
    # Two 1-5 judges: one scale, the diagonal is drawn.
    like = rows[("demo-judge-1", "demo-judge-2")]
    index = panel.pairs_model.index(like, 0)
    qtbot.mouseClick(panel.pairs.viewport(), Qt.MouseButton.LeftButton, pos=panel.pairs.visualRect(index).center())
    assert panel.scatter.diagonal.isVisible()
    assert axis_text(panel.scatter, "bottom") == "demo-judge-1: Adequacy (1–5)"
    # The imported DA z-scores against a judge's adequacy: labelled truly, no diagonal.
    unlike = next(k for judges, k in rows.items() if "da" in judges and "demo-judge-1" in judges)
    index = panel.pairs_model.index(unlike, 0)
    qtbot.mouseClick(panel.pairs.viewport(), Qt.MouseButton.LeftButton, pos=panel.pairs.visualRect(index).center())
    labels = {axis_text(panel.scatter, "bottom"), axis_text(panel.scatter, "left")}
    assert labels == {"da: score (da-z)", "demo-judge-1: Adequacy (1–5)"}
    assert not panel.scatter.diagonal.isVisible()
    assert "unlike scales" in panel.scatter.getPlotItem().titleLabel.text
    shot(window, screenshot_dir, "agreement-unlike-scales")
