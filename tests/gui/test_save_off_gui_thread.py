"""Save encodes and writes on a worker thread; the window keeps painting, input waits."""

from __future__ import annotations

import threading
import time

from PySide6.QtCore import QTimer

from mtworkbench.gui.commands import SetTextCommand
from mtworkbench.io.bundle.bundle import load_bundle


def edit_reference(window, text, segment="1"):
    window.session.push(SetTextCommand(window.session.project, "reference", "ref-1", segment, text))


def test_save_runs_off_the_gui_thread_while_the_window_paints(qtbot, window, demo_copy, monkeypatch):
    from mtworkbench.gui import bundle_on_disk

    assert window.open_path(demo_copy)
    edit_reference(window, "Übersetzung 翻訳 перевод ترجمة")
    real_save = bundle_on_disk.write_bundle
    threads = []
    inside = []  # when the save was under way
    shown = []  # what the status bar said meanwhile

    def slow_save(*args, **kwargs):
        threads.append(threading.current_thread())
        start = time.monotonic()
        time.sleep(1.0)  # a big project's encoding and write
        inside.append((start, time.monotonic()))
        return real_save(*args, **kwargs)

    monkeypatch.setattr(bundle_on_disk, "write_bundle", slow_save)
    qtbot.wait(1500)  # the window's first paints and the edit's own work are done
    ticks = []
    timer = QTimer(window)
    timer.setInterval(20)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.timeout.connect(lambda: shown.append(window.statusBar().currentMessage()))
    timer.start()
    assert window.save()
    timer.stop()
    assert threads and threads[0] is not threading.main_thread()
    # The event loop ran while the save was under way: the window was not frozen.
    assert any(inside[0][0] < tick < inside[0][1] for tick in ticks)
    assert f"Saving {demo_copy.name}…" in shown  # a busy state while the window paints, no modal dialog
    assert window.statusBar().currentMessage() == f"Saved {demo_copy.name}"
    assert not window.isWindowModified()
    assert load_bundle(demo_copy).reference("ref-1").texts["1"] == "Übersetzung 翻訳 перевод ترجمة"


def test_a_save_waits_for_an_autosave_under_way_while_the_window_paints(qtbot, window, demo_copy, monkeypatch):
    """The recovery copy of the saved work is removed after the save; an autosave still being
    written is waited for on a worker (a big project's takes seconds), not on the window's thread."""
    from mtworkbench.gui import recovery_writer

    assert window.open_path(demo_copy)
    monkeypatch.setattr(recovery_writer, "BACKGROUND_ITEMS", 0)  # the demo counts as large
    release = threading.Event()
    real_encode = recovery_writer.encode_pieces

    def slow_encode(document):
        release.wait(10)
        return real_encode(document)

    monkeypatch.setattr(recovery_writer, "encode_pieces", slow_encode)
    edit_reference(window, "Autosave unterwegs 途中")
    window.recovery.timer.stop()
    window.recovery.write_now()
    assert window.recovery.is_writing()
    ticks = []
    timer = QTimer(window)
    timer.setInterval(20)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.timeout.connect(lambda: len(ticks) == 10 and release.set())  # the autosave ends while the window ticks
    timer.start()
    assert window.save()
    timer.stop()
    assert release.is_set() and len(ticks) >= 10  # the event loop ran while the save waited
    assert not window.recovery.is_writing()
    assert not recovery_writer.recovery_target(demo_copy).exists()  # the copy of saved work is gone
    assert load_bundle(demo_copy).reference("ref-1").texts["1"] == "Autosave unterwegs 途中"
