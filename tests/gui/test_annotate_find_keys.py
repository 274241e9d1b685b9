"""The find bar's access keys are its own (none a menu's or another control's), so Alt+key
presses its button; Escape closes the bar wherever its focus is."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractButton, QLabel

from tests.gui.test_annotate_editor import layer, window, ws  # noqa: F401


def open_bar(qtbot, ws, needle):  # noqa: F811
    ws.session.set_current_segment("1")
    ws.view.setFocus()
    qtbot.keyClick(ws.view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(ws.find_bar.needle, needle)
    return ws.find_bar


def test_access_keys_with_the_find_bar_open_are_unique_and_not_the_menus(qtbot, window, ws, screenshot_dir):  # noqa: F811
    open_bar(qtbot, ws, "Estonia")
    shown = [w for w in ws.findChildren(QAbstractButton) + ws.findChildren(QLabel) if w.isVisible() and "&" in w.text()]
    keys = [QKeySequence.mnemonic(w.text()).toString() for w in shown]
    keys = [k for k in keys if k]
    assert len(keys) == len(set(keys)), keys
    menus = {QKeySequence.mnemonic(a.text()).toString() for a in window.menuBar().actions()}
    assert not menus & set(keys), sorted(menus & set(keys))
    # (The offscreen platform does not deliver Alt+letter to mnemonics: the keys are checked
    # as Qt parses them. A key shared with a menu is ambiguous, and Qt then only focuses the button.)
    assert QKeySequence.mnemonic(ws.find_bar.annotate_all.text()).toString() == "Alt+T"
    window.grab().save(str(screenshot_dir / "annotate-find-bar.png"))


def test_escape_on_the_button_closes_the_find_bar(qtbot, ws):  # noqa: F811
    bar = open_bar(qtbot, ws, "Estonia")
    for control in (bar.annotate_all, bar.whole_words, bar.type):
        bar.open()
        control.setFocus()
        qtbot.keyClick(control, Qt.Key.Key_Escape)
        assert not bar.isVisible(), control.objectName() or control.text()
        assert ws.view.hasFocus()  # back to the text
