"""Languages in the main window: the status bar says once which script of the
project no installed font draws; the target language is editable (Edit > Target
language), undoably."""

from __future__ import annotations

from PySide6.QtGui import QFontDatabase

from mtworkbench.gui import script_fonts
from mtworkbench.gui.main_window import MainWindow
from tests.gui.metric_view_helpers import one_segment_project


def open_window(qtbot, project):
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    w.set_project(project, None)
    return w


def test_scripts_are_found_in_the_texts():
    found = script_fonts.scripts_in(["习近平访问了美国", "زار محمد", "Hello", "Привет"])
    assert set(found) == {"Chinese (Han)", "Arabic", "Cyrillic"}
    assert found["Chinese (Han)"][1].startswith("习近平")


def test_a_chinese_project_on_this_system(qtbot):
    # Whatever this machine has: the notice appears exactly when Qt lists no CJK family.
    w = open_window(qtbot, one_segment_project("习近平访问了美国。", ["习近平访问美国。"]))
    no_cjk = not QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)
    assert w.font_notice.isVisible() == no_cjk
    if no_cjk:
        text = w.font_notice.text()
        assert "Chinese (Han)" in text and "fonts-noto-cjk" in text
        assert text.count("Chinese (Han)") == 1


def test_notice_names_each_missing_script_once_and_clears(qtbot, monkeypatch):
    monkeypatch.setattr(script_fonts, "has_font", lambda script, sample: script.name != "Arabic")
    w = open_window(qtbot, one_segment_project("زار محمد القاهرة", ["زار محمد القاهرة أمس", "محمد"]))
    assert w.font_notice.isVisible()
    assert w.font_notice.text().count("Arabic") == 2  # the script, and the font to install
    assert w.font_notice.text().startswith("No installed font has Arabic characters")
    w.set_project(one_segment_project("a plain English line", ["another one"]), None)
    assert not w.font_notice.isVisible() and w.font_notice.text() == ""


def test_target_language_is_editable_undoably(qtbot, monkeypatch):
    from mtworkbench.gui import dialogs

    project = one_segment_project("习近平访问了美国。", ["习近平访问美国。"])
    project.target_language = "en"
    w = open_window(qtbot, project)
    heard = []
    project.subscribe(lambda event: heard.append(event.kind))
    monkeypatch.setattr(dialogs, "ask_target_language", lambda parent, current: ("zh", True))
    w.action_target_language.trigger()
    assert project.target_language == "zh" and "target_language_changed" in heard
    assert "Chinese" in w.statusBar().currentMessage()
    w.session.undo_stack.undo()
    assert project.target_language == "en"
    w.session.undo_stack.redo()
    assert project.target_language == "zh"
