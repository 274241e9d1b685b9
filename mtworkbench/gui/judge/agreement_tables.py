"""The agreement panel's tables: their columns per protocol (header, cell text,
tooltip) and the models and views that show rows of ``analysis.agreement``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QHeaderView, QTableView

from mtworkbench.analysis.agreement import AgreementReport


def fmt(value: float | None, digits: int = 3) -> str:
    """A statistic for a table cell; an undefined one (None) as a dash."""
    return "—" if value is None else f"{value:.{digits}f}"


def percent(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f}%"


Column = tuple[str, Callable[[Any], str], str]  # header, cell text, tooltip


_ROOT = QModelIndex()  # the invisible root of a flat table

class RowsModel(QAbstractTableModel):
    """A read-only table over a plain list: each column turns a row into text."""

    def __init__(self, columns: Sequence[Column], parent=None) -> None:
        super().__init__(parent)
        self.columns = list(columns)
        self.rows: list[Any] = []

    def set_rows(self, rows: list[Any], columns: Sequence[Column] | None = None) -> None:
        """New rows, and new columns if given (one reset: the view sees both at once)."""
        self.beginResetModel()
        self.rows = list(rows)
        if columns is not None:
            self.columns = list(columns)
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section][0]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.columns[section][2]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.columns[index.column()][1](self.rows[index.row()])
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


PAIR_COLUMNS: tuple[Column, ...] = (
    ("Judges", lambda p: f"{p.judges[0]}  ×  {p.judges[1]}", "The two judges"),
    ("Shared\nitems", lambda p: str(p.n), "Items both judges rated (first ratings only)"),
    ("Adequacy\nρ", lambda p: fmt(p.adequacy.spearman), "Spearman rank correlation of adequacy"),
    ("Adequacy\nr", lambda p: fmt(p.adequacy.pearson), "Pearson correlation of adequacy"),
    ("Adequacy\nκw", lambda p: fmt(p.adequacy.kappa_quadratic), "Quadratic-weighted Cohen's kappa of adequacy"),
    ("Fluency\nρ", lambda p: fmt(p.fluency.spearman), "Spearman rank correlation of fluency"),
    ("Fluency\nr", lambda p: fmt(p.fluency.pearson), "Pearson correlation of fluency"),
    ("Fluency\nκw", lambda p: fmt(p.fluency.kappa_quadratic), "Quadratic-weighted Cohen's kappa of fluency"),
)

INTRA_COLUMNS: tuple[Column, ...] = (
    ("Judge", lambda i: i.judge, "Judge rating some items twice (queue repeats)"),
    ("Repeats", lambda i: str(i.n), "Pairs of (first rating, repeat)"),
    ("Adequacy\nsame", lambda i: percent(i.adequacy.exact), "Share of repeats given the first adequacy again"),
    ("Adequacy\n|Δ|", lambda i: fmt(i.adequacy.mean_abs_diff, 2), "Mean absolute change of adequacy"),
    ("Adequacy\nκw", lambda i: fmt(i.adequacy.kappa_quadratic), "Quadratic-weighted kappa, first vs repeat"),
    ("Fluency\nsame", lambda i: percent(i.fluency.exact), "Share of repeats given the first fluency again"),
    ("Fluency\n|Δ|", lambda i: fmt(i.fluency.mean_abs_diff, 2), "Mean absolute change of fluency"),
    ("Fluency\nκw", lambda i: fmt(i.fluency.kappa_quadratic), "Quadratic-weighted kappa, first vs repeat"),
)

_SUMMARY_HEAD: tuple[Column, ...] = (
    ("Judge", lambda j: j.judge, "Judge"),
    ("Judgments", lambda j: str(j.judgments), "Judgments made, repeats included"),
    ("Items", lambda j: str(j.items), "Distinct (system, segment) items rated"),
)
_SUMMARY_LDC: tuple[Column, ...] = (
    ("Adequacy\nmean", lambda j: fmt(j.moments["adequacy"].mean, 2), "Mean adequacy: subtracted by the z-transform"),
    ("Adequacy\nsd", lambda j: fmt(j.moments["adequacy"].sd, 2), "Standard deviation (ddof=0): divided by the z-transform"),
    ("Fluency\nmean", lambda j: fmt(j.moments["fluency"].mean, 2), "Mean fluency"),
    ("Fluency\nsd", lambda j: fmt(j.moments["fluency"].sd, 2), "Standard deviation of fluency (ddof=0)"),
)
_SUMMARY_SCORE: tuple[Column, ...] = (
    ("Score\nmean", lambda j: fmt(j.moments["score"].mean, 2), "Mean score (DA, ESA, imported): subtracted by the z-transform"),
    ("Score\nsd", lambda j: fmt(j.moments["score"].sd, 2), "Standard deviation of the scores (ddof=0)"),
)
_SUMMARY_SCALES: Column = ("Other\nscales", lambda j: ", ".join(j.scales) or "—", "Scores on other scales (DA, ESA, MQM)")
SUMMARY_COLUMNS: tuple[Column, ...] = (*_SUMMARY_HEAD, *_SUMMARY_LDC, _SUMMARY_SCALES)


def summary_columns(report: AgreementReport) -> tuple[Column, ...]:
    """The judges' table: adequacy/fluency columns only with LDC ratings, score columns only with scores."""
    ldc = "ldc" in report.protocols
    scores = any(s.moments["score"].n for s in report.summaries.values())
    scales = any(s.scales for s in report.summaries.values())
    return (*_SUMMARY_HEAD, *(_SUMMARY_LDC if ldc else ()), *(_SUMMARY_SCORE if scores else ()),
            *((_SUMMARY_SCALES,) if scales or ldc else ()))


