"""Systems x metrics: corpus scores, bootstrap 95% intervals and paired
significance against a baseline, sortable, copyable as TSV or LaTeX."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.spreadsheet import table_text
from mtworkbench.gui.metrics.formatting import format_score, metric_info, score_title
from mtworkbench.gui.plain import tooltip

SIGNIFICANCE_LEVEL = 0.05
LATEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "_": r"\_", "#": r"\#",
                 "$": r"\$", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
BETTER = QColor("#1b7a2e")
WORSE = QColor("#b3261e")


@dataclass
class Cell:
    """One metric's result on one system, as the table shows it."""

    score: float = math.nan
    ci_half: float | None = None
    ci_lower: float | None = None
    ci_upper: float | None = None
    p_value: float | None = None
    error: str = ""
    higher_is_better: bool | None = None  # from the score when its spec does not tell (ext:NAME)
    # Why a figure is missing: identical to the baseline (no test), an empty interval.
    notes: tuple[str, ...] = ()
    # Why there is no score on purpose (a system that is the only reference); "" otherwise.
    unscored: str = ""

    def comparison(self, spec: str, baseline_score: float | None) -> int:
        """+1 significantly better than the baseline, -1 significantly worse, 0 otherwise."""
        if self.p_value is None or baseline_score is None or self.p_value >= SIGNIFICANCE_LEVEL:
            return 0
        higher_is_better = metric_info(spec)[1] if self.higher_is_better is None else self.higher_is_better
        diff = self.score - baseline_score
        if diff == 0:
            return 0
        return 1 if (diff > 0) == higher_is_better else -1


@dataclass
class CorpusRow:
    system: str
    cells: dict[str, Cell] = field(default_factory=dict)


