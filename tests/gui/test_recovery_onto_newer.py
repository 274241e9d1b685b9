"""Recovered work is restored onto the bundle as it is now: the app is killed (SIGKILL)
after an edit, a CLI command adds a judge to the bundle, and the next start restores the
edit without dropping the CLI's judge (merged three-way, as a work package is)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from mtworkbench.gui import dialogs
from mtworkbench.gui.main_window import MainWindow
from mtworkbench.io.bundle.bundle import load_bundle

EDIT_TEXT = "Recovered: ‘Külaline’ 客人 ゲスト Гость ضيف"


def killed_after_an_edit(bundle, settings):
    env = dict(os.environ)
    env.update({
        "QT_QPA_PLATFORM": "offscreen",
        "MTWB_SETTINGS_DIR": str(settings),
        "MTWB_TEST_EDIT": json.dumps({"kind": "reference", "owner": "ref-1", "segment": "1", "text": EDIT_TEXT}),
    })
    env.pop("MTWB_RAISE_ERRORS", None)
    app = subprocess.Popen([sys.executable, "-m", "mtworkbench", "gui", str(bundle)], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = app.stdout.readline()
        assert line.strip() == "EDITED", app.stderr.read() if app.poll() is not None else line
        recovery = bundle.parent / f".{bundle.name}.recovery"
        deadline = time.monotonic() + 20
        while not recovery.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)
        app.send_signal(signal.SIGKILL)
        app.wait(30)
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
    assert app.returncode == -signal.SIGKILL


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_recovery_is_merged_onto_a_bundle_a_cli_command_changed(qtbot, demo_copy, tmp_path, monkeypatch):
    killed_after_an_edit(demo_copy, tmp_path / "settings")
    cli = subprocess.run([sys.executable, "-m", "mtworkbench", "queue", str(demo_copy), "--judge", "cli-judge"],
                         capture_output=True, text=True, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert cli.returncode == 0, cli.stderr
    assert "cli-judge" in load_bundle(demo_copy).judges

    merged = []
    monkeypatch.setattr(dialogs, "ask_recover", lambda parent, offer: True)
    monkeypatch.setattr(dialogs, "show_merge_result",
                        lambda parent, path, conflicts, taken: merged.append((conflicts, taken)))
    again = MainWindow()
    qtbot.addWidget(again)
    assert again.open_path(demo_copy)
    assert merged == [([], 1)]  # the user is told; nothing conflicted
    restored = again.session.project
    assert restored.reference_text("ref-1", "1") == EDIT_TEXT
    assert "cli-judge" in restored.judges and "cli-judge" in restored.judge_queues
    assert again.save()  # no question: the merged state was built on the bundle as it is
    saved = load_bundle(demo_copy)
    assert saved.reference_text("ref-1", "1") == EDIT_TEXT
    assert "cli-judge" in saved.judges and "cli-judge" in saved.judge_queues
    recovery = demo_copy.parent / f".{demo_copy.name}.recovery"
    assert not recovery.exists() and not recovery.with_name(recovery.name + ".base").exists()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_unchanged_bundle_restores_the_copy_as_it_is(qtbot, demo_copy, tmp_path, monkeypatch):
    killed_after_an_edit(demo_copy, tmp_path / "settings")
    monkeypatch.setattr(dialogs, "ask_recover", lambda parent, offer: True)
    monkeypatch.setattr(dialogs, "show_merge_result", lambda *a: pytest.fail("no merge needed"))
    again = MainWindow()
    qtbot.addWidget(again)
    assert again.open_path(demo_copy)
    assert again.session.project.reference_text("ref-1", "1") == EDIT_TEXT
