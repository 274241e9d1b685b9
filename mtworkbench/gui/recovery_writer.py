"""Unsaved work reaches a recovery copy within about a second of each edit.

``RecoveryWriter.schedule`` is called on every change of the undo stack; the
first call starts a one-second single-shot timer (later calls while it runs
do not postpone it, so steady typing still writes every second). When the
timer fires, a small project is serialised on the GUI thread and written at
once. A large one is copied, encoded and written on a background thread: even
copying a 250,000-segment project into plain dicts stalled the window for
0.1-0.3 s, and encoding the 7,406-judgment TED MQM import 150-400 ms.

The model is not thread-safe, so the copy is checked instead of locked: the
writer listens to the project's change events while it copies. Changing a text
(a reference's, a system's or a source) leaves every part it copied valid, the
changed text old or new; any other change (a judgment, a span, a queue, a
system added) may have been made between two parts, so the copy is taken again
(and given up after a few tries, for the next write). Each part is copied in
one step (a dict copy runs with the GIL held), and the encoder hands the GIL
back between pieces, so the window's thread is never held for long. An edit made
while a copy is written schedules the next one: no edit is left out for long.
Every failure is caught: it is reported once (``failed`` signal) and retried on
the next edit, never raised into the event loop.

Untitled projects write to a per-user folder (``recovery_folder``).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from mtworkbench.core import events as ev
from mtworkbench.core.atomic import atomic_write_stream
from mtworkbench.core.files import check_output_size
from mtworkbench.core.gc_pause import no_cyclic_gc
from mtworkbench.core.model import Project
from mtworkbench.io.bundle.bundle import dumps, free_document, project_to_dict
from mtworkbench.io.bundle.json_writer import dumps_text, fast_pieces
from mtworkbench.io.bundle.recovery import base_path, recovery_path

log = logging.getLogger(__name__)

DELAY_MS = 1000
# Snapshots larger than this are written off the GUI thread.
BACKGROUND_BYTES = 1 << 20
# Projects with more texts, judgments and queue items than this (about 0.5 MB of JSON,
# 20 ms to encode) are also encoded off the GUI thread.
BACKGROUND_ITEMS = 2_000


def project_items(project: Project) -> int:
    """Texts, judgments and queue items: what the size of a project's JSON grows with."""
    texts = sum(len(r.texts) for r in project.references) + sum(len(s.texts) for s in project.systems)
    queued = sum(len(queue.items) for queue in project.judge_queues.values())
    return len(project.segment_ids) + texts + len(project.judgments) + queued


def encode(document: dict) -> bytes:
    """The bytes ``bundle.dumps`` writes for the ``project_to_dict`` document (a test keeps them equal)."""
    return b"".join(encode_pieces(document))


def encode_pieces(document: dict) -> list[bytes | memoryview]:
    """``encode(document)`` in the pieces the writer writes one by one (joined, a large project's
    270 MB were one copy holding the interpreter's lock, and the window, for a quarter of a second):
    orjson's pieces where they are exactly what ``bundle.dumps`` writes, else the standard library's."""
    pieces = fast_pieces(document)
    return [dumps_text(document).encode("utf-8")] if pieces is None else pieces


class _QueuesApart:
    """A project as ``project_to_dict`` reads it, but with no judges' queues: a queue's
    JSON (``dataclasses.asdict``, 25-60 ms for the 7,400 items of a TED MQM queue) is
    made on the writer thread, from copies taken on the GUI thread (``Snapshot``)."""

    def __init__(self, project: Project) -> None:
        self._project = project

    @property
    def judge_queues(self) -> dict:
        return {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._project, name)


def _copy_record(value: Any) -> Any:
    """A shallow copy of a dataclass record (its fields are strings, numbers and flags)."""
    if dataclasses.is_dataclass(value) and hasattr(value, "__dict__"):
        copied: Any = object.__new__(type(value))
        vars(copied).update(vars(value))
        return copied
    return value


def _copy_queue(queue: Any) -> Any:
    copied = _copy_record(queue)
    for name, value in list(vars(copied).items()):
        if isinstance(value, list):  # the items, and lists of ids: the only parts edited in place
            setattr(copied, name, [_copy_record(v) for v in value])
    return copied


