"""The current segment's texts: source, each reference and each system output.

Texts are shown read-only; the pencil button next to one opens an inline
editor (Enter applies through the undo stack, Escape cancels), so that
correcting a typo in a reference is one undoable step.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QWidget,
)

from mtworkbench.core.events import MEMBERSHIP_EVENTS, TEXT_EVENTS
from mtworkbench.core.model import ModelError
from mtworkbench.gui.commands import SetTextCommand
from mtworkbench.gui.plain import esc, show_message
from mtworkbench.gui.session import ProjectSession


class _TextRow(QStackedWidget):
    """A read-only label that turns into a line editor on request."""

    edited = Signal(str)
    """The user applied a new text; payload: the text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Maximum)
        self.editor = QLineEdit()
        self.addWidget(self.label)
        self.addWidget(self.editor)
        self.editor.returnPressed.connect(self._apply)
        self.editor.installEventFilter(self)

    def set_text(self, text: str | None) -> None:
        self.label.setText(text if text is not None else "<i>(no text)</i>")
        self.label.setTextFormat(Qt.TextFormat.RichText if text is None else Qt.TextFormat.PlainText)
        self._text = text or ""
        self.setCurrentWidget(self.label)

    def start_editing(self) -> None:
        self.editor.setText(self._text)
        self.setCurrentWidget(self.editor)
        self.editor.setFocus()
        self.editor.selectAll()

    def _apply(self) -> None:
        text = self.editor.text()
        self.setCurrentWidget(self.label)
        if text != self._text:
            self.edited.emit(text)

    def eventFilter(self, obj, event) -> bool:  # Escape cancels the edit
        if obj is self.editor and event.type() == event.Type.KeyPress and event.key() == Qt.Key.Key_Escape:
            self.setCurrentWidget(self.label)
            return True
        return super().eventFilter(obj, event)

    def hasHeightForWidth(self) -> bool:
        widget = self.currentWidget()
        return widget is not None and widget.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:
        widget = self.currentWidget()
        return widget.heightForWidth(width) if widget is not None else -1

    def sizeHint(self):
        return self.currentWidget().sizeHint()

    def minimumSizeHint(self):
        return self.currentWidget().minimumSizeHint()


class SegmentPanel(QScrollArea):
    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWidgetResizable(True)
        self.body = QWidget()
        self.grid = QGridLayout(self.body)
        self.grid.setColumnStretch(1, 1)
        self.grid.setVerticalSpacing(6)
        self.setWidget(self.body)
        self.rows: dict[tuple[str, str], _TextRow] = {}
        self.edit_buttons: dict[tuple[str, str], QPushButton] = {}
        session.project_replaced.connect(self.rebuild)
        session.current_segment_changed.connect(self.refresh)
        session.project_changed.connect(self._on_change)
        self.rebuild()

    def _on_change(self, event) -> None:
        if type(event) in MEMBERSHIP_EVENTS:
            self.rebuild()
        elif type(event) in TEXT_EVENTS:
            self.refresh()

    def rebuild(self, *_args) -> None:
        while self.grid.count():
            item = self.grid.takeAt(0)
            if item is not None and (widget := item.widget()) is not None:
                # Hidden at once: deleteLater waits for the event loop, and until then the old
                # row would still be drawn over the new one ("(no text)" beside Source).
                widget.hide()
                widget.deleteLater()
        for r in range(self.grid.rowCount()):  # a stretch left from the previous project
            self.grid.setRowStretch(r, 0)
        self.rows.clear()
        self.edit_buttons.clear()
        project = self.session.project
        entries = [("source", "", "Source")]
        entries += [("reference", r.id, f"Reference {r.id}") for r in project.references]
        entries += [("system", s.id, f"{'Human' if s.kind == 'human' else 'System'} {s.id}") for s in project.systems]
        for row, (kind, owner, title) in enumerate(entries):
            label = QLabel(f"<b>{esc(title)}</b>")  # a reference or system id, escaped
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
            text_row = _TextRow()
            button = QPushButton("Edit")
            button.setToolTip(f"Correct the {kind} text of this segment (Enter applies, Esc cancels)")
            button.setObjectName(f"edit-{kind}-{owner}")
            button.clicked.connect(text_row.start_editing)
            text_row.edited.connect(lambda text, k=kind, o=owner: self._commit(k, o, text))
            self.grid.addWidget(label, row, 0)
            self.grid.addWidget(text_row, row, 1)
            self.grid.addWidget(button, row, 2, Qt.AlignmentFlag.AlignTop)
            self.rows[(kind, owner)] = text_row
            self.edit_buttons[(kind, owner)] = button
        self.grid.setRowStretch(len(entries), 1)
        self.refresh()

    def refresh(self, *_args) -> None:
        project = self.session.project
        seg = self.session.current_segment
        for (kind, owner), row in self.rows.items():
            if not seg:
                row.set_text(None)
            elif kind == "source":
                row.set_text(project.segment(seg).source)
            elif kind == "reference":
                row.set_text(project.reference_text(owner, seg))
            else:
                row.set_text(project.system_text(owner, seg))
        for button in self.edit_buttons.values():
            button.setEnabled(bool(seg))

    def _commit(self, kind: str, owner: str, text: str) -> None:
        seg = self.session.current_segment
        if kind == "reference":
            try:
                self.session.project.check_reference_text(owner, seg, text)
            except ModelError as exc:
                show_message(self, QMessageBox.Icon.Warning, "Text not changed", str(exc))
                return
        self.session.push(SetTextCommand(self.session.project, kind, owner, seg, text))