PROTOCOL_NAMES = {
    "ldc": "LDC adequacy / fluency (1–5)",
    "da": "DA (0–100)",
    "esa": "ESA (0–100)",
    "mqm": "MQM (weighted errors)",
    "rank": "Relative ranking",
}
# What the scatter can plot: (label, quantity, protocol).
SCATTER_QUANTITIES = (
    ("Adequacy", "adequacy", "ldc"),
    ("Fluency", "fluency", "ldc"),
    ("DA score", "da", "da"),
    ("ESA score", "esa", "esa"),
    ("MQM score", "mqm", "mqm"),
)
SCORE_WHAT = {"da": "0–100 DA scores", "esa": "0–100 ESA scores", "mqm": "MQM segment scores (minus weighted errors)"}


def score_pair_columns(protocol: str) -> tuple[Column, ...]:
    what = SCORE_WHAT[protocol]
    return (
        ("Judges", lambda p: f"{p.judges[0]}  ×  {p.judges[1]}", "The two raters"),
        ("Shared\nitems", lambda p: str(p.n), "Items both rated (first scores only; BAD copies left out)"),
        ("Pearson\nr", lambda p: fmt(p.pearson), f"Pearson correlation of the {what}"),
        ("Spearman\nρ", lambda p: fmt(p.spearman), f"Spearman rank correlation of the {what}"),
        ("Mean\n|Δ|", lambda p: fmt(p.mean_abs_diff, 2), f"Mean absolute difference of the {what}"),
    )


def score_intra_columns(protocol: str) -> tuple[Column, ...]:
    what = SCORE_WHAT[protocol]
    return (
        ("Judge", lambda r: r.judge, "Rater who scored some items twice (queue repeats)"),
        ("Repeats", lambda r: str(r.n), "Pairs of (first score, repeat)"),
        ("Mean\n|Δ|", lambda r: fmt(r.mean_abs_diff, 2), f"Mean absolute change of the {what} between first and repeat"),
        ("Pearson\nr", lambda r: fmt(r.pearson), "Pearson correlation, first score vs repeat"),
        ("Spearman\nρ", lambda r: fmt(r.spearman), "Spearman correlation, first score vs repeat"),
    )


def _kappa_columns(count: str, count_tip: str) -> tuple[Column, ...]:
    return (
        (count, lambda r: str(r.kappa.n), count_tip),
        ("P(A)", lambda r: fmt(r.kappa.p_agree), "Share of the compared pairs of systems given the same label (better, worse, tie)"),
        ("P(E)", lambda r: fmt(r.kappa.p_chance),
         "Chance agreement as WMT 2013–2016: P(tie)² + 2·((1 − P(tie))/2)², P(tie) the observed share of ties"),
        ("κ", lambda r: fmt(r.kappa.kappa), "Cohen's kappa (P(A) − P(E)) / (1 − P(E))"),
    )


RANK_PAIR_COLUMNS: tuple[Column, ...] = (
    ("Judges", lambda p: f"{p.judges[0]}  ×  {p.judges[1]}", "The two raters"),
    *_kappa_columns("Compared\npairs", "Pairs of systems on one segment both raters ranked (first ranking each)"),
)
RANK_INTRA_COLUMNS: tuple[Column, ...] = (
    ("Judge", lambda r: r.judge, "Rater who ranked some screens twice (queue repeats)"),
    *_kappa_columns("Repeated\npairs", "Pairs of systems ranked again: first label against each repeat"),
)


def protocol_rows(report: AgreementReport, protocol: str) -> tuple[tuple[Column, ...], list, tuple[Column, ...], list]:
    """(pair columns, pair rows, repeat columns, repeat rows) of one protocol's section."""
    if protocol == "ldc":
        return PAIR_COLUMNS, report.ldc_pairs(), INTRA_COLUMNS, report.ldc_intra()
    if protocol == "rank":
        ranking = report.ranking
        return (RANK_PAIR_COLUMNS, ranking.pairs if ranking else [],
                RANK_INTRA_COLUMNS, ranking.repeats if ranking else [])
    return (score_pair_columns(protocol), report.score_pairs(protocol),
            score_intra_columns(protocol), report.score_intra(protocol))


class QualityControlModel(RowsModel):
    """The quality-control rows, their verdict in colour (green pass, red FAIL)."""

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.ForegroundRole and index.isValid() and index.column() == len(self.columns) - 1:
            passed = self.rows[index.row()].passed
            return None if passed is None else QColor("#15803d" if passed else "#b91c1c")
        return super().data(index, role)


def table_view(model: QAbstractTableModel, name: str) -> QTableView:
    view = QTableView()
    view.setTabKeyNavigation(False)  # Tab leaves the table; arrows move between cells
    view.setObjectName(name)
    view.setModel(model)
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
    view.verticalHeader().setVisible(False)
    # Rows a line high: five tables share the tab's height, and at 1280x800 each showed
    # three rows and the top of a fourth.
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)
    view.setAlternatingRowColors(True)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
    return view
