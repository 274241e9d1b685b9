"""Every (segment, system) pair with all its metric scores, human scores and a
delta between two systems; sortable and filterable, built for 100,000 rows.

The model keeps each numeric column as one flat numpy array over all rows
(row ``r`` is segment ``r // n_systems``, system ``r % n_systems``) and shows
the rows listed in ``visible``, a numpy index. Filtering is a boolean mask and
sorting an ``argsort`` over that index, so neither does Python work per row;
``data()`` is an array lookup and a format.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.gui.metrics.formatting import format_score, metric_info, score_title
from mtworkbench.gui.plain import tooltip

LINK = QColor("#1a55c4")
OUTPUT_WIDTH = 220  # the output column's start; the user widens it (it is the last to need room)


@dataclass
class NumericColumn:
    title: str
    spec: str  # how to format: a metric spec, or "" for plain numbers
    values: np.ndarray  # flat, one per row
    kind: str = "metric"  # "metric", "human" or "delta"


class SentenceTableModel(QAbstractTableModel):
    SEGMENT, SYSTEM, OUTPUT = 0, 1, 2
    N_FIXED = 3

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.segment_ids: list[str] = []
        self.systems: list[str] = []
        self.hypotheses: list[str] = []  # flat, one per row
        self.segment_texts: list[str] = []  # source and references, one per segment
        self.columns: list[NumericColumn] = []
        self.visible = np.zeros(0, dtype=np.int64)
        self._mask_args: tuple = ("", -1, None, None, None)
        self._sort: tuple[int, Qt.SortOrder] | None = None
        self._lower_hyp: list[str] | None = None
        self._lower_seg: list[str] | None = None
        self._text_rank: np.ndarray | None = None

    # --- content ------------------------------------------------------------------
    @property
    def n_rows(self) -> int:
        return len(self.segment_ids) * len(self.systems)

    def set_texts(self, segment_ids: list[str], systems: list[str], hypotheses: list[list[str]],
                  segment_texts: list[str]) -> None:
        """``hypotheses[k][i]``: system k's output for segment i."""
        self.segment_ids, self.systems = list(segment_ids), list(systems)
        n_sys = len(systems)
        flat: list[str] = [""] * (len(segment_ids) * n_sys)
        for k, texts in enumerate(hypotheses):
            flat[k::n_sys] = texts
        self.hypotheses = flat
        self.segment_texts = list(segment_texts)
        self._lower_hyp = self._lower_seg = self._text_rank = None
        self.columns = []
        self._refresh()

    def set_columns(self, columns: list[NumericColumn]) -> None:
        self.columns = columns
        self._refresh()

    def flat(self, matrix: np.ndarray) -> np.ndarray:
        """(n_systems, n_segments) -> one value per row."""
        return np.asarray(matrix, dtype=float).T.ravel()

    def row_key(self, row: int) -> tuple[str, str]:
        """(system id, segment id) shown in ``row``."""
        r = int(self.visible[row])
        n_sys = len(self.systems)
        return self.systems[r % n_sys], self.segment_ids[r // n_sys]

    def row_of(self, system: str, segment: str) -> int:
        try:
            r = self.segment_ids.index(segment) * len(self.systems) + self.systems.index(system)
        except ValueError:
            return -1
        found = np.nonzero(self.visible == r)[0]
        return int(found[0]) if len(found) else -1

    def column_of(self, title: str) -> int:
        for c, col in enumerate(self.columns):
            if col.title == title:
                return self.N_FIXED + c
        return -1

    # --- filter and sort -------------------------------------------------------------
    def set_filter(self, text: str = "", system: int = -1, column: int | None = None,
                   low: float | None = None, high: float | None = None) -> None:
        self._mask_args = (text, system, column, low, high)
        self._refresh()

    def _mask(self) -> np.ndarray:
        text, system, column, low, high = self._mask_args
        n_sys = len(self.systems)
        mask = np.ones(self.n_rows, dtype=bool)
        if system >= 0 and n_sys:
            mask &= (np.arange(self.n_rows) % n_sys) == system
        if column is not None and column >= self.N_FIXED and (low is not None or high is not None):
            values = self.columns[column - self.N_FIXED].values
            with np.errstate(invalid="ignore"):
                keep = np.isfinite(values)
                if low is not None:
                    keep &= values >= low
                if high is not None:
                    keep &= values <= high
            mask &= keep
        needle = text.strip().lower()
        if needle:
            if self._lower_hyp is None or self._lower_seg is None:
                self._lower_hyp = [t.lower() for t in self.hypotheses]
                self._lower_seg = [t.lower() for t in self.segment_texts]
            in_hyp = np.fromiter((needle in t for t in self._lower_hyp), np.bool_, self.n_rows)
            in_seg = np.fromiter((needle in t for t in self._lower_seg), np.bool_, len(self.segment_texts))
            mask &= in_hyp | np.repeat(in_seg, n_sys)
        return mask

    def _order(self, rows: np.ndarray) -> np.ndarray:
        if self._sort is None:
            return rows
        column, order = self._sort
        descending = order == Qt.SortOrder.DescendingOrder
        n_sys = max(1, len(self.systems))
        if column == self.SEGMENT:
            keys = rows
        elif column == self.SYSTEM:
            keys = (rows % n_sys) * (self.n_rows + 1) + rows // n_sys
        elif column == self.OUTPUT:
            if self._text_rank is None:
                self._text_rank = np.empty(self.n_rows, dtype=np.int64)
                self._text_rank[np.argsort(np.array(self.hypotheses, dtype=object), kind="stable")] = np.arange(self.n_rows)
            keys = self._text_rank[rows]
        else:
            values = self.columns[column - self.N_FIXED].values[rows]
            # Unscored rows (NaN) go last in either direction.
            nan = ~np.isfinite(values)
            values = np.where(nan, 0.0, -values if descending else values)
            order_idx = np.lexsort((values, nan))
            return rows[order_idx]
        order_idx = np.argsort(-keys if descending else keys, kind="stable")
        return rows[order_idx]

    def _refresh(self) -> None:
        self.beginResetModel()
        rows = np.nonzero(self._mask())[0]
        self.visible = self._order(rows)
        self.endResetModel()

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        self._sort = (column, order)
        self.layoutAboutToBeChanged.emit()
        # The view's current and selected rows are persistent indexes: they must follow
        # their (segment, system) to its new row, or the highlight lands on another pair.
        persistent = self.persistentIndexList()
        flat_rows = [int(self.visible[i.row()]) if 0 <= i.row() < len(self.visible) else -1 for i in persistent]
        self.visible = self._order(np.nonzero(self._mask())[0])
        position = np.full(self.n_rows, -1, dtype=np.int64)
        position[self.visible] = np.arange(len(self.visible))
        moved = [self.index(int(position[r]), i.column()) if r >= 0 and position[r] >= 0 else QModelIndex()
                 for r, i in zip(flat_rows, persistent)]
        self.changePersistentIndexList(persistent, moved)
        self.layoutChanged.emit()

    # --- Qt model -------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self.visible)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else self.N_FIXED + len(self.columns)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Vertical or role not in (Qt.ItemDataRole.DisplayRole,
                                                                    Qt.ItemDataRole.ToolTipRole):
            return None
        if section < self.N_FIXED:
            title = ("Segment", "System", "Output")[section]
        else:
            column = self.columns[section - self.N_FIXED]
            title = score_title(column.spec) if column.kind == "metric" else column.title  # ↓: lower is better
        # The tooltip names a column whose header is narrower than its title.
        return tooltip(title) if role == Qt.ItemDataRole.ToolTipRole else title

    def value(self, row: int, column: int) -> float:
        return float(self.columns[column - self.N_FIXED].values[self.visible[row]])

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        value = self._data(index, role)
        if role == Qt.ItemDataRole.ToolTipRole and isinstance(value, str):
            return tooltip(value)  # outputs and system ids are shown as text, never as markup
        return value

    def _data(self, index, role):
        if not index.isValid():
            return None
        col = index.column()
        r = int(self.visible[index.row()])
        n_sys = len(self.systems)
        if role == Qt.ItemDataRole.DisplayRole:
            if col == self.SEGMENT:
                return self.segment_ids[r // n_sys]
            if col == self.SYSTEM:
                return self.systems[r % n_sys]
            if col == self.OUTPUT:
                return self.hypotheses[r]
            column = self.columns[col - self.N_FIXED]
            value = column.values[r]
            if column.kind == "human":
                return "–" if not math.isfinite(value) else f"{value:.2f}"
            if column.kind == "delta" and math.isfinite(value):
                return f"{value:+.{metric_info(column.spec)[2]}f}"
            return format_score(value, column.spec)
        if col < self.N_FIXED:
            if role == Qt.ItemDataRole.ToolTipRole and col == self.OUTPUT:
                return self.hypotheses[r]
            if role == Qt.ItemDataRole.ToolTipRole and col == self.SYSTEM:
                return self.systems[r % n_sys]  # the full name, when the column is narrower
            return None
        column = self.columns[col - self.N_FIXED]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if column.kind == "human" and math.isfinite(column.values[r]):
            if role == Qt.ItemDataRole.ForegroundRole:
                return QBrush(LINK)
            if role == Qt.ItemDataRole.FontRole:
                font = QFont()
                font.setUnderline(True)
                return font
            if role == Qt.ItemDataRole.ToolTipRole:
                return "Click to open this segment in the Judge workspace"
        return None


class SentenceBrowser(QWidget):
    """The filter bar and the table; emits the selected (system, segment)."""

    row_selected = Signal(str, str)
    """The current row changed; payload: (system id, segment id)."""

    human_score_clicked = Signal(str, str)
    """A human score was clicked; payload: (system id, segment id)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.model = SentenceTableModel(self)
        self._names_measured: tuple | None = None  # what the name columns' widths were measured for
        self._name_widths: list[int] = []
        self.view = QTableView()
        self.view.setTabKeyNavigation(False)  # Tab leaves the table; arrows move between cells
        self.view.setObjectName("sentence-browser")
        self.view.setModel(self.model)
        # Qt sorts at once when sorting is enabled: start in document order.
        self.view.horizontalHeader().setSortIndicator(SentenceTableModel.SEGMENT, Qt.SortOrder.AscendingOrder)
        self.view.setSortingEnabled(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setWordWrap(False)
        self.view.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.view.verticalHeader().setVisible(False)
        self.view.verticalHeader().setDefaultSectionSize(22)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setDefaultSectionSize(64)
        header.setSortIndicatorShown(True)
        self.view.selectionModel().currentRowChanged.connect(self._current_row_changed)
        self.view.clicked.connect(self._clicked)

        self.text_filter = QLineEdit()
        self.text_filter.setObjectName("text-filter")
        self.text_filter.setPlaceholderText("Filter text (output, source, references)")
        self.text_filter.setClearButtonEnabled(True)
        self.system_filter = QComboBox()
        self.system_filter.setObjectName("system-filter")
        self.range_column = QComboBox()
        self.range_column.setObjectName("range-column")
        self.range_low = QLineEdit()
        self.range_low.setObjectName("range-low")
        self.range_low.setPlaceholderText("min")
        self.range_low.setFixedWidth(60)
        self.range_high = QLineEdit()
        self.range_high.setObjectName("range-high")
        self.range_high.setPlaceholderText("max")
        self.range_high.setFixedWidth(60)
        self.delta_metric = QComboBox()
        self.delta_metric.setObjectName("delta-metric")
        self.delta_a = QComboBox()
        self.delta_a.setObjectName("delta-a")
        self.delta_b = QComboBox()
        self.delta_b.setObjectName("delta-b")
        self.count_label = QLabel()

        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(150)
        self._debounce.timeout.connect(self.apply_filter)
        for line in (self.text_filter, self.range_low, self.range_high):
            line.textChanged.connect(self._debounce.start)
        self.system_filter.currentIndexChanged.connect(self.apply_filter)
        self.range_column.currentIndexChanged.connect(self.apply_filter)
        for combo in (self.delta_metric, self.delta_a, self.delta_b):
            combo.currentIndexChanged.connect(self._delta_changed)

        top = QHBoxLayout()
        self.top_bar = top  # the host may add a button at its end
        top.addWidget(self.text_filter, 1)
        top.addWidget(QLabel("System"))
        top.addWidget(self.system_filter)
        middle = QHBoxLayout()
        middle.addWidget(QLabel("Score range of"))
        middle.addWidget(self.range_column, 1)
        middle.addWidget(self.range_low)
        middle.addWidget(QLabel("to"))
        middle.addWidget(self.range_high)
        middle.addStretch(1)
        middle.addWidget(self.count_label)
        second = QHBoxLayout()
        second.addWidget(QLabel("Δ"))
        second.addWidget(self.delta_metric, 1)
        second.addWidget(QLabel("of"))
        second.addWidget(self.delta_a, 1)
        second.addWidget(QLabel("minus"))
        second.addWidget(self.delta_b, 1)
        second.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addLayout(middle)
        layout.addLayout(second)
        layout.addWidget(self.view)

        self._metric_columns: list[NumericColumn] = []
        self._human_column: NumericColumn | None = None
        self._matrices: dict[str, np.ndarray] = {}

    # --- content ------------------------------------------------------------------------
    def set_texts(self, segment_ids, systems, hypotheses, segment_texts) -> None:
        self.model.set_texts(segment_ids, systems, hypotheses, segment_texts)
        for combo, items in ((self.system_filter, ["All systems", *systems]),
                             (self.delta_a, systems), (self.delta_b, systems)):
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(items)
            combo.blockSignals(False)
        if len(systems) > 1:
            self.delta_b.blockSignals(True)
            self.delta_b.setCurrentIndex(1)
            self.delta_b.blockSignals(False)
        self._metric_columns, self._human_column, self._matrices = [], None, {}
        self._rebuild_columns()

    def set_scores(self, matrices: dict[str, np.ndarray], human: np.ndarray | None, human_label: str = "Human") -> None:
        """``matrices``: spec -> (n_systems, n_segments) segment scores (NaN = not scored)."""
        self._matrices = dict(matrices)
        self._metric_columns = [NumericColumn(spec, spec, self.model.flat(m)) for spec, m in matrices.items()]
        self._human_column = None if human is None else NumericColumn(human_label, "", self.model.flat(human), "human")
        current = self.delta_metric.currentText()
        self.delta_metric.blockSignals(True)
        self.delta_metric.clear()
        self.delta_metric.addItems(list(matrices))
        if current in matrices:
            self.delta_metric.setCurrentText(current)
        self.delta_metric.blockSignals(False)
        self._rebuild_columns()

    def _delta_column(self) -> NumericColumn | None:
        spec = self.delta_metric.currentText()
        a, b = self.delta_a.currentIndex(), self.delta_b.currentIndex()
        matrix = self._matrices.get(spec)
        if matrix is None or a < 0 or b < 0 or a == b:
            return None
        delta = matrix[a] - matrix[b]
        title = f"Δ {spec} {self.delta_a.currentText()}−{self.delta_b.currentText()}"
        return NumericColumn(title, spec, np.repeat(delta, len(self.model.systems)), "delta")

    def _rebuild_columns(self) -> None:
        columns = list(self._metric_columns)
        if self._human_column is not None:
            columns.append(self._human_column)
        delta = self._delta_column()
        if delta is not None:
            columns.append(delta)
        keep = self.range_column.currentText()
        self.range_column.blockSignals(True)
        self.range_column.clear()
        self.range_column.addItems([c.title for c in columns])
        if keep in [c.title for c in columns]:
            self.range_column.setCurrentText(keep)
        self.range_column.blockSignals(False)
        selected = self.selected()
        self.model.columns = columns
        self.apply_filter()
        self._fit_name_columns()
        self._fit_score_columns()
        self._fit_output_column()
        if selected is not None:
            self.select(*selected)

    def _fit_name_columns(self) -> None:
        """Segment and system columns as wide as their header and longest entry
        (system names up to 240 px; the tooltip shows any name in full)."""
        header = self.view.horizontalHeader()
        cell_metrics = self.view.fontMetrics()
        head_metrics = header.fontMetrics()
        pad = 24  # cell margins plus the sort indicator
        model = self.model
        segment_ids = tuple(getattr(model, "segment_ids", []))[:5000]
        # Measured once per set of names and fonts: scores arrive a metric and an interval at
        # a time, and measuring 5,000 ids at each arrival was most of a 0.4-0.9 s turn.
        key = (segment_ids, tuple(model.systems), self.view.font().key(), header.font().key())
        if key != self._names_measured:
            self._name_widths = [
                max(head_metrics.horizontalAdvance(title),
                    min(max([cell_metrics.horizontalAdvance(t) for t in texts] or [0]), cap)) + pad
                for title, texts, cap in (("Segment", segment_ids, 200), ("System", key[1], 240))
            ]
            self._names_measured = key
        for column, width in zip((SentenceTableModel.SEGMENT, SentenceTableModel.SYSTEM), self._name_widths):
            self.view.setColumnWidth(column, width)

    def _fit_output_column(self) -> None:
        """The output column as wide as the view leaves beside the names and the first score,
        so that score reads whole rather than cut at the edge ("51.8" for 51.84), between
        140 px and ``OUTPUT_WIDTH``; the row's texts are in full below the table."""
        beside = sum(self.view.columnWidth(c) for c in (SentenceTableModel.SEGMENT, SentenceTableModel.SYSTEM))
        if self.model.columns:
            beside += self.view.columnWidth(SentenceTableModel.N_FIXED)
        room = self.view.viewport().width() - beside
        self.view.setColumnWidth(SentenceTableModel.OUTPUT, max(140, min(OUTPUT_WIDTH, room)))

    def _fit_score_columns(self) -> None:
        """Each score column as wide as its title and a score ("-100.00"), so every column
        shows what it holds; a long title (a delta's) up to 200 px, in full in its tooltip."""
        header = self.view.horizontalHeader()
        head_metrics = header.fontMetrics()
        number = self.view.fontMetrics().horizontalAdvance("-100.0000") + 12
        for c, column in enumerate(self.model.columns):
            title = head_metrics.horizontalAdvance(column.title) + 28  # margins and the sort arrow
            self.view.setColumnWidth(SentenceTableModel.N_FIXED + c, min(max(title, number), 200))

    def _delta_changed(self) -> None:
        self._rebuild_columns()

    # --- filtering ----------------------------------------------------------------------
    @staticmethod
    def _number(text: str) -> float | None:
        try:
            return float(text.replace(",", ".")) if text.strip() else None
        except ValueError:
            return None

    def apply_filter(self) -> None:
        column = self.range_column.currentIndex()
        selected = self.selected()
        self.model.set_filter(
            text=self.text_filter.text(),
            system=self.system_filter.currentIndex() - 1,
            column=SentenceTableModel.N_FIXED + column if column >= 0 else None,
            low=self._number(self.range_low.text()),
            high=self._number(self.range_high.text()),
        )
        self.count_label.setText(f"{self.model.rowCount():,} of {self.model.n_rows:,} rows")
        if selected is not None:
            self.select(*selected, emit=False)

    # --- selection -----------------------------------------------------------------------
    def selected(self) -> tuple[str, str] | None:
        index = self.view.currentIndex()
        if not index.isValid() or index.row() >= self.model.rowCount():
            return None
        return self.model.row_key(index.row())

    def select(self, system: str, segment: str, emit: bool = True) -> bool:
        row = self.model.row_of(system, segment)
        if row < 0:
            return False
        if not emit:
            self.view.selectionModel().blockSignals(True)
        self.view.setCurrentIndex(self.model.index(row, 0))
        self.view.selectRow(row)
        if not emit:
            self.view.selectionModel().blockSignals(False)
        self.view.scrollTo(self.model.index(row, 0))
        return True

    def _current_row_changed(self, current, _previous) -> None:
        if current.isValid():
            self.row_selected.emit(*self.model.row_key(current.row()))

    def _clicked(self, index) -> None:
        if index.column() < SentenceTableModel.N_FIXED:
            return
        column = self.model.columns[index.column() - SentenceTableModel.N_FIXED]
        if column.kind == "human" and math.isfinite(self.model.value(index.row(), index.column())):
            self.human_score_clicked.emit(*self.model.row_key(index.row()))
