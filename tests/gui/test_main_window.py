"""The app shell driven like a user: clicks, keys, menus, save, reopen, recovery."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from mtworkbench.gui import dialogs
from mtworkbench.gui.main_window import AUTOSAVE_MS, MainWindow, recovery_path
from mtworkbench.io.bundle.bundle import load_bundle


def click_segment(qtbot, window, segment_id):
    index = window.navigator_model.segment_index(segment_id)
    window.navigator.scrollTo(index)
    rect = window.navigator.visualRect(index)
    qtbot.mouseClick(window.navigator.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.session.current_segment == segment_id


def edit_reference(qtbot, window, ref_id, text):
    button = window.segment_panel.edit_buttons[("reference", ref_id)]
    qtbot.waitUntil(button.isVisible)  # widgets of a new project show on the next event loop turn
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    editor = window.segment_panel.rows[("reference", ref_id)].editor
    assert editor.isVisible()
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)


def shown_reference(window, ref_id):
    return window.segment_panel.rows[("reference", ref_id)].label.text()


def test_edit_undo_redo_save_reopen(qtbot, window, legacy_demo_copy):
    assert window.open_path(legacy_demo_copy)
    assert window.windowTitle() == "demo.mtwb.json[*] — mtworkbench"
    window.navigator.expandAll()
    click_segment(qtbot, window, "3")
    original = shown_reference(window, "ref-1")
    edit_reference(qtbot, window, "ref-1", "A corrected reference.")
    assert shown_reference(window, "ref-1") == "A corrected reference."
    assert window.isWindowModified()

    window.activateWindow()
    window.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert shown_reference(window, "ref-1") == original
    assert not window.isWindowModified()
    qtbot.keyClick(window, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert shown_reference(window, "ref-1") == "A corrected reference."

    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert not window.isWindowModified()
    assert (legacy_demo_copy.parent / "demo.mtwb.json.bak").exists()
    assert load_bundle(legacy_demo_copy).reference_text("ref-1", "3") == "A corrected reference."

    other = MainWindow()
    qtbot.addWidget(other)
    assert other.open_path(legacy_demo_copy)
    other.session.set_current_segment("3")
    assert shown_reference(other, "ref-1") == "A corrected reference."
    assert str(legacy_demo_copy.resolve()) == other.recent_files()[0]


def test_escape_cancels_an_edit(qtbot, window, legacy_demo_copy):
    window.open_path(legacy_demo_copy)
    before = shown_reference(window, "ref-2")
    button = window.segment_panel.edit_buttons[("reference", "ref-2")]
    qtbot.waitUntil(button.isVisible)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    editor = window.segment_panel.rows[("reference", "ref-2")].editor
    qtbot.keyClicks(editor, "junk")
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert shown_reference(window, "ref-2") == before
    assert window.session.undo_stack.count() == 0


def test_close_with_unsaved_changes_asks(qtbot, window, legacy_demo_copy, monkeypatch):
    window.open_path(legacy_demo_copy)
    edit_reference(qtbot, window, "ref-1", "changed")
    answers = iter(["cancel", "discard"])
    asked = []
    monkeypatch.setattr(dialogs, "ask_save_changes", lambda parent: asked.append(1) or next(answers))
    assert not window.close()
    assert window.isVisible() and len(asked) == 1
    assert window.close()
    assert len(asked) == 2
    assert load_bundle(legacy_demo_copy).reference_text("ref-1", "1") != "changed"


def test_autosave_and_recovery_after_a_crash(qtbot, window, legacy_demo_copy, monkeypatch):
    assert window.autosave_timer.interval() == AUTOSAVE_MS == 120_000
    window.open_path(legacy_demo_copy)
    edit_reference(qtbot, window, "ref-1", "unsaved work")
    window.autosave_timer.timeout.emit()  # two minutes later
    recovery = recovery_path(legacy_demo_copy)
    assert recovery.exists()
    assert json.loads(recovery.read_text(encoding="utf-8"))["references"][0]["texts"]["1"] == "unsaved work"
    assert load_bundle(legacy_demo_copy).reference_text("ref-1", "1") != "unsaved work"

    # The app "crashes" (no close); a new one offers the recovery copy.
    offered = []
    monkeypatch.setattr(dialogs, "ask_recover", lambda parent, offer: offered.append(offer.recovery) or True)
    again = MainWindow()
    qtbot.addWidget(again)
    assert again.open_path(legacy_demo_copy)
    assert offered == [recovery]
    assert again.session.project.reference_text("ref-1", "1") == "unsaved work"
    assert again.isWindowModified()
    again.save()
    assert not recovery.exists()
    assert load_bundle(legacy_demo_copy).reference_text("ref-1", "1") == "unsaved work"


def test_declined_recovery_is_discarded(qtbot, window, legacy_demo_copy, monkeypatch):
    window.open_path(legacy_demo_copy)
    edit_reference(qtbot, window, "ref-1", "unsaved work")
    window.autosave()
    monkeypatch.setattr(dialogs, "ask_recover", lambda *a: False)
    again = MainWindow()
    qtbot.addWidget(again)
    again.open_path(legacy_demo_copy)
    assert again.session.project.reference_text("ref-1", "1") != "unsaved work"
    assert not recovery_path(legacy_demo_copy).exists()


def test_broken_bundle_shows_a_message_not_a_traceback(qtbot, window, tmp_path, monkeypatch):
    bad = tmp_path / "broken.mtwb.json"
    data = json.loads(load_bundle_text())
    data["judgments"] = [{"id": "j", "judge": "nobody", "system": "mt", "segment": "1", "adequacy": 3}]
    bad.write_text(json.dumps(data), encoding="utf-8")
    shown = []
    monkeypatch.setattr(dialogs, "error", lambda parent, title, message: shown.append((title, message)))
    assert not window.open_path(bad)
    assert shown and shown[0][0] == "Cannot open project"
    assert "$.judgments[0].judge: unknown judge 'nobody'" in shown[0][1]
    assert window.session.project.segments == []  # nothing half-loaded


def load_bundle_text():
    from mtworkbench.resources import demo_project_path

    return demo_project_path().read_text(encoding="utf-8")


def test_new_project_from_files_dialog(qtbot, tmp_path):
    (tmp_path / "src.txt").write_text("Tere\nHead aega\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("Hello\nGoodbye\n", encoding="utf-8")
    (tmp_path / "mt.txt").write_text("Hi\nBye\n", encoding="utf-8")
    dialog = dialogs.NewProjectDialog()
    qtbot.addWidget(dialog)
    qtbot.keyClicks(dialog.source, str(tmp_path / "src.txt"))
    dialog.references.addItem(str(tmp_path / "ref.txt"))
    dialog.systems.addItem(str(tmp_path / "mt.txt"))
    qtbot.keyClicks(dialog.tgt_lang, "en")
    dialog.accept()
    assert dialog.project is not None
    assert dialog.project.segment_ids == ["1", "2"]
    assert dialog.project.system_text("mt", "2") == "Bye"
    assert dialog.project.target_language == "en"


def test_new_project_dialog_reports_bad_input(qtbot, tmp_path, monkeypatch):
    (tmp_path / "src.txt").write_text("a\nb\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("a\n", encoding="utf-8")
    shown = []
    monkeypatch.setattr(dialogs, "error", lambda parent, title, message: shown.append(message))
    dialog = dialogs.NewProjectDialog()
    qtbot.addWidget(dialog)
    dialog.source.setText(str(tmp_path / "src.txt"))
    dialog.references.addItem(str(tmp_path / "ref.txt"))
    dialog.accept()
    assert dialog.project is None
    assert "src.txt: 2 lines" in shown[0] and "ref.txt: 1 lines" in shown[0]


def test_main_window_screenshot(qtbot, window, demo_copy, screenshot_dir):
    window.open_path(demo_copy)
    window.resize(1280, 800)
    window.navigator.expandToDepth(1)
    QApplication.processEvents()
    image = window.grab()
    assert (image.width(), image.height()) == (1280, 800)
    assert image.save(str(screenshot_dir / "main-window.png"))
    assert window.status_label.text().startswith("segment 1 (1/50)")
    assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == ["Annotate", "Judge", "Metrics", "Analysis"]


def test_export_view_writes_png_and_svg_including_plots(qtbot, tmp_path):
    import pyqtgraph as pg

    from mtworkbench.gui.export import export_widget

    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    plot.resize(400, 300)
    plot.plot([1, 2, 3], [3, 1, 2])
    export_widget(plot, tmp_path / "plot.svg")
    export_widget(plot, tmp_path / "plot.png")
    svg = (tmp_path / "plot.svg").read_text(encoding="utf-8")
    assert "<svg" in svg and "<path" in svg
    assert (tmp_path / "plot.png").stat().st_size > 1000
    with pytest.raises(ValueError, match=r"use \.png or \.svg"):
        export_widget(plot, tmp_path / "plot.jpg")


def test_segment_panel_shows_no_row_left_from_the_previous_project(qtbot, window, legacy_demo_copy):
    # Rows of the project shown before are hidden at once, not drawn until deleteLater runs:
    # a stale "(no text)" beside Source was seen after opening a file.
    from PySide6.QtWidgets import QLabel

    assert window.open_path(legacy_demo_copy)
    click_segment(qtbot, window, "1")
    QApplication.processEvents()
    visible = [label.text() for label in window.segment_panel.findChildren(QLabel) if label.isVisibleTo(window)]
    assert not any("(no text)" in text for text in visible), visible
    source = load_bundle(legacy_demo_copy).segment("1").source
    assert source in visible
