"""Opening a large bundle at start without holding the window back.

Reading and validating a bundle of a quarter of a million segments takes seconds; done before
the window is shown, the user saw nothing until then. A large bundle is read on a worker
thread while the window shows its name and "Loading…"; the project is swapped in when read,
through ``MainWindow.open_path`` (so a bad file is reported exactly as when opened from the
menu).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mtworkbench.gui.disk_watch import read_state
from mtworkbench.gui.worker import JobWorker

# Below this size a bundle is read before the first paint (it takes well under a second).
BACKGROUND_BYTES = 8 * 2**20


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


def open_later(window: Any, path: Path) -> JobWorker:
    """Show ``path``'s name and a loading state now; open it once a worker thread has read it."""
    window.show_loading(path)

    def job(_progress, _cancel, _deliver):
        return _read(path)

    worker = JobWorker(job)
    # Not after the window was closed meanwhile (the user quit while it loaded).
    worker.succeeded.connect(lambda outcome: window.isVisible() and window.open_path(path, preloaded=outcome))
    worker.failed.connect(lambda _message: window.isVisible() and window.open_path(path))
    worker.start()
    return worker
