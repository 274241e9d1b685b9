"""The main window's workspace tabs, built when first needed.

Importing and building all four workspaces took most of the app's start (their plotting and
statistics modules); the window shows sooner with only the first workspace built. The others
wait as light placeholders until they are asked for: their tab is chosen (by a click or its
Ctrl+number), or code looks one up in ``workspaces``. Building one is a single event-loop turn
of 0.3-0.5 s (its plots) plus taking a large project in (the Metrics workspace's tables walk
every segment), so building them unasked after the first paint stalled a window that had just
shown, while a large project was still opening. Their modules are not imported ahead either:
on a background thread, importing the plotting library (which touches every Qt class) kept
the window waiting for the interpreter's lock for 0.3-0.5 s in all. A workspace built late
reads the session's current project in its constructor, as one built before the project was
opened would have on ``project_replaced``.
"""

from __future__ import annotations

import importlib
import threading
import traceback
from collections.abc import Callable, Iterator

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtWidgets import QLabel, QTabWidget, QWidget

from mtworkbench.gui.session import ProjectSession


class Workspaces(dict):
    """Title -> workspace widget; looking anything up first builds the workspaces still pending."""

    def __init__(self, build_all: Callable[[], None]) -> None:
        super().__init__()
        self._build_all = build_all

    def __getitem__(self, key):
        self._build_all()
        return super().__getitem__(key)

    def get(self, key, default=None):
        self._build_all()
        return super().get(key, default)

    def __contains__(self, key) -> bool:
        self._build_all()
        return super().__contains__(key)

    def __iter__(self) -> Iterator:
        self._build_all()
        return super().__iter__()

    def __len__(self) -> int:
        self._build_all()
        return super().__len__()

    def values(self):
        self._build_all()
        return super().values()

    def items(self):
        self._build_all()
        return super().items()

    def keys(self):
        self._build_all()
        return super().keys()


def _import_all(modules: list[str], done: set[str]) -> None:
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - the GUI thread's import reports it in the tab
            pass
        done.add(name)


def workspace_title(target: str) -> str:
    return target.split(":")[1].replace("Workspace", "")


class WorkspaceTabs(QObject):
    """Fills ``tabs`` with one tab per target ("module:Class"); all but the first start as
    light placeholders, each replaced by its workspace when that is first asked for."""

    all_built = Signal(QSize)
    """The last pending workspace was built; payload: the least size the tabs need for all."""

    def __init__(self, tabs: QTabWidget, session: ProjectSession, targets: tuple[str, ...],
                 preload: tuple[str, ...] = ()) -> None:
        """``preload``: modules the window will need soon, imported off the GUI thread after
        its first paint (light ones: see above why not the workspaces')."""
        super().__init__(tabs)
        self._preload = preload
        self.tabs, self.session = tabs, session
        self.workspaces = Workspaces(self.build_all)
        self._pending: dict[str, tuple[str, QWidget]] = {}  # title -> (target, placeholder)
        self._building = False
        self._window: QWidget | None = None  # imports after its first paint (import_after_paint)
        self._importer: threading.Thread | None = None
        self._imported: set[str] = set()  # modules the importer has finished (a set is thread-safe to add to)
        for i, target in enumerate(targets):
            if i == 0:
                self._add(self._build(target))
            else:
                placeholder = QLabel()  # says what is coming while the workspace is built
                placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
                placeholder.setObjectName(f"pending-{workspace_title(target).lower()}")
                title = workspace_title(target)
                self._pending[title] = (target, placeholder)
                self.tabs.addTab(placeholder, title)
        self.tabs.currentChanged.connect(self._tab_chosen)

    @property
    def pending(self) -> bool:
        return bool(self._pending)

    def import_later(self) -> None:
        """Import the ``preload`` modules on a background thread."""
        modules = list(self._preload)
        if not modules or self._importer is not None:
            return
        self._importer = threading.Thread(target=_import_all, args=(modules, self._imported),
                                          name="workspace-imports", daemon=True)
        self._importer.start()

    @property
    def imported(self) -> bool:
        """The background import has run to its end (or there is nothing to import)."""
        return not self._preload or (self._importer is not None and not self._importer.is_alive())

    def reserve(self, size: object) -> None:
        """Keep the tabs at least ``size`` (a QSize, or anything else for nothing) until every
        workspace is built: a workspace built late that needs more room than the first would
        otherwise squeeze the docks beside the tabs once it appears."""
        if self._pending and isinstance(size, QSize) and size.isValid():
            self.tabs.setMinimumSize(size)

    def import_after_paint(self, window: QWidget) -> None:
        """Import the ``preload`` modules once ``window`` has painted."""
        self._window = window
        window.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        window = self._window
        if window is not None and watched is window and event.type() == QEvent.Type.Paint:
            window.removeEventFilter(self)
            self._window = None
            self.import_later()
        return False

    def build_all(self) -> None:
        for title in list(self._pending):
            self._replace(title)

    def _tab_chosen(self, index: int) -> None:
        widget = self.tabs.widget(index)
        for title, (_target, placeholder) in list(self._pending.items()):
            if placeholder is widget and isinstance(placeholder, QLabel):
                # Building it holds this turn (its plotting modules are imported now): the
                # placeholder is painted first, so the wait is explained.
                placeholder.setText(f"Opening {title}…")
                placeholder.repaint()
                self._replace(title)

    def _replace(self, title: str) -> None:
        if self._building or title not in self._pending:
            return
        self._building = True
        try:
            target, placeholder = self._pending.pop(title)
            widget, title = self._build(target)
            index = self.tabs.indexOf(placeholder)
            was_current = self.tabs.currentIndex() == index
            self.tabs.blockSignals(True)
            try:
                self.tabs.insertTab(index, widget, title)
                self.tabs.removeTab(index + 1)
                if was_current:
                    self.tabs.setCurrentIndex(index)
            finally:
                self.tabs.blockSignals(False)
            placeholder.deleteLater()
            self.workspaces[title] = widget  # dict's own __setitem__: no build
            if not self._pending:  # each workspace now sets the tabs' least size itself
                self.tabs.setMinimumSize(0, 0)
                self.all_built.emit(self.tabs.minimumSizeHint())
        finally:
            self._building = False

    def _add(self, built: tuple[QWidget, str]) -> None:
        widget, title = built
        self.workspaces[title] = widget
        self.tabs.addTab(widget, title)

    def _build(self, target: str) -> tuple[QWidget, str]:
        module_name, class_name = target.split(":")
        try:
            cls = getattr(importlib.import_module(module_name), class_name)
            widget = cls(self.session)
            title = cls.title
        except Exception:  # a broken workspace must not take the app down
            widget = QLabel(f"This workspace could not be loaded:\n\n{traceback.format_exc(limit=3)}")
            widget.setTextFormat(Qt.TextFormat.PlainText)
            widget.setWordWrap(True)
            title = workspace_title(target)
        widget.setObjectName(f"workspace-{title.lower()}")
        return widget, title
