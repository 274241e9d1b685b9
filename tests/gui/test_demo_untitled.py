"""``gui --demo`` opens the demo as an untitled copy: Ctrl+S asks where, and nothing is
ever written into the program's folder (no bundle, lock, open marker or recovery copy)."""

from __future__ import annotations

import hashlib

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit

from mtworkbench.gui.commands import SetTextCommand
from mtworkbench.gui.main_window import MainWindow
from mtworkbench.io.bundle.bundle import load_bundle
from mtworkbench.resources import RESOURCES, demo_project_path

EDIT = "Gast ‘Külaline’ 客人 ゲスト Гость ضيف"


def program_files() -> dict[str, str]:
    return {str(p.relative_to(RESOURCES)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(RESOURCES.rglob("*")) if p.is_file()}


def type_into_save_dialog(qtbot, target: str, seen: list[str]) -> None:
    """Answer the Save As dialog as a user would: type the file name, press Enter."""
    def answer():
        dialog = next((w for w in QApplication.topLevelWidgets() if isinstance(w, QFileDialog) and w.isVisible()), None)
        if dialog is None:
            QTimer.singleShot(50, answer)
            return
        seen.append(dialog.windowTitle())
        name = dialog.findChild(QLineEdit, "fileNameEdit")
        name.setText(target)  # (typed keys would open the completer's popup over the field)
        qtbot.keyClick(name, Qt.Key.Key_Return)
    QTimer.singleShot(50, answer)


def test_ctrl_s_on_the_demo_asks_where_and_leaves_the_program_folder_alone(qtbot, tmp_path, monkeypatch, screenshot_dir):
    # Qt's own dialog, which a test can type into (the platform's may not be a QFileDialog).
    monkeypatch.setattr(QFileDialog, "getSaveFileName", _non_native_save)
    before = program_files()
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    assert window.open_path(demo_project_path())
    assert window.session.path is None  # an untitled copy
    assert "Untitled copy of demo.mtwb.json" in window.windowTitle()
    window.session.push(SetTextCommand(window.session.project, "reference", "ref-1", "1", EDIT))
    qtbot.waitUntil(lambda: window.isWindowModified())
    window.grab().save(str(screenshot_dir / "demo-untitled-copy.png"))
    target = tmp_path / "mine.mtwb.json"
    seen: list[str] = []
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    type_into_save_dialog(qtbot, str(target), seen)
    window.navigator.setFocus()
    qtbot.keyClick(window.navigator, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert seen == ["Save project as"]
    assert load_bundle(target).reference_text("ref-1", "1") == EDIT
    assert window.session.path == target and not window.isWindowModified()
    window.recovery.wait()
    assert program_files() == before  # nothing changed, added (no .lock/.open/.recovery) or removed


def test_save_as_into_the_program_folder_is_refused(qtbot, tmp_path, monkeypatch):
    from mtworkbench.gui import dialogs

    errors = []
    monkeypatch.setattr(dialogs, "error", lambda parent, title, message: errors.append(message))
    answers = iter([(str(demo_project_path()), ""), ("", "")])
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: next(answers))
    before = program_files()
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.open_path(demo_project_path())
    window.session.push(SetTextCommand(window.session.project, "reference", "ref-1", "1", EDIT))
    assert not window.save()
    assert errors and "program's own folder" in errors[0]
    assert program_files() == before


def _non_native_save(parent, caption, directory, filter_):
    dialog = QFileDialog(parent, caption, directory, filter_)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    if dialog.exec():
        return dialog.selectedFiles()[0], dialog.selectedNameFilter()
    return "", ""
