"""Settings of a new judging queue: protocol, seed, share of repeats and of BAD items
(DA, ESA quality control), systems, reference, display."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.judging import QueueConfig
from mtworkbench.core.model import Project
from mtworkbench.core.queue_state import BAD_PROTOCOLS, SUGGESTION_PROTOCOLS

# (label, QueueConfig.reference_mode)
REFERENCE_CHOICES = (
    ("One reference per document (as in Turian et al.)", "per-document"),
    ("A reference drawn per segment", "per-segment"),
    ("Always the same reference", "fixed"),
)


# (label, QueueConfig.protocol)
PROTOCOL_CHOICES = (
    ("LDC adequacy and fluency (1–5)", "ldc"),
    ("DA: direct assessment, 0–100", "da"),
    ("ESA: error spans, then 0–100", "esa"),
    ("MQM: error spans with category and severity", "mqm"),
    ("Relative ranking: several systems side by side, ranks 1–5", "rank"),
)


def bad_rate_box(object_name: str, share: float = 0.0) -> QSpinBox:
    """The share of BAD items (DA, ESA quality control) in whole percent, for the queue
    and the campaign split dialogs alike."""
    box = QSpinBox()
    box.setObjectName(object_name)
    box.setRange(0, 100)
    box.setSuffix(" %")
    box.setValue(round(share * 100))
    box.setToolTip(
        "Quality control (WMT used about 12%): degraded copies of items, each with a stretch of words "
        "replaced, hidden among the others. The rater is not told; a rater paying attention scores "
        "them lower (Agreement tab: one-sided Wilcoxon test). Their ratings are not human scores."
    )
    return box


def checkable_list(object_name: str, ids: list[str], chosen: tuple[str, ...] | None) -> QListWidget:
    """A list of ids with a check box each, all checked when ``chosen`` is None."""
    box = QListWidget()
    box.setObjectName(object_name)
    for ident in ids:
        entry = QListWidgetItem(ident)
        entry.setData(Qt.ItemDataRole.UserRole, ident)
        entry.setFlags(entry.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        entry.setCheckState(Qt.CheckState.Checked if chosen is None or ident in chosen else Qt.CheckState.Unchecked)
        box.addItem(entry)
    # As tall as its rows, up to eight (WMT's eight systems all in view), so one document
    # does not take the room of eight systems.
    rows = max(1, min(box.count(), 8))
    box.setFixedHeight(rows * max(box.sizeHintForRow(0), box.fontMetrics().height() + 4) + 2 * box.frameWidth())
    return box


def checked_ids(box: QListWidget) -> list[str]:
    return [box.item(i).data(Qt.ItemDataRole.UserRole) for i in range(box.count())
            if box.item(i).checkState() == Qt.CheckState.Checked]


def suggestion_box(project: Project, current: str = "") -> QComboBox:
    """The span-marking metric whose error spans the items start with (ESA-AI): none, the
    registered COMET checkpoints (only xCOMET ones mark spans), the project's comet metrics, or
    a spec typed in."""
    box = QComboBox()
    box.setObjectName("queue-suggest-spans")
    box.setEditable(True)
    line = box.lineEdit()
    if line is not None:
        line.setPlaceholderText("none: the judge marks every span")
    specs = [""]
    try:
        from mtworkbench.metrics.neural.models import load_registry

        specs += [f"comet:model={name}" for name, m in sorted(load_registry().items()) if m.kind == "comet"]
    except Exception:  # noqa: BLE001 - an unreadable registry offers no models; typing a spec still works
        pass
    specs += [spec for spec in project.settings.metrics if spec.startswith("comet:") and spec not in specs]
    if current and current not in specs:
        specs.append(current)
    box.addItems(specs)
    box.setCurrentIndex(specs.index(current))
    box.setToolTip("Each item starts with the error spans this metric marks (an xCOMET checkpoint registered "
                   "with 'mtworkbench models add'), pre-marked for the judge to keep, change or delete. Spans "
                   "stored with the project's scores are used; otherwise the model runs first, in the background.")
    return box


class QueueSetupDialog(QDialog):
    """Ask for a ``QueueConfig``; ``config()`` reads the widgets (also without ``exec``)."""

    def __init__(self, project: Project, judge: str, previous: QueueConfig | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Start a judging queue for {judge}")
        self.project = project
        base = previous or QueueConfig(max_errors=project.settings.mqm_max_errors)  # the project's default

        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setValue(base.seed)
        self.seed.setToolTip("The same seed, judge and settings always give the same order.")

        self.repeats = QDoubleSpinBox()
        self.repeats.setRange(0, 100)
        self.repeats.setDecimals(0)
        self.repeats.setSuffix(" %")
        self.repeats.setValue(round(base.repeat_share * 100))
        self.repeats.setToolTip("Repeated items, as a share of the distinct items, measure intra-judge consistency.")

        self.systems = checkable_list("queue-systems", [s.id for s in project.systems], base.systems)
        self.documents = checkable_list("queue-documents", [d.id for d in project.documents], base.documents)

        # Appraise serves about 100 items a batch; the rest waits for later batches.
        self.batch_size = QSpinBox()
        self.batch_size.setObjectName("queue-batch-size")
        self.batch_size.setRange(0, 100_000)
        self.batch_size.setSpecialValueText("one batch")
        self.batch_size.setValue(base.batch_size)
        self.batch_size.setToolTip("Serve the queue in batches: the judge does batch 1 first, then the next. "
                                   "Each batch has its own repeats and BAD items.")
        self.batch_unit = QComboBox()
        self.batch_unit.setObjectName("queue-batch-unit")
        self.batch_unit.addItem("items a batch", "items")
        self.batch_unit.addItem("whole documents a batch", "documents")
        self.batch_unit.setCurrentIndex(max(0, self.batch_unit.findData(base.batch_unit)))
        batch_row = QHBoxLayout()
        batch_row.addWidget(self.batch_size)
        batch_row.addWidget(self.batch_unit, 1)

        self.reference_mode = QComboBox()
        for label, mode in REFERENCE_CHOICES:
            self.reference_mode.addItem(label, mode)
        self.reference_mode.setCurrentIndex(max(0, [m for _, m in REFERENCE_CHOICES].index(base.reference_mode)))
        self.fixed_reference = QComboBox()
        for ref in project.references:
            self.fixed_reference.addItem(ref.id, ref.id)
        if base.reference is not None:
            self.fixed_reference.setCurrentIndex(max(0, self.fixed_reference.findData(base.reference)))
        self.reference_mode.currentIndexChanged.connect(self._mode_changed)

        self.protocol = QComboBox()
        self.protocol.setObjectName("queue-protocol")
        for label, name in PROTOCOL_CHOICES:
            self.protocol.addItem(label, name)
        self.protocol.setCurrentIndex(max(0, self.protocol.findData(base.protocol)))
        self.da_basis = QComboBox()
        self.da_basis.setObjectName("queue-da-basis")
        self.da_basis.addItem("Against the reference", "reference")
        self.da_basis.addItem("Against the source (bilingual raters)", "source")
        self.da_basis.setCurrentIndex(max(0, self.da_basis.findData(base.da_basis)))
        self.max_errors = QSpinBox()
        self.max_errors.setObjectName("queue-max-errors")
        self.max_errors.setRange(1, 99)
        self.max_errors.setValue(base.max_errors)
        self.max_errors.setToolTip("Google's MQM protocol stops at five errors a segment.")
        self.max_systems = QSpinBox()
        self.max_systems.setObjectName("queue-max-systems")
        self.max_systems.setRange(2, 10)
        self.max_systems.setValue(base.max_systems)
        self.max_systems.setToolTip("WMT and Appraise showed five translations of a source at a time.")
        self.bad_rate = bad_rate_box("queue-bad-rate", base.bad_rate)
        self.suggest_spans = suggestion_box(project, base.suggest_spans)
        self.protocol.currentIndexChanged.connect(self._protocol_changed)
        self.max_systems.valueChanged.connect(self._update_summary)

        self.show_source = QCheckBox("Show the source text")
        self.show_source.setChecked(base.show_source)
        self.highlight = QCheckBox("Highlight words shared by translation and reference")
        self.highlight.setChecked(base.highlight_overlap)

        self.summary = QLabel()
        self.summary.setObjectName("queue-summary")
        self.summary.setWordWrap(True)
        for signal in (self.repeats.valueChanged, self.systems.itemChanged, self.bad_rate.valueChanged,
                       self.protocol.currentIndexChanged, self.documents.itemChanged,
                       self.batch_size.valueChanged, self.batch_unit.currentIndexChanged):
            signal.connect(self._update_summary)

        form = QFormLayout()
        form.addRow("Protocol", self.protocol)
        form.addRow("DA compares with", self.da_basis)
        form.addRow("MQM errors at most", self.max_errors)
        form.addRow("Ranking: systems at a time", self.max_systems)
        form.addRow("Seed", self.seed)
        form.addRow("Repeated items", self.repeats)
        form.addRow("BAD items (DA, ESA)", self.bad_rate)
        form.addRow("Pre-mark a model's spans (ESA, MQM)", self.suggest_spans)
        form.addRow("Systems", self.systems)
        form.addRow("Documents", self.documents)
        form.addRow("Batches of", batch_row)
        form.addRow("Reference shown", self.reference_mode)
        form.addRow("Fixed reference", self.fixed_reference)
        form.addRow("", self.show_source)
        form.addRow("", self.highlight)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Start queue")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.summary)
        if judge in project.judge_queues:
            items = project.judge_queues[judge].items
            rated = sum(1 for item in items if item.judgment is not None)
            self.replacing = QLabel(
                f"{judge} has a queue already ({rated} of {len(items)} items rated). A new queue replaces it; "
                "the judgments made stay in the project, and Undo brings the old queue back."
            )
            self.replacing.setObjectName("queue-replacing")
            self.replacing.setTextFormat(Qt.TextFormat.PlainText)  # names the judge
            self.replacing.setWordWrap(True)
            self.replacing.setStyleSheet("color:#b45309;")
            layout.addWidget(self.replacing)
        layout.addWidget(self.buttons)
        self._mode_changed()
        self._protocol_changed()
        self._update_summary()

    def _protocol_changed(self, *_args) -> None:
        self.da_basis.setEnabled(self.protocol.currentData() == "da")
        self.max_errors.setEnabled(self.protocol.currentData() == "mqm")
        self.max_systems.setEnabled(self.protocol.currentData() == "rank")
        self.bad_rate.setEnabled(self.protocol.currentData() in BAD_PROTOCOLS)
        self.suggest_spans.setEnabled(self.protocol.currentData() in SUGGESTION_PROTOCOLS)

    def _mode_changed(self, *_args) -> None:
        self.fixed_reference.setEnabled(self.reference_mode.currentData() == "fixed")

    def chosen_systems(self) -> list[str]:
        return checked_ids(self.systems)

    def chosen_documents(self) -> list[str]:
        return checked_ids(self.documents)

    def _update_summary(self, *_args) -> None:
        n_systems = len(self.chosen_systems())
        documents = set(self.chosen_documents())
        n_segments = sum(len(paragraph.segments) for d in self.project.documents if d.id in documents
                         for paragraph in d.paragraphs)
        if self.protocol.currentData() == "rank":
            # One item per group of at most max_systems of a segment's systems (core.ranking).
            per_segment = -(-n_systems // self.max_systems.value()) if n_systems >= 2 else 0
            distinct = per_segment * n_segments
        else:
            distinct = n_systems * n_segments
        repeats = round(self.repeats.value() / 100 * distinct)
        verb = "rank" if self.protocol.currentData() == "rank" else "rate"
        text = f"{distinct} items to {verb}, plus {repeats} repeated"
        bad = round(self._bad_share() * distinct)
        text = f"{text} and about {bad} BAD (quality control)" if bad else text
        size = self.batch_size.value()
        if size and distinct:
            unit = self.batch_unit.currentData()
            count = -(-(distinct if unit == "items" else len(documents)) // size)
            what = ("item" if unit == "items" else "whole document") + ("" if size == 1 else "s")
            extras = " to rate, each with its own repeats and BAD items" if bad else (
                " to rate, each with its own repeats" if repeats else "")
            text += (f", in {count} {'batch' if count == 1 else 'batches'} of at most {size} {what}{extras}; "
                     "the judge starts with batch 1")
        self.summary.setText(f"{text}.")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(distinct > 0)

    def _bad_share(self) -> float:
        return self.bad_rate.value() / 100 if self.protocol.currentData() in BAD_PROTOCOLS else 0.0

    def config(self) -> QueueConfig:
        systems = self.chosen_systems()
        documents = self.chosen_documents()
        all_systems = [s.id for s in self.project.systems]
        mode = self.reference_mode.currentData()
        return QueueConfig(
            seed=self.seed.value(),
            repeat_share=self.repeats.value() / 100,
            reference_mode=mode,
            reference=self.fixed_reference.currentData() if mode == "fixed" else None,
            systems=None if systems == all_systems else tuple(systems),
            documents=None if documents == [d.id for d in self.project.documents] else tuple(documents),
            show_source=self.show_source.isChecked(),
            highlight_overlap=self.highlight.isChecked(),
            protocol=self.protocol.currentData(),
            da_basis=self.da_basis.currentData(),
            max_errors=self.max_errors.value(),
            max_systems=self.max_systems.value(),
            bad_rate=self._bad_share(),
            batch_size=self.batch_size.value(),
            batch_unit=self.batch_unit.currentData(),
            suggest_spans=self.suggest_spans.currentText().strip()
            if self.protocol.currentData() in SUGGESTION_PROTOCOLS else "",
        )


def ask_queue_config(parent: QWidget | None, project: Project, judge: str,
                     previous: QueueConfig | None = None) -> QueueConfig | None:
    """The settings of a new queue, or None when cancelled (tests monkeypatch this)."""
    dialog = QueueSetupDialog(project, judge, previous, parent)
    if dialog.exec() == QDialog.DialogCode.Accepted:
        return dialog.config()
    return None
