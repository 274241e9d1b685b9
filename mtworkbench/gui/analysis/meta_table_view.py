"""The Analysis workspace's meta-evaluation table: per metric, system-level
pairwise accuracy and SPA, segment-level acc-eq and the item-grouped
correlation (``analysis.meta_table``), each column as wide as its title."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from mtworkbench.analysis.meta_table import STAT_TITLES, MetaRow
from mtworkbench.gui.plain import tooltip

STAT_HELP = {
    "pairwise-accuracy": "Share of system pairs the metric orders as the humans do (Kocmi et al., "
                         "\"To Ship or Not to Ship\")",
    "spa": "Soft pairwise accuracy: agreement of the metric's and the humans' p-values for every "
           "system pair (Thompson et al., 2024), 1000 permutations",
    "acc-eq": "Pairwise accuracy with tie calibration within each item (Deutsch et al., \"Ties Matter\")",
    "item-grouped": "Mean over segments of the correlation across systems (items with three or more systems)",
}
UNIT = {"pairwise-accuracy": "system pairs", "spa": "systems", "acc-eq": "pairs", "item-grouped": "items"}


class MetaTable(QTableWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(0, 1 + len(STAT_TITLES), parent)
        self.setObjectName("meta-eval-table")
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.setHorizontalHeaderLabels(["Metric", *STAT_TITLES.values()])
        for c, stat in enumerate(STAT_TITLES, start=1):
            head = QTableWidgetItem(STAT_TITLES[stat])
            head.setToolTip(tooltip(STAT_HELP[stat]))
            self.setHorizontalHeaderItem(c, head)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.rows: list[MetaRow] = []

    def set_rows(self, rows: list[MetaRow], method: str = "pearson") -> None:
        self.rows = list(rows)
        last = self.horizontalHeaderItem(len(STAT_TITLES))
        if last is not None:
            last.setText(f"item-grouped {method} (segment)")
        self.setRowCount(len(rows))
        for r, row in enumerate(rows):
            name = QTableWidgetItem(row.metric)
            name.setToolTip(tooltip(row.metric))
            self.setItem(r, 0, name)
            for c, stat in enumerate(STAT_TITLES, start=1):
                value = row.values.get(stat, math.nan)
                item = QTableWidgetItem("–" if not math.isfinite(value) else f"{value:.4f}")
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                n = row.counts.get(stat, 0)
                why = "" if math.isfinite(value) else " (too few systems or items)"
                item.setToolTip(tooltip(f"{row.metric}: {STAT_TITLES[stat]}, {n} {UNIT[stat]}{why}"))
                self.setItem(r, c, item)

    def text(self, row: int, column: int) -> str:
        item = self.item(row, column)
        return item.text() if item is not None else ""
