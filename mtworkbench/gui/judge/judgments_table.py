"""All judgments of the project as a table, filterable by judge and system.

``JudgmentsModel`` adapts the project's judgment list, keeps the rows of one
judge and/or one system and sorts them; ``JudgmentsPanel`` puts the two filter
boxes above a sortable ``QTableView`` and passes the project's judgment events
to the model one by one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.analysis.agreement import z_scores
from mtworkbench.core.events import (
    AFFECTS_JUDGMENTS,
    JUDGE_ROSTER,
    JudgmentAdded,
    JudgmentChanged,
    JudgmentRemoved,
    SystemAdded,
    SystemRemoved,
)
from mtworkbench.core.model import SPAN_PROTOCOLS, Judgment, Project, ProjectEvent
from mtworkbench.gui.plain import tooltip
from mtworkbench.gui.session import ProjectSession

# (header, attribute or callable)
COLUMNS: tuple[tuple[str, str], ...] = (
    ("Judge", "judge"),
    ("System", "system"),
    ("Segment", "segment"),
    ("Reference", "reference"),
    ("Protocol", "protocol_label"),
    ("Adequacy", "adequacy"),
    ("Fluency", "fluency"),
    ("Adequacy z", "z_adequacy"),
    ("Fluency z", "z_fluency"),
    ("Score", "score"),
    ("Errors", "error_count"),
    ("Seconds", "seconds"),
    ("Time", "timestamp"),
    ("Comment", "comment"),
)
NUMERIC = {"adequacy", "fluency", "score", "error_count", "seconds", "z_adequacy", "z_fluency"}
Z_COLUMNS = {"z_adequacy": "adequacy", "z_fluency": "fluency"}  # per-judge z-scores (Turian, Shen & Melamed 2003)
ALL = ""  # filter value meaning "no filter"
# Protocol names as a judge reads them; a BAD copy (quality control) is marked for whoever
# reviews the judgments, never in the rater's own view.
PROTOCOL_LABELS = {"ldc": "LDC 1-5", "da": "DA", "esa": "ESA", "mqm": "MQM", "rank": "Ranking",
                   "scalar": "Score"}


def protocol_label(judgment: Judgment) -> str:
    label = PROTOCOL_LABELS.get(judgment.protocol, judgment.protocol)
    return f"{label} · BAD copy" if judgment.qc == "bad" else label


def error_count(judgment: Judgment) -> int | None:
    """Error spans marked (MQM, ESA); nothing for protocols that mark none."""
    return len(judgment.errors) if judgment.protocol in SPAN_PROTOCOLS else None


# Columns computed from a judgment rather than read from one of its fields.
COMPUTED: dict[str, Callable[[Judgment], Any]] = {"protocol_label": protocol_label, "error_count": error_count}

# Rows name judges and systems, and the filters list them.
_FILTER_EVENTS = JUDGE_ROSTER | {SystemAdded, SystemRemoved}
_JUDGMENT_EVENTS = AFFECTS_JUDGMENTS | _FILTER_EVENTS
# What a cell answers; other roles (size hints, fonts, colours) return None at once.
_CELL_ROLES = frozenset(int(role) for role in (
    Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole,
    Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.UserRole + 1,
))
# Columns are sized from the header and this many judgments spread over the project, once
# per project: sizing them to all contents (ResizeToContents) asked every cell again after
# each change and stalled a table of thousands of judgments for 100-250 ms.
SIZE_SAMPLE = 200
MAX_COLUMN_WIDTH = 320

_ROOT = QModelIndex()  # the invisible root of a flat table


class JudgmentsModel(QAbstractTableModel):
    """The project's judgments as table rows, filtered by judge and system and sorted.

    A thin adapter: cells are formatted in ``data()`` when the view asks, and the
    model filters and sorts itself with Python keys, once per row. (A
    ``QSortFilterProxyModel`` compared rows by calling ``data()`` from C++ for every
    comparison: sorting 4,000 judgments, or re-sorting after each new one,
    stalled the window for 300-400 ms.) A new, changed or removed judgment moves
    one row (``add``/``change``/``remove``); only a reset of all judgments, a new
    filter or a new project re-reads them all. z-scores are computed per judge
    when first shown and dropped when that judge's ratings change.
    """

    JudgmentRole = Qt.ItemDataRole.UserRole + 1  # the Judgment object of a row

    def __init__(self, project: Project, parent=None) -> None:
        super().__init__(parent)
        self.project = project
        self.judge = ALL
        self.system = ALL
        self.sort_column = -1  # -1: the order judgments were made
        self.sort_order = Qt.SortOrder.AscendingOrder
        self._descending = False
        self.rows: list[Judgment] = []  # the shown rows, in display order
        self._keys: list[tuple] = []  # each shown row's sort key, parallel to ``rows``
        self._all: dict[str, Judgment] = {}  # every judgment of the project, in its order
        self._seq: dict[str, int] = {}  # judgment id -> place in the project's order (ties keep it)
        self._next_seq = 0
        self._z: dict[str, dict[str, dict[str, float]]] = {}  # judge -> quantity -> judgment id -> z
        self._key = self._key_function()
        self._read()

    # --- whole re-reads ---------------------------------------------------------------------
    def set_project(self, project: Project) -> None:
        self.project = project
        self.reload()

    def reload(self) -> None:
        self.beginResetModel()
        self._read()
        self.endResetModel()

    def set_filter(self, judge: str = ALL, system: str = ALL) -> None:
        if (judge, system) == (self.judge, self.system):
            return
        self.judge, self.system = judge, system
        self.beginResetModel()
        self._select()
        self.endResetModel()

    def _read(self) -> None:
        self._all = {j.id: j for j in self.project.judgments}
        self._seq = {jid: k for k, jid in enumerate(self._all)}
        self._next_seq = len(self._seq)
        self._z = {}
        self._select()

    def _select(self) -> None:
        key = self._key
        keyed = sorted(((key(j), j) for j in self._all.values() if self.accepts(j)),
                       key=lambda kj: kj[0], reverse=self._descending)
        self._keys = [k for k, _ in keyed]
        self.rows = [j for _, j in keyed]

    @property
    def total(self) -> int:
        """Judgments in the project, shown or not."""
        return len(self._all)

    def accepts(self, judgment: Judgment) -> bool:
        return (self.judge == ALL or judgment.judge == self.judge) and (
            self.system == ALL or judgment.system == self.system
        )

    # --- sorting ----------------------------------------------------------------------------
    def _key_function(self) -> Callable[[Judgment], tuple]:
        """What sorting compares: numbers as numbers (missing ones first), text as text;
        equal values keep the order the judgments were made (a stable sort, as Qt's).
        Built once per sort order, as it runs for every row."""
        if self.sort_column < 0:
            return lambda j: (self._seq[j.id],)
        attribute = COLUMNS[self.sort_column][1]
        # Descending order reverses the list, so ties are stored reversed to stay in order.
        sign = -1 if self._descending else 1
        if attribute in Z_COLUMNS:
            quantity = Z_COLUMNS[attribute]

            def z_key(j: Judgment) -> tuple:
                value = self._z_of(j, quantity)
                return (float("-inf") if value is None else value, sign * self._seq[j.id])
            return z_key
        if attribute in NUMERIC:
            def number_key(j: Judgment) -> tuple:
                value = self._value(j, attribute)
                return (float("-inf") if value is None else float(value), sign * self._seq[j.id])
            return number_key

        def text_key(j: Judgment) -> tuple:
            value = self._value(j, attribute)
            return ("" if value is None else str(value), sign * self._seq[j.id])
        return text_key

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not -1 <= column < len(COLUMNS):
            column = -1
        if (column, order) == (self.sort_column, self.sort_order):
            return  # rows stay in order as they come and go (the view asks twice per click)
        self._resort(column, order)

    def _resort(self, column: int, order: Qt.SortOrder) -> None:
        self.layoutAboutToBeChanged.emit()
        before = self.persistentIndexList()
        ids = [self.rows[index.row()].id for index in before]
        self.sort_column, self.sort_order = column, order
        self._descending = order == Qt.SortOrder.DescendingOrder
        self._key = self._key_function()
        self._select()
        row_of = {j.id: r for r, j in enumerate(self.rows)}
        self.changePersistentIndexList(
            before, [self.index(row_of[jid], index.column()) for jid, index in zip(ids, before)]
        )
        self.layoutChanged.emit()

    def _position(self, key: tuple) -> int:
        """Where a row with ``key`` goes among the shown rows (after its equals)."""
        descending = self._descending
        lo, hi = 0, len(self._keys)
        while lo < hi:
            mid = (lo + hi) // 2
            if (key > self._keys[mid]) if descending else (key < self._keys[mid]):
                hi = mid
            else:
                lo = mid + 1
        return lo

    def _sorts_by_z(self) -> bool:
        return self.sort_column >= 0 and COLUMNS[self.sort_column][1] in Z_COLUMNS

    # --- one judgment at a time ---------------------------------------------------------------
    def add(self, judgment: Judgment) -> None:
        """A new judgment: one row inserted where the sort puts it (if the filter keeps it)."""
        self._all[judgment.id] = judgment
        self._seq[judgment.id] = self._next_seq
        self._next_seq += 1
        self._insert(judgment)
        self._ratings_changed(judgment)

    def remove(self, judgment: Judgment) -> None:
        old = self._all.pop(judgment.id, None)
        if old is None:
            return
        self._take(old)
        self._seq.pop(old.id, None)
        self._ratings_changed(old)

    def change(self, judgment: Judgment) -> None:
        """A judgment replaced by one with its id (a changed rating, an undo)."""
        old = self._all.get(judgment.id)
        if old is None:
            self.add(judgment)
            return
        self._all[judgment.id] = judgment
        row = self._row_of(old)
        if row is not None and self.accepts(judgment) and self._key(judgment) == self._keys[row]:
            self.rows[row] = judgment  # stays in place: its cells repaint
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))
        else:
            if row is not None:
                self._remove_row(row)
            self._insert(judgment)
        self._ratings_changed(old, judgment)

    def _insert(self, judgment: Judgment) -> None:
        if not self.accepts(judgment):
            return
        key = self._key(judgment)
        row = self._position(key)
        self.beginInsertRows(_ROOT, row, row)
        self.rows.insert(row, judgment)
        self._keys.insert(row, key)
        self.endInsertRows()

    def _take(self, judgment: Judgment) -> None:
        row = self._row_of(judgment)
        if row is not None:
            self._remove_row(row)

    def _remove_row(self, row: int) -> None:
        self.beginRemoveRows(_ROOT, row, row)
        del self.rows[row]
        del self._keys[row]
        self.endRemoveRows()

    def _row_of(self, judgment: Judgment) -> int | None:
        """The shown row of ``judgment`` (found by its sort key, then its id)."""
        if not self.accepts(judgment) or judgment.id not in self._seq:
            return None
        key = self._key(judgment)
        row = self._position(key) - 1  # keys are unique (they end with the sequence number)
        if 0 <= row < len(self.rows) and self.rows[row].id == judgment.id:
            return row
        return next((r for r, j in enumerate(self.rows) if j.id == judgment.id), None)

    def _ratings_changed(self, *judgments: Judgment) -> None:
        """A judge's adequacy or fluency changed: their mean and spread moved, so all
        their z-scores did; recomputed when next shown."""
        judges = {j.judge for j in judgments if j.adequacy is not None or j.fluency is not None}
        if not judges:
            return
        for judge in judges:
            self._z.pop(judge, None)
        if self._sorts_by_z():
            self._resort(self.sort_column, self.sort_order)
        elif self.rows:
            z_columns = [c for c, (_, attribute) in enumerate(COLUMNS) if attribute in Z_COLUMNS]
            self.dataChanged.emit(self.index(0, min(z_columns)), self.index(len(self.rows) - 1, max(z_columns)))

    def _z_of(self, judgment: Judgment, quantity: str) -> float | None:
        per_judge = self._z.get(judgment.judge)
        if per_judge is None:
            own = [j for j in self._all.values() if j.judge == judgment.judge]
            per_judge = self._z[judgment.judge] = {q: z_scores(own, q) for q in Z_COLUMNS.values()}
        return per_judge[quantity].get(judgment.id)

    def _value(self, judgment: Judgment, attribute: str) -> Any:
        if attribute in Z_COLUMNS:
            return self._z_of(judgment, Z_COLUMNS[attribute])
        if attribute in COMPUTED:
            return COMPUTED[attribute](judgment)
        return getattr(judgment, attribute)

    # --- the Qt side ----------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section][0]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # The view asks about ten roles per cell it paints: the others end here at once.
        if role not in _CELL_ROLES or not index.isValid():
            return None
        judgment = self.rows[index.row()]
        if role == self.JudgmentRole:
            return judgment
        attribute = COLUMNS[index.column()][1]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(judgment, attribute)
        value = self._value(judgment, attribute)
        if role == Qt.ItemDataRole.EditRole:  # numbers as numbers, as the sort compares them
            if attribute in NUMERIC:
                return float("-inf") if value is None else float(value)
            return "" if value is None else str(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and attribute in NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and attribute == "comment" and value:
            return tooltip(str(value))
        if role == Qt.ItemDataRole.ToolTipRole and attribute in Z_COLUMNS and value is not None:
            return f"{Z_COLUMNS[attribute]} minus the judge's mean, over the judge's standard deviation: {value:.4f}"
        return None

    def text(self, judgment: Judgment, attribute: str) -> str:
        """A cell's text."""
        value = self._value(judgment, attribute)
        if value is None:
            return ""
        if attribute == "seconds":
            return f"{value:.1f}"
        if attribute in Z_COLUMNS:
            return f"{value:+.2f}"
        if attribute == "score":
            return f"{value:g}" + (f" ({judgment.scale})" if judgment.scale else "")
        return str(value)

    def sample(self, size: int) -> list[Judgment]:
        """Up to ``size`` judgments spread over the whole project (for sizing columns)."""
        judgments = list(self._all.values())
        return judgments[:: max(1, len(judgments) // size)][:size]


class JudgmentsPanel(QWidget):
    judgment_activated = Signal(object)
    """The user double-clicked a row; payload: its ``Judgment``."""

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.model = JudgmentsModel(session.project, self)
        self.judge_filter = QComboBox()
        self.judge_filter.setObjectName("judge-filter")
        self.system_filter = QComboBox()
        self.system_filter.setObjectName("system-filter")
        self.judge_filter.currentIndexChanged.connect(self._filters_changed)
        self.system_filter.currentIndexChanged.connect(self._filters_changed)
        self.count = QLabel()
        self.table = QTableView()
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move between cells
        self.table.setObjectName("judgments-table")
        self.table.setModel(self.model)
        # Unsorted (the order judgments were made) until the user clicks a header.
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.setAlternatingRowColors(True)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.doubleClicked.connect(self._activated)
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Judge"))
        bar.addWidget(self.judge_filter)
        bar.addSpacing(12)
        bar.addWidget(QLabel("System"))
        bar.addWidget(self.system_filter)
        bar.addStretch(1)
        bar.addWidget(self.count)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(bar)
        layout.addWidget(self.table)
        session.project_changed.connect(self._on_project_changed)
        session.project_replaced.connect(self._on_project_replaced)
        self._fill_filters()
        self._update_count()
        self._columns_fitted = False  # fitted when first shown, for each project

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._columns_fitted:
            self._fit_columns()

    def _fit_columns(self) -> None:
        """Each column as wide as its header or the widest text of a sample of judgments."""
        self._columns_fitted = True
        header = self.table.horizontalHeader()
        cell, title = self.table.fontMetrics(), header.fontMetrics()
        sample = self.model.sample(SIZE_SAMPLE)
        padding = 3 * cell.averageCharWidth()
        sort_arrow = 2 * title.averageCharWidth()
        for column, (name, attribute) in enumerate(COLUMNS):
            widest = max([title.horizontalAdvance(line) + sort_arrow for line in name.splitlines()]
                         + [cell.horizontalAdvance(self.model.text(j, attribute)) for j in sample])
            header.resizeSection(column, min(widest + padding, MAX_COLUMN_WIDTH))

    def _fill_filters(self) -> None:
        project = self.session.project
        judges = list(dict.fromkeys([*project.judges, *(j.judge for j in project.judgments)]))
        systems = [s.id for s in project.systems]
        for combo, values in ((self.judge_filter, judges), (self.system_filter, systems)):
            current = combo.currentData() or ALL
            combo.blockSignals(True)
            combo.clear()
            combo.addItem("All", ALL)
            for value in values:
                combo.addItem(value, value)
            combo.setCurrentIndex(max(0, combo.findData(current)))
            combo.blockSignals(False)
        self._filters_changed()

    def set_filter(self, judge: str = ALL, system: str = ALL) -> None:
        self.judge_filter.setCurrentIndex(max(0, self.judge_filter.findData(judge)))
        self.system_filter.setCurrentIndex(max(0, self.system_filter.findData(system)))

    def _filters_changed(self, *_args) -> None:
        self.model.set_filter(self.judge_filter.currentData() or ALL, self.system_filter.currentData() or ALL)
        self._update_count()

    def _update_count(self) -> None:
        shown, total = self.model.rowCount(), self.model.total
        self.count.setText(f"{shown} of {total} judgments" if shown != total else f"{total} judgments")

    @property
    def proxy(self) -> JudgmentsModel:
        """The table's model, under the name it had when a proxy model filtered it."""
        return self.model

    def _on_project_replaced(self, project: Project) -> None:
        self.model.set_project(project)
        self._fill_filters()
        self._columns_fitted = False
        if self.isVisible():
            self._fit_columns()

    def _on_project_changed(self, event: ProjectEvent) -> None:
        kind = type(event)
        if kind not in _JUDGMENT_EVENTS:
            return
        # One judgment moves one row (rating an item must not re-read thousands).
        if isinstance(event, JudgmentAdded):
            self.model.add(event.judgment)
        elif isinstance(event, JudgmentRemoved):
            self.model.remove(event.judgment)
        elif isinstance(event, JudgmentChanged):
            self.model.change(event.judgment)
        else:
            self.model.reload()
        if kind in _FILTER_EVENTS:
            self._fill_filters()
        self._update_count()

    def _activated(self, index: QModelIndex) -> None:
        judgment = self.model.data(index, JudgmentsModel.JudgmentRole)
        if judgment is not None:
            self.judgment_activated.emit(judgment)
