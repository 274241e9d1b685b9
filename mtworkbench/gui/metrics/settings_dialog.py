"""Choose the metrics (with options) and the significance settings."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from mtworkbench.core.scoring_input import MetricError
from mtworkbench.gui.metrics.neural_options import NeuralOptions, is_neural
from mtworkbench.gui.plain import tooltip
from mtworkbench.metrics.base import MetricSpecError
from mtworkbench.metrics.external import PREFIX as EXT_PREFIX
from mtworkbench.metrics.external import is_external
from mtworkbench.metrics.registry import create_metric, metric_class, metric_names
from mtworkbench.scoring.cluster import ClusterError, parse_scheduler

SCHEDULER_KEY = "metrics/scheduler"


def scoring_scheduler() -> str | None:
    """The dask.distributed scheduler the app scores on (None: this computer), as last saved."""
    value = QSettings().value(SCHEDULER_KEY, "")
    return str(value).strip() or None if isinstance(value, str) else None


def parse_metric_list(text: str, external: Sequence[str] = ()) -> list[str]:
    """One spec per line (or comma-free separated by ';'); validated; duplicates dropped.

    ``external`` names the project's imported metrics, valid as ``ext:NAME``.
    """
    specs: list[str] = []
    for raw in text.replace(";", "\n").splitlines():
        spec = raw.strip()
        if not spec:
            continue
        if is_external(spec):
            if spec[len(EXT_PREFIX):] not in external:
                raise MetricSpecError(f"unknown external metric {spec!r}; imported: "
                                      + (", ".join(EXT_PREFIX + n for n in external) or "(none)"))
        else:
            create_metric(spec)  # raises MetricSpecError with the reason
        if spec not in specs:
            specs.append(spec)
    if not specs:
        raise MetricError("choose at least one metric")
    return specs


class MetricSettingsDialog(QDialog):
    """Metric specs one per line, with a list to add any registered metric."""

    def __init__(self, specs: list[str], ci_samples: int, paired_method: str, parent=None,
                 external: Sequence[str] = ()) -> None:
        super().__init__(parent)
        self.external = list(external)
        self.setWindowTitle("Metrics and significance")
        self.resize(620, 640)
        self.specs_edit = QPlainTextEdit("\n".join(specs))
        self.specs_edit.setObjectName("metric-specs")
        self.available = QListWidget()
        self.available.setObjectName("available-metrics")
        for name in metric_names():
            item = QListWidgetItem(name)
            try:
                cls = metric_class(name)
            except Exception as exc:  # noqa: BLE001 - a metric whose module cannot load is still listed
                item.setToolTip(tooltip(f"cannot load: {exc}"))
            else:
                options = ", ".join(f"{o.name}={o.default}" for o in cls.option_specs)
                item.setToolTip(options or "no options")
            self.available.addItem(item)
        for name in self.external:  # scores imported with 'mtworkbench metrics import-scores'
            item = QListWidgetItem(EXT_PREFIX + name)
            item.setToolTip("imported scores")
            self.available.addItem(item)
        add = QPushButton("Add selected metric")
        add.setObjectName("add-metric")
        add.clicked.connect(self.add_selected)
        self.available.itemDoubleClicked.connect(lambda _item: self.add_selected())
        # A neural metric needs a model and runs on a device: chosen here, written into its spec.
        self.neural = NeuralOptions()
        self.neural.hide()
        self.available.currentTextChanged.connect(self._metric_chosen)
        self.ci_samples = QSpinBox()
        self.ci_samples.setObjectName("ci-samples")
        self.ci_samples.setRange(0, 100_000)
        self.ci_samples.setSingleStep(100)
        self.ci_samples.setValue(ci_samples)
        self.ci_samples.setSpecialValueText("no intervals")
        self.paired_method = QComboBox()
        self.paired_method.setObjectName("paired-method")
        self.paired_method.addItems(["paired-bs", "paired-ar"])
        self.paired_method.setCurrentText(paired_method)
        self.scheduler = QLineEdit(scoring_scheduler() or "")
        self.scheduler.setObjectName("scoring-scheduler")
        self.scheduler.setPlaceholderText("this computer  (or tcp://host:8786, local:4)")
        self.scheduler.setToolTip("A dask.distributed scheduler to score on: tcp://HOST:PORT, or local:N for N "
                                  "worker processes here. Needs: pip install 'mtworkbench[cluster]'")
        self.message = QLabel()
        self.message.setObjectName("settings-message")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)  # quotes the spec that failed
        self.message.setStyleSheet("color: #b3261e")
        form = QFormLayout()
        form.addRow("Metrics (one spec per line, e.g. gtm:e=2)", self.specs_edit)
        form.addRow("Registered metrics", self.available)
        form.addRow("", self.neural)
        form.addRow("", add)
        form.addRow("Bootstrap samples (95% interval)", self.ci_samples)
        form.addRow("Paired test against the baseline", self.paired_method)
        form.addRow("Score on a Dask cluster", self.scheduler)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)
        self.result_specs: list[str] = list(specs)

    def add_selected(self) -> None:
        item = self.available.currentItem()
        if item is None:
            return
        spec = item.text()
        if is_neural(spec):
            try:
                spec = self.neural.spec()
            except MetricError as exc:
                self.message.setText(str(exc))
                return
        lines = [line.strip() for line in self.specs_edit.toPlainText().splitlines() if line.strip()]
        if spec not in lines:
            lines.append(spec)
        self.specs_edit.setPlainText("\n".join(lines))

    def _metric_chosen(self, name: str) -> None:
        self.neural.setVisible(is_neural(name))
        if is_neural(name):
            self.neural.show_for(name)

    def accept(self) -> None:
        try:
            self.result_specs = parse_metric_list(self.specs_edit.toPlainText(), self.external)
        except MetricError as exc:
            self.message.setText(str(exc))  # shown in the dialog; the user fixes the line
            return
        address = self.scheduler.text().strip()
        try:
            if address:
                parse_scheduler(address)
        except ClusterError as exc:
            self.message.setText(str(exc))
            return
        QSettings().setValue(SCHEDULER_KEY, address)
        super().accept()
