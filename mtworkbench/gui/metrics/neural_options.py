"""The options of a neural metric in the metric settings: a registered model, batch size,
device (only the ones this machine has are enabled) and precision (GPU only).

``spec`` writes them as the metric spec the project keeps (``comet:model=NAME,...``),
the same text a user may type; a project names models, never folders.
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QComboBox, QFormLayout, QGroupBox, QLabel, QSpinBox, QWidget

from mtworkbench.core.scoring_input import MetricError
from mtworkbench.metrics.neural.checkpoint_info import neural_extra_missing
from mtworkbench.metrics.neural.models import load_registry
from mtworkbench.metrics.neural.project_models import NEURAL_METRICS

DEVICES = ("cpu", "cuda", "mps")
PRECISIONS = ("fp32", "fp16", "bf16")
DEFAULT_BATCH = {"comet": 16, "metricx": 8}


@lru_cache(maxsize=1)
def available_devices() -> tuple[str, ...]:
    """The devices torch can use here (cpu always; none of the GPUs without torch)."""
    if importlib.util.find_spec("torch") is None:
        return ("cpu",)
    import torch

    found = ["cpu"]
    if torch.cuda.is_available():
        found.append("cuda")
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        found.append("mps")
    return tuple(found)


class NeuralOptions(QGroupBox):
    """Shown while a neural metric is selected in the list of registered metrics."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Neural metric options", parent)
        self.setObjectName("neural-options")
        self.metric_name = "comet"
        self.model = QComboBox()
        self.model.setObjectName("neural-model")
        self.batch = QSpinBox()
        self.batch.setObjectName("neural-batch")
        self.batch.setRange(1, 4096)
        self.device = QComboBox()
        self.device.setObjectName("neural-device")
        self.precision = QComboBox()
        self.precision.setObjectName("neural-precision")
        self.precision.addItems(PRECISIONS)
        self.note = QLabel()
        self.note.setObjectName("neural-note")
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setWordWrap(True)
        form = QFormLayout(self)
        form.addRow("Model", self.model)
        form.addRow("Batch size", self.batch)
        form.addRow("Device", self.device)
        form.addRow("Precision (GPU)", self.precision)
        form.addRow(self.note)
        self.device.currentTextChanged.connect(self._device_changed)

    def show_for(self, metric: str) -> None:
        """Fill the options for ``metric`` (comet or metricx) from the registry and this machine."""
        self.metric_name = metric
        self.setTitle(f"{metric} options")
        self.model.clear()
        notes = [neural_extra_missing()]
        try:
            models = [m for m in load_registry().values() if m.kind == metric]
        except MetricError as exc:
            models, notes = [], notes + [str(exc)]
        for m in models:
            self.model.addItem(m.name)
            self.model.setItemData(self.model.count() - 1, f"{m.path}\nsha256:{m.sha256}", Qt.ItemDataRole.ToolTipRole)
        if not models:
            notes.append(f"No {metric} checkpoint is registered: add one with Metrics > Models….")
        self.batch.setValue(DEFAULT_BATCH.get(metric, 16))
        self.device.clear()
        self.device.addItems(DEVICES)
        usable = available_devices()
        items = self.device.model()
        assert isinstance(items, QStandardItemModel)
        for row, name in enumerate(DEVICES):
            item = items.item(row)
            item.setEnabled(name in usable)
            if name not in usable:
                item.setToolTip(f"torch sees no {name} device on this machine")
        self.device.setCurrentText("cuda" if "cuda" in usable else "cpu")
        self._device_changed(self.device.currentText())
        self.note.setText(" ".join(n for n in notes if n))
        self.note.setVisible(any(notes))

    def _device_changed(self, device: str) -> None:
        gpu = device in ("cuda", "mps")
        self.precision.setEnabled(gpu)
        if not gpu:
            self.precision.setCurrentText("fp32")  # the CPU computes in float32 only

    def spec(self) -> str:
        """The spec for the chosen options; MetricError when no model is chosen."""
        model = self.model.currentText()
        if not model:
            raise MetricError(f"{self.metric_name}: choose a registered model (Metrics > Models… adds one)")
        parts = [f"model={model}"]
        if self.batch.value() != DEFAULT_BATCH.get(self.metric_name, 16):
            parts.append(f"batch_size={self.batch.value()}")
        parts.append(f"device={self.device.currentText()}")
        if self.precision.isEnabled() and self.precision.currentText() != "fp32":
            parts.append(f"precision={self.precision.currentText()}")
        return f"{self.metric_name}:{','.join(parts)}"


def is_neural(name: str) -> bool:
    return name in NEURAL_METRICS
