"""The main window: navigator, workspaces, segment panel, menus, autosave."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QTabWidget,
    QTreeView,
    QWidget,
)

from mtworkbench import __version__
from mtworkbench.core.errors import DataError
from mtworkbench.core.events import SegmentChanged
from mtworkbench.core.model import Project
from mtworkbench.core.wording import plural
from mtworkbench.gui import dialogs, heap
from mtworkbench.gui.after_paint import after_next_paint
from mtworkbench.gui.bundle_on_disk import BUNDLE_FILTER, BundleOnDisk, error_message
from mtworkbench.gui.commands import SetTargetLanguageCommand
from mtworkbench.gui.disk_watch import BundleWatcher, read_state
from mtworkbench.gui.navigator_model import NavigatorModel
from mtworkbench.gui.recovery_restore import restore_onto
from mtworkbench.gui.recovery_writer import RecoveryWriter, recovery_folder, recovery_target
from mtworkbench.gui.segment_panel import SegmentPanel
from mtworkbench.gui.session import ProjectSession
from mtworkbench.gui.workspace_tabs import WorkspaceTabs
from mtworkbench.io.bundle import locking
from mtworkbench.io.bundle.bundle import disk_hash
from mtworkbench.io.bundle.recovery import find_recovery
from mtworkbench.resources import inside_program

# Workspace tabs, imported by name so a broken workspace cannot stop the app.
WORKSPACES = (
    "mtworkbench.gui.annotate.workspace:AnnotateWorkspace",
    "mtworkbench.gui.judge.workspace:JudgeWorkspace",
    "mtworkbench.gui.metrics.workspace:MetricsWorkspace",
    "mtworkbench.gui.analysis.workspace:AnalysisWorkspace",
)
AUTOSAVE_MS = 2 * 60 * 1000
WORKSPACE_MINIMUM_KEY = "window/workspace-minimum"
MAX_RECENT = 8
# The documents dock starts narrow enough to leave a 1280-pixel screen's workspaces their tables
# and views side by side (the user widens it; the width is remembered with the window).
NAV_DOCK_WIDTH = 300


def recovery_path(path: Path | None) -> Path:
    """Where the recovery copy goes: beside the bundle, or in the per-user recovery folder when untitled."""
    return recovery_target(path)


class MainWindow(QMainWindow, BundleOnDisk):
    project_saved = Signal(object)
    """The project was written to disk; payload: the ``Path``."""
    project_shown = Signal(object)
    """Every part of the window, late-built workspaces included, has taken the new project in."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = ProjectSession(self)
        self.settings = QSettings()
        self.resize(1280, 800)
        self.setMinimumSize(900, 600)

        self.navigator_model = NavigatorModel(self.session.project, self)
        self.navigator = QTreeView()
        self.navigator.setObjectName("navigator")
        self.navigator.setModel(self.navigator_model)
        self.navigator.setUniformRowHeights(True)
        self.navigator.setAlternatingRowColors(True)
        self.navigator.setColumnWidth(0, 150)
        self.navigator.selectionModel().currentChanged.connect(self._navigator_current_changed)
        nav_dock = QDockWidget("Documents", self)
        nav_dock.setObjectName("documents-dock")
        nav_dock.setWidget(self.navigator)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, nav_dock)

        self.segment_panel = SegmentPanel(self.session)
        seg_dock = QDockWidget("Segment", self)
        seg_dock.setObjectName("segment-dock")
        seg_dock.setWidget(self.segment_panel)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, seg_dock)
        self.resizeDocks([nav_dock], [NAV_DOCK_WIDTH], Qt.Orientation.Horizontal)
        self.resizeDocks([seg_dock], [260], Qt.Orientation.Vertical)
        self.docks = [nav_dock, seg_dock]

        self.tabs = QTabWidget()
        self.tabs.setObjectName("workspaces")
        self.tabs.setDocumentMode(True)
        # The first workspace now, each other one when first asked for (its tab chosen, or looked up).
        # The font check's module is imported after the first paint: its first import (regular
        # expressions over whole scripts) was a tenth of a second of the turn that shows a project.
        self.workspace_tabs = WorkspaceTabs(self.tabs, self.session, WORKSPACES, preload=("mtworkbench.gui.script_fonts",))
        self.workspaces = self.workspace_tabs.workspaces
        # The room every workspace needs, as measured when they were last all built: reserved
        # before the late ones exist, so building them never narrows the docks in sight.
        self.workspace_tabs.reserve(self.settings.value(WORKSPACE_MINIMUM_KEY))
        self.workspace_tabs.all_built.connect(lambda size: self.settings.setValue(WORKSPACE_MINIMUM_KEY, size))
        self.setCentralWidget(self.tabs)

        self.status_label = QLabel()
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)  # shows a segment id
        self.statusBar().addPermanentWidget(self.status_label)
        # Said once per project: which script of the project no installed font draws.
        self.font_notice = QLabel()
        self.font_notice.setObjectName("font-notice")
        self.font_notice.setWordWrap(True)
        self.font_notice.hide()
        self.statusBar().addWidget(self.font_notice, 1)

        self._build_menus()
        # Bound methods, not lambdas: Qt drops them when the window is destroyed.
        self.session.undo_stack.cleanChanged.connect(self._update_title)
        self.session.undo_stack.indexChanged.connect(self._update_status)
        self.session.path_changed.connect(self._update_title)
        self.session.project_replaced.connect(self._on_project_replaced)
        self.session.current_segment_changed.connect(self._on_current_segment)
        self.session.project_changed.connect(self._on_project_changed)
        self.session.open_in_judge_requested.connect(self._show_in_judge)

        # The disk side (BundleOnDisk): what we loaded, who else has the file, crash recovery.
        self._loaded_hash: str | None = None  # content hash of the bundle as loaded or last saved
        self._base_data: bytes | None = None  # its bytes: the base of a three-way merge
        self._recovered_unsaved = False
        self.read_only = False
        self._marked_open: Path | None = None
        self._autosave_error_shown = False
        self._asking_about_disk = False
        self.watcher = BundleWatcher(self)
        self.watcher.changed_on_disk.connect(self._changed_on_disk)
        self.recovery = RecoveryWriter(self._recovery_snapshot, self, base=lambda: self._base_data)
        self.recovery.written.connect(self._recovery_written)
        self.recovery.failed.connect(self._report_autosave_failure)
        self.session.undo_stack.indexChanged.connect(self.recovery.schedule)

        # A slow safety net besides the per-edit recovery copy (e.g. after a failed write).
        self.autosave_timer = QTimer(self)
        self.autosave_timer.setInterval(AUTOSAVE_MS)
        self.autosave_timer.timeout.connect(self.autosave)
        self.autosave_timer.start()

        self._restore_ui_state()
        self._update_title()
        self._update_status()

    # --- building -------------------------------------------------------------------
    def _build_menus(self) -> None:
        menu = self.menuBar().addMenu("&File")
        self.action_new = self._action(menu, "&New project from files…", self.new_project_from_files, QKeySequence.StandardKey.New)
        self.action_open = self._action(menu, "&Open…", self.open_dialog, QKeySequence.StandardKey.Open)
        self.recent_menu = menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        menu.addSeparator()
        self.action_save = self._action(menu, "&Save", self.save, QKeySequence.StandardKey.Save)
        self.action_save_as = self._action(menu, "Save &As…", self.save_as, QKeySequence.StandardKey.SaveAs)
        self.action_export_view = self._action(menu, "&Export view…", self.export_view, "Ctrl+E")
        from mtworkbench.gui import campaign_dialogs  # File > Split/Merge packages, Campaign progress

        campaign_dialogs.add_menu_actions(self, menu)
        menu.addSeparator()
        self.action_quit = self._action(menu, "&Quit", self.close, QKeySequence.StandardKey.Quit)

        edit = self.menuBar().addMenu("&Edit")
        self.action_undo = self.session.undo_stack.createUndoAction(self, "&Undo")
        self.action_undo.setShortcut(QKeySequence.StandardKey.Undo)
        self.action_redo = self.session.undo_stack.createRedoAction(self, "&Redo")
        # The platform's redo keys plus Ctrl+Y, without duplicates (a duplicate is ambiguous and never fires).
        redo_keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
        if QKeySequence("Ctrl+Y") not in redo_keys:
            redo_keys.append(QKeySequence("Ctrl+Y"))
        self.action_redo.setShortcuts(redo_keys)
        edit.addAction(self.action_undo)
        edit.addAction(self.action_redo)
        edit.addSeparator()
        self.action_target_language = self._action(edit, "&Target language…", self.edit_target_language)
        self.action_typology = self._action(edit, "MQM error t&ypology…", self.edit_mqm_typology)

        view = self.menuBar().addMenu("&View")
        for dock in self.docks:
            view.addAction(dock.toggleViewAction())
        view.addSeparator()
        for i in range(self.tabs.count()):
            action = self._action(view, self.tabs.tabText(i), lambda _=False, i=i: self.tabs.setCurrentIndex(i), f"Ctrl+{i + 1}")
            action.setObjectName(f"show-workspace-{i}")

        from mtworkbench.gui.metrics.models_menu import add_metrics_menu  # Metrics > Models…, missing-model notice

        add_metrics_menu(self)
        help_menu = self.menuBar().addMenu("&Help")
        self._action(help_menu, "&Keyboard shortcuts", self.show_shortcuts, "F1")
        self._action(help_menu, "&About mtworkbench", self._about)

    def _action(self, menu, text, slot, shortcut=None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut) if isinstance(shortcut, str) else shortcut)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    # --- project life cycle ------------------------------------------------------------
    def set_project(self, project: Project, path: Path | None, loaded_hash: str | None = None,
                    base_data: bytes | None = None, read_only: bool = False, select_later: bool = False) -> None:
        """Show ``project``; ``loaded_hash``/``base_data``: the bundle's content as read from ``path``.

        Unless ``read_only``, the bundle is marked open by this instance (``.NAME.open``).
        ``select_later``: its first segment is made current (Annotate's first page laid out, the
        navigator's selection) in the next event-loop turn, so the window paints in between: the
        swap-in of a large project and the paint after it were one stall of over 100 ms.
        """
        self._release_open_marker()
        self._copy_of: str | None = None  # the program's bundle an untitled project copies
        replaces_frozen = heap.is_frozen(self.session.project)
        self.session.replace_project(project, path, select_first=not select_later)
        if select_later:
            self._selecting_first: Project | None = project
            after_next_paint(self, lambda: self._select_first(project))
        self.project_shown.emit(project)
        if path is not None and loaded_hash is None:
            try:  # the file as it is now is what a later save must find unchanged
                loaded_hash = disk_hash(path)
            except (OSError, ValueError):
                loaded_hash = None
        self._loaded_hash = loaded_hash
        self._base_data = base_data
        self.read_only = read_only
        if path is not None and not read_only:
            self._claim_open_marker(path)
        self.watcher.watch(path, loaded_hash)
        if replaces_frozen:  # the old project's objects, frozen when read, are freed
            heap.release(project)

    def _select_first(self, project: Project) -> None:
        """The deferred first selection: Annotate's first page now, the navigator's row after
        the next paint (a third turn: its first selection lays out the tree, 20-30 ms)."""
        if getattr(self, "_selecting_first", None) is not project:
            return
        if self.session.project is not project:
            self._selecting_first = None
            return
        self.session.select_first_segment()
        after_next_paint(self, lambda: self._navigator_follows(project))

    def _navigator_follows(self, project: Project) -> None:
        if getattr(self, "_selecting_first", None) is project:
            self._selecting_first = None
            self._on_current_segment(self.session.current_segment)

    def show_loading(self, path: Path) -> None:
        """The window names ``path`` and says it is loading (read on a worker thread meanwhile)."""
        self._loading: Path | None = path
        self._update_title()
        self.statusBar().showMessage(f"Loading {path.name}…")

    def open_path(self, path: str | Path, offer_recovery: bool = True, preloaded: tuple | None = None) -> bool:
        """Open the bundle at ``path``; ``preloaded``: ("ok", state) or ("error", exception)
        of reading it on a worker thread (gui.open_in_background)."""
        path = Path(path)
        if getattr(self, "_loading", None) is not None:
            self._loading = None
            self.statusBar().clearMessage()
            self._update_title()
        try:
            if preloaded is None:
                state = read_state(path)
            elif preloaded[0] == "ok":
                state = preloaded[1]
            else:
                raise preloaded[1]
        except (DataError, OSError, RecursionError, ValueError, MemoryError) as exc:
            # Loading validates, but no malformed file may ever reach the user as a traceback.
            dialogs.error(self, "Cannot open project", error_message(exc))
            return False
        except Exception as exc:  # noqa: BLE001 - the same promise for anything unforeseen
            dialogs.error(self, "Cannot open project", f"{path}: {type(exc).__name__}: {exc}")
            return False
        if inside_program(path):
            return self._open_program_copy(path, state.project)
        read_only = False
        holder = locking.open_elsewhere(path)
        if holder is not None:
            choice = dialogs.ask_open_elsewhere(self, path, holder.describe())
            if choice == "cancel":
                return False
            read_only = choice == "read_only"
        project, recovered = state.project, False
        loaded_hash, loaded_data = state.sha256, state.data
        if offer_recovery:
            offer = self._recovery_offer(path)
            if offer is not None:
                if dialogs.ask_recover(self, offer):
                    (project, loaded_hash, loaded_data), recovered = restore_onto(self, path, offer, state), True
                    self.recovery.adopt(path)
                else:
                    self.recovery.discard(path, only_own=False)
        # Read on a worker thread (a large bundle): the first segment is selected a turn later.
        self.set_project(project, path, loaded_hash, loaded_data, read_only=read_only,
                         select_later=preloaded is not None)
        # A recovered state is not on disk yet: it stays marked modified (and keeps its recovery copy).
        self._recovered_unsaved = recovered
        self._add_recent(path)
        self._update_title()
        if recovered:
            self.statusBar().showMessage(f"Recovered unsaved work for {path.name}", 8000)
        else:
            self.statusBar().showMessage(f"Opened {path.name}" + (" (read-only)" if read_only else ""), 5000)
        return True

    def _open_program_copy(self, path: Path, project: Project) -> bool:
        """One of the program's own bundles (the demo) opens as an untitled copy: Save asks
        where, and nothing (no lock, marker or recovery copy) is written beside it."""
        from mtworkbench.scoring.shipped_scores import seed_shipped_scores

        self.recovery.discard(self.session.path)
        seed_shipped_scores(project, path)  # the scores shipped beside it (read only): shown at once
        self.set_project(project, None)
        self._copy_of = path.name
        self._update_title()
        self.statusBar().showMessage(f"Opened a copy of {path.name}: Save asks where to keep it", 8000)
        return True

    def _recovery_offer(self, path: Path | None):
        try:
            return find_recovery(path, recovery_folder())
        except (DataError, OSError, RecursionError, ValueError) as exc:
            dialogs.error(self, "Recovery file is damaged", f"{error_message(exc)}\n\nIt is set aside; the project opens as saved.")
            target = recovery_path(path)
            try:
                target.replace(target.with_name(target.name + ".damaged"))
            except OSError:
                pass
            return None

    def offer_untitled_recovery(self) -> bool:
        """At start without a bundle: offer the untitled project's recovery copy, if any."""
        offer = self._recovery_offer(None)
        if offer is None:
            return False
        if not dialogs.ask_recover(self, offer):
            self.recovery.discard(None, only_own=False)
            return False
        self.recovery.adopt(None)
        self.set_project(offer.project, None)
        self._recovered_unsaved = True
        self._update_title()
        self.statusBar().showMessage("Recovered an unsaved untitled project", 8000)
        return True

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        name, _ = QFileDialog.getOpenFileName(self, "Open project", self._last_folder(), BUNDLE_FILTER)
        if name:
            self.open_path(name)

    def new_project_from_files(self) -> None:
        if not self.maybe_save():
            return
        project = dialogs.new_project_from_files(self)
        if project is not None:
            self.recovery.discard(self.session.path)
            self.set_project(project, None)
            self._recovered_unsaved = True
            self._update_title()
            self.recovery.schedule()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        self.recovery.discard(self.session.path)
        self._release_open_marker()
        self.watcher.watch(None, None)
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.sync()  # written now: the process ends without tearing down (app.exit_now)
        event.accept()

    # --- export ---------------------------------------------------------------------
    def export_view(self) -> None:
        widget = self.tabs.currentWidget()
        target = widget.export_widget() if hasattr(widget, "export_widget") else widget
        name, _ = QFileDialog.getSaveFileName(self, "Export view", self._last_folder(), "PNG image (*.png);;SVG image (*.svg)")
        if name:
            from mtworkbench.gui.export import export_figure

            try:
                export_figure(target, Path(name))
            except (OSError, ValueError) as exc:
                dialogs.error(self, "Cannot export view", error_message(exc))
            else:
                self.statusBar().showMessage(f"Exported {name}", 5000)

    # --- reactions --------------------------------------------------------------------
    def _on_project_replaced(self, project: Project) -> None:
        self._check_fonts(project)
        self.navigator_model.set_project(project)
        self.navigator.expandToDepth(0)
        self._update_title()
        self._update_status()

    def edit_target_language(self) -> None:
        """Ask for the project's target language code (undoable); it picks every language default."""
        from mtworkbench.core.language import language_label

        project = self.session.project
        code, ok = dialogs.ask_target_language(self, project.target_language)
        if not ok or code.strip() == project.target_language:
            return
        self.session.undo_stack.push(SetTargetLanguageCommand(project, code))
        self.statusBar().showMessage(
            f"Target language: {code.strip() or '(none)'} — {language_label(code)}", 5000
        )

    def edit_mqm_typology(self) -> None:
        """The project's MQM categories and error limit (each edit undoable)."""
        from mtworkbench.gui.judge.typology_dialog import edit_typology

        edit_typology(self.session, self)

    def _check_fonts(self, project: Project) -> None:
        from mtworkbench.gui import script_fonts

        notice = script_fonts.missing_font_notice(script_fonts.project_texts(project))
        self.font_notice.setText(notice or "")
        self.font_notice.setToolTip(notice or "")
        self.font_notice.setVisible(bool(notice))

    def _on_project_changed(self, event) -> None:
        if isinstance(event, SegmentChanged):
            self.navigator_model.refresh_segment(event.segment.id)
        self._update_status()

    def _navigator_current_changed(self, current, _previous) -> None:
        segment_id = current.data(NavigatorModel.SegmentIdRole) if current.isValid() else ""
        # The view makes a row current by itself once the new model is laid out: not before
        # the window has painted the swap-in (the first segment is selected then).
        if segment_id and getattr(self, "_selecting_first", None) is not self.session.project:
            self.session.set_current_segment(segment_id)

    def _on_current_segment(self, segment_id: str) -> None:
        if getattr(self, "_selecting_first", None) is self.session.project:
            self._update_status()
            return  # the navigator follows once the window has painted (_select_first)
        index = self.navigator_model.segment_index(segment_id)
        if index.isValid() and self.navigator.currentIndex().internalId() != index.internalId():
            self.navigator.setCurrentIndex(index)
            self.navigator.scrollTo(index)
        self._update_status()

    def _show_in_judge(self, system_id: str, segment_id: str) -> None:
        judge = self.workspaces.get("Judge")
        if judge is not None:
            self.tabs.setCurrentWidget(judge)
            if hasattr(judge, "show_item"):
                judge.show_item(system_id, segment_id)
        self.session.set_current_segment(segment_id)

    def _update_title(self, *_args) -> None:
        copy_of = getattr(self, "_copy_of", None)
        name = self.session.path.name if self.session.path else (f"Untitled copy of {copy_of}" if copy_of else "Untitled")
        loading = getattr(self, "_loading", None)
        if loading is not None:
            name = f"{loading.name} (loading…)"
        if getattr(self, "read_only", False):
            name += " (read-only)"
        self.setWindowModified(self.is_modified())
        self.setWindowTitle(f"{name}[*] — mtworkbench")

    def _update_status(self, *_args) -> None:
        p = self.session.project
        seg = self.session.current_segment
        where = ""
        if seg:
            where = f"segment {seg} ({p.segment_position(seg) + 1}/{len(p.segments)}) · "
        counts = ((len(p.documents), "document"), (len(p.segments), "segment"), (len(p.references), "reference"),
                  (len(p.systems), "system"), (p.span_count, "entity"), (p.judgment_count, "judgment"))
        self.status_label.setText(where + " · ".join(plural(n, word) for n, word in counts))

    # --- settings: UI state only -----------------------------------------------------------
    def _restore_ui_state(self) -> None:
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        state = self.settings.value("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.restoreState(state)

    def recent_files(self) -> list[str]:
        value = self.settings.value("recent_files", [])
        if isinstance(value, str):
            value = [value]
        return [v for v in value if isinstance(v, str)] if isinstance(value, (list, tuple)) else []

    def _add_recent(self, path: Path) -> None:
        path_str = str(Path(path).resolve())
        recent = [p for p in self.recent_files() if p != path_str]
        self.settings.setValue("recent_files", [path_str, *recent][:MAX_RECENT])
        self.settings.setValue("last_folder", str(Path(path_str).parent))

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.recent_files()
        if not recent:
            action = self.recent_menu.addAction("(none)")
            action.setEnabled(False)
        for path in recent:
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _=False, p=path: self._open_recent(p))

    def _open_recent(self, path: str) -> None:
        if self.maybe_save():
            self.open_path(path)

    def _last_folder(self) -> str:
        return str(self.settings.value("last_folder", str(Path.home())))

    def show_shortcuts(self) -> QDialog:
        """Every shortcut of the menus and workspaces, and the keys each workspace uses."""
        from mtworkbench.gui.shortcuts import ShortcutsDialog

        # Workspaces not built yet have no actions to read: the list is of every workspace.
        self.workspace_tabs.build_all()
        dialog = getattr(self, "_shortcuts_dialog", None)
        if dialog is None:
            dialog = self._shortcuts_dialog = ShortcutsDialog(self)
        dialog.fill(self)
        dialog.show()
        dialog.raise_()
        return dialog

    def _about(self) -> None:
        QMessageBox.about(
            self,
            "About mtworkbench",
            f"<h3>mtworkbench {__version__}</h3><p>An offline workbench for evaluating machine translation: "
            "entity annotation, human judgments, metrics and meta-evaluation.</p>",
        )
