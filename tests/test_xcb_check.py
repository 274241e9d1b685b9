"""Before Qt starts on Linux: missing X11 libraries are named with the packages that bring them."""

from __future__ import annotations

import argparse

from mtworkbench.gui import xcb_check

MINIMAL = {"libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxcb-cursor.so.0"}  # what a minimal Ubuntu lacked


def fake_loader(missing: set[str]):
    tried: list[str] = []

    def load(name: str) -> bool:
        tried.append(name)
        return name not in missing
    load.tried = tried  # type: ignore[attr-defined]
    return load


def test_missing_xcb_libraries_are_named_with_their_packages():
    message = xcb_check.check_before_qt(fake_loader(MINIMAL), "linux", {"DISPLAY": ":0"})
    assert message is not None
    for library in MINIMAL:
        assert library in message
    assert "sudo apt-get install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1" in message
    assert "libxkbcommon" not in message  # only what is missing


def test_nothing_missing_starts_the_window():
    load = fake_loader(set())
    assert xcb_check.check_before_qt(load, "linux", {"DISPLAY": ":0"}) is None
    assert "libxcb-icccm.so.4" in load.tried and "libxkbcommon-x11.so.0" in load.tried


def test_only_the_plugin_chosen_is_checked():
    # offscreen or Wayland: the xcb libraries are not needed; Qt's GUI libraries still are.
    for environ in ({"QT_QPA_PLATFORM": "offscreen"}, {"WAYLAND_DISPLAY": "wayland-0"}):
        assert xcb_check.check_before_qt(fake_loader(MINIMAL), "linux", environ) is None
        message = xcb_check.check_before_qt(fake_loader({"libEGL.so.1"}), "linux", environ)
        assert message is not None and "libegl1" in message
    assert xcb_check.uses_xcb("linux", {"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "w"})
    # Other systems: Qt's wheels bring what they need.
    assert xcb_check.check_before_qt(fake_loader(MINIMAL), "win32", {}) is None
    assert xcb_check.check_before_qt(fake_loader(MINIMAL), "darwin", {}) is None


def test_every_library_has_a_package():
    assert set(xcb_check.PACKAGES) >= set(xcb_check.XCB_LIBRARIES) | set(xcb_check.GUI_LIBRARIES)
    assert all(xcb_check.PACKAGES.values())


def test_gui_command_prints_the_advice_and_does_not_start_qt(monkeypatch, capsys):
    import sys

    from mtworkbench.cli.commands import gui

    monkeypatch.setattr(xcb_check, "_dlopen", fake_loader({"libxcb-keysyms.so.1"}))
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    started = []
    monkeypatch.setitem(sys.modules, "mtworkbench.gui.app", type(sys)("fake-app"))
    sys.modules["mtworkbench.gui.app"].run_app = lambda *a, **k: started.append(1) or 0  # type: ignore[attr-defined]
    args = argparse.Namespace(bundle=None, demo=False, quit_after=None, screenshot=None)
    assert gui.run(args) == 1
    assert not started
    err = capsys.readouterr().err
    assert "libxcb-keysyms.so.1" in err and "libxcb-keysyms1" in err
