"""A workspace's layout that adapts and is remembered: views that pop out into
windows of their own, and splitter sizes kept per workspace in ``QSettings``.

``PopOutPane`` holds one view in its place in the workspace. Its "Pop out"
button (placed in the view's own bar where it has one, so no row is spent on
it) moves the view into a window of its own, so a view that needs more room
than a 1280x800 screen leaves it can have a whole screen; the pane hides and
its splitter gives the room to the others. Closing that window, or its "Put
back" button, returns the view. ``LayoutMemory`` saves the splitters' sizes
when the user moves them and which panes are out, and restores both when the
workspace is next shown.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QObject, QSettings, Qt, Signal
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QBoxLayout,
    QHBoxLayout,
    QLabel,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

SETTINGS_ROOT = "layout"


class PaneWindow(QWidget):
    """The window a popped-out view lives in; closing it puts the view back."""

    closing = Signal()

    def __init__(self, title: str, parent: QWidget) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle(f"{title} — mtworkbench")
        self.put_back_button = QToolButton()
        self.put_back_button.setText("Put &back")
        self.put_back_button.setToolTip("Return this view to its place in the workspace (or close this window)")
        self.put_back_button.setAutoRaise(True)
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 2, 4, 0)
        bar.addStretch(1)
        bar.addWidget(self.put_back_button)
        self.body = QVBoxLayout(self)
        self.body.setContentsMargins(4, 0, 4, 4)
        self.body.addLayout(bar)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Close), self, self.close)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        self.closing.emit()
        super().closeEvent(event)


class PopOutPane(QWidget):
    """One view of a workspace that can live in its own window."""

    popped_changed = Signal(bool)

    def __init__(self, key: str, title: str, content: QWidget, bar: QBoxLayout | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key, self.title, self.content = key, title, content
        self.setObjectName(f"pane-{key}")
        self.window_: PaneWindow | None = None
        self.pop_button = QToolButton()
        self.pop_button.setObjectName(f"pop-out-{key}")
        self.pop_button.setText("Pop out")
        self.pop_button.setToolTip(f"Show {title} in a window of its own (close that window to put it back)")
        self.pop_button.setAutoRaise(True)
        self.pop_button.clicked.connect(self.pop_out)
        layout = self.body = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        if bar is None:  # a view without a bar of its own gets a slim title row
            bar = QHBoxLayout()
            bar.setContentsMargins(2, 0, 2, 0)
            label = QLabel(title)
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setStyleSheet("font-weight: 600;")
            bar.addWidget(label)
            bar.addStretch(1)
            layout.addLayout(bar)
        bar.addWidget(self.pop_button)
        layout.addWidget(content, 1)

    @property
    def is_popped(self) -> bool:
        return self.window_ is not None

    def pop_out(self) -> None:
        if self.window_ is not None:
            self.window_.raise_()
            self.window_.activateWindow()
            return
        window = PaneWindow(self.title, self)
        window.setObjectName(f"window-{self.key}")
        window.body.addWidget(self.content, 1)
        self.content.show()
        window.put_back_button.clicked.connect(window.close)
        window.closing.connect(self.put_back)
        self.window_ = window
        width = max(self.width(), self.content.sizeHint().width(), 640)
        height = max(self.height(), self.content.sizeHint().height(), 420)
        window.resize(width, height)
        self.hide()
        window.show()
        self.popped_changed.emit(True)

    def put_back(self) -> None:
        window, self.window_ = self.window_, None
        if window is None:
            return
        self.body.addWidget(self.content, 1)
        self.content.show()
        self.show()
        window.closing.disconnect(self.put_back)
        window.hide()
        window.deleteLater()
        self.popped_changed.emit(False)


class LayoutMemory(QObject):
    """Splitter sizes and popped-out panes of one workspace, kept in ``QSettings``."""

    def __init__(self, workspace: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.prefix = f"{SETTINGS_ROOT}/{workspace}"
        self.splitters: dict[str, QSplitter] = {}
        self.panes: dict[str, PopOutPane] = {}
        self.restored = False
        self.user_sized: set[str] = set()  # splitters whose sizes are the user's (moved or restored)

    def add_splitter(self, name: str, splitter: QSplitter) -> None:
        splitter.setObjectName(splitter.objectName() or f"splitter-{name}")
        self.splitters[name] = splitter
        splitter.splitterMoved.connect(lambda *_args, n=name: self._save_splitter(n))

    def add_pane(self, pane: PopOutPane) -> None:
        self.panes[pane.key] = pane
        pane.popped_changed.connect(lambda popped, k=pane.key: self._save_pane(k, popped))

    def _save_splitter(self, name: str) -> None:
        self.user_sized.add(name)
        QSettings().setValue(f"{self.prefix}/{name}", self.splitters[name].saveState())

    def _save_pane(self, key: str, popped: bool) -> None:
        QSettings().setValue(f"{self.prefix}/popped/{key}", "true" if popped else "false")

    def restore(self) -> None:
        """Once, when the workspace is first shown: the user's sizes and windows."""
        if self.restored:
            return
        self.restored = True
        settings = QSettings()
        for name, splitter in self.splitters.items():
            state = settings.value(f"{self.prefix}/{name}")
            if isinstance(state, QByteArray) and not state.isEmpty() and splitter.restoreState(state):
                self.user_sized.add(name)
        for key, pane in self.panes.items():
            if str(settings.value(f"{self.prefix}/popped/{key}", "false")) == "true":
                pane.pop_out()
