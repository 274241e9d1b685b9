"""The MQM typology editor and the category picker, driven by clicks and keys."""

from __future__ import annotations

import json
import os

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QApplication

from mtworkbench.core.judging import QueueConfig
from mtworkbench.core.model import ErrorSpan, Judgment
from mtworkbench.core.mqm_typology import GOOGLE_TYPOLOGY
from mtworkbench.gui.judge import typology_dialog
from mtworkbench.gui.judge.protocol_rating import CategoryPicker
from mtworkbench.gui.judge.queue_dialog import QueueSetupDialog
from mtworkbench.gui.judge.typology_dialog import TypologyDialog
from mtworkbench.gui.session import ProjectSession
from tests.core.test_mqm_typology import project_with_errors
from tests.gui.test_judge_protocols import rate  # noqa: F401
from tests.gui.test_judge_rating import K, add_judge, fake_time, keys, start_queue, window, workspace  # noqa: F401

SHOTS = os.environ.get("MTWB_SHOTS", "/tmp")


@pytest.fixture
def session(qtbot):
    s = ProjectSession()
    s.replace_project(project_with_errors(), None)
    return s


@pytest.fixture
def dialog(qtbot, session):
    d = TypologyDialog(session)
    qtbot.addWidget(d)
    d.show()
    qtbot.waitExposed(d)
    yield d
    d.close()  # stops following the session before the session goes


def item_named(dialog, full):
    tree = dialog.tree
    for i in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(i)
        if top.data(0, Qt.ItemDataRole.UserRole) == full:
            return top
        for k in range(top.childCount()):
            if top.child(k).data(0, Qt.ItemDataRole.UserRole) == full:
                return top.child(k)
    raise AssertionError(f"{full} not shown")


def click_item(qtbot, dialog, full, column=0):
    item = item_named(dialog, full)
    dialog.tree.scrollToItem(item)
    rect = dialog.tree.visualItemRect(item)
    depth = 2 if item.parent() is not None else 1  # past the branch arrow, on the text
    x = sum(dialog.tree.columnWidth(c) for c in range(column)) + (12 if column else dialog.tree.indentation() * depth + 12)
    qtbot.mouseClick(dialog.tree.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, rect.center().y()))
    assert dialog.selected() == full


def edit_current(qtbot, dialog, text):
    qtbot.keyClick(dialog.tree, K.Key_F2)
    editor = QApplication.focusWidget()
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, K.Key_Return)


def categories(session):
    return [e.category for j in sorted(session.project.judgments, key=lambda j: j.id) for e in j.errors]


def test_rename_a_used_subcategory_renames_the_errors_and_undoes(qtbot, session, dialog):
    assert item_named(dialog, "Fluency/Grammar").text(2) == "2" and item_named(dialog, "Fluency").text(2) == "2"
    click_item(qtbot, dialog, "Fluency/Grammar")
    edit_current(qtbot, dialog, "Syntax")
    qtbot.waitUntil(lambda: "Fluency/Syntax" in session.project.settings.mqm_typology)
    assert categories(session) == ["Fluency/Syntax", "Accuracy/Mistranslation", "Fluency/Syntax"]
    assert "2 errors in 2 judgments renamed too" in dialog.message.text()
    assert dialog.selected() == "Fluency/Syntax"
    qtbot.mouseClick(dialog.undo_button, Qt.MouseButton.LeftButton)
    assert categories(session) == ["Fluency/Grammar", "Accuracy/Mistranslation", "Fluency/Grammar"]
    assert session.project.settings.mqm_typology == GOOGLE_TYPOLOGY
    qtbot.mouseClick(dialog.redo_button, Qt.MouseButton.LeftButton)
    assert categories(session)[0] == "Fluency/Syntax"


def test_rename_to_a_taken_name_is_refused_with_a_message(qtbot, session, dialog):
    click_item(qtbot, dialog, "Fluency/Grammar")
    edit_current(qtbot, dialog, "Spelling")
    qtbot.waitUntil(lambda: "Not changed" in dialog.message.text())
    assert "subcategory 'Spelling' already" in dialog.message.text()
    assert session.project.settings.mqm_typology == GOOGLE_TYPOLOGY
    assert item_named(dialog, "Fluency/Grammar").text(0) == "Grammar"  # the tree shows what is stored


