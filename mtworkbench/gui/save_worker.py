"""Saving a bundle off the GUI thread while the window keeps painting.

Encoding and writing a 250,000-segment project takes about a second; run on the
GUI thread, the window would freeze (and be marked "not responding") for that
long. ``run_painting`` runs the work on a thread and, until it ends, lets the
event loop paint and run its timers but holds back the user's input: the
project must not change under the encoder, which reads it (the model is not
thread-safe). The caller gets the result or the exception, as from a plain call.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QEventLoop, QObject, Qt, Signal

T = TypeVar("T")


class _Done(QObject):
    finished = Signal()  # emitted on the worker thread: queued to the waiting loop


def run_painting(work: Callable[[], T], name: str = "mtwb-save") -> T:
    """``work()`` on a thread; the window paints meanwhile; its exception is raised here."""
    outcome: dict[str, object] = {}
    done = _Done()
    loop = QEventLoop()
    done.finished.connect(loop.quit, Qt.ConnectionType.QueuedConnection)

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, re-raised on the GUI thread
            outcome["error"] = exc
        finally:
            done.finished.emit()

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)  # a quit queued already ends it at once
    thread.join()
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]


__all__ = ["run_painting"]
