"""What the app knows about its bundle on disk, and noticing when someone else changes it.

``DiskState`` remembers the content hash of what was loaded or last saved (so a
save can refuse to overwrite a file changed since: ``save_bundle(...,
expected_hash=...)``) and the bytes themselves, which are the common base of a
three-way merge when both sides changed.

``BundleWatcher`` emits ``changed_on_disk`` when the bundle's content differs
from what the app last loaded or wrote. It watches the file and its folder
with ``QFileSystemWatcher``: an atomic save (ours or a CLI command's) renames a
new file over the old one, which drops the watch on the file, so the watch is
re-armed after every event. Events are debounced, and the file is hashed only
when its size, modification time or inode changed (the folder also changes
when our own recovery copy is written beside the bundle).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from mtworkbench.core.files import read_regular_bytes
from mtworkbench.core.model import Project
from mtworkbench.gui import heap
from mtworkbench.io.bundle.bundle import content_hash, disk_hash, loads_bytes

DEBOUNCE_MS = 300


@dataclass
class LoadedState:
    """A project read from disk with the hash and bytes it came from."""

    project: Project
    sha256: str
    data: bytes


def read_state(path: str | Path) -> LoadedState:
    """Load a bundle keeping its bytes (the merge base) and their hash.

    Decoded from the bytes by sections (``loads_bytes``), not as one JSON text: one
    ``json.loads`` of a large file holds the interpreter's lock for seconds, so a read on
    a worker thread froze the window for as long."""
    path = Path(path)
    data = read_regular_bytes(path)
    # A large project is kept out of the collector's full passes from the moment it is built.
    project = heap.read_frozen(lambda: loads_bytes(data, file=str(path)), len(data))
    return LoadedState(project, content_hash(data), data)


def base_project(data: bytes | None, path: Path) -> Project | None:
    """The project as it was loaded (for a three-way merge), or None if unknown."""
    if data is None:
        return None
    return loads_bytes(data, file=str(path))


def _signature(path: Path) -> tuple[int, int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_size, info.st_mtime_ns, info.st_ino)


class BundleWatcher(QObject):
    changed_on_disk = Signal(object, object)
    """The bundle now differs from what the app knows; payload: (``Path``, new hash or None if deleted)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path: Path | None = None
        self.known_hash: str | None = None  # what we loaded or wrote last
        self._dismissed_hash: str | None = None  # a change the user chose not to reload: not asked again
        self._signature: tuple[int, int, int] | None = None
        self._paused = 0
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self._schedule)
        self.watcher.directoryChanged.connect(self._schedule)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.check)

    def watch(self, path: Path | None, known_hash: str | None) -> None:
        """Follow ``path`` (None: nothing), whose content we know has ``known_hash``."""
        paths = self.watcher.files() + self.watcher.directories()
        if paths:
            self.watcher.removePaths(paths)
        self.path = path
        self._dismissed_hash = None
        self.set_known(known_hash)
        self._arm()

    def set_known(self, known_hash: str | None) -> None:
        """We loaded or wrote this content: no change to report."""
        self.known_hash = known_hash
        self._signature = None if self.path is None else _signature(self.path)

    def dismiss(self, current_hash: str | None) -> None:
        """The user saw this change and kept working: do not ask again until it changes again."""
        self._dismissed_hash = current_hash
        self.recheck()

    def recheck(self) -> None:
        """Look again soon even without a new event (a change may have come while we were asking)."""
        self._signature = None
        self.timer.start()

    def pause(self) -> None:
        """While we write the bundle ourselves (``resume`` after)."""
        self._paused += 1

    def resume(self) -> None:
        self._paused = max(0, self._paused - 1)
        self._signature = None if self.path is None else _signature(self.path)
        self._arm()

    def _arm(self) -> None:
        if self.path is None:
            return
        folder = str(self.path.parent)
        if folder not in self.watcher.directories() and os.path.isdir(folder):
            self.watcher.addPath(folder)
        if str(self.path) not in self.watcher.files() and self.path.exists():
            self.watcher.addPath(str(self.path))

    def _schedule(self, *_args) -> None:
        self._arm()  # an atomic rename dropped the file's watch: watch the new file
        self.timer.start()

    def check(self) -> bool:
        """Compare the file with what we know; emits ``changed_on_disk`` and returns True on a change."""
        self._arm()
        if self.path is None or self._paused:
            return False
        signature = _signature(self.path)
        if signature is not None and signature == self._signature:
            return False
        self._signature = signature
        try:
            current = disk_hash(self.path)
        except (OSError, ValueError):
            return False  # unreadable for a moment (being replaced): the next event tells
        if current == self.known_hash or current == self._dismissed_hash:
            return False
        self.changed_on_disk.emit(self.path, current)
        return True
