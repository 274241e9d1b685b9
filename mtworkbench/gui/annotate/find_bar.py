"""The find bar of the Annotate workspace (Ctrl+F): find a string in the
reference and annotate every occurrence of it as one undo step."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)


class FindBar(QWidget):
    find_requested = Signal(bool)
    """Find the next (False) or previous (True) occurrence."""

    annotate_all_requested = Signal(str)
    """Annotate every occurrence with the type named in the payload."""

    closed = Signal()
    """The bar was closed with Escape (focus goes back to the text)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("find-bar")
        self._controls: tuple[QWidget, ...] = ()
        self.needle = QLineEdit()
        self.needle.setObjectName("find-text")
        self.needle.setPlaceholderText("Find in the reference (Enter: next, Shift+Enter: previous)")
        self.needle.returnPressed.connect(self._find_next)
        self.needle.installEventFilter(self)
        # Room for at least 30 characters of the string sought ("Los Angeles" whole).
        self.needle.setMinimumWidth(self.needle.fontMetrics().averageCharWidth() * 32 + 12)
        self.whole_words = QCheckBox("Whole wo&rds")  # Alt+W: Snap to words
        self.whole_words.setChecked(True)
        self.case_sensitive = QCheckBox("Match c&ase")
        self.case_sensitive.setChecked(True)
        previous = QPushButton("&Previous")  # Alt+V, E, F, H: the menus
        previous.clicked.connect(self._find_previous)
        following = QPushButton("Ne&xt")
        following.clicked.connect(self._find_next)
        self.type = QComboBox()
        self.type.setObjectName("find-type")
        self.annotate_all = QPushButton("Annota&te every occurrence")
        self.annotate_all.setObjectName("annotate-all")
        self.annotate_all.setToolTip("Tag every occurrence of the string in the reference with the chosen type (one undo step)")
        self.annotate_all.clicked.connect(self._annotate_all)
        close = QToolButton()
        close.setText("✕")
        close.setToolTip("Close the find bar (Esc)")
        close.clicked.connect(self.hide)
        # Two rows, so the find field keeps its width in a narrow workspace.
        rows = QVBoxLayout(self)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.setSpacing(2)
        top, bottom = QHBoxLayout(), QHBoxLayout()
        rows.addLayout(top)
        rows.addLayout(bottom)
        find_label = QLabel("Fi&nd")
        find_label.setBuddy(self.needle)
        top.addWidget(find_label)
        top.addWidget(self.needle, 1)
        top.addWidget(previous)
        top.addWidget(following)
        top.addWidget(close)
        bottom.addWidget(self.whole_words)
        bottom.addWidget(self.case_sensitive)
        bottom.addSpacing(12)
        as_label = QLabel("a&s")
        as_label.setBuddy(self.type)
        bottom.addWidget(as_label)
        bottom.addWidget(self.type)
        bottom.addWidget(self.annotate_all)
        bottom.addStretch(1)
        # Escape closes the bar wherever its focus is (a button, a box, the field).
        self._controls = (self.whole_words, self.case_sensitive, previous, following, self.type, self.annotate_all, close)
        for child in self._controls:
            child.installEventFilter(self)

    def close_bar(self) -> None:
        self.hide()
        self.closed.emit()

    def set_types(self, names: list[str]) -> None:
        current = self.type.currentText()
        self.type.clear()
        self.type.addItems(names)
        if current in names:
            self.type.setCurrentText(current)

    def open(self, text: str = "") -> None:
        if text:
            self.needle.setText(text)
        self.show()
        self.needle.setFocus()
        self.needle.selectAll()

    def _find_next(self) -> None:
        self.find_requested.emit(False)

    def _find_previous(self) -> None:
        self.find_requested.emit(True)

    def _annotate_all(self) -> None:
        self.annotate_all_requested.emit(self.type.currentText())

    def eventFilter(self, obj, event) -> bool:
        if obj in self._controls and event.type() == event.Type.KeyPress and event.key() == Qt.Key.Key_Escape:
            self.close_bar()
            return True
        if obj is self.needle and event.type() == event.Type.KeyPress:
            key_event: QKeyEvent = event
            if key_event.key() == Qt.Key.Key_Escape:
                self.close_bar()
                return True
            if key_event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and key_event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self._find_previous()
                return True
        return super().eventFilter(obj, event)
