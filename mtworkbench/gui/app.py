"""Starting the desktop app."""

from __future__ import annotations

import gc
import logging
import os
import sys
import traceback
from pathlib import Path

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

log = logging.getLogger(__name__)


def configure_application(app: QApplication) -> None:
    app.setOrganizationName("mtworkbench")
    app.setApplicationName("mtworkbench")
    from PySide6.QtGui import QIcon

    from mtworkbench.resources import resource_path

    app.setWindowIcon(QIcon(str(resource_path("icon", "mtworkbench.png"))))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    folder = os.environ.get("MTWB_SETTINGS_DIR")
    if folder:  # tests and portable installs keep UI state out of the home folder
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, folder)


def settle_heap() -> None:
    """Leave what the program is made of out of the garbage collector's full passes.

    Once the window is built, its modules and Qt wrappers (~150,000 objects) live as
    long as the program; scanning them in every full collection stalled the window for
    100-300 ms now and then (benchmarks/bench_judge_spans.py). Called before a project is
    opened, so projects stay collectable.
    """
    gc.collect()
    gc.freeze()


def install_exception_hook(app: QApplication) -> None:
    """An unexpected error becomes a message box and a log entry, never a traceback on screen."""

    def hook(exc_type, exc, tb) -> None:
        details = "".join(traceback.format_exception(exc_type, exc, tb))
        log_file = Path(QSettings().fileName()).parent / "mtworkbench-errors.log"
        try:
            log_file.parent.mkdir(parents=True, exist_ok=True)
            with log_file.open("a", encoding="utf-8") as handle:
                handle.write(details + "\n")
        except OSError:
            pass
        log.error("unexpected error: %s", details)
        if os.environ.get("MTWB_RAISE_ERRORS"):  # tests want failures, not dialogs
            sys.__excepthook__(exc_type, exc, tb)
            return
        from mtworkbench.gui.plain import show_message

        show_message(
            app.activeWindow(),
            QMessageBox.Icon.Critical,
            "Unexpected error",
            f"{exc_type.__name__}: {exc}\n\nYour project is unchanged; details were written to {log_file}.",
        )

    sys.excepthook = hook


def exit_now(code: int) -> None:
    """End the process once the event loop has returned and everything is written.

    By then the window has closed: edits are saved or their recovery copy settled, background
    jobs were cancelled and waited for (``worker.stop_all_workers`` on ``aboutToQuit``) and the
    settings are synced here. What is left is the interpreter tearing down every module and Qt
    wrapper one by one, which took longer than the user will wait for a window to go away.
    """
    QSettings().sync()
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


# Test hook (crash-recovery subprocess test): a JSON edit {"kind", "owner", "segment", "text"}
# applied through the undo stack once the app runs; "EDITED" is printed when it is done.
TEST_EDIT_ENV = "MTWB_TEST_EDIT"


def _apply_test_edit(window, spec: str) -> None:
    import json

    from mtworkbench.gui.commands import SetTextCommand

    edit = json.loads(spec)
    window.session.push(SetTextCommand(window.session.project, edit["kind"], edit.get("owner", ""),
                                       edit["segment"], edit["text"]))
    print("EDITED", flush=True)


def run_app(bundle: str | None = None, demo: bool = False, quit_after: float | None = None,
            screenshot: str | None = None) -> int:
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    configure_application(app)
    install_exception_hook(app)
    from mtworkbench.gui.main_window import MainWindow
    from mtworkbench.resources import demo_project_path

    window = MainWindow()
    from mtworkbench.gui import open_in_background, start_probe

    start_probe.install(window)
    background = bool(bundle) and open_in_background.wants_background(Path(str(bundle)))
    if background:
        window.show_loading(Path(str(bundle)))  # the window names the bundle from the start
    window.show()
    settle_heap()
    target = bundle or (str(demo_project_path()) if demo else None)
    if background:
        open_in_background.open_later(window, Path(str(bundle)))  # the window first, the project when read
    elif target:
        window.open_path(target)
    else:
        window.offer_untitled_recovery()
    # Modules needed soon, once the window has painted; each other workspace is built when first asked for.
    window.workspace_tabs.import_after_paint(window)
    if os.environ.get(TEST_EDIT_ENV):
        QTimer.singleShot(0, lambda: _apply_test_edit(window, os.environ[TEST_EDIT_ENV]))
    if screenshot:
        QTimer.singleShot(500, lambda: window.grab().save(screenshot))
    if quit_after is not None:
        QTimer.singleShot(int(quit_after * 1000), app.quit)
    code = app.exec()
    start_probe.exited()
    return code
