"""Under the sentence browser: the selected output with each rater's error spans.

One line per rater (MQM/ESA) over the text the rater saw, spans tinted by
severity with a plain-text tooltip (category, severity, rater). The "Show error
spans" box also switches the spans drawn over the metric views' candidates.
Hidden when the project has no error-span judgments.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from mtworkbench.core.model import Project
from mtworkbench.gui.metrics.views.error_marks import error_index, output_text
from mtworkbench.gui.metrics.views.text_panes import Mark, MarkedTextPane, TextBlock
from mtworkbench.gui.plain import esc

# Background tints for spans in running text (the text colours of error_marks are too dark behind text).
SEVERITY_TINT = {"critical": "#F4A6A0", "major": "#F8C4BF", "minor": "#E3D0EE", "neutral": "#E4E4E4"}
OTHER_TINT = "#E3D0EE"


def severity_tint(severity: str) -> str:
    return SEVERITY_TINT.get(severity.strip().lower(), OTHER_TINT)


class ErrorSpanStrip(QWidget):
    visibility_changed = Signal(bool)
    """The user switched error spans on or off; payload: whether they are shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("error-span-strip")
        self.toggle = QCheckBox("Show error spans")
        self.toggle.setObjectName("show-error-spans")
        self.toggle.setChecked(True)
        self.toggle.setToolTip("Raters' MQM/ESA error spans here and over the metric views' candidate")
        legend = " ".join(
            f'<span style="background-color:{SEVERITY_TINT[s]};">&nbsp;{esc(s)}&nbsp;</span>'
            for s in ("major", "minor", "neutral"))
        self.legend = QLabel(legend)  # built from constants, escaped anyway
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.pane = MarkedTextPane("Error spans", max_height=120)
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.toggle)
        bar.addWidget(self.legend)
        bar.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.pane)
        self.blocks: list[TextBlock] = []
        self._shown: tuple[Project | None, str, str] = (None, "", "")
        self.toggle.toggled.connect(self._toggled)

    @property
    def errors_visible(self) -> bool:
        return self.toggle.isChecked()

    def follow_project(self, project: Project) -> None:
        """Show the strip only when the project has error-span judgments."""
        index = error_index(project)
        self.setVisible(bool(index.rated))
        self._shown = (None, "", "")

    def show_segment(self, project: Project, system: str, segment: str) -> None:
        self._shown = (project, system, segment)
        text = output_text(project, system, segment)
        index = error_index(project)
        spans = index.of(system, segment) if self.errors_visible else []
        by_rater: dict[str, list[Mark]] = {}
        for s in spans:
            by_rater.setdefault(s.rater, []).append(Mark(s.start, s.end, severity_tint(s.severity), s.describe(),
                                                          underline=s.severity.lower() in ("major", "critical")))
        if not self.errors_visible or not by_rater:
            note = "error spans hidden" if not self.errors_visible else self._why_no_spans(index, system, segment)
            self.blocks = [TextBlock(note, text)]
        else:
            self.blocks = [TextBlock(rater, text, tuple(marks)) for rater, marks in by_rater.items()]
        self.pane.set_title(f"Error spans: {system}, segment {segment}")
        self.pane.set_blocks(self.blocks)

    @staticmethod
    def _why_no_spans(index, system: str, segment: str) -> str:
        if (system, segment) in index.scored_only:
            return "scored, no spans recorded"
        return "rated, no errors" if (system, segment) in index.rated else "not rated with spans"

    def _toggled(self, visible: bool) -> None:
        project, system, segment = self._shown
        if project is not None:
            self.show_segment(project, system, segment)
        self.visibility_changed.emit(visible)
