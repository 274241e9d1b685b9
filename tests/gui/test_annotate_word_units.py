"""Word-wise caret movement uses the language's units (those selections snap to), and
punctuation at a selection's edges is left out unless placed character by character."""

from __future__ import annotations

from PySide6.QtCore import Qt

from mtworkbench.core.annotation import snap_to_words, word_stops
from tests.gui.annotate_helpers import click_at, drag_select, select_with_keys, type_key
from tests.gui.test_annotate_languages import ZH, layer, show, ws  # noqa: F401

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
ET = "Saabus ‘Külaline’, ja läks."


def test_ctrl_shift_right_in_chinese_moves_one_unit_at_a_time(qtbot, ws, screenshot_dir):  # noqa: F811
    show(ws, "zh", {"5": ZH})
    click_at(qtbot, ws.view, "5", 4)
    for _ in range(3):
        qtbot.keyClick(ws.view, Qt.Key.Key_Right, CTRL | SHIFT)
    assert ws.view.selection().start == 4 and ws.view.selection().end == 7  # 习近平, not the line
    ws.window().grab().save(str(screenshot_dir / "annotate-zh-word-keys.png"))
    type_key(qtbot, ws.view, "p")
    assert layer(ws) == [("5", 4, 7, "PERSON")]
    click_at(qtbot, ws.view, "5", 6)
    qtbot.keyClick(ws.view, Qt.Key.Key_Left, CTRL)
    assert ws.view.caret() == ("5", 5)  # one character back, not the start of the line


def test_ctrl_right_in_japanese_and_german(qtbot, ws):  # noqa: F811
    show(ws, "de", {"5": "Der Gast kam."})
    click_at(qtbot, ws.view, "5", 0)
    qtbot.keyClick(ws.view, Qt.Key.Key_Right, CTRL)
    assert ws.view.caret() == ("5", 4)
    assert word_stops("東京都に住む", "ja")[:2] == [0, word_stops("東京都に住む", "ja")[1]]
    assert word_stops(ZH, "zh")[:3] == [0, 1, 2]
    assert word_stops("Гость пришёл.", "ru") == [0, 6, 12, 13]
    assert word_stops("جاء الضيف.", "ar") == [0, 4, 9, 10]


def test_a_drag_over_quote_marks_tags_the_word_only(qtbot, ws):  # noqa: F811
    show(ws, "et", {"5": ET})
    start, end = ET.index("‘"), ET.index(",") + 1  # the quotes and the comma
    drag_select(ws.view, "5", start, end)
    type_key(qtbot, ws.view, "p")
    assert [(a, b) for _s, a, b, _t in layer(ws)] == [(ET.index("K"), ET.index("’"))]


def test_keys_placed_character_by_character_keep_the_quotes(qtbot, ws):  # noqa: F811
    show(ws, "et", {"5": ET})
    start = ET.index("‘")
    select_with_keys(qtbot, ws.view, "5", start, len("‘Külaline’"))
    type_key(qtbot, ws.view, "p")
    assert [(a, b) for _s, a, b, _t in layer(ws)] == [(start, start + len("‘Külaline’"))]


def test_trimming_rules():
    assert snap_to_words(ET, 7, 18, "et", trim_punctuation=True) == (8, 16)
    assert snap_to_words("«Гость»", 0, 7, "ru", trim_punctuation=True) == (1, 6)
    assert snap_to_words("「東京」", 0, 4, "ja", trim_punctuation=True) == (1, 3)
    assert snap_to_words("(الضيف)", 0, 7, "ar", trim_punctuation=True) == (1, 6)
    assert snap_to_words("the U.S. team", 4, 8, "en", trim_punctuation=True) == (4, 8)  # an abbreviation
    assert snap_to_words("a, b", 1, 2, "en", trim_punctuation=True) == (1, 2)  # only punctuation: kept
    assert snap_to_words(ET, 7, 18, "et") == (7, 18)  # character by character: as placed
