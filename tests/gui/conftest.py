from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["MTWB_RAISE_ERRORS"] = "1"

from mtworkbench.resources import demo_project_path  # noqa: E402

SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


@pytest.fixture(autouse=True)
def isolated_settings(qapp, tmp_path, monkeypatch):
    """UI state (QSettings) goes to a temporary folder, never the user's."""
    from PySide6.QtCore import QSettings

    from mtworkbench.gui.app import configure_application

    monkeypatch.setenv("MTWB_SETTINGS_DIR", str(tmp_path / "settings"))
    configure_application(qapp)
    QSettings().clear()
    yield


@pytest.fixture
def demo_copy(tmp_path) -> Path:
    target = tmp_path / "demo.mtwb.json"
    shutil.copy(demo_project_path(), target)
    return target


@pytest.fixture
def legacy_demo_copy(tmp_path) -> Path:
    """The demo as it shipped before it carried content: references ref-1 and
    ref-2, the one system mt, no entities, judges or judgments. Tests written
    for an empty project that still wants real texts use it."""
    from mtworkbench.core.model import Reference, Settings
    from mtworkbench.io.bundle.bundle import load_bundle, save_bundle

    project = load_bundle(demo_project_path())
    human = project.system("human-ref2")
    for span in list(project.spans):
        project.remove_span(span.id)
    for judgment in list(project.judgments):
        project.remove_judgment(judgment.id)
    for judge in list(project.judges):
        project.remove_judge(judge)
    project.remove_system(human.id)
    project.add_reference(Reference("ref-2", "translator 2", dict(human.texts)))
    project.settings = Settings()
    target = tmp_path / "demo.mtwb.json"
    save_bundle(project, target)
    return target


@pytest.fixture
def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch):
    """No test may block on a modal box: unsaved changes are discarded at teardown,
    recovery is declined, a bundle changed on disk is neither reloaded nor
    overwritten, and an unexpected error box fails the test. Tests that
    expect a question monkeypatch it again."""
    from mtworkbench.gui import dialogs

    def unexpected_error(parent, title, message):
        raise AssertionError(f"unexpected error dialog: {title}: {message}")

    monkeypatch.setattr(dialogs, "ask_save_changes", lambda parent: "discard")
    monkeypatch.setattr(dialogs, "ask_recover", lambda parent, offer: False)
    monkeypatch.setattr(dialogs, "ask_reload_changed", lambda parent, path, modified, deleted: False)
    monkeypatch.setattr(dialogs, "ask_open_elsewhere", lambda parent, path, holder: "open")
    monkeypatch.setattr(dialogs, "ask_changed_on_disk", lambda parent, path, summary: "cancel")
    monkeypatch.setattr(dialogs, "confirm_lose_edits", lambda parent, path: False)
    monkeypatch.setattr(dialogs, "show_merge_result", lambda parent, path, conflicts, taken: None)  # information only
    monkeypatch.setattr(dialogs, "error", unexpected_error)
    yield


@pytest.fixture
def window(qtbot):
    """The main window at 1280x800, shown (a test file may define its own `window`)."""
    from mtworkbench.gui.main_window import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()  # keys typed in a test go to it
    return w
