"""BLEU's matched n-grams of one segment, one row per order.

In row n the candidate's tokens covered by a credited n-gram are blue; those
covered only by an n-gram that the references hold fewer times than the
candidate (clipped away) are vermillion and underlined. The table lists every
n-gram of the chosen order with its count, its clip (the most any single
reference holds) and the credit min(count, clip); choosing a row finds it in
the candidate and the references. The reference that gave the effective
length is named.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.gui.metrics.views.base import MetricDetailView
from mtworkbench.gui.metrics.views.colours import BLUE, VERMILLION, tint
from mtworkbench.gui.metrics.views.table_model import RowsModel
from mtworkbench.gui.metrics.views.text_panes import Mark, TokenPane
from mtworkbench.metrics.base import MetricSpecError
from mtworkbench.metrics.bleu import BLEU, BLEUExplanation


def ngram_rows(ex: BLEUExplanation, order: int | None) -> list[tuple[int, tuple[str, ...], int, int, int]]:
    """Unique n-grams: (order, n-gram, count in candidate, clip, credited), most credited first."""
    seen: dict[tuple[int, tuple[str, ...]], tuple[int, int]] = {}
    for o in ex.occurrences:
        if order is None or o.order == order:
            seen[(o.order, o.tokens)] = (o.count, o.clip)
    rows = [(n, g, count, clip, min(count, clip)) for (n, g), (count, clip) in seen.items()]
    rows.sort(key=lambda r: (-r[4], r[0], -r[2], r[1]))
    return rows


def find_ngram(tokens: list[str], gram: tuple[str, ...]) -> list[int]:
    """Start positions of ``gram`` in ``tokens``."""
    n = len(gram)
    return [i for i in range(len(tokens) - n + 1) if tuple(tokens[i : i + n]) == gram]


class BLEUNgramView(MetricDetailView):
    title = "BLEU n-grams"
    default_metric = "bleu"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.scores_label = QLabel()
        self.scores_label.setWordWrap(True)
        self.scores_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.legend = QLabel(
            f'<span style="background-color:{tint(BLUE)}">&nbsp;matched&nbsp;</span> covered by a credited n-gram '
            f'&nbsp; <span style="background-color:{tint(VERMILLION)}; text-decoration: underline">&nbsp;clipped&nbsp;</span>'
            " in a reference, but the candidate has it more often than any one reference"
        )
        self.legend.setWordWrap(True)
        self.order_panes: list[TokenPane] = []
        self.orders_box = QWidget()
        self.orders_layout = QVBoxLayout(self.orders_box)
        self.orders_layout.setContentsMargins(0, 0, 0, 0)

        self.order_combo = QComboBox()
        self.table_model = RowsModel(["n", "n-gram", "count", "clip", "credited"], self)
        self.table = QTableView()
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move between cells
        self.table.setModel(self.table_model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for c, width in ((0, 28), (2, 52), (3, 40), (4, 64)):  # fixed: measuring rows is slow
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.Fixed)
            header.resizeSection(c, width)
        self.table.verticalHeader().setDefaultSectionSize(22)
        table_box = QWidget()
        table_layout = QVBoxLayout(table_box)
        table_layout.setContentsMargins(0, 0, 0, 0)
        pick = QHBoxLayout()
        pick.addWidget(QLabel("n-grams of order:"))
        pick.addWidget(self.order_combo)
        pick.addStretch(1)
        table_layout.addLayout(pick)
        table_layout.addWidget(self.table)

        self.ref_panes: list[TokenPane] = []
        self.refs_box = QWidget()
        self.refs_layout = QVBoxLayout(self.refs_box)
        self.refs_layout.setContentsMargins(0, 0, 0, 0)
        self.refs_layout.addStretch(1)

        bottom = QSplitter(Qt.Orientation.Horizontal)
        bottom.addWidget(table_box)
        bottom.addWidget(self.refs_box)
        bottom.setStretchFactor(0, 1)
        bottom.setStretchFactor(1, 1)
        bottom.setChildrenCollapsible(False)
        bottom.setSizes([500, 500])  # the references stay in view even if added late
        self.refs_box.setMinimumWidth(320)
        table_box.setMinimumWidth(280)
        layout = QVBoxLayout(self.content)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.scores_label)
        layout.addWidget(self.legend)
        layout.addWidget(self.orders_box)
        layout.addWidget(bottom, 1)
        self.order_combo.currentIndexChanged.connect(self._fill_table)
        self.table.selectionModel().selectionChanged.connect(self._row_selected)
        self._rows: list[tuple[int, tuple[str, ...], int, int, int]] = []

    def make_metric(self, spec: str) -> BLEU:
        metric = super().make_metric(spec)
        if not isinstance(metric, BLEU):
            raise MetricSpecError("the BLEU view shows the bleu metric only")
        return metric

    def draw(self, ex: BLEUExplanation) -> None:
        n_orders = len(ex.correct)
        precisions = " &nbsp; ".join(
            f"p{n + 1} = {ex.correct[n]}/{ex.total[n]} ({ex.precisions[n]:.2f})" for n in range(n_orders)
        )
        self.scores_label.setText(
            f"<b>BLEU = {ex.score:.2f}</b> &nbsp; BP = {ex.brevity_penalty:.4f} &nbsp; "
            f"candidate length {ex.hyp_len}, effective reference length {ex.ref_len} "
            f"(from reference {ex.effective_reference + 1}, the closest in length) <br>{precisions}"
        )
        while len(self.order_panes) < n_orders:
            pane = TokenPane(max_height=56)
            self.order_panes.append(pane)
            self.orders_layout.addWidget(pane)
        for n, pane in enumerate(self.order_panes):
            pane.setVisible(n < n_orders)
        for n in range(n_orders):
            self.order_panes[n].set_tokens(ex.hyp_tokens, self._order_marks(ex, n + 1))
            self.order_panes[n].set_title(
                f"{n + 1}-grams: {ex.correct[n]} of {ex.total[n]} credited ({ex.precisions[n]:.2f}%)"
            )
        refs = [(k, r) for k, r in enumerate(ex.ref_tokens) if r is not None]
        while len(self.ref_panes) < len(refs):
            pane = TokenPane()
            self.ref_panes.append(pane)
            self.refs_layout.insertWidget(self.refs_layout.count() - 1, pane)
        for n, pane in enumerate(self.ref_panes):
            pane.setVisible(n < len(refs))
        for pane, (k, tokens) in zip(self.ref_panes, refs):
            pane.set_tokens(tokens)
            effective = ", effective length" if k == ex.effective_reference else ""
            pane.set_title(f"Reference {k + 1} ({len(tokens)} tokens{effective})")
        self._ref_streams = [k for k, _ in refs]
        self.order_combo.blockSignals(True)
        self.order_combo.clear()
        self.order_combo.addItem("all", None)
        for n in range(n_orders):
            self.order_combo.addItem(str(n + 1), n + 1)
        self.order_combo.blockSignals(False)
        self._fill_table()

    @staticmethod
    def _order_marks(ex: BLEUExplanation, order: int) -> list[Mark]:
        matched: dict[int, str] = {}
        clipped: dict[int, str] = {}
        for o in ex.occurrences:
            if o.order != order:
                continue
            note = f"“{' '.join(o.tokens)}”: {o.count}× in candidate, clip {o.clip}"
            for t in range(o.start, o.start + order):
                if o.matched:
                    matched.setdefault(t, note)
                elif o.clip > 0:
                    clipped.setdefault(t, note + " (clipped)")
        marks = [Mark(t, t + 1, tint(VERMILLION), note, underline=True) for t, note in clipped.items() if t not in matched]
        marks += [Mark(t, t + 1, tint(BLUE), note) for t, note in matched.items()]
        return marks

    def _fill_table(self, *_args) -> None:
        ex = self.result
        if ex is None:
            return
        self._rows = ngram_rows(ex, self.order_combo.currentData())
        self.table_model.set_rows([(n, " ".join(g), c, clip, cr) for n, g, c, clip, cr in self._rows])

    def _row_selected(self, *_args) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.select_ngram(rows[0].row())

    def select_ngram(self, row: int) -> None:
        """Highlight the table's n-gram ``row`` in its order's row and in the references."""
        ex = self.result
        if ex is None or not 0 <= row < len(self._rows):
            return
        n, gram, *_ = self._rows[row]
        spots = [i for s in find_ngram(ex.hyp_tokens, gram) for i in range(s, s + n)]
        for m, pane in enumerate(self.order_panes):
            pane.highlight_tokens(spots if m == n - 1 else [])
        for pane, k in zip(self.ref_panes, self._ref_streams):
            tokens = ex.ref_tokens[k] or []
            pane.highlight_tokens([i for s in find_ngram(tokens, gram) for i in range(s, s + n)])
