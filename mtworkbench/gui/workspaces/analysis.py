"""The Analysis workspace (metric-human correlation; filled by its own issue)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout

from mtworkbench.gui.workspaces.base import Workspace


class AnalysisWorkspace(Workspace):
    title = "Analysis"

    def __init__(self, session, parent=None) -> None:
        super().__init__(session, parent)
        self.summary = QLabel()
        self.summary.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        session.project_replaced.connect(self.refresh)
        self.refresh()

    def refresh(self, *_args) -> None:
        p = self.session.project
        self.summary.setText(f"<h3>Meta-evaluation</h3><p>{len(p.judgments)} judgments to correlate with metrics.</p>")
