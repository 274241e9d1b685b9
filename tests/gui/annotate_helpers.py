"""Driving the Annotate workspace like a user: clicks at characters, keys."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication

from mtworkbench.gui.annotate.offsets import to_utf16


def point_of(view, segment: str, offset: int):
    """The viewport point of the character at ``offset`` of a shown segment (a quarter into it)."""
    i = view.shown_segments().index(segment)
    block = view.document().findBlockByNumber(i)
    cursor = QTextCursor(block)
    cursor.setPosition(block.position() + to_utf16(view.segment_text(segment) or "", offset))
    view.scroll_to_segment(segment)  # scroll only: the caret is left to the click
    QApplication.processEvents()
    # A quarter into the character: a click there puts the caret before it (even for a narrow "I").
    left = view.cursorRect(cursor)
    cursor.movePosition(QTextCursor.MoveOperation.NextCharacter)
    right = view.cursorRect(cursor)
    width = right.left() - left.left() if right.top() == left.top() else 8
    return left.center() + QPoint(max(1, width // 4), 0)


def click_at(qtbot, view, segment: str, offset: int) -> None:
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point_of(view, segment, offset))


def select_with_keys(qtbot, view, segment: str, start: int, length: int) -> None:
    """Click at ``start``, then Shift+Right ``length`` times (a real keyboard selection)."""
    click_at(qtbot, view, segment, start)
    assert view.caret() == (segment, start), (view.caret(), segment, start)
    for _ in range(length):
        qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)


def type_key(qtbot, view, letter: str) -> None:
    qtbot.keyClick(view, getattr(Qt.Key, f"Key_{letter.upper()}"))


def drag_select(view, segment: str, start: int, end: int) -> None:
    """Press at ``start``, move with the button held, release at ``end`` (a mouse selection)."""
    from PySide6.QtCore import QEvent, QPointF
    from PySide6.QtGui import QMouseEvent

    a, b = point_of(view, segment, start), point_of(view, segment, end)
    left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    target = view.viewport()

    def send(kind, point, buttons):
        local = QPointF(point)
        event = QMouseEvent(kind, local, target.mapToGlobal(local), left, buttons, none)
        QApplication.sendEvent(target, event)

    send(QEvent.Type.MouseButtonPress, a, left)
    send(QEvent.Type.MouseMove, a + QPoint(1, 0), left)
    send(QEvent.Type.MouseMove, b, left)
    send(QEvent.Type.MouseButtonRelease, b, Qt.MouseButton.NoButton)


def open_in_annotate(qtbot, project, path):
    """``project`` saved at ``path`` and opened in a 1280x800 main window on the Annotate tab:
    (window, the Annotate workspace)."""
    from mtworkbench.gui.main_window import MainWindow
    from mtworkbench.io.bundle.bundle import save_bundle

    save_bundle(project, path)
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    assert window.open_path(path)
    workspace = window.workspaces["Annotate"]
    window.tabs.setCurrentWidget(workspace)
    return window, workspace
