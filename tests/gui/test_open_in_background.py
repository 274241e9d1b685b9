"""A large bundle named at start is read on a worker thread: the window names it and says it
is loading at once, and the project arrives when read; a bad file is reported as from the menu."""

from __future__ import annotations

from mtworkbench.gui import dialogs, open_in_background
from mtworkbench.gui.main_window import MainWindow


def test_the_window_names_the_bundle_while_it_loads(qtbot, demo_copy, monkeypatch):
    monkeypatch.setattr(open_in_background, "BACKGROUND_BYTES", 0)
    assert open_in_background.wants_background(demo_copy)
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    reader = open_in_background.open_later(window, demo_copy)
    assert window.windowTitle().startswith(f"{demo_copy.name} (loading…)")
    assert "Loading" in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: window.session.path == demo_copy, timeout=60_000)
    assert not reader.is_alive()
    assert "loading" not in window.windowTitle()
    assert window.windowTitle().startswith(demo_copy.name)
    assert len(window.session.project.segments) > 0
    assert window.navigator_model.rowCount() > 0


def test_a_broken_bundle_read_in_the_background_is_reported(qtbot, tmp_path, monkeypatch):
    bad = tmp_path / "broken.mtwb.json"
    bad.write_text('{"format": "mtworkbench", "segments": [', encoding="utf-8")
    monkeypatch.setattr(open_in_background, "BACKGROUND_BYTES", 0)
    shown = []
    monkeypatch.setattr(dialogs, "error", lambda parent, title, message: shown.append((title, message)))
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    open_in_background.open_later(window, bad)
    qtbot.waitUntil(lambda: bool(shown), timeout=30_000)
    title, message = shown[0]
    assert title == "Cannot open project"
    assert "broken.mtwb.json" in message and "Traceback" not in message
    assert "loading" not in window.windowTitle()
    assert window.session.path is None


def test_small_bundles_are_read_before_the_first_paint(demo_copy):
    assert not open_in_background.wants_background(demo_copy)  # the demo: well under the threshold


def test_the_first_segment_is_selected_after_the_window_has_painted_the_swap_in(qtbot, demo_copy, monkeypatch):
    # Swapping a large project in and selecting its first segment (Annotate's first page, the
    # navigator's selection) were one event-loop turn, painted only after both: one long stall.
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    monkeypatch.setattr(open_in_background, "BACKGROUND_BYTES", 0)
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    seen: list[str] = []

    class Paints(QObject):
        def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
            if event.type() == QEvent.Type.Paint and watched is window and seen == ["swapped"]:
                seen.append("painted")
            return False

    paints = Paints()
    QApplication.instance().installEventFilter(paints)
    opened = window.open_path

    def open_path(path, **kwargs):
        result = opened(path, **kwargs)
        seen.append("swapped")
        assert window.session.project.segments and window.session.current_segment == ""
        return result

    monkeypatch.setattr(window, "open_path", open_path)
    window.session.current_segment_changed.connect(lambda segment: seen.append(f"current {segment}"))
    open_in_background.open_later(window, demo_copy)
    first = None
    try:
        qtbot.waitUntil(lambda: window.session.current_segment != "", timeout=60_000)
        first = window.session.project.segments[0].id
    finally:
        QApplication.instance().removeEventFilter(paints)
    assert seen == ["swapped", "painted", f"current {first}"]
    assert window.workspaces["Annotate"].view.shows(first)
    # The navigator's row follows after one more paint.
    qtbot.waitUntil(lambda: window.navigator.currentIndex().data(window.navigator_model.SegmentIdRole) == first)
    assert window.session.current_segment == first
