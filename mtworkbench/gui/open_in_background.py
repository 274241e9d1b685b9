"""Opening a large bundle at start without holding the window back.

Reading and validating a bundle of a quarter of a million segments takes seconds; done before
the window is shown, the user saw nothing until then. A large bundle is read on a worker
thread while the window shows its name and "Loading…"; the project is swapped in when read,
through ``MainWindow.open_path`` (so a bad file is reported exactly as when opened from the
menu).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer

from mtworkbench.gui.disk_watch import read_state

# Below this size a bundle is read before the first paint (it takes well under a second).
BACKGROUND_BYTES = 8 * 2**20
POLL_MS = 50  # how often the GUI thread looks whether the bundle has been read


def wants_background(path: Path) -> bool:
    try:
        return path.is_file() and path.stat().st_size >= BACKGROUND_BYTES
    except OSError:
        return False


def _read(path: Path) -> tuple[str, Any]:
    try:
        return "ok", read_state(path)
    except BaseException as exc:  # noqa: BLE001 - handed to open_path, which reports it
        return "error", exc


def open_later(window: Any, path: Path) -> threading.Thread:
    """Show ``path``'s name and a loading state now; open it once a worker thread has read it.

    A plain daemon thread, not a ``JobWorker``: reading cannot be cancelled half-way and
    changes nothing, so quitting meanwhile need not wait for it (workers are waited for).
    """
    window.show_loading(path)
    result: list[tuple[str, Any]] = []
    thread = threading.Thread(target=lambda: result.append(_read(path)), name="open-bundle", daemon=True)
    poll = QTimer(window)
    poll.setInterval(POLL_MS)

    def arrived() -> None:
        if thread.is_alive():
            return
        poll.stop()
        poll.deleteLater()
        if window.isVisible():  # not after the window was closed meanwhile
            window.open_path(path, preloaded=result[0] if result else None)

    poll.timeout.connect(arrived)
    thread.start()
    poll.start()
    return thread