def test_add_category_subcategory_key_move_and_remove(qtbot, session, dialog):
    qtbot.mouseClick(dialog.add_category_button, Qt.MouseButton.LeftButton)
    editor = QApplication.focusWidget()
    editor.selectAll()
    qtbot.keyClicks(editor, "Design")
    qtbot.keyClick(editor, K.Key_Return)
    qtbot.waitUntil(lambda: "Design" in session.project.settings.mqm_typology)
    assert session.project.settings.mqm_typology.categories[-1].key == "e"  # the new row's key stays (N is taken)
    click_item(qtbot, dialog, "Design")
    qtbot.keyClick(dialog.tree, K.Key_Insert)  # a subcategory of the selected category
    editor = QApplication.focusWidget()
    editor.selectAll()
    qtbot.keyClicks(editor, "Layout")
    qtbot.keyClick(editor, K.Key_Return)
    qtbot.waitUntil(lambda: "Design/Layout" in session.project.settings.mqm_typology)
    click_item(qtbot, dialog, "Design/Layout", column=1)
    edit_current(qtbot, dialog, "y")
    qtbot.waitUntil(lambda: session.project.settings.mqm_typology.categories[-1].subcategories[0].key == "y")
    assert item_named(dialog, "Design/Layout").text(1) == "Y"
    click_item(qtbot, dialog, "Design")
    qtbot.keyClick(dialog.tree, K.Key_Up, Qt.KeyboardModifier.ControlModifier)
    assert [c.name for c in session.project.settings.mqm_typology.categories][-2:] == ["Design", "Non-translation"]
    qtbot.mouseClick(dialog.up_button, Qt.MouseButton.LeftButton)
    assert [c.name for c in session.project.settings.mqm_typology.categories][-3] == "Design"
    # A key another category has is refused.
    click_item(qtbot, dialog, "Design", column=1)
    edit_current(qtbot, dialog, "a")
    qtbot.waitUntil(lambda: "taken by 'Accuracy'" in dialog.message.text())
    # Removing: a used category is refused, an unused one goes (and comes back with undo).
    click_item(qtbot, dialog, "Fluency")
    qtbot.keyClick(dialog.tree, K.Key_Delete)
    assert "cannot remove 'Fluency': 2 errors" in dialog.message.text()
    assert "Fluency" in session.project.settings.mqm_typology
    click_item(qtbot, dialog, "Design")
    qtbot.mouseClick(dialog.remove_button, Qt.MouseButton.LeftButton)
    assert "Design" not in session.project.settings.mqm_typology
    qtbot.mouseClick(dialog.undo_button, Qt.MouseButton.LeftButton)
    assert "Design/Layout" in session.project.settings.mqm_typology


def test_reset_import_export_and_max_errors(qtbot, session, dialog, tmp_path, monkeypatch):
    click_item(qtbot, dialog, "Style/Awkward")
    qtbot.keyClick(dialog.tree, K.Key_Delete)
    assert "Style/Awkward" not in session.project.settings.mqm_typology
    out = tmp_path / "t.json"
    monkeypatch.setattr(typology_dialog, "ask_save_path", lambda parent: str(out))
    qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    data = json.loads(out.read_text("utf-8"))
    assert [c["name"] for c in data["categories"]][:4] == ["Accuracy", "Fluency", "Terminology", "Style"]
    qtbot.mouseClick(dialog.reset_button, Qt.MouseButton.LeftButton)
    assert session.project.settings.mqm_typology == GOOGLE_TYPOLOGY
    data["categories"] = [{"name": "Adequacy", "key": "a", "subcategories": [{"name": "Wrong", "key": "w"}]}]
    out.write_text(json.dumps(data), "utf-8")
    monkeypatch.setattr(typology_dialog, "ask_open_path", lambda parent: str(out))
    qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert session.project.settings.mqm_typology.names() == (
        "Adequacy", "Adequacy/Wrong", "Fluency", "Fluency/Grammar", "Accuracy", "Accuracy/Mistranslation")
    assert "kept 2 categories in use" in dialog.message.text()
    out.write_text('{"categories": [{"name": "A", "key": "!"}]}', "utf-8")
    qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert "$.categories[0].key" in dialog.message.text() and "Not changed" in dialog.message.text()
    dialog.max_errors.setFocus()
    dialog.max_errors.selectAll()
    qtbot.keyClicks(dialog.max_errors, "3")
    assert session.project.settings.mqm_max_errors == 3
    session.undo_stack.undo()
    assert session.project.settings.mqm_max_errors == 5 and dialog.max_errors.value() == 5
    queue = QueueSetupDialog(session.project, "r1")
    qtbot.addWidget(queue)
    session.undo_stack.redo()
    assert QueueSetupDialog(session.project, "r1").max_errors.value() == 3  # new queues start from the project's


