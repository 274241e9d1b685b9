"""The Metrics workspace (filled by its own issue; for now an overview of what it will act on)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout

from mtworkbench.gui.workspaces.base import Workspace


class MetricsWorkspace(Workspace):
    title = "Metrics"

    def __init__(self, session, parent=None) -> None:
        super().__init__(session, parent)
        self.summary = QLabel()
        self.summary.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.summary.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        session.project_replaced.connect(self.refresh)
        session.project_changed.connect(self.refresh)
        self.refresh()

    def refresh(self, *_args) -> None:
        self.summary.setText(self.describe())

    def describe(self) -> str:
        p = self.session.project
        return (f"<h3>Metrics</h3><p>{len(p.systems)} systems, {len(p.segments)} segments,"
                f" {len(p.references)} references. Metrics: {', '.join(p.settings.metrics)}.</p>")
