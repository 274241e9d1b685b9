"""The annotator name and the judge are remembered per project: each bundle opens with
the names last chosen for it, another bundle's choice does not follow it."""

from __future__ import annotations

import shutil

from PySide6.QtCore import Qt

from mtworkbench.gui.main_window import MainWindow
from mtworkbench.resources import demo_project_path


def choose(qtbot, window, annotator: str, judge: str) -> None:
    annotate = window.workspaces["Annotate"]
    window.tabs.setCurrentWidget(annotate)
    editor = annotate.annotator_box.lineEdit()
    qtbot.mouseClick(editor, Qt.MouseButton.LeftButton)
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(editor, annotator)
    judge_ws = window.workspaces["Judge"]
    window.tabs.setCurrentWidget(judge_ws)
    judge_ws.judge_combo.setFocus()
    qtbot.keyClicks(judge_ws.judge_combo, judge)
    if judge_ws.judge != judge:  # the combo's type-ahead resets between slow key presses: pick as a click would
        judge_ws.judge_combo.setCurrentIndex(judge_ws.judge_combo.findText(judge))
    assert judge_ws.judge == judge


def shown(window) -> tuple[str, str | None]:
    return window.workspaces["Annotate"].annotator_box.currentText(), window.workspaces["Judge"].judge


def test_names_follow_the_project(qtbot, tmp_path, screenshot_dir):
    a, b = tmp_path / "a.mtwb.json", tmp_path / "b.mtwb.json"
    shutil.copy(demo_project_path(), a)
    shutil.copy(demo_project_path(), b)
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    assert window.open_path(a)
    choose(qtbot, window, "annotator-1", "demo-judge-2")
    assert window.open_path(b)
    assert shown(window)[1] is None  # nobody judged b yet
    choose(qtbot, window, "bob", "demo-judge-1")
    assert window.open_path(a)
    assert shown(window) == ("annotator-1", "demo-judge-2")
    window.grab().save(str(screenshot_dir / "people-per-project.png"))
    # A new window (the app started again) remembers them too.
    again = MainWindow()
    qtbot.addWidget(again)
    assert again.open_path(b)
    assert shown(again) == ("bob", "demo-judge-1")
    assert again.open_path(a)
    assert shown(again) == ("annotator-1", "demo-judge-2")