@dataclasses.dataclass
class Snapshot:
    """A large project's state for its recovery copy: taken on the GUI thread (fresh dicts
    and lists, sharing only values the project replaces whole and never edits), turned
    into bytes on the writer thread."""

    document: dict
    queues: dict

    @classmethod
    def of(cls, project: Project) -> Snapshot:
        queues = {judge: _copy_queue(queue) for judge, queue in project.judge_queues.items()}
        return cls(project_to_dict(_QueuesApart(project)), queues)  # type: ignore[arg-type]

    def encode(self) -> bytes:
        return b"".join(self.encode_pieces())

    def encode_pieces(self) -> list[bytes | memoryview]:
        self.document["judge_queues"] = {judge: queue.to_json() for judge, queue in self.queues.items()}
        return encode_pieces(self.document)


SNAPSHOT_TRIES = 3


class ChangesWhileCopying:
    """Listens to a project (on the GUI thread, where it changes) while the writer copies it."""

    def __init__(self) -> None:
        self.other = 0  # changes that are not a text's: a copy that spans one is taken again

    def __call__(self, event: ev.ProjectEvent) -> None:
        # A text replaced, set or cleared leaves a copy taken meanwhile valid.
        if type(event) not in ev.TEXT_EVENTS:
            self.other += 1


class ChangedMeanwhile(Exception):
    """The project kept changing while it was copied: left to the next write."""


def snapshot_off_gui_thread(project: Project, changes: ChangesWhileCopying) -> Snapshot:
    """A consistent ``Snapshot`` taken on the writer thread while the GUI thread may edit."""
    for _ in range(SNAPSHOT_TRIES):
        seen = changes.other
        try:
            snapshot = Snapshot.of(project)
        except (RuntimeError, KeyError, ValueError, IndexError):
            continue  # a dict or list changed under the copy (a text cleared, a queue moved)
        except Exception:
            if changes.other == seen:
                raise  # not a change's doing: reported as any failed autosave
            continue
        if changes.other == seen:
            return snapshot
        free_document(snapshot.document)
    raise ChangedMeanwhile


def recovery_folder() -> Path:
    """Where an untitled project's recovery copy goes (``MTWB_RECOVERY_DIR`` overrides)."""
    override = os.environ.get("MTWB_RECOVERY_DIR")
    if override:
        return Path(override)
    settings = os.environ.get("MTWB_SETTINGS_DIR")
    if settings:  # tests and portable installs keep everything in one folder
        return Path(settings) / "recovery"
    import platformdirs

    return platformdirs.user_data_path("mtworkbench", appauthor=False) / "recovery"


def recovery_target(bundle: Path | None) -> Path:
    return recovery_path(bundle, recovery_folder())


