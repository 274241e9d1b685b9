"""What the Analysis workspace correlates: the human score (listed from the project's
judgments) and the metric list the user edits and checks."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QWidget,
)

from mtworkbench.core.model import Project
from mtworkbench.gui.analysis.human_choices import human_choices
from mtworkbench.gui.plain import tooltip

NO_JUDGMENTS_MESSAGE = (
    "<h3>No human scores to correlate with</h3>"
    "<p>This project has no human judgments yet. The Analysis workspace measures how well "
    "each metric agrees with people, so it needs human scores first. Either</p>"
    "<ul>"
    "<li>rate translations in the <b>Judge</b> workspace (adequacy and fluency, 1–5), or</li>"
    "<li>press <b>Import human scores…</b> below to add segment scores from a file (e.g. "
    "direct-assessment z-scores, one per line) as a pseudo-judge, or</li>"
    "<li>on the command line: <code>mtworkbench judgments import-scores PROJECT --judge da "
    "--system SYSTEM --scores FILE --scale da-z</code>, or for a table of judgments "
    "<code>mtworkbench judgments import PROJECT FILE.csv</code>.</li>"
    "</ul>"
    "<p>Then pick the human score and metrics and press <b>Compute</b>.</p>"
)


class AnalysisChoices:
    """Mixed into the Analysis workspace after its QWidget base (whose methods win)."""

    # Set up by the workspace that mixes this in.
    human_combo: QComboBox
    metric_list: QListWidget
    add_metric_combo: QComboBox
    pages: QStackedWidget
    results: QSplitter
    empty_page: QWidget
    compute_button: QPushButton
    status: QLabel
    choices_timer: QTimer
    _judgments_dirty: bool

    # The workspace's own (AnalysisWorkspace defines them).
    @property
    def project(self) -> Project:
        raise NotImplementedError

    def is_computing(self) -> bool:
        raise NotImplementedError

    def fill_human_choices(self) -> None:
        previous = self.human_combo.currentData()
        self.human_combo.blockSignals(True)
        self.human_combo.clear()
        for choice in human_choices(self.project):
            self.human_combo.addItem(choice.label, choice.spec)
            self.human_combo.setItemData(self.human_combo.count() - 1, tooltip(f"--human {choice.spec}"),
                                         Qt.ItemDataRole.ToolTipRole)
        index = self.human_combo.findData(previous) if previous else -1
        self.human_combo.setCurrentIndex(max(index, 0) if self.human_combo.count() else -1)
        self.human_combo.blockSignals(False)
        has_scores = self.human_combo.count() > 0
        self.pages.setCurrentWidget(self.results if has_scores else self.empty_page)
        self.compute_button.setEnabled(has_scores and not self.is_computing())
        if not has_scores:
            self.status.setText("No human judgments in this project.")

    def _list_choices_if_stale(self) -> None:
        if self.choices_timer.isActive() or self._judgments_dirty:  # judgments just changed: list them first
            self.choices_timer.stop()
            self.fill_human_choices()

    def select_human(self, spec: str) -> None:
        self._list_choices_if_stale()
        index = self.human_combo.findData(spec)
        if index < 0:
            raise KeyError(spec)
        self.human_combo.setCurrentIndex(index)

    def set_metric_specs(self, specs: list[str], checked: bool = True) -> None:
        self.metric_list.clear()
        for spec in specs:
            self.add_metric(spec, checked)

    def add_metric(self, spec: str, checked: bool = True) -> None:
        spec = spec.strip()
        if not spec:
            return
        item = QListWidgetItem(spec)
        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsUserCheckable
                      | Qt.ItemFlag.ItemIsEditable)
        item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
        self.metric_list.addItem(item)

    def remove_selected_metric(self) -> None:
        row = self.metric_list.currentRow()
        if row >= 0:
            self.metric_list.takeItem(row)

    def checked_specs(self) -> list[str]:
        out: list[str] = []
        for i in range(self.metric_list.count()):
            item = self.metric_list.item(i)
            spec = item.text().strip()
            if item.checkState() == Qt.CheckState.Checked and spec and spec not in out:
                out.append(spec)
        return out

    def _add_metric_clicked(self) -> None:
        self.add_metric(self.add_metric_combo.currentText())
