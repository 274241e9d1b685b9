"""All judgments of the project as a table, filterable by judge and system.

``JudgmentsModel`` adapts the project's judgment list (it knows nothing of
Qt); ``JudgmentsFilter`` keeps the rows of one judge and/or one system;
``JudgmentsPanel`` puts the two filter boxes above a sortable ``QTableView``.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
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
    SystemAdded,
    SystemRemoved,
)
from mtworkbench.core.model import Judgment, Project, ProjectEvent
from mtworkbench.gui.session import ProjectSession
from mtworkbench.gui.plain import tooltip

# (header, attribute or callable)
COLUMNS: tuple[tuple[str, str], ...] = (
    ("Judge", "judge"),
    ("System", "system"),
    ("Segment", "segment"),
    ("Reference", "reference"),
    ("Adequacy", "adequacy"),
    ("Fluency", "fluency"),
    ("Adequacy z", "z_adequacy"),
    ("Fluency z", "z_fluency"),
    ("Score", "score"),
    ("Seconds", "seconds"),
    ("Time", "timestamp"),
    ("Comment", "comment"),
)
NUMERIC = {"adequacy", "fluency", "score", "seconds", "z_adequacy", "z_fluency"}
Z_COLUMNS = {"z_adequacy": "adequacy", "z_fluency": "fluency"}  # per-judge z-scores (seed 000)
ALL = ""  # filter value meaning "no filter"

# Rows name judges and systems, and the filters list them.
_FILTER_EVENTS = JUDGE_ROSTER | {SystemAdded, SystemRemoved}
_JUDGMENT_EVENTS = AFFECTS_JUDGMENTS | _FILTER_EVENTS


_ROOT = QModelIndex()  # the invisible root of a flat table

class JudgmentsModel(QAbstractTableModel):
    JudgmentRole = Qt.ItemDataRole.UserRole + 1  # the Judgment object of a row

    def __init__(self, project: Project, parent=None) -> None:
        super().__init__(parent)
        self.project = project
        self.rows: list[Judgment] = []
        self.z: dict[str, dict[str, float]] = {}
        self._read()

    def set_project(self, project: Project) -> None:
        self.project = project
        self.reload()

    def reload(self) -> None:
        self.beginResetModel()
        self._read()
        self.endResetModel()

    def _read(self) -> None:
        self.rows = list(self.project.judgments)
        # A new rating moves its judge's mean and spread, so all their z-scores change.
        self.z = {quantity: z_scores(self.rows, quantity) for quantity in Z_COLUMNS.values()}

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section][0]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        judgment = self.rows[index.row()]
        attribute = COLUMNS[index.column()][1]
        if attribute in Z_COLUMNS:
            value = self.z[Z_COLUMNS[attribute]].get(judgment.id)
        else:
            value = getattr(judgment, attribute)
        if role == self.JudgmentRole:
            return judgment
        if role == Qt.ItemDataRole.DisplayRole:
            if value is None:
                return ""
            if attribute == "seconds":
                return f"{value:.1f}"
            if attribute in Z_COLUMNS:
                return f"{value:+.2f}"
            if attribute == "score":
                return f"{value:g}" + (f" ({judgment.scale})" if judgment.scale else "")
            return str(value)
        if role == Qt.ItemDataRole.EditRole:  # what sorting compares: numbers as numbers
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


class JudgmentsFilter(QSortFilterProxyModel):
    """Rows of one judge and/or one system (``ALL`` = any)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.judge = ALL
        self.system = ALL
        self.setSortRole(Qt.ItemDataRole.EditRole)

    def set_judge(self, judge: str) -> None:
        self._begin()
        self.judge = judge
        self._end()

    def set_system(self, system: str) -> None:
        self._begin()
        self.system = system
        self._end()

    # Qt 6.9+ replaces invalidateFilter() by a begin/end pair around the change.
    def _begin(self) -> None:
        if hasattr(self, "beginFilterChange"):
            self.beginFilterChange()

    def _end(self) -> None:
        if hasattr(self, "endFilterChange"):
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self.invalidateFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        model = self.sourceModel()
        assert isinstance(model, JudgmentsModel)  # the only source model (JudgmentsTable)
        judgment: Judgment = model.rows[source_row]
        return (self.judge == ALL or judgment.judge == self.judge) and (
            self.system == ALL or judgment.system == self.system
        )


class JudgmentsPanel(QWidget):
    judgment_activated = Signal(object)
    """The user double-clicked a row; payload: its ``Judgment``."""

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.model = JudgmentsModel(session.project, self)
        self.proxy = JudgmentsFilter(self)
        self.proxy.setSourceModel(self.model)
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
        self.table.setModel(self.proxy)
        # Unsorted (the order judgments were made) until the user clicks a header.
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.setAlternatingRowColors(True)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # Size columns from the visible rows and a sample, not every row: with thousands of
        # judgments (an MQM import) a full pass stalled the tab for seconds (bench_judge_spans).
        self.table.horizontalHeader().setResizeContentsPrecision(200)
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
        self.proxy.set_judge(self.judge_filter.currentData() or ALL)
        self.proxy.set_system(self.system_filter.currentData() or ALL)
        self._update_count()

    def _update_count(self) -> None:
        shown, total = self.proxy.rowCount(), self.model.rowCount()
        self.count.setText(f"{shown} of {total} judgments" if shown != total else f"{total} judgments")

    def _on_project_replaced(self, project: Project) -> None:
        self.model.set_project(project)
        self._fill_filters()

    def _on_project_changed(self, event: ProjectEvent) -> None:
        if type(event) in _JUDGMENT_EVENTS:
            self.model.reload()
            if type(event) in _FILTER_EVENTS:
                self._fill_filters()
            self._update_count()

    def _activated(self, index: QModelIndex) -> None:
        judgment = self.proxy.data(index, JudgmentsModel.JudgmentRole)
        if judgment is not None:
            self.judgment_activated.emit(judgment)
