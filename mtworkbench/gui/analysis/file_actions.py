"""The Analysis workspace's files: its tables and plots exported (CSV, PNG, SVG) and
human scores imported from a file as a pseudo-judge."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QComboBox, QFileDialog, QLabel, QWidget

from mtworkbench.core.model import Project
from mtworkbench.gui import dialogs
from mtworkbench.gui.analysis import import_scores
from mtworkbench.gui.analysis.correlation_table import CorrelationTableModel, write_correlation_csv
from mtworkbench.gui.analysis.error_counts_view import ErrorCountsPanel
from mtworkbench.gui.analysis.import_scores import ImportScoresCommand
from mtworkbench.gui.analysis.plot_export import export_plot
from mtworkbench.gui.analysis.reliability_view import ReliabilityView
from mtworkbench.gui.analysis.scatter_view import ScatterView
from mtworkbench.gui.session import ProjectSession
from mtworkbench.scoring.analysis_job import AnalysisOutcome

IMAGE_FILTER = "PNG image (*.png);;SVG image (*.svg)"
CSV_FILTER = "CSV table (*.csv)"


class AnalysisFiles:
    """Mixed into the Analysis workspace after its QWidget base (whose methods win)."""

    # Set up by the workspace that mixes this in.
    session: ProjectSession
    outcome: AnalysisOutcome | None
    table_model: CorrelationTableModel
    scatter: ScatterView
    reliability_view: ReliabilityView
    error_panel: ErrorCountsPanel
    human_combo: QComboBox
    status: QLabel
    choices_timer: QTimer

    # The workspace's own (AnalysisWorkspace defines them).
    @property
    def project(self) -> Project:
        raise NotImplementedError

    def fill_human_choices(self) -> None:
        raise NotImplementedError

    def window_widget(self) -> QWidget:
        """The workspace, as the parent of its dialogs."""
        assert isinstance(self, QWidget)
        return self

    def export_table_csv(self, path: str | Path) -> None:
        write_correlation_csv(self.table_model.results, path, self.table_model.williams)

    def export_scatter(self, path: str | Path) -> None:
        export_plot(self.scatter, path)

    def export_reliability(self, path: str | Path) -> None:
        export_plot(self.reliability_view, path)

    def export_reliability_csv(self, path: str | Path) -> None:
        result = self.outcome.reliability if self.outcome is not None else None
        if result is None:
            raise ValueError("there are no reliability curves to export yet")
        from mtworkbench.core.output import write_output

        write_output(path, result.to_csv())

    def _save_to(self, title: str, filter_: str, default_name: str, write) -> None:
        name, _ = QFileDialog.getSaveFileName(self.window_widget(), title, default_name, filter_)
        if not name:
            return
        try:
            write(name)
        except (OSError, ValueError) as exc:
            dialogs.error(self.window_widget(), "Cannot export", f"{name}: {exc}")
        else:
            self.status.setText(f"Exported {name}")

    def _export_table_clicked(self) -> None:
        self._save_to("Export correlation table", CSV_FILTER, "correlations.csv", self.export_table_csv)

    def _export_scatter_clicked(self) -> None:
        self._save_to("Export scatter plot", IMAGE_FILTER, "scatter.png", self.export_scatter)

    def _export_reliability_clicked(self) -> None:
        self._save_to("Export reliability plot", IMAGE_FILTER, "reliability.png", self.export_reliability)

    def _export_error_bars_clicked(self) -> None:
        self._save_to("Export error counts", IMAGE_FILTER, "error-counts.png", self.error_panel.export_bars)

    def _export_reliability_csv_clicked(self) -> None:
        self._save_to("Export reliability curves", CSV_FILTER, "reliability.csv", self.export_reliability_csv)

    def import_scores(self) -> None:
        if not self.project.systems:
            dialogs.error(self.window_widget(), "Cannot import scores", "The project has no systems whose translations were rated.")
            return
        answer = import_scores.ask_import_plan(self.window_widget(), self.project)
        if answer is None:
            return
        plan, source = answer[0], answer[1]
        left_out = answer[2] if len(answer) > 2 else ""
        self.session.push(ImportScoresCommand(self.project, plan, source))
        self.choices_timer.stop()
        self.fill_human_choices()
        if plan.judgments:
            first = plan.judgments[0]
            field = "score" if first.score is not None else ("adequacy" if first.adequacy is not None else "fluency")
            index = self.human_combo.findData(f"{first.judge}:{field}")
            if index >= 0:
                self.human_combo.setCurrentIndex(index)
        left_out = f"; {left_out}" if left_out else ""
        self.status.setText(f"Imported {len(plan.judgments):,} scores from {Path(source).name}{left_out}. "
                            "Press Compute.")