class CorpusTableModel(QAbstractTableModel):
    """Column 0 is the system; one column per metric spec."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.specs: list[str] = []
        self.rows: list[CorpusRow] = []
        self.baseline: str | None = None
        self._sort: tuple[int, Qt.SortOrder] | None = None
        # The system-level human score (mean over its rated segments), a last column when present.
        self.human: dict[str, float] = {}
        self.human_label = ""

    # --- content -------------------------------------------------------------------
    def set_content(self, specs: list[str], rows: list[CorpusRow], baseline: str | None,
                    human: dict[str, float] | None = None, human_label: str = "") -> None:
        self.beginResetModel()
        self.specs, self.rows, self.baseline = list(specs), list(rows), baseline
        self.human, self.human_label = dict(human or {}), human_label
        self.endResetModel()
        if self._sort is not None:
            self.sort(*self._sort)

    def baseline_score(self, spec: str) -> float | None:
        for row in self.rows:
            if row.system == self.baseline:
                cell = row.cells.get(spec)
                return None if cell is None else cell.score
        return None

    def cell(self, row: int, spec: str) -> Cell:
        return self.rows[row].cells.get(spec) or Cell()

    # --- Qt model --------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else 1 + len(self.specs) + bool(self.human)

    def is_human_column(self, column: int) -> bool:
        return bool(self.human) and column == 1 + len(self.specs)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and self.is_human_column(section):
            if role == Qt.ItemDataRole.DisplayRole:
                return self.human_label or "Human"
            if role == Qt.ItemDataRole.ToolTipRole:
                return tooltip(f"{self.human_label or 'Human'}: the system's mean over its rated segments")
            return None
        if orientation == Qt.Orientation.Horizontal:
            if role == Qt.ItemDataRole.DisplayRole:
                return "System" if section == 0 else score_title(self.specs[section - 1])
            if role == Qt.ItemDataRole.ToolTipRole and section > 0:
                spec = self.specs[section - 1]
                return tooltip(f"{spec}: {'higher' if metric_info(spec)[1] else 'lower'} is better")
        elif role == Qt.ItemDataRole.DisplayRole:
            return str(section + 1)
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        col = index.column()
        if col == 0:
            if role == Qt.ItemDataRole.DisplayRole:
                return row.system + ("  (baseline)" if row.system == self.baseline else "")
            if role == Qt.ItemDataRole.FontRole and row.system == self.baseline:
                font = QFont()
                font.setBold(True)
                return font
            if role == Qt.ItemDataRole.UserRole:
                return row.system
            return None
        if self.is_human_column(col):
            value = self.human.get(row.system, math.nan)
            if role == Qt.ItemDataRole.DisplayRole:
                return f"{value:.4f}" if math.isfinite(value) else "–"
            if role == Qt.ItemDataRole.UserRole:
                return value
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if role == Qt.ItemDataRole.ToolTipRole:
                return tooltip(f"{row.system} · {self.human_label}: " + (
                    f"{value:.4f}" if math.isfinite(value) else "no rated segment"))
            return None
        spec = self.specs[col - 1]
        cell = row.cells.get(spec) or Cell()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cell_text(row, spec, cell)
        if role == Qt.ItemDataRole.UserRole:
            return cell.score
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole:
            mark = cell.comparison(spec, self.baseline_score(spec)) if row.system != self.baseline else 0
            if mark:
                return QBrush(BETTER if mark > 0 else WORSE)
            if cell.error:
                return QBrush(WORSE)
        if role == Qt.ItemDataRole.ToolTipRole:
            return tooltip(self.cell_tooltip(row, spec, cell))
        return None

    def marker(self, row: CorpusRow, spec: str, cell: Cell) -> str:
        if row.system == self.baseline:
            return ""
        mark = cell.comparison(spec, self.baseline_score(spec))
        return {1: " ▲*", -1: " ▼*", 0: ""}[mark]

    def cell_text(self, row: CorpusRow, spec: str, cell: Cell) -> str:
        if cell.error:
            return "error"
        if cell.unscored:
            return "–"
        if not math.isfinite(cell.score):
            return "…"
        text = format_score(cell.score, spec)
        if cell.ci_half is not None and math.isfinite(cell.ci_half) and cell.ci_lower != cell.ci_upper:
            text += f" ± {format_score(cell.ci_half, spec)}"
        return text + self.marker(row, spec, cell)

    def cell_tooltip(self, row: CorpusRow, spec: str, cell: Cell) -> str:
        if cell.error:
            return cell.error
        if cell.unscored:
            return cell.unscored
        if not math.isfinite(cell.score):
            return "not scored yet"
        lines = [f"{row.system} · {spec}: {format_score(cell.score, spec)}"]
        if cell.ci_lower is not None and cell.ci_upper is not None:
            lines.append(
                f"bootstrap 95% interval {format_score(cell.ci_lower, spec)} – {format_score(cell.ci_upper, spec)}"
            )
        if cell.p_value is not None:
            lines.append(f"paired test against {self.baseline}: p = {cell.p_value:.4f}")
        lines += cell.notes
        return "\n".join(lines)

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        self._sort = (column, order)
        reverse = order == Qt.SortOrder.DescendingOrder
        self.layoutAboutToBeChanged.emit()
        if column == 0:
            self.rows.sort(key=lambda r: r.system, reverse=reverse)
        elif self.is_human_column(column):
            rated = [r for r in self.rows if math.isfinite(self.human.get(r.system, math.nan))]
            rated.sort(key=lambda r: self.human[r.system], reverse=reverse)
            self.rows = rated + [r for r in self.rows if r not in rated]
        elif 0 < column <= len(self.specs):
            spec = self.specs[column - 1]
            scored = [r for r in self.rows if math.isfinite((r.cells.get(spec) or Cell()).score)]
            unscored = [r for r in self.rows if r not in scored]
            scored.sort(key=lambda r: r.cells[spec].score, reverse=reverse)
            self.rows = scored + unscored  # unscored rows last in either order
        self.layoutChanged.emit()

    # --- copying -------------------------------------------------------------------------
    def to_tsv(self) -> str:
        header = ["system"]
        for spec in self.specs:
            header += [spec, f"{spec} 95% CI low", f"{spec} 95% CI high", f"{spec} p"]
        lines = [header]
        for row in self.rows:
            fields = [row.system]
            for spec in self.specs:
                cell = row.cells.get(spec) or Cell()
                fields += [
                    format_score(cell.score, spec) if math.isfinite(cell.score) else "",
                    "" if cell.ci_lower is None else format_score(cell.ci_lower, spec),
                    "" if cell.ci_upper is None else format_score(cell.ci_upper, spec),
                    "" if cell.p_value is None else f"{cell.p_value:.4f}",
                ]
            lines.append(fields)
        # Spreadsheet-safe: a system id or metric name starting with "=" is not a formula there.
        return table_text(lines, "\t")

    def to_latex(self) -> str:
        def esc(text: str) -> str:
            return "".join(LATEX_ESCAPES.get(ch, ch) for ch in text)

        lines = [r"\begin{tabular}{l" + "r" * len(self.specs) + "}", r"\hline"]
        lines.append(" & ".join(["System", *(esc(s) for s in self.specs)]) + r" \\")
        lines.append(r"\hline")
        for row in self.rows:
            fields = [esc(row.system) + (" (baseline)" if row.system == self.baseline else "")]
            for spec in self.specs:
                cell = row.cells.get(spec) or Cell()
                if not math.isfinite(cell.score):
                    fields.append("--")
                    continue
                text = format_score(cell.score, spec)
                if cell.ci_half is not None:
                    text += r" $\pm$ " + format_score(cell.ci_half, spec)
                if row.system != self.baseline and cell.comparison(spec, self.baseline_score(spec)):
                    text += r"$^{*}$"
                fields.append(text)
            lines.append(" & ".join(fields) + r" \\")
        lines += [r"\hline", r"\end{tabular}"]
        note = (f"% * paired {SIGNIFICANCE_LEVEL:g}-level significant difference from the baseline"
                if self.baseline else "")
        return "\n".join(lines + ([note] if note else [])) + "\n"


class CorpusTable(QWidget):
    """The table with a caption: what the workspace shows and ``render`` exports."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.model = CorpusTableModel(self)
        self.view = QTableView()
        self.view.setTabKeyNavigation(False)  # Tab leaves the table; arrows move between cells
        self.view.setObjectName("corpus-table")
        self.view.setModel(self.model)
        self.view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # project order first
        self.view.setSortingEnabled(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setAlternatingRowColors(True)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.view.horizontalHeader().setStretchLastSection(False)
        self.view.verticalHeader().setVisible(False)
        # Rows as tall as a line of text: eight systems fit where five did.
        self.view.verticalHeader().setDefaultSectionSize(self.view.fontMetrics().height() + 8)
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.caption = QLabel()
        self.caption.setTextFormat(Qt.TextFormat.PlainText)  # names the baseline system
        self.caption.setWordWrap(True)
        self.caption.setObjectName("corpus-caption")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        self.caption_bar = QHBoxLayout()  # the caption and whatever the host puts beside it
        self.caption_bar.addWidget(self.caption, 1)
        layout.addLayout(self.caption_bar)
        self.model.modelReset.connect(self._update_caption)

    def set_content(self, specs: list[str], rows: list[CorpusRow], baseline: str | None, note: str = "",
                    human: dict[str, float] | None = None, human_label: str = "") -> None:
        self.model.set_content(specs, rows, baseline, human, human_label)
        self._note = note
        self._update_caption()

    def _update_caption(self) -> None:
        parts = ["± half-width of the bootstrap 95% interval"]
        if self.model.baseline:
            parts.append(f"▲* / ▼*: significantly better / worse than {self.model.baseline} (paired test, p < {SIGNIFICANCE_LEVEL:g})")
        note = getattr(self, "_note", "")
        if note:
            parts.append(note)
        self.caption.setText(" · ".join(parts))

    def copy_tsv(self) -> str:
        text = self.model.to_tsv()
        QGuiApplication.clipboard().setText(text)
        return text

    def copy_latex(self) -> str:
        text = self.model.to_latex()
        QGuiApplication.clipboard().setText(text)
        return text

    def preferred_size(self):
        """A size that shows every row and column (for headless rendering)."""
        self.view.resizeColumnsToContents()
        width = self.view.verticalHeader().width() + sum(
            self.view.columnWidth(c) for c in range(self.model.columnCount())) + 8
        height = self.view.horizontalHeader().sizeHint().height() + sum(
            self.view.rowHeight(r) for r in range(self.model.rowCount())) + 2 * self.view.frameWidth() + 2
        self.view.setMinimumHeight(0)
        self.view.setFixedHeight(height)  # no empty band under the last row in the image
        width = max(width, 480)
        return width, height + self.caption.heightForWidth(width) + 8


def empty_interval_reason(score) -> str:
    """Why every bootstrap resample gave the same score."""
    unit = (score.options or {}).get("unit")
    segments = np.asarray(score.segments, dtype=float)
    if unit in ("paragraph", "document") and len(segments) and np.all(segments == segments[0]):
        return (f"no interval: one {unit} spans the whole corpus, so resampling "
                "segments cannot change the score")
    return "no interval: every bootstrap resample gives the same score"


def corpus_rows(cache, systems: list[str], specs: list[str], paired: dict | None = None,
                errors: dict[str, str] | None = None,
                unscored: dict[tuple[str, str], str] | None = None) -> list[CorpusRow]:
    """Table rows from the cache's current entries and the paired-test results by spec."""
    paired = paired or {}
    errors = errors or {}
    p_values: dict[tuple[str, str], float] = {}
    identical: set[tuple[str, str]] = set()
    for spec, result in paired.items():
        baseline_score = result.systems[0].score if result.systems else None
        for comparison in result.systems:
            if comparison.p_value is None:
                continue
            if comparison.identical or comparison.score == baseline_score:
                # A test of no difference says nothing (the bootstrap would print p = 0.001).
                identical.add((comparison.system, spec))
                continue
            p_values[(comparison.system, spec)] = comparison.p_value
    rows = []
    for system in systems:
        row = CorpusRow(system)
        for spec in specs:
            entry = cache.current(system, spec)
            if entry is None:
                row.cells[spec] = Cell(error=errors.get(spec, ""), unscored=(unscored or {}).get((system, spec), ""))
                continue
            ci = entry.ci
            notes = []
            if (system, spec) in identical:
                notes.append(f"the same score as the baseline {paired[spec].baseline}: no significance test")
            if ci is not None and (ci.lower == ci.upper or not math.isfinite(ci.ci)):
                notes.append(empty_interval_reason(entry.score))
            row.cells[spec] = Cell(
                notes=tuple(notes),
                score=float(entry.score.corpus),
                ci_half=None if ci is None else ci.ci,
                ci_lower=None if ci is None else ci.lower,
                ci_upper=None if ci is None else ci.upper,
                p_value=p_values.get((system, spec)),
                higher_is_better=entry.score.extras.get("higher_is_better"),
            )
        rows.append(row)
    return rows