def test_screenshot_of_the_editor(qtbot, session, dialog):
    click_item(qtbot, dialog, "Fluency/Grammar")
    edit_current(qtbot, dialog, "Syntax")
    qtbot.waitUntil(lambda: "renamed too" in dialog.message.text())
    dialog.resize(1280, 800)
    dialog.grab().save(f"{SHOTS}/mqm-typology-editor.png")


# --- the picker ----------------------------------------------------------------------------------
def test_picker_by_keys_narrows_then_picks(qtbot):
    picker = CategoryPicker(GOOGLE_TYPOLOGY)
    qtbot.addWidget(picker)
    picker.show()
    picker.tree.setFocus()
    qtbot.keyClick(picker.tree, K.Key_F)
    assert picker.visible_names()[0] == "Fluency" and len(picker.visible_names()) == 7
    assert "Fluency: a subcategory's key" in picker.keys_label.text()
    qtbot.keyClick(picker.tree, K.Key_Z)
    assert "No category has the key 'Z'" in picker.keys_label.text() and picker.chosen is None
    qtbot.keyClick(picker.tree, K.Key_Backspace)
    assert len(picker.visible_names()) == len(GOOGLE_TYPOLOGY.names())
    qtbot.keyClicks(picker.tree, "fg")
    assert picker.chosen == "Fluency/Grammar" and picker.result() == picker.DialogCode.Accepted


def test_picker_leaf_category_and_parent_by_enter_and_search(qtbot):
    picker = CategoryPicker(GOOGLE_TYPOLOGY)
    qtbot.addWidget(picker)
    picker.show()
    qtbot.keyClicks(picker.tree, "o")
    assert picker.chosen == "Other"
    picker = CategoryPicker(GOOGLE_TYPOLOGY)
    qtbot.addWidget(picker)
    picker.show()
    qtbot.keyClicks(picker.tree, "a")
    qtbot.keyClick(picker.tree, K.Key_Return)
    assert picker.chosen == "Accuracy"


def test_picker_slash_searches_by_name(qtbot):
    picker = CategoryPicker(GOOGLE_TYPOLOGY)
    qtbot.addWidget(picker)
    picker.show()
    qtbot.waitExposed(picker)
    picker.tree.setFocus()
    qtbot.keyClick(picker.tree, K.Key_Slash)
    assert picker.focusWidget() is picker.filter  # (the window may not be the active one under test)
    qtbot.keyClicks(picker.filter, "date")
    assert picker.visible_names() == ["Locale convention", "Locale convention/Date format"]
    qtbot.keyClick(picker.filter, K.Key_Return)
    assert picker.chosen == "Locale convention/Date format"


