"""What every workspace tab offers the main window."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from mtworkbench.gui.session import ProjectSession


class Workspace(QWidget):
    """A tab of the main window. Subclasses build their widgets in ``__init__``
    and follow ``session`` signals; they edit the project only by pushing
    commands onto ``session.undo_stack``."""

    title = "Workspace"

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session

    def export_widget(self) -> QWidget:
        """The view File > Export view saves as PNG or SVG (the whole tab by default)."""
        return self
