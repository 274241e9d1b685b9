"""Error counts per system by category and severity (MQM, ESA): a table and stacked bars.

The numbers come from ``analysis.error_counts`` (Qt-free); this module only shows
them. The table has one row per (system, category) with a column per severity and
the total; the bars stack each system's errors by severity. Shown only when the
project has judgments of a span protocol; otherwise an empty-state message says
how to get some.
"""

from __future__ import annotations

import math
from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.analysis.error_counts import ErrorCounts, error_counts, score_without_spans
from mtworkbench.core.model import SPAN_PROTOCOLS, Judgment
from mtworkbench.gui.analysis.plot_export import export_plot
from mtworkbench.gui.analysis.plot_style import INK, apply_style, colour
from mtworkbench.gui.plain import esc, tooltip

HOW_TO_GET_SPANS = (
    "import Google's MQM TSV (mtworkbench import --format mqm --source FILE.tsv -o X.mtwb.json, "
    "or mtworkbench judgments import PROJECT --format mqm FILE.tsv), import ESA ratings as CSV, "
    "or mark error spans in the Judge workspace."
)
NO_SPANS_MESSAGE = ("This project has no error-span judgments (MQM or ESA), so there are no errors to count.\n\n"
                    + HOW_TO_GET_SPANS[0].upper() + HOW_TO_GET_SPANS[1:])
# Severities people expect in this order; others follow by frequency.
SEVERITY_ORDER = ("major", "minor", "neutral")
SEVERITY_COLOURS = {"major": "#D55E00", "minor": "#E69F00", "neutral": "#56B4E9"}


def ordered_severities(severities: list[str]) -> list[str]:
    def key(v: str) -> tuple[int, int]:
        low = v.lower()
        return (SEVERITY_ORDER.index(low) if low in SEVERITY_ORDER else len(SEVERITY_ORDER), severities.index(v))
    return sorted(severities, key=key)


def severity_colour(severity: str, i: int) -> str:
    return SEVERITY_COLOURS.get(severity.lower(), colour(i + 3))


def span_protocols_present(judgments: list[Judgment]) -> list[str]:
    present = {j.protocol for j in judgments if not j.qc and not score_without_spans(j)}
    return [p for p in SPAN_PROTOCOLS if p in present]


def no_spans_message(judgments: list[Judgment]) -> str:
    """Why there is nothing to count, naming imported MQM scores without spans when there are some."""
    scores = sum(1 for j in judgments if not j.qc and score_without_spans(j))
    if not scores:
        return NO_SPANS_MESSAGE
    what = ("The project's one MQM judgment is a segment score" if scores == 1
            else f"The project's {scores} MQM judgments are segment scores")
    return (f"{what} without error spans (imported), so there are no errors to count; the scores serve "
            "as human scores in the correlation.\n\nTo count errors, " + HOW_TO_GET_SPANS)