def test_rating_picks_from_the_projects_typology_by_keys(qtbot, window, rate):  # noqa: F811
    from mtworkbench.core.typology_edits import plan_edit
    from mtworkbench.gui.judge.typology_dialog import TypologyChangeCommand

    project = window.session.project
    custom = GOOGLE_TYPOLOGY.add("Design").add("Layout", parent="Design", key="y")
    window.session.push(TypologyChangeCommand(project, plan_edit(project, custom, "custom")))
    view = rate(QueueConfig(seed=7, repeat_share=0.0, protocol="mqm", max_errors=2))
    panel = view.protocol_panel
    shots = []

    def answer(*typed):
        def act():
            picker = QApplication.activeModalWidget()
            assert isinstance(picker, CategoryPicker)
            assert "Design/Layout" in picker.typology
            if not shots:
                window.grab()  # lays out the window before the composite below
                shot = window.grab()
                # Offscreen, a dialog is its own surface: draw it over the window where it sits, framed.
                at = window.mapFromGlobal(picker.mapToGlobal(QPoint(0, 0)))
                painter = QPainter(shot)
                painter.drawPixmap(at, picker.grab())
                painter.setPen(QColor("#52525b"))
                painter.drawRect(at.x() - 1, at.y() - 1, picker.width() + 1, picker.height() + 1)
                painter.end()
                shot.save(f"{SHOTS}/judge-mqm-category-picker.png")
                shots.append(shot)
            for char in typed:
                qtbot.keyClick(picker.tree, char)
        QTimer.singleShot(50, act)

    keys(qtbot, view, K.Key_Home)
    for _ in range(2):
        qtbot.keyClick(view, K.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    answer("d", "y")
    keys(qtbot, view, K.Key_2)
    qtbot.waitUntil(lambda: len(panel.spans) == 1)
    for _ in range(2):
        qtbot.keyClick(view, K.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    answer("a", "m")
    keys(qtbot, view, K.Key_1)
    qtbot.waitUntil(lambda: len(panel.spans) == 2)
    assert [(s.severity, s.category) for s in panel.spans] == [("Major", "Design/Layout"), ("Minor", "Accuracy/Mistranslation")]
    qtbot.keyClick(view, K.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    keys(qtbot, view, K.Key_3)  # a third: refused, said in red
    assert len(panel.spans) == 2 and "At most 2 errors" in panel.spans_label.text()
    assert "#b91c1c" in panel.spans_label.styleSheet()
    assert shots, "the picker was not shown"


def test_non_translation_uses_the_typologys_spelling(qtbot):
    from PySide6.QtGui import QKeyEvent

    from mtworkbench.core.mqm_typology import Typology, TypologyCategory
    from mtworkbench.gui.judge.protocol_rating import ProtocolPanel

    class Holder:  # what the panel reads: the project's settings
        class settings:  # noqa: N801
            mqm_typology = Typology((TypologyCategory("Accuracy", "a"), TypologyCategory("Non-translation!", "n")))

    panel = ProtocolPanel()
    qtbot.addWidget(panel)
    panel.protocol, panel.project = "mqm", Holder()
    panel.translation.setPlainText("Hallo Welt")
    assert panel.handle_key(QKeyEvent(QKeyEvent.Type.KeyPress, K.Key_N, Qt.KeyboardModifier.NoModifier))
    assert [(s.start, s.end, s.severity, s.category) for s in panel.spans] == [(0, 10, "Major", "Non-translation!")]


def test_edit_menu_opens_the_editor_and_its_edits_undo_from_the_window(qtbot, window):  # noqa: F811
    project = window.session.project
    seen = []

    def in_dialog():
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, TypologyDialog)
        seen.append(dialog.tree.topLevelItemCount())
        click_item(qtbot, dialog, "Other")
        qtbot.mouseClick(dialog.remove_button, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(dialog.findChild(type(dialog.undo_button), "typology-close"), Qt.MouseButton.LeftButton)

    edit_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Edit")
    assert window.action_typology in edit_menu.actions()
    QTimer.singleShot(50, in_dialog)
    window.action_typology.trigger()
    assert seen == [len(GOOGLE_TYPOLOGY.categories)]
    assert "Other" not in project.settings.mqm_typology and window.session.is_modified
    assert window.action_undo.text().endswith("Remove MQM category Other")
    window.raise_()
    window.activateWindow()  # offscreen, the closed dialog does not hand activation back by itself
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.keyClick(window, K.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert project.settings.mqm_typology == GOOGLE_TYPOLOGY


def test_categories_used_but_not_in_the_typology_are_offered(qtbot, session):
    project = session.project
    project.add_judgment(Judgment("j3", "r1", "S", "b", protocol="mqm", errors=(ErrorSpan(0, 2, "Minor", "Fluency/Display"),)))
    dialog = TypologyDialog(session)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.missing.text() == "Used by errors but not in the typology: Fluency/Display"
    assert dialog.add_missing_button.isVisible()
    qtbot.mouseClick(dialog.add_missing_button, Qt.MouseButton.LeftButton)
    assert "Fluency/Display" in project.settings.mqm_typology
    assert not dialog.add_missing_button.isVisible() and item_named(dialog, "Fluency/Display").text(2) == "1"
    qtbot.mouseClick(dialog.undo_button, Qt.MouseButton.LeftButton)
    assert dialog.add_missing_button.isVisible() and project.settings.mqm_typology == GOOGLE_TYPOLOGY
    dialog.close()