class RecoveryWriter(QObject):
    written = Signal(object)
    """A recovery copy was written; payload: its ``Path``."""

    failed = Signal(str)
    """Writing the recovery copy failed; payload: a one-line message."""

    # (path, error message or None, generation, (project, listener) to unsubscribe or None): from the writer thread
    _finished = Signal(object, object, int, object)

    def __init__(self, snapshot: Callable[[], tuple[Project, Path | None] | None], parent: QObject | None = None,
                 base: Callable[[], bytes | None] | None = None) -> None:
        """``snapshot()`` returns (project, bundle path) when there is unsaved work, else None;
        ``base()`` the bundle's bytes as loaded or last saved (kept beside the copy, for a merge)."""
        super().__init__(parent)
        self.snapshot = snapshot
        self.base = base
        self._base_written: dict[Path, bytes] = {}
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DELAY_MS)
        self.timer.timeout.connect(self.write_now)
        self._thread: threading.Thread | None = None
        self._again = False
        self._generation = 0  # discard() makes a write still under way obsolete
        self._own: set[Path] = set()  # recovery copies this window wrote
        self._finished.connect(self._on_finished)

    def schedule(self, *_args) -> None:
        if not self.timer.isActive():
            self.timer.start()

    def write_now(self) -> None:
        """Write the recovery copy now (never raises)."""
        if self._thread is not None and self._thread.is_alive():
            self._again = True  # one write at a time; the latest state follows
            return
        try:
            state = self.snapshot()
            if state is None:
                return
            project, bundle = state
            target = recovery_target(bundle)
            base = self._base_to_write(target) if bundle is not None else None
            large = project_items(project) > BACKGROUND_ITEMS
            # A large project: copied, encoded and written on the writer thread.
            data = b"" if large else dumps(project).encode("utf-8")
        except Exception as exc:  # noqa: BLE001 - an autosave must never take the app down
            log.error("recovery copy not written", exc_info=exc)
            self.failed.emit(f"{type(exc).__name__}: {exc}")
            return
        generation = self._generation
        if not large and len(data) < BACKGROUND_BYTES and (base is None or len(base) < BACKGROUND_BYTES):
            if base is not None:
                _write(base_path(target), base)
            self._on_finished(target, _write(target, data), generation)
            return
        changes = ChangesWhileCopying() if large else None
        if changes is not None:
            project.subscribe(changes)  # until the writer is done (_on_finished)

        def run() -> None:
            error = _copy_encode_and_write(target, project if large else None, changes, data, base)
            self._finished.emit(target, error, generation, (project, changes) if changes is not None else None)

        self._thread = threading.Thread(target=run, name="mtwb-recovery", daemon=True)
        self._thread.start()

    def _base_to_write(self, target: Path) -> bytes | None:
        """The base to keep beside the copy, when not written yet (it changes only on load
        and save). A failed write only loses the merge on restore, not the copy."""
        data = self.base() if self.base is not None else None
        if data is None or self._base_written.get(target) is data:
            return None
        self._base_written[target] = data
        return data

    def is_writing(self) -> bool:
        """A write is under way on the writer thread (``wait`` would block)."""
        return self._thread is not None and self._thread.is_alive()

    def wait(self, timeout: float = 30.0) -> None:
        """Let a background write finish (before the copy is removed, or at exit)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def discard(self, bundle: Path | None, only_own: bool = True) -> None:
        """Remove the recovery copy of ``bundle`` (saved or discarded work); cancels a pending write.

        ``only_own``: only a copy this window wrote (another instance that has the same bundle
        open may have written the one there); False for a copy the user declined to restore.
        """
        self.timer.stop()
        self._generation += 1
        self._again = False
        self.wait()
        target = recovery_target(bundle)
        if only_own and target not in self._own:
            return
        self._own.discard(target)
        self._base_written.pop(target, None)
        for path in (target, base_path(target)):
            try:
                path.unlink(missing_ok=True)
            except OSError as exc:
                log.warning("recovery copy not removed: %s", exc)

    def adopt(self, bundle: Path | None) -> None:
        """The recovery copy of ``bundle`` is this window's now (it restored it)."""
        self._own.add(recovery_target(bundle))

    def _on_finished(self, target: Path, error: str | None | ChangedMeanwhile, generation: int,
                     listening: tuple[Project, ChangesWhileCopying] | None = None) -> None:
        self._thread = None
        if listening is not None:
            listening[0].unsubscribe(listening[1])
        if isinstance(error, ChangedMeanwhile):
            self._again = True  # nothing written: the next write copies the project as it is then
        elif generation != self._generation:
            # Saved or discarded meanwhile: the copy just written is obsolete.
            try:
                Path(target).unlink(missing_ok=True)
            except OSError:
                pass
        elif error is None:
            self._own.add(Path(target))
            self.written.emit(target)
        else:
            self.failed.emit(error)
        if self._again:
            self._again = False
            self.schedule()


def _copy_encode_and_write(target: Path, project: Project | None, changes: ChangesWhileCopying | None,
                           data: bytes, base: bytes | None = None) -> str | None | ChangedMeanwhile:
    """On the writer thread: a large ``project`` copied and encoded (else ``data``), then written."""
    if base is not None:
        _write(base_path(target), base)
    if project is not None and changes is not None:
        try:
            with no_cyclic_gc():  # a full pass over the copy's fresh dicts would hold the GIL
                snapshot = snapshot_off_gui_thread(project, changes)
                pieces = snapshot.encode_pieces()
                free_document(snapshot.document)
        except ChangedMeanwhile as exc:
            return exc
        except Exception as exc:  # noqa: BLE001 - reported to the user once, never raised
            log.error("recovery copy not written", exc_info=exc)
            return f"{type(exc).__name__}: {exc}"
        return _write(target, pieces)
    return _write(target, data)


def _write(target: Path, data: bytes | list[bytes | memoryview]) -> str | None:
    pieces = [data] if isinstance(data, bytes) else data
    try:
        check_output_size(target, sum(len(piece) for piece in pieces))  # refused before a file is made
        target.parent.mkdir(parents=True, exist_ok=True)
        # A link there is replaced; each piece is written as it is (a large one without the GIL).
        atomic_write_stream(target, lambda handle: handle.writelines(pieces), keep_backup=False, follow_link=False)
    except Exception as exc:  # noqa: BLE001 - reported to the user once, never raised
        return f"{target}: {exc.strerror if isinstance(exc, OSError) and exc.strerror else exc}"
    return None