class ErrorCountsModel(QAbstractTableModel):
    """Rows: (system, category); columns: System, Category, one per severity, Total."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.counts: ErrorCounts | None = None
        self.severities: list[str] = []
        self.rows: list[tuple[str, str]] = []

    def set_counts(self, counts: ErrorCounts | None) -> None:
        self.beginResetModel()
        self.counts = counts
        self.severities = ordered_severities(counts.severities) if counts else []
        self.rows = []
        if counts is not None:
            for system in counts.systems:
                for category in counts.categories:
                    if counts.count(system, category):
                        self.rows.append((system, category))
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802 (Qt's name)
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() or self.counts is None else 3 + len(self.severities)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        names = ["System", "Category", *self.severities, "Total"]
        return names[section] if section < len(names) else None

    def cell(self, row: int, column: int) -> str:
        system, category = self.rows[row]
        if column == 0:
            return system
        if column == 1:
            return category or "(no category)"
        assert self.counts is not None
        if column - 2 < len(self.severities):
            return str(self.counts.count(system, category, self.severities[column - 2]))
        return str(self.counts.count(system, category))

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cell(index.row(), index.column())
        if role == Qt.ItemDataRole.ToolTipRole and index.column() < 2:
            return tooltip(self.cell(index.row(), index.column()))
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() >= 2:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class BottomAxis(pg.AxisItem):
    """A bottom axis that reserves its label's whole height, a gap below the tick labels.

    pyqtgraph's own reserves 80% of the label's height and sets the label 5 pixels lower
    still, so with some fonts the label runs into the tick labels above it or into the
    legend below the plot."""

    GAP = 4  # pixels between the tick labels and the axis label

    def fit(self) -> None:
        """Reserve the height the ticks, their labels and the axis label need."""
        font = self.style.get("tickFont") or QFont()
        text = max(QFontMetrics(font).height(), getattr(self, "textHeight", 0) or 0)
        height = max(0, self.style["tickLength"]) + self.style["tickTextOffset"][1] + text
        if self.label.isVisible():
            height += self.GAP + self.label.boundingRect().height()
        self.setHeight(math.ceil(height))

    def resizeEvent(self, ev=None) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(ev)
        if self.label is not None:  # the label sits on the axis's bottom edge, inside its height
            br = self.label.boundingRect()
            self.label.setPos(int(self.size().width() / 2 - br.width() / 2), int(self.size().height() - br.height()))


class ErrorBarsView(pg.PlotWidget):
    """Errors per system, stacked by severity: one horizontal bar per system, so
    long system names stay readable on the left axis."""

    def __init__(self, parent: QWidget | None = None) -> None:
        bottom = BottomAxis("bottom")
        super().__init__(parent, background="w", axisItems={"bottom": bottom})
        self.bottom_axis = bottom
        self.setObjectName("error-bars")
        apply_style(self)
        self.setMinimumSize(260, 220)
        self.bars: list[pg.BarGraphItem] = []
        # The legend sits in its own row under the axis, never over a bar (a long bar
        # reaches the corner a legend inside the plot would take).
        self.legend = pg.LegendItem(labelTextColor=INK, frame=False, colCount=5, labelTextSize="9pt")
        self.getPlotItem().layout.addItem(self.legend, 4, 1)
        self.swatches: list[pg.ScatterPlotItem] = []
        self.totals: dict[str, int] = {}
        self.systems: list[str] = []  # the bars' systems, top to bottom
        self.tick_names: list[str] = []  # their names on the axis, as shown (elided where long)
        self.show_counts(None)

    def show_counts(self, counts: ErrorCounts | None, per_segment: bool = False) -> None:
        item = self.getPlotItem()
        for bar in self.bars:
            self.removeItem(bar)
        self.bars = []
        self.legend.clear()
        self.swatches = []
        self.totals = {}
        self.systems = []
        if counts is None or not counts.systems:
            item.setTitle("No errors to plot", color=INK, size="11pt")
            return
        systems = counts.systems
        ys = list(range(len(systems)))  # first system on top (the axis is inverted)
        bottom = [0.0] * len(systems)
        for i, severity in enumerate(ordered_severities(counts.severities)):
            heights = []
            for s in systems:
                n = counts.count(s, severity=severity)
                heights.append(n / max(counts.rated.get(s, 0), 1) if per_segment else float(n))
            bar = pg.BarGraphItem(y=ys, width=heights, x0=list(bottom), height=0.6,
                                  brush=severity_colour(severity, i), pen=pg.mkPen("w"))
            self.addItem(bar)
            self.bars.append(bar)
            # Legend and axis text are HTML in pyqtgraph: severities and system ids come from the data.
            self.legend.addItem(self._swatch(severity_colour(severity, i)), esc(severity))
            bottom = [b + h for b, h in zip(bottom, heights)]
        self.totals = {s: counts.count(s) for s in systems}
        self.systems = list(systems)
        self._name_ticks()
        item.invertY(True)
        unit = "errors per rated segment" if per_segment else "errors"
        # The unit is the axis label's; a short title keeps a narrow dock's chart whole.
        item.setTitle(f"{esc(counts.protocol.upper())} errors by severity", color=INK, size="10pt")
        item.setLabel("bottom", unit, color=INK)
        self.bottom_axis.fit()
        self._fit_legend()
        item.enableAutoRange()

    def resizeEvent(self, ev) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(ev)
        self._name_ticks()
        self._fit_legend()

    def _name_ticks(self) -> None:
        """System names on the left axis, a long one elided in the middle to a third of the
        chart's width (the table beside the chart names it in full)."""
        systems = getattr(self, "systems", [])
        if not systems:
            return
        metrics = QFontMetrics(self.getPlotItem().getAxis("left").style.get("tickFont") or QFont())
        room = max(60, self.width() // 3)
        self.tick_names = [metrics.elidedText(s, Qt.TextElideMode.ElideMiddle, room) for s in systems]
        self.getPlotItem().getAxis("left").setTicks([[(y, esc(name)) for y, name in enumerate(self.tick_names)]])

    def _fit_legend(self) -> None:
        """As many legend columns as fit beside the system names: a legend wider than the
        room under the bars would widen the plot past a narrow dock and cut it off."""
        legend = getattr(self, "legend", None)  # a resize comes before the legend is made
        entries = [s.boundingRect().width() + label.boundingRect().width() + 12 for s, label in legend.items] if legend else []
        if legend is None or not entries:
            return
        room = self.width() - self.getPlotItem().getAxis("left").width() - 24
        columns = max(1, min(len(entries), int(room // max(entries))))
        if columns != legend.columnCount:
            legend.setColumnCount(columns)
            # The legend sizes itself at the scene's origin; the plot's layout puts it back
            # in its row under the axis.
            self.getPlotItem().layout.invalidate()
            self.getPlotItem().layout.activate()

    def _swatch(self, colour) -> pg.ScatterPlotItem:
        """A filled square in the bar's colour: a bar item's own legend sample is drawn
        with the bar's white outline, which left a light severity hollow."""
        swatch = pg.ScatterPlotItem(symbol="s", size=11, brush=pg.mkBrush(colour), pen=pg.mkPen(colour))
        self.swatches.append(swatch)  # kept alive while the legend shows it
        return swatch

    def stack_heights(self) -> list[list[float]]:
        """The drawn bars' heights, one list per severity (what the user sees)."""
        return [[float(w) for w in bar.opts["width"]] for bar in self.bars]


class ErrorCountsPanel(QWidget):
    """Protocol and grouping choices, the counts table and the stacked bars."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("error-counts-panel")
        self.judgments: list[Judgment] = []
        self.counts: ErrorCounts | None = None

        self.protocol_combo = QComboBox()
        self.protocol_combo.setObjectName("error-protocol")
        self.top_level_check = QCheckBox("top-level categories")
        self.top_level_check.setObjectName("error-top-level")
        self.top_level_check.setToolTip("Count Accuracy/Mistranslation as Accuracy")
        self.per_segment_check = QCheckBox("per rated segment")
        self.per_segment_check.setObjectName("error-per-segment")
        self.per_segment_check.setToolTip("Bars show errors divided by the system's rated segments")
        self.export_button = QPushButton("Export…")
        self.export_button.setObjectName("export-error-bars")
        self.export_button.setToolTip("Save the bar chart as PNG or SVG")
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Protocol"))
        bar.addWidget(self.protocol_combo)
        bar.addWidget(self.top_level_check)
        bar.addWidget(self.per_segment_check)
        bar.addStretch(1)
        bar.addWidget(self.export_button)

        self.model = ErrorCountsModel(self)
        self.table = QTableView()
        self.table.setObjectName("error-counts-table")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 6)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.bars = ErrorBarsView()
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.table)
        split.addWidget(self.bars)
        split.setChildrenCollapsible(False)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setSizes([420, 580])
        content = QWidget()
        content_layout = QVBoxLayout(content)
        content_layout.setContentsMargins(0, 0, 0, 0)
        content_layout.addLayout(bar)
        content_layout.addWidget(split, 1)

        self.empty_message = QLabel(NO_SPANS_MESSAGE)
        self.empty_message.setObjectName("error-counts-empty")
        self.empty_message.setTextFormat(Qt.TextFormat.PlainText)
        self.empty_message.setWordWrap(True)
        self.empty_message.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.empty_message)
        self.pages.addWidget(content)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.pages)

        self.protocol_combo.currentIndexChanged.connect(self.refresh)
        self.top_level_check.toggled.connect(self.refresh)
        self.per_segment_check.toggled.connect(self.refresh)

    def has_spans(self) -> bool:
        return self.pages.currentIndex() == 1

    def set_judgments(self, judgments: list[Judgment]) -> None:
        self.judgments = list(judgments)
        protocols = span_protocols_present(self.judgments)
        current = self.protocol_combo.currentText()
        self.protocol_combo.blockSignals(True)
        self.protocol_combo.clear()
        for p in protocols:
            self.protocol_combo.addItem(p.upper(), p)
        index = self.protocol_combo.findText(current)
        self.protocol_combo.setCurrentIndex(max(index, 0))
        self.protocol_combo.blockSignals(False)
        self.empty_message.setText(no_spans_message(self.judgments))
        self.pages.setCurrentIndex(1 if protocols else 0)
        self.refresh()

    def refresh(self, *_args) -> None:
        protocol = self.protocol_combo.currentData()
        if not protocol:
            self.counts = None
        else:
            self.counts = error_counts(self.judgments, protocol, top_level=self.top_level_check.isChecked())
        self.model.set_counts(self.counts)
        self.bars.show_counts(self.counts, per_segment=self.per_segment_check.isChecked())

    def export_bars(self, path: str | Path) -> None:
        export_plot(self.bars, path)
