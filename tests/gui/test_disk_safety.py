"""Issue 20 items 2, 3 and 6 in the app: external changes are never overwritten silently,
a change on disk is noticed, a bundle open elsewhere is flagged, unsaved work reaches a
recovery copy at once and is offered whatever the file times, and no malformed bundle or
failed write reaches the user as a traceback."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from mtworkbench.core.model import Judgment
from mtworkbench.gui import dialogs, recovery_writer
from mtworkbench.gui.commands import AddJudgeCommand, SetTextCommand
from mtworkbench.gui.main_window import MainWindow, recovery_path
from mtworkbench.io.bundle import locking
from mtworkbench.io.bundle.bundle import bundle_transaction, load_bundle


@pytest.fixture
def window(qtbot):
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    qtbot.waitExposed(w)
    return w


def edit_reference(window, text, segment="1"):
    window.session.push(SetTextCommand(window.session.project, "reference", "ref-1", segment, text))


def cli_adds_judge(path, judge="cli-judge", segment="2"):
    """What `judgments import` does: a locked read-modify-write of the bundle."""
    with bundle_transaction(path) as project:
        project.add_judge(judge)
        project.add_judgment(Judgment(f"{judge}-1", judge, "mt", segment, "ref-1", adequacy=4, fluency=5))


# --- external changes before Save -------------------------------------------------------------
def test_save_never_overwrites_a_change_on_disk_without_asking(qtbot, window, demo_copy, monkeypatch):
    assert window.open_path(demo_copy)
    edit_reference(window, "my edit")
    cli_adds_judge(demo_copy)
    before = demo_copy.read_bytes()
    asked = []
    monkeypatch.setattr(dialogs, "ask_changed_on_disk",
                        lambda parent, path, summary: asked.append(summary) or "cancel")
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert len(asked) == 1
    assert "judges added: cli-judge" in asked[0] and "1 judgment added" in asked[0]
    assert demo_copy.read_bytes() == before  # cancelled: nothing written
    assert window.isWindowModified()


def test_merge_keeps_both_sides_and_lists_conflicts(qtbot, window, legacy_demo_copy, monkeypatch):
    demo_copy = legacy_demo_copy  # two references and no entities: both texts may change
    assert window.open_path(demo_copy)
    window.session.push(SetTextCommand(window.session.project, "reference", "ref-2", "1", "mine on ref-2"))
    edit_reference(window, "mine on ref-1", segment="3")
    window.session.push(AddJudgeCommand(window.session.project, "app-judge"))
    # The CLI changes reference ref-1 too (a conflict) and adds its judge and judgment.
    with bundle_transaction(demo_copy) as project:
        project.set_reference_text("ref-1", "3", "theirs on ref-1")
    cli_adds_judge(demo_copy)
    merged = []
    monkeypatch.setattr(dialogs, "ask_changed_on_disk", lambda parent, path, summary: "merge")
    monkeypatch.setattr(dialogs, "show_merge_result",
                        lambda parent, path, conflicts, taken: merged.append((conflicts, taken)))
    assert window.save()
    (conflicts, taken), = merged
    assert len(conflicts) == 1 and "ref-1" in conflicts[0] and taken >= 2
    saved = load_bundle(demo_copy)
    assert saved.reference_text("ref-2", "1") == "mine on ref-2"  # ours
    assert "cli-judge" in saved.judges and "app-judge" in saved.judges  # both sides
    assert saved.judgment("cli-judge-1").adequacy == 4
    assert saved.reference_text("ref-1", "3") == "theirs on ref-1"  # the conflict: disk version kept
    assert not window.isWindowModified()
    assert window.session.project.reference_text("ref-2", "1") == "mine on ref-2"


def test_save_as_and_reload_choices(qtbot, window, demo_copy, tmp_path, monkeypatch):
    assert window.open_path(demo_copy)
    edit_reference(window, "my edit")
    cli_adds_judge(demo_copy)
    other = tmp_path / "mine.mtwb.json"
    monkeypatch.setattr(dialogs, "ask_changed_on_disk", lambda parent, path, summary: "save_as")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(other), ""))
    assert window.save()
    assert load_bundle(other).reference_text("ref-1", "1") == "my edit"
    assert "cli-judge" in load_bundle(demo_copy).judges  # the other writer's file untouched
    assert window.session.path == other

    # Now the reload choice, with its warning: declining the warning keeps everything.
    assert window.open_path(demo_copy)
    edit_reference(window, "second edit")
    cli_adds_judge(demo_copy, judge="cli-2", segment="4")
    monkeypatch.setattr(dialogs, "ask_changed_on_disk", lambda parent, path, summary: "reload")
    warned = []
    monkeypatch.setattr(dialogs, "confirm_lose_edits", lambda parent, path: warned.append(path) or False)
    assert not window.save()
    assert warned and window.session.project.reference_text("ref-1", "1") == "second edit"
    monkeypatch.setattr(dialogs, "confirm_lose_edits", lambda parent, path: True)
    assert not window.save()
    assert "cli-2" in window.session.project.judges
    assert window.session.project.reference_text("ref-1", "1") != "second edit"
    assert not window.isWindowModified()


# --- noticing a change while open ----------------------------------------------------------------
def test_a_change_on_disk_is_noticed_and_offered_for_reload(qtbot, window, demo_copy, monkeypatch):
    asked = []
    monkeypatch.setattr(dialogs, "ask_reload_changed",
                        lambda parent, path, modified, deleted: asked.append((modified, deleted)) or True)
    assert window.open_path(demo_copy)
    cli_adds_judge(demo_copy)  # an atomic rename over the watched file
    qtbot.waitUntil(lambda: "cli-judge" in window.session.project.judges, timeout=10_000)
    assert asked == [(False, False)]
    # The watch was re-armed on the new file: a second change is noticed too.
    cli_adds_judge(demo_copy, judge="cli-2", segment="3")
    qtbot.waitUntil(lambda: "cli-2" in window.session.project.judges, timeout=10_000)
    # Our own save is not reported as an outside change.
    edit_reference(window, "mine")
    assert window.save()
    window.watcher.check()
    qtbot.wait(600)
    assert len(asked) == 2


def test_declined_reload_is_not_asked_again_and_save_still_asks(qtbot, window, demo_copy, monkeypatch):
    asked = []
    monkeypatch.setattr(dialogs, "ask_reload_changed",
                        lambda parent, path, modified, deleted: asked.append(modified) or False)
    assert window.open_path(demo_copy)
    edit_reference(window, "mine")
    cli_adds_judge(demo_copy)
    qtbot.waitUntil(lambda: asked == [True], timeout=10_000)
    window.watcher.check()
    assert asked == [True]
    saved = []
    monkeypatch.setattr(dialogs, "ask_changed_on_disk", lambda parent, path, summary: saved.append(1) or "cancel")
    assert not window.save()
    assert saved == [1] and "cli-judge" in load_bundle(demo_copy).judges


# --- open in another instance --------------------------------------------------------------------
def test_bundle_open_elsewhere_is_flagged_and_read_only_saves_elsewhere(qtbot, window, demo_copy, tmp_path,
                                                                         monkeypatch):
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        marker = locking.open_marker_path(demo_copy)
        marker.write_text(json.dumps({"pid": other.pid, "user": "someone", "host": socket.gethostname(),
                                      "since": "2026-01-01 10:00:00 UTC", "program": "mtworkbench"}))
        asked = []
        monkeypatch.setattr(dialogs, "ask_open_elsewhere",
                            lambda parent, path, holder: asked.append(holder) or "read_only")
        assert window.open_path(demo_copy)
        assert "someone" in asked[0] and str(other.pid) in asked[0]
        assert window.read_only and "(read-only)" in window.windowTitle()
        assert json.loads(marker.read_text())["pid"] == other.pid  # not claimed by a read-only window
        edit_reference(window, "mine")
        target = tmp_path / "copy.mtwb.json"
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
        before = demo_copy.read_bytes()
        qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
        assert demo_copy.read_bytes() == before
        assert load_bundle(target).reference_text("ref-1", "1") == "mine"
        assert json.loads(marker.read_text())["pid"] == other.pid  # the other instance's marker stays
    finally:
        other.kill()
        other.wait()


def test_own_marker_written_on_open_and_removed_on_close(qtbot, window, demo_copy, monkeypatch):
    writers = []
    real = locking.mark_open
    monkeypatch.setattr(locking, "mark_open", lambda path: writers.append(threading.current_thread()) or real(path))
    assert window.open_path(demo_copy)
    window.wait_for_open_marker()
    assert writers and writers[0] is not threading.main_thread()  # its fsyncs never hold the window
    marker = locking.open_marker_path(demo_copy)
    info = json.loads(marker.read_text())
    assert info["pid"] == os.getpid() and info["host"] == socket.gethostname() and info["user"]
    assert window.close()
    assert not marker.exists()


# --- crash recovery ---------------------------------------------------------------------------------
def test_each_edit_reaches_the_recovery_copy_without_waiting_for_autosave(qtbot, window, demo_copy):
    assert recovery_writer.DELAY_MS <= 1000
    assert window.open_path(demo_copy)
    edit_reference(window, "fresh edit")
    recovery = recovery_path(demo_copy)
    qtbot.waitUntil(recovery.exists, timeout=10_000)
    assert load_bundle(recovery).reference_text("ref-1", "1") == "fresh edit"
    window.session.undo_stack.undo()  # back to the saved state: nothing to recover
    window.autosave()
    assert not recovery.exists()


def test_recovery_is_offered_even_when_the_bundle_is_newer(qtbot, window, demo_copy, monkeypatch):
    assert window.open_path(demo_copy)
    edit_reference(window, "unsaved work")
    window.autosave()
    recovery = recovery_path(demo_copy)
    assert recovery.exists()
    cli_adds_judge(demo_copy)  # a later CLI write: the bundle is newer than the recovery copy
    os.utime(recovery, (1_000_000, 1_000_000))
    offers = []
    monkeypatch.setattr(dialogs, "ask_recover", lambda parent, offer: offers.append(offer) or True)
    again = MainWindow()
    qtbot.addWidget(again)
    assert again.open_path(demo_copy)
    assert len(offers) == 1
    summary = offers[0].diff.summary()
    assert "1 reference changed" in summary
    assert again.session.project.reference_text("ref-1", "1") == "unsaved work"
    assert again.isWindowModified()
    # Restored onto the bundle as it is now: the CLI's judge and judgment are kept.
    assert "cli-judge" in again.session.project.judges
    assert any(j.judge == "cli-judge" for j in again.session.project.judgments)


def test_untitled_project_recovery_is_offered_at_start(qtbot, window, demo_copy, monkeypatch):
    monkeypatch.setattr(dialogs, "new_project_from_files", lambda parent: load_bundle(demo_copy))
    window.new_project_from_files()
    edit_reference(window, "untitled work")
    window.autosave()
    target = recovery_path(None)
    assert target.exists() and target.parent == recovery_writer.recovery_folder()
    offers = []
    monkeypatch.setattr(dialogs, "ask_recover", lambda parent, offer: offers.append(offer) or True)
    again = MainWindow()
    qtbot.addWidget(again)
    assert again.offer_untitled_recovery()
    assert offers[0].bundle is None
    assert again.session.project.reference_text("ref-1", "1") == "untitled work"
    assert again.session.path is None and again.isWindowModified()


# --- errors never as tracebacks ----------------------------------------------------------------------
@pytest.mark.parametrize("body", [
    '{"format": "mtworkbench-project", "format_version": 1, "settings": ' + "[" * 100_000 + "]" * 100_000 + "}",
    '{"format": "mtworkbench-project", "format_version": 1, "documents": [], "x": ' + "9" * 5000 + "}",
    '{"format": "mtworkbench-project", "format_version": 1, "documents": [], "n": NaN}',
])
def test_malformed_bundles_give_a_message_not_a_traceback(qtbot, window, tmp_path, monkeypatch, body):
    bad = tmp_path / "bad.mtwb.json"
    bad.write_text(body, encoding="utf-8")
    shown = []
    monkeypatch.setattr(dialogs, "error", lambda parent, title, message: shown.append((title, message)))
    assert not window.open_path(bad)
    assert len(shown) == 1 and shown[0][0] == "Cannot open project"
    assert "bad.mtwb.json" in shown[0][1] and "Traceback" not in shown[0][1]


def test_autosave_failure_is_shown_once_and_never_raises(qtbot, window, demo_copy, monkeypatch):
    assert window.open_path(demo_copy)
    shown = []
    monkeypatch.setattr(dialogs, "error", lambda parent, title, message: shown.append(title))

    def broken(*_a, **_k):
        raise ValueError("Out of range float values are not JSON compliant")

    monkeypatch.setattr(recovery_writer, "dumps", broken)
    edit_reference(window, "one")
    window.autosave_timer.timeout.emit()
    edit_reference(window, "two")
    window.autosave_timer.timeout.emit()
    window.recovery.write_now()
    assert shown == ["Autosave failed"]
    assert "Autosave failed" in window.statusBar().currentMessage()


def test_save_failure_is_reported_not_raised(qtbot, window, demo_copy, monkeypatch):
    from mtworkbench.gui import bundle_on_disk

    assert window.open_path(demo_copy)
    edit_reference(window, "one")
    shown = []
    monkeypatch.setattr(dialogs, "error", lambda parent, title, message: shown.append((title, message)))
    monkeypatch.setattr(bundle_on_disk, "write_bundle", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("disk on fire")))
    assert not window.save()
    assert shown[0][0] == "Cannot save project" and "disk on fire" in shown[0][1]
    assert window.isWindowModified()


def test_a_window_never_removes_another_windows_recovery_copy(qtbot, window, demo_copy):
    """Two windows with one bundle ("Open anyway") share its recovery file name: only its writer removes it."""
    assert window.open_path(demo_copy, offer_recovery=False)
    other_work = load_bundle(demo_copy)
    other_work.set_reference_text("ref-1", "1", "the other window's unsaved work")
    target = recovery_path(demo_copy)
    from mtworkbench.io.bundle.recovery import write_recovery

    write_recovery(other_work, target)
    window.autosave()  # this window has nothing unsaved
    assert window.close()
    assert load_bundle(target).reference_text("ref-1", "1") == "the other window's unsaved work"


def test_large_snapshots_are_written_off_the_gui_thread(qtbot, window, demo_copy, monkeypatch):
    import threading

    writers = []
    real_write = recovery_writer._write
    monkeypatch.setattr(recovery_writer, "BACKGROUND_BYTES", 0)  # every snapshot counts as large
    monkeypatch.setattr(recovery_writer, "_write",
                        lambda target, data: writers.append(threading.current_thread()) or real_write(target, data))
    assert window.open_path(demo_copy)
    with qtbot.waitSignal(window.recovery.written, timeout=10_000):
        edit_reference(window, "written in the background")
    assert writers and writers[0] is not threading.main_thread()
    assert load_bundle(recovery_path(demo_copy)).reference_text("ref-1", "1") == "written in the background"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_not_waited_on(qtbot, window, tmp_path, monkeypatch):
    fifo = tmp_path / "pipe.mtwb.json"
    os.mkfifo(fifo)
    shown = []
    monkeypatch.setattr(dialogs, "error", lambda parent, title, message: shown.append((title, message)))
    assert not window.open_path(fifo)
    assert shown[0][0] == "Cannot open project" and "pipe.mtwb.json" in shown[0][1]


def test_one_reload_question_at_a_time(qtbot, window, demo_copy, monkeypatch):
    """A change arriving while the question is shown is asked about after it, never in a second box on top."""
    asked, open_now, most_open = [], [0], [0]

    def answer(parent, path, modified, deleted):
        open_now[0] += 1
        most_open[0] = max(most_open[0], open_now[0])
        asked.append(1)
        if len(asked) == 1:
            cli_adds_judge(demo_copy, judge="cli-2", segment="3")
            window.watcher.check()  # the second change arrives while the first question is open
        open_now[0] -= 1
        return False

    monkeypatch.setattr(dialogs, "ask_reload_changed", answer)
    assert window.open_path(demo_copy)
    cli_adds_judge(demo_copy)
    qtbot.waitUntil(lambda: len(asked) == 2, timeout=10_000)
    assert most_open[0] == 1


def test_cancel_at_open_elsewhere_opens_nothing(qtbot, window, demo_copy, monkeypatch):
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        locking.open_marker_path(demo_copy).write_text(json.dumps(
            {"pid": other.pid, "user": "someone", "host": socket.gethostname(), "since": "now"}))
        monkeypatch.setattr(dialogs, "ask_open_elsewhere", lambda parent, path, holder: "cancel")
        assert not window.open_path(demo_copy)
        assert window.session.path is None and window.session.project.segments == []
    finally:
        other.kill()
        other.wait()
    # Once the other instance is gone (crashed), its marker no longer counts.
    monkeypatch.setattr(dialogs, "ask_open_elsewhere", lambda *a: pytest.fail("a dead owner was reported"))
    assert window.open_path(demo_copy)
    window.wait_for_open_marker()
    assert json.loads(locking.open_marker_path(demo_copy).read_text())["pid"] == os.getpid()


def test_save_while_another_writer_holds_the_lock_names_it(qtbot, window, demo_copy, monkeypatch):
    from mtworkbench.gui import bundle_on_disk

    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom mtworkbench.io.bundle.locking import bundle_lock\n"
         "with bundle_lock(sys.argv[1]):\n    print('LOCKED', flush=True)\n    time.sleep(60)\n", str(demo_copy)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "LOCKED"
        assert window.open_path(demo_copy)
        edit_reference(window, "mine")
        shown = []
        monkeypatch.setattr(dialogs, "error", lambda parent, title, message: shown.append((title, message)))
        monkeypatch.setattr(bundle_on_disk, "SAVE_LOCK_TIMEOUT_S", 0.2)
        before = demo_copy.read_bytes()
        assert not window.save()
        assert shown[0][0] == "Cannot save project" and f"pid {holder.pid}" in shown[0][1]
        assert demo_copy.read_bytes() == before and window.isWindowModified()
    finally:
        holder.kill()
        holder.wait()
    assert window.save()  # the lock is free again
    assert load_bundle(demo_copy).reference_text("ref-1", "1") == "mine"
