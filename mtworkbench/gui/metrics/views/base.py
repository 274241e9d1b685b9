"""The detail-view interface the Metrics workspace and the ``render`` command use.

A view is told (project, system, segment, metric spec); it builds a one-segment
``ScoringInput``, asks the metric's ``explain`` and draws the result. A metric
error (no reference, no entity annotated...) is shown inside the view, never
raised: the workspace calls ``set_segment`` on every row change.
"""

from __future__ import annotations

from typing import Any, ClassVar

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtWidgets import QLabel, QStackedWidget, QVBoxLayout, QWidget

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Project
from mtworkbench.core.project_input import scoring_input
from mtworkbench.core.scoring_input import MetricError, ScoringInput
from mtworkbench.gui.metrics.views.error_marks import apply_error_marks
from mtworkbench.metrics.base import Metric
from mtworkbench.metrics.registry import create_metric


def segment_input(project: Project, system_id: str, segment_ids: list[str]) -> ScoringInput:
    """The system's outputs for ``segment_ids`` against every reference of the project."""
    return scoring_input(project, system_id, segment_ids=segment_ids)


class MetricDetailView(QWidget):
    """One metric's explanation of one segment of one system."""

    title: ClassVar[str] = ""
    default_metric: ClassVar[str] = ""

    link_clicked = Signal(int, int)
    """The user picked an aligned pair; payload: (hypothesis token, reference token) indices
    (the reference index is on the axis the view shows)."""

    explained = Signal(object)
    """A new explanation was drawn; payload: the metric's result object."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.project: Project | None = None
        self.system_id = ""
        self.segment_id = ""
        self.metric_spec = self.default_metric
        self.current_metric: Metric | None = None
        self.result: Any = None
        self.error_text = ""
        self.errors_visible = True  # raters' error spans drawn over the candidate

        self._stack = QStackedWidget()
        self.content = QWidget()
        self.message = QLabel()
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)  # an error may quote the data
        self.message.setStyleSheet("color: #555; font-size: 11pt; padding: 24px;")
        self._stack.addWidget(self.content)
        self._stack.addWidget(self.message)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self._stack)
        self.show_message("No segment selected.")

    # --- the contract -------------------------------------------------------------
    def set_segment(
        self, project: Project, system_id: str, segment_id: str, metric_spec: str | None = None
    ) -> None:
        """Compute the metric's explanation of that one segment and draw it."""
        self.project, self.system_id, self.segment_id = project, system_id, segment_id
        self.metric_spec = metric_spec or self.default_metric
        try:
            self.current_metric = self.make_metric(self.metric_spec)
        except (MetricError, DataError, ValueError) as exc:
            self.show_message(f"Cannot use metric {self.metric_spec!r}: {exc}")
            return
        self.refresh()

    def refresh(self) -> None:
        """Explain again (e.g. after an option of the view changed) and draw."""
        if self.project is None or self.current_metric is None:
            return
        try:
            self.result = self.explain(self.project, self.system_id, self.segment_id)
        except (MetricError, DataError, ValueError, KeyError) as exc:
            self.result = None
            self.show_message(f"{self.title}: segment {self.segment_id} of {self.system_id}:\n{exc}")
            return
        self.error_text = ""
        self._stack.setCurrentWidget(self.content)
        self.draw(self.result)
        apply_error_marks(self)  # raters' error spans over the candidate tokens
        # Carry out the layout the drawing asked for (new panes, wider axes) now, so
        # that a grab or an export straight after set_segment shows the final layout.
        for _ in range(3):
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        self.explained.emit(self.result)

    def set_errors_visible(self, visible: bool) -> None:
        """Show or hide raters' error spans over the candidate tokens."""
        self.errors_visible = visible
        if self.result is not None and not self.showing_message:
            apply_error_marks(self)

    def export_widget(self) -> QWidget:
        """What PNG/SVG export renders: the whole view, text panes included."""
        return self

    def export_title(self) -> str:
        """The title of an exported figure: what is shown, for which output."""
        if not self.system_id:
            return self.title
        return f"{self.title} · system {self.system_id} · segment {self.segment_id} · {self.metric_spec}"

    def show_message(self, text: str) -> None:
        self.error_text = text
        self.message.setText(text)
        self._stack.setCurrentWidget(self.message)

    @property
    def showing_message(self) -> bool:
        return self._stack.currentWidget() is self.message

    # --- for subclasses -----------------------------------------------------------
    def make_metric(self, spec: str) -> Metric:
        # the project's target language picks the tokenizer etc., as when scoring
        language = self.project.target_language if self.project is not None else None
        return create_metric(spec, language or None)

    def explain(self, project: Project, system_id: str, segment_id: str) -> Any:
        data = segment_input(project, system_id, [segment_id])
        assert self.current_metric is not None  # refresh() explains only with a metric
        return self.current_metric.explain(data, 0)

    def draw(self, result: Any) -> None:  # pragma: no cover - overridden
        raise NotImplementedError
