"""The window shows with its first workspace built; each other one is built when its tab is
chosen or it is looked up, never unasked."""

from __future__ import annotations

import os
import subprocess
import sys

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from mtworkbench.gui.main_window import MainWindow


def test_only_annotate_is_built_before_the_first_paint(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    tabs = window.tabs
    assert [tabs.tabText(i) for i in range(tabs.count())] == ["Annotate", "Judge", "Metrics", "Analysis"]
    assert tabs.widget(0).objectName() == "workspace-annotate"
    assert [tabs.widget(i).objectName() for i in (1, 2, 3)] == ["pending-judge", "pending-metrics", "pending-analysis"]


def test_choosing_a_pending_tab_builds_it_there(qtbot, demo_copy):
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    window.open_path(demo_copy)
    bar = window.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(2).center())  # the Metrics tab
    metrics = window.tabs.currentWidget()
    assert metrics.objectName() == "workspace-metrics"
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Metrics"
    # built after the project was opened, it shows that project's systems
    systems = {s.id for s in window.session.project.systems}
    assert systems and set(metrics.system_ids) == systems
    assert window.tabs.widget(1).objectName() == "pending-judge"  # the others still wait


def test_looking_a_workspace_up_builds_the_pending_ones(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    judge = window.workspaces["Judge"]
    assert judge.objectName() == "workspace-judge"
    assert window.tabs.widget(1) is judge
    assert [window.tabs.widget(i).objectName() for i in range(4)] == [
        "workspace-annotate", "workspace-judge", "workspace-metrics", "workspace-analysis"]


def test_after_the_first_paint_workspaces_wait_for_their_tab(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.workspace_tabs.import_after_paint(window)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: window.workspace_tabs.imported, timeout=60_000)
    for _ in range(5):  # several event-loop turns: nothing is built unasked
        qtbot.wait(20)
    assert window.workspace_tabs.pending
    assert [window.tabs.widget(i).objectName() for i in (1, 2, 3)] == [
        "pending-judge", "pending-metrics", "pending-analysis"]
    # The font check's module was imported off the GUI thread; no workspace's (its plotting
    # library's import kept the window waiting for the interpreter's lock).
    assert window.workspace_tabs._imported == {"mtworkbench.gui.script_fonts"}
    shown_while_built = []
    build = window.workspace_tabs._build
    window.workspace_tabs._build = lambda target: shown_while_built.append(window.tabs.currentWidget().text()) or build(target)
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)  # the tab's shortcut
    assert shown_while_built == ["Opening Metrics…"]  # the wait is explained while it is built
    assert window.tabs.currentWidget().objectName() == "workspace-metrics"
    assert window.tabs.widget(1).objectName() == "pending-judge"


def test_keyboard_shortcuts_lists_the_workspaces_not_built_yet(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    assert window.workspace_tabs.pending
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    next(a for a in help_menu.actions() if a.text() == "&Keyboard shortcuts").trigger()
    dialog = window._shortcuts_dialog
    qtbot.addWidget(dialog)
    table = dialog.table
    where = {table.item(r, 0).text() for r in range(table.rowCount())}
    assert {"Judge", "Metrics"} <= where  # the workspaces' own keys and buttons are listed
    assert not window.workspace_tabs.pending
    assert window.tabs.currentWidget().objectName() == "workspace-annotate"  # the tab did not change


def test_the_start_probe_reports_show_paint_stall_and_quit(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", MTWB_SETTINGS_DIR=str(tmp_path / "settings"),
               MTWB_RECOVERY_DIR=str(tmp_path / "recovery"), MTWB_START_PROBE="0.5")
    result = subprocess.run([sys.executable, "-m", "mtworkbench", "gui", "--demo"],
                            capture_output=True, text=True, env=env, timeout=180)
    assert result.returncode == 0, result.stderr
    marks = [line.split(" ", 2) for line in result.stdout.splitlines() if line.startswith("MTWB-")]
    assert [m[0] for m in marks] == ["MTWB-SHOWN", "MTWB-PAINTED", "MTWB-STALLS", "MTWB-STALL", "MTWB-QUIT", "MTWB-EXITED"]
    stamps = [float(m[1]) for m in marks]
    assert stamps == sorted(stamps)
    longest = int(marks[3][2].split(" ", 1)[0])  # the longest stall, in milliseconds
    assert longest >= 0
    assert "demo.mtwb.json" in marks[3][2]  # the title names the demo by then
    # The stalls over 40 ms, longest first, each with when it began after the paint.
    listed = [tuple(int(n) for n in item.split("@")) for item in (marks[2][2] if len(marks[2]) > 2 else "").split()]
    assert all(ms > 40 and at >= 0 for ms, at in listed)
    assert [ms for ms, _at in listed] == sorted((ms for ms, _at in listed), reverse=True)
    assert (listed[0][0] if listed else 0) == (longest if longest > 40 else 0)
    # The process ends without tearing the interpreter down; what it must write is written.
    written = [p.read_text(encoding="utf-8") for p in (tmp_path / "settings").rglob("*.ini")]
    assert any("geometry" in text for text in written)


def nav_dock(window):
    dock = window.navigator.parentWidget()
    while dock is not None and not dock.inherits("QDockWidget"):
        dock = dock.parentWidget()
    return dock


def test_workspaces_built_late_leave_the_docks_as_the_last_session_left_them(qtbot):
    first = MainWindow()
    qtbot.addWidget(first)
    first.resize(1280, 800)
    first.show()
    qtbot.waitExposed(first)
    first.workspace_tabs.build_all()  # measures the room they all need, for the next start
    first.close()

    window = MainWindow()  # the next start: only the first workspace is built
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    assert window.workspace_tabs.pending
    dock = nav_dock(window)
    window.resizeDocks([dock], [600], Qt.Orientation.Horizontal)  # wider than the workspaces leave room for
    QApplication.processEvents()
    before = dock.width()
    window.workspace_tabs.build_all()
    QApplication.processEvents()
    assert dock.width() == before  # no workspace built late squeezed it
    assert window.tabs.minimumSize().isNull()  # each workspace's own least size governs again
