"""The correlation table: one row per metric with r, its interval, p and n.

``CorrelationTableModel`` adapts a list of ``CorrelationResult``; the numbers
are shown rounded but ``Qt.UserRole`` gives the exact values (what tests and
copy-paste compare). ``correlation_csv`` / ``write_correlation_csv`` write the
table with full precision.
"""

from __future__ import annotations

import math
from pathlib import Path

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from mtworkbench.analysis.correlation import CorrelationResult, WilliamsResult
from mtworkbench.core.spreadsheet import table_text
from mtworkbench.gui.plain import tooltip

COLUMNS = ("metric", "r", "ci_low", "ci_high", "p", "n", "williams_p")
METHOD_SYMBOL = {"pearson": "Pearson r", "spearman": "Spearman ρ", "kendall": "Kendall τ"}
_ROOT = QModelIndex()  # the invalid index: a table's rows hang off the root
CSV_HEADER = ("metric", "human", "level", "method", "r", "ci_low", "ci_high", "ci_method", "confidence", "p", "n",
              "williams_p_vs_best")


def _fmt(x: float, digits: int = 4) -> str:
    return "–" if x is None or not math.isfinite(x) else f"{x:.{digits}f}"


def _fmt_p(x: float) -> str:
    if x is None or not math.isfinite(x):
        return "–"
    return "< 0.0001" if x < 1e-4 else f"{x:.4f}"


def _csv_num(x: float) -> str:
    return "" if x is None or not math.isfinite(x) else repr(float(x))


def correlation_csv(results: list[CorrelationResult], williams: dict[str, WilliamsResult] | None = None) -> str:
    """The table with full precision; ``williams_p_vs_best`` is empty for the best metric itself."""
    williams = williams or {}
    rows: list[list[object]] = [list(CSV_HEADER)]
    for r in results:
        w = williams.get(r.metric or "")
        rows.append([r.metric, r.human, r.level, r.method, _csv_num(r.r), _csv_num(r.ci[0]),
                         _csv_num(r.ci[1]), r.ci_method, r.confidence, _csv_num(r.p), r.n,
                     "" if w is None else _csv_num(w.p)])
    # Metric and judge names come from the bundle: a name such as "=HYPERLINK(...)" must not run.
    return table_text(rows)


def write_correlation_csv(
    results: list[CorrelationResult], path: str | Path, williams: dict[str, WilliamsResult] | None = None
) -> None:
    from mtworkbench.core.output import write_output

    write_output(path, correlation_csv(results, williams))


class CorrelationTableModel(QAbstractTableModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.results: list[CorrelationResult] = []
        self.higher_is_better: dict[str, bool] = {}
        self.williams: dict[str, WilliamsResult] = {}
        self.best: str | None = None

    def set_results(
        self,
        results: list[CorrelationResult],
        higher_is_better: dict[str, bool] | None = None,
        williams: dict[str, WilliamsResult] | None = None,
    ) -> None:
        """``higher_is_better`` orients error rates, so the best metric is the one agreeing most;
        ``williams`` holds each other metric's Williams test against the best."""
        self.beginResetModel()
        self.results = list(results)
        self.higher_is_better = dict(higher_is_better or {})
        self.williams = dict(williams or {})
        finite = [r for r in self.results if math.isfinite(r.r)]
        self.best = max(finite, key=self.agreement).metric if len(finite) > 1 else None
        self.endResetModel()

    def agreement(self, result: CorrelationResult) -> float:
        return result.r if self.higher_is_better.get(result.metric or "", True) else -result.r

    def rowCount(self, parent=_ROOT) -> int:
        return 0 if parent.isValid() else len(self.results)

    def columnCount(self, parent=_ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        method = self.results[0].method if self.results else "pearson"
        conf = self.results[0].confidence if self.results else 0.95
        kind = self.results[0].ci_method if self.results else "fisher"
        if role == Qt.ItemDataRole.DisplayRole:
            return {
                "metric": "Metric",
                "r": METHOD_SYMBOL.get(method, "r"),
                "ci_low": f"{conf:.0%} CI low",
                "ci_high": f"{conf:.0%} CI high",
                "p": "p",
                "n": "n",
                "williams_p": "Williams p vs best",
            }[COLUMNS[section]]
        if role == Qt.ItemDataRole.ToolTipRole and COLUMNS[section].startswith("ci"):
            return f"{'Fisher z' if kind == 'fisher' else kind} interval"
        if role == Qt.ItemDataRole.ToolTipRole and COLUMNS[section] == "williams_p":
            return ("Williams test (two-tailed): is this metric's correlation with the humans different from "
                    "the best metric's (bold)? Small p: the best metric is significantly better.")
        return None

    def value(self, row: int, column: str):
        r = self.results[row]
        return {
            "metric": r.metric,
            "r": r.r,
            "ci_low": r.ci[0],
            "ci_high": r.ci[1],
            "p": r.p,
            "n": r.n,
            "williams_p": self.williams[r.metric].p if r.metric in self.williams else math.nan,
        }[column]

    def data(self, index: QModelIndex | QPersistentModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        column = COLUMNS[index.column()]
        value = self.value(index.row(), column)
        if role == Qt.ItemDataRole.UserRole:
            return value
        if role == Qt.ItemDataRole.DisplayRole:
            if column == "metric":
                return value
            if column == "n":
                return str(value)
            if column == "p":
                return _fmt_p(value)
            if column == "williams_p":
                return "best" if self.results[index.row()].metric == self.best else _fmt_p(value)
            return _fmt(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and column != "metric":
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and self.results[index.row()].metric == self.best:
            from PySide6.QtGui import QFont

            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ForegroundRole and column in ("p", "williams_p"):
            p = value
            if isinstance(p, float) and math.isfinite(p) and p >= 0.05:
                return QColor("#8C8C8C")  # not significant at 5%: greyed
        if role == Qt.ItemDataRole.ToolTipRole:
            return tooltip(self._tooltip(index.row()))
        return None

    def _tooltip(self, row: int) -> str:
        r = self.results[row]
        direction = "" if self.higher_is_better.get(r.metric or "", True) else (
            "\nLower is better for this metric: a negative r means it agrees with the humans.")
        return (f"{r.metric} vs {r.human}, {r.level} level: {METHOD_SYMBOL.get(r.method, r.method)} = "
                f"{_fmt(r.r)} over {r.n} items; {r.confidence:.0%} {r.ci_method} interval "
                f"[{_fmt(r.ci[0])}, {_fmt(r.ci[1])}], p = {_fmt_p(r.p)}"
                f"{direction}")


def correlation_table_view(model: CorrelationTableModel, parent: QWidget | None = None) -> QTableView:
    view = QTableView(parent)
    view.setObjectName("correlation-table")
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setAlternatingRowColors(True)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(22)
    header = view.horizontalHeader()
    # Every column as wide as its header and values (never a cut title such as "Williams p
    # vs best"); a narrow pane scrolls sideways, a wide one gives the last column the rest.
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(True)
    header.setMinimumSectionSize(60)
    view.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    return view
