"""The main window's side of the bundle on disk: saving (never over another writer's
change without asking), reloading, merging, the open marker and the recovery copy."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QStatusBar, QWidget

from mtworkbench.core.errors import BundleChangedOnDisk, DataError
from mtworkbench.core.model import Project
from mtworkbench.gui import dialogs
from mtworkbench.gui.disk_watch import BundleWatcher, base_project, read_state
from mtworkbench.gui.recovery_writer import RecoveryWriter
from mtworkbench.gui.save_worker import run_painting
from mtworkbench.gui.session import ProjectSession
from mtworkbench.io.bundle import locking
from mtworkbench.io.bundle.bundle import SUFFIX, default_score_file, write_bundle
from mtworkbench.io.bundle.recovery import diff_projects
from mtworkbench.resources import inside_program

BUNDLE_FILTER = f"mtworkbench projects (*{SUFFIX});;All files (*)"
# How long Save waits for another writer's lock before saying who holds it.
SAVE_LOCK_TIMEOUT_S = 10.0


class BundleOnDisk:
    """Mixed into the main window after QMainWindow (whose methods win), which sets up the state below."""

    session: ProjectSession
    settings: QSettings
    watcher: BundleWatcher
    recovery: RecoveryWriter
    autosave_timer: QTimer
    project_saved: Any  # Signal(object): the Path written
    read_only: bool
    _loaded_hash: str | None  # content hash of the bundle as loaded or last saved
    _base_data: bytes | None  # its bytes: the base of a three-way merge
    _recovered_unsaved: bool
    _marked_open: Path | None
    _marker_writer: threading.Thread | None  # writing the open marker (``_claim_open_marker``)
    _autosave_error_shown: bool
    _asking_about_disk: bool

    # The window's own (MainWindow defines them).
    def statusBar(self) -> QStatusBar:  # noqa: N802 - Qt's name
        raise NotImplementedError

    def set_project(self, project: Project, path: Path | None, loaded_hash: str | None = None,
                    base_data: bytes | None = None, read_only: bool = False) -> None:
        raise NotImplementedError

    def _last_folder(self) -> str:
        raise NotImplementedError

    def _add_recent(self, path: Path) -> None:
        raise NotImplementedError

    def _update_title(self, *_args) -> None:
        raise NotImplementedError

    def window_widget(self) -> QWidget:
        """The window, as the parent of its dialogs."""
        assert isinstance(self, QWidget)
        return self

    def save(self) -> bool:
        if self.session.path is None or self.read_only:
            return self.save_as()
        return self.save_to(self.session.path)

    def save_as(self) -> bool:
        copy_of = getattr(self, "_copy_of", None)
        start = str(self.session.path or Path(self._last_folder()) / (copy_of or f"project{SUFFIX}"))
        name, _ = QFileDialog.getSaveFileName(self.window_widget(), "Save project as", start, BUNDLE_FILTER)
        if not name:
            return False
        if not name.endswith(SUFFIX) and not name.endswith(".json"):
            name += SUFFIX
        return self.save_to(Path(name))

    def save_to(self, path: Path) -> bool:
        """Write the project; never over a file changed on disk without asking."""
        if inside_program(path):
            dialogs.error(self.window_widget(), "Cannot save project",
                          f"{path.parent} is the program's own folder; choose another place for your project.")
            return self.save_as()
        same_file = self.session.path is not None and is_same_file(path, self.session.path)
        if same_file and self.read_only:
            return self.save_as()
        # Our own file: it must still be what we loaded. Another file: the user chose to replace it.
        expected = self._loaded_hash if same_file and self._loaded_hash is not None else None
        self.watcher.pause()
        project = self.session.project
        score_file = project.score_file
        if not same_file or not project.score_file:
            # a new bundle names its own score file (set_path carries the scores over); an
            # older one names its default file from now on (set here so `written` is what is saved)
            project.score_file = default_score_file(path)
        try:
            # Encoded once, on the worker: the bytes written are the base of a later merge. A big
            # project takes seconds: the status bar says so while the window paints (input waits).
            self.statusBar().showMessage(f"Saving {path.name}…")
            QApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
            try:
                new_hash, written = run_painting(
                    lambda: write_bundle(project, path, expected_hash=expected, timeout=SAVE_LOCK_TIMEOUT_S))
                if self.recovery.is_writing():  # a big project's autosave: waited for while the window paints
                    run_painting(self.recovery.wait, name="mtwb-save-wait")
            finally:
                QApplication.restoreOverrideCursor()
                self.statusBar().clearMessage()
        except BundleChangedOnDisk:
            project.score_file = score_file
            self.watcher.resume()
            return self._resolve_changed_on_disk(path)
        except Exception as exc:  # noqa: BLE001 - a failed save is reported, never a crash
            project.score_file = score_file
            self.watcher.resume()
            dialogs.error(self.window_widget(), "Cannot save project",
                          f"{error_message(exc)}\n\nNothing was lost: the file on disk is unchanged and your work is still open.")
            return False
        old_path = self.session.path
        self.recovery.discard(old_path)
        if old_path is not None and not is_same_file(old_path, path):
            self.recovery.discard(path)
        if not same_file:
            self._release_open_marker()
            self.session.set_path(path)
            self._claim_open_marker(path)
            self.read_only = False
        self._loaded_hash = new_hash
        self._base_data = written  # what we wrote: the base of a later merge
        self.watcher.watch(path, new_hash)
        self.watcher.resume()
        self.session.undo_stack.setClean()
        self._recovered_unsaved = False
        self._add_recent(path)
        self._update_title()
        self.statusBar().showMessage(f"Saved {path.name}", 5000)
        self.project_saved.emit(path)
        return True

    def _resolve_changed_on_disk(self, path: Path) -> bool:
        """Save found the bundle changed by someone else: the user decides; nothing is overwritten silently."""
        try:
            theirs = read_state(path)
        except FileNotFoundError:
            theirs = None
        except Exception as exc:  # noqa: BLE001 - the other writer left something we cannot read
            dialogs.error(self.window_widget(), "Project changed on disk",
                          f"{error_message(exc)}\n\nThe file on disk was changed and cannot be read; "
                          "use Save As to keep your work in another file.")
            return self.save_as()
        if theirs is None:
            # Deleted meanwhile: writing it again overwrites nobody's work.
            self._loaded_hash = None
            return self.save_to(path)
        base = self._base()
        summary = diff_projects(base, theirs.project).summary() if base is not None else []
        self._asking_about_disk = True  # the watcher must not ask about the same change meanwhile
        try:
            choice = dialogs.ask_changed_on_disk(self.window_widget(), path, summary)
        finally:
            self._asking_about_disk = False
        if choice == "save_as":
            return self.save_as()
        if choice == "reload":
            if not dialogs.confirm_lose_edits(self.window_widget(), path):
                return False
            self._reload(path, theirs)
            return False
        if choice != "merge":
            return False
        from mtworkbench.io.bundle.merge import merge_projects

        try:
            result = merge_projects(theirs.project, self.session.project, base)
        except (DataError, ValueError) as exc:
            dialogs.error(self.window_widget(), "Cannot merge", f"{error_message(exc)}\n\nNothing was written; use Save As to keep your work.")
            return False
        dialogs.show_merge_result(self.window_widget(), path, result.conflicts, result.taken_from_mine)
        # The merged project replaces ours (the undo history goes with it) and is saved over the disk version.
        current = self.session.current_segment
        self.set_project(result.project, path, theirs.sha256, theirs.data)
        if current and result.project.has_segment(current):
            self.session.set_current_segment(current)
        self._recovered_unsaved = True
        return self.save_to(path)

    def _base(self) -> Project | None:
        try:
            return base_project(self._base_data, self.session.path or Path("project"))
        except (DataError, ValueError):
            return None

    def _reload(self, path: Path, state=None) -> None:
        if state is None:
            try:
                state = read_state(path)
            except Exception as exc:  # noqa: BLE001
                dialogs.error(self.window_widget(), "Cannot reload project", error_message(exc))
                return
        self.recovery.discard(path)
        self.set_project(state.project, path, state.sha256, state.data, read_only=self.read_only)
        self._recovered_unsaved = False
        self._update_title()
        self.statusBar().showMessage(f"Reloaded {path.name} from disk", 5000)

    def _changed_on_disk(self, path: Path, new_hash: str | None) -> None:
        """The watcher saw another program change (or remove) our bundle: offer to reload."""
        if self.session.path is None or not is_same_file(path, self.session.path) or self._asking_about_disk:
            return
        self._asking_about_disk = True  # one question at a time, however many events arrive
        try:
            reload = dialogs.ask_reload_changed(self.window_widget(), path, self.is_modified(), new_hash is None)
            if reload and self.is_modified() and not dialogs.confirm_lose_edits(self.window_widget(), path):
                reload = False
        finally:
            self._asking_about_disk = False
        if reload:
            self._reload(path)
        else:
            # Not asked again for this version; Save will still refuse to overwrite it silently.
            self.watcher.dismiss(new_hash)

    def _claim_open_marker(self, path: Path) -> None:
        """Mark ``path`` open by this instance, on a thread: the marker is written atomically
        (two fsyncs: tens of milliseconds on a busy disk, in the turn that shows a project)
        and is advice to other instances, which nothing in this one waits for."""
        self._marked_open = path
        self._marker_writer = threading.Thread(target=_mark_open, args=(path,), name="open-marker", daemon=True)
        self._marker_writer.start()

    def wait_for_open_marker(self) -> None:
        """Until the open marker, if one is being written, is on disk (or could not be)."""
        writer = getattr(self, "_marker_writer", None)
        if writer is not None:
            writer.join()
            self._marker_writer = None

    def _release_open_marker(self) -> None:
        self.wait_for_open_marker()  # not removed before it is written
        if self._marked_open is not None:
            try:
                locking.unmark_open(self._marked_open)
            except OSError:
                pass
            self._marked_open = None

    def is_modified(self) -> bool:
        return self.session.is_modified or getattr(self, "_recovered_unsaved", False)

    def maybe_save(self) -> bool:
        """Ask about unsaved changes; False means the user cancelled."""
        if not self.is_modified():
            return True
        answer = dialogs.ask_save_changes(self.window_widget())
        if answer == "save":
            return self.save()
        if answer == "discard":
            self.recovery.discard(self.session.path)
            return True
        return False

    def _recovery_snapshot(self):
        if not self.is_modified():
            return None
        return self.session.project, self.session.path

    def autosave(self) -> None:
        """Write a recovery copy now when there are unsaved changes (never the real file; never raises)."""
        try:
            if not self.is_modified():
                self.recovery.discard(self.session.path)  # undone back to the saved state
                return
            self.recovery.write_now()
        except Exception as exc:  # noqa: BLE001 - the timer handler must never take the app down
            self._report_autosave_failure(f"{type(exc).__name__}: {exc}")

    def _recovery_written(self, _target) -> None:
        self._autosave_error_shown = False
        self.statusBar().showMessage("Autosaved a recovery copy", 3000)

    def _report_autosave_failure(self, message: str) -> None:
        """Shown in a dialog once; later failures only in the status bar until a write succeeds."""
        self.statusBar().showMessage(f"Autosave failed: {message}", 8000)
        if self._autosave_error_shown:
            return
        self._autosave_error_shown = True
        try:
            dialogs.error(self.window_widget(), "Autosave failed",
                          f"{message}\n\nYour work is still open; save it (or Save As) to keep it. "
                          "This message is not repeated.")
        except Exception:  # noqa: BLE001 - reporting must not fail the timer either
            pass


def error_message(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.filename}: {exc.strerror or exc}"
    if isinstance(exc, RecursionError):
        return "the file is nested too deeply to read"
    if isinstance(exc, MemoryError):
        return "the file is too large to read"
    return str(exc)


def is_same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return a == b


def _mark_open(path: Path) -> None:
    try:
        locking.mark_open(path)
    except OSError:
        pass  # a read-only folder: the marker is advice, not a lock (removing it removes nothing of ours)
