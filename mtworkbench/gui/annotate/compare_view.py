"""Two annotators on one reference: agreement figures, their disagreements,
and adjudication into a third layer (each decision one undo step)."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSettings,
    Qt,
    QTimer,
)
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.adjudication import agreed_spans, copy_to_layer
from mtworkbench.core.annotation import (
    AnnotatorComparison,
    compare_annotators,
    ranked_layers,
)
from mtworkbench.core.events import AFFECTS_ANNOTATIONS, SettingsChanged, SpanAdded
from mtworkbench.core.model import EntitySpan, ModelError, Project
from mtworkbench.gui.annotate.commands import (
    AddSpansCommand,
    ReplaceSpansCommand,
    check_new_spans,
)
from mtworkbench.gui.annotate.compare_layers import LayersAgreement
from mtworkbench.gui.plain import esc
from mtworkbench.gui.session import ProjectSession

DEFAULT_TARGET = "adjudicated"


def _fmt(value: float, digits: int = 3) -> str:
    return "–" if math.isnan(value) else f"{value:.{digits}f}"


@dataclass
class DisagreementRow:
    segment: str
    a: EntitySpan | None
    b: EntitySpan | None
    # Other places in the segment with the very same disagreement (the same
    # text marked the same way): shown as this one row, decided together.
    twins: list[DisagreementRow] = field(default_factory=list)

    def region(self) -> tuple[int, int]:
        spans = [s for s in (self.a, self.b) if s is not None]
        return min(s.start for s in spans), max(s.end for s in spans)


def adjudication(project: Project, row: DisagreementRow, side: str, target: str) -> tuple[list[EntitySpan], list[EntitySpan]]:
    """(spans to remove, spans to add) in ``target`` to take ``side``'s ("a" or "b") decision.

    The target's spans overlapping either annotator's span give way, so a
    second decision on the same place replaces the first. Taking the side
    that has no entity there removes the target's entity.
    """
    chosen = row.a if side == "a" else row.b
    reference = (row.a or row.b).reference  # type: ignore[union-attr]
    ranges = [(s.start, s.end) for s in (row.a, row.b) if s is not None]
    existing = project.spans_for(reference, row.segment, target)
    remove = [e for e in existing if any(e.start < b and a < e.end for a, b in ranges)]
    if chosen is not None and [(e.start, e.end, e.type) for e in remove] == [(chosen.start, chosen.end, chosen.type)]:
        return [], []  # already decided that way
    add = []
    if chosen is not None:
        add = [EntitySpan(project.new_id("e"), chosen.reference, chosen.segment, chosen.start, chosen.end, chosen.type, target)]
    return remove, add


class DisagreementModel(QAbstractTableModel):
    COLUMNS = ("Segment", "Annotator A", "Annotator B", "Adjudicated")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows: list[DisagreementRow] = []
        self.project: Project | None = None
        self.target = DEFAULT_TARGET
        self.colors: dict[str, str] = {}

    def set_rows(self, project: Project, rows: list[DisagreementRow], target: str) -> None:
        self.beginResetModel()
        self.project, self.rows, self.target = project, rows, target
        self.colors = {t.name: t.color for t in project.settings.entity_types}
        self.endResetModel()

    def _describe(self, span: EntitySpan | None) -> str:
        if span is None or self.project is None:
            return "—"
        text = self.project.reference_text(span.reference, span.segment) or ""
        return f"{span.type}  “{text[span.start:span.end]}”"

    def target_spans(self, row: DisagreementRow) -> list[EntitySpan]:
        if self.project is None:
            return []
        a, b = row.region()
        reference = (row.a or row.b).reference  # type: ignore[union-attr]
        return [s for s in self.project.spans_for(reference, row.segment, self.target) if s.start < b and a < s.end]

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.COLUMNS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return row.segment
            if column == 1:
                return self._describe(row.a)
            if column == 2:
                return self._describe(row.b)
            decided = self.target_spans(row)
            return "; ".join(self._describe(s) for s in decided) if decided else "not decided"
        if role == Qt.ItemDataRole.ToolTipRole and column in (1, 2):
            span = row.a if column == 1 else row.b
            return f"characters {span.start}-{span.end}" if span else "no entity here"
        if role == Qt.ItemDataRole.DecorationRole and column in (1, 2):
            span = row.a if column == 1 else row.b
            return QColor(self.colors.get(span.type, "#888888")) if span else None
        if role == Qt.ItemDataRole.ForegroundRole and column == 3 and not self.target_spans(row):
            return QColor(140, 140, 140)
        return None


class ComparisonView(QWidget):
    """Choose annotators A and B; see F1, per-type F1, kappa and the disagreements; adjudicate."""

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("annotate-compare")
        self.session = session
        self.reference = ""
        self.comparison: AnnotatorComparison | None = None
        self.annotator_a = QComboBox()
        self.annotator_a.setObjectName("compare-a")
        self.annotator_b = QComboBox()
        self.annotator_b.setObjectName("compare-b")
        self.target = QLineEdit(str(QSettings().value("annotate/adjudication_layer", DEFAULT_TARGET)))
        self.target.setObjectName("adjudication-layer")
        self.target.setToolTip("The annotator name of the adjudicated layer")
        for combo in (self.annotator_a, self.annotator_b):
            combo.setMinimumWidth(140)
            combo.currentTextChanged.connect(self.schedule_refresh)
        self.target.editingFinished.connect(self._target_changed)
        pick = QHBoxLayout()
        pick.addWidget(QLabel("Annotator A"))
        pick.addWidget(self.annotator_a)
        pick.addSpacing(12)
        pick.addWidget(QLabel("Annotator B"))
        pick.addWidget(self.annotator_b)
        pick.addSpacing(12)
        pick.addWidget(QLabel("Adjudicate into"))
        pick.addWidget(self.target)
        pick.addStretch(1)

        self.summary = QLabel()
        self.summary.setObjectName("compare-summary")
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setWordWrap(True)
        self.by_type = QTableWidget(0, 5)
        self.by_type.setTabKeyNavigation(False)  # Tab leaves the table; arrows move between cells
        self.by_type.setObjectName("compare-by-type")
        self.by_type.setHorizontalHeaderLabels(["Type", "A", "B", "Agreed", "F1"])
        self.by_type.verticalHeader().setVisible(False)
        # Rows a line high, and the table an equal share of the column's height, so at 1280x800
        # it lists the types rather than two of them behind a scroll bar.
        self.by_type.verticalHeader().setDefaultSectionSize(self.by_type.fontMetrics().height() + 8)
        self.by_type.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.by_type.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.by_type.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)

        self.model = DisagreementModel(self)
        self.table = QTableView()
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move between cells
        self.table.setObjectName("disagreements")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        for column in (1, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        self.table.doubleClicked.connect(self._show_segment)
        self.table.selectionModel().selectionChanged.connect(self._show_context)
        self.context = QLabel()
        self.context.setObjectName("disagreement-context")
        self.context.setTextFormat(Qt.TextFormat.RichText)
        self.context.setWordWrap(True)

        self.accept_a = QPushButton("Accept &A’s")
        self.accept_a.setObjectName("accept-a")
        self.accept_a.setToolTip("Put annotator A's decision for the selected disagreement into the adjudicated layer")
        self.accept_a.clicked.connect(self.take_a)
        self.accept_b = QPushButton("Accept &B’s")
        self.accept_b.setObjectName("accept-b")
        self.accept_b.clicked.connect(self.take_b)
        self.accept_agreed = QPushButton("Copy all a&greed spans")
        self.accept_agreed.setObjectName("accept-agreed")
        self.accept_agreed.setToolTip("Copy every span both annotators marked identically into the adjudicated layer")
        self.accept_agreed.clicked.connect(self.take_agreed)
        buttons = QHBoxLayout()
        for button in (self.accept_a, self.accept_b, self.accept_agreed):
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # shows ids and names from the bundle
        self.status.setObjectName("compare-status")
        self.status.setWordWrap(True)

        figures = QWidget()
        figures_layout = QVBoxLayout(figures)
        figures_layout.setContentsMargins(0, 0, 0, 0)
        figures_layout.addWidget(self.summary)
        types = QWidget()
        types_layout = QVBoxLayout(types)
        types_layout.setContentsMargins(0, 0, 0, 0)
        types_layout.addWidget(QLabel("<b>Per type</b> (exact span and type)"))
        types_layout.addWidget(self.by_type, 1)
        self.layers_agreement = LayersAgreement(session)
        # The two tables share the column's height in a splitter the user can move: below the
        # figures both want more rows than a 1280x800 window has, and neither may shrink to two.
        self.figures_split = QSplitter(Qt.Orientation.Vertical)
        self.figures_split.setChildrenCollapsible(False)
        self.figures_split.addWidget(types)
        self.figures_split.addWidget(self.layers_agreement)
        self.figures_split.setSizes([200, 300])
        figures_layout.addWidget(self.figures_split, 1)
        listing = QWidget()
        listing_layout = QVBoxLayout(listing)
        listing_layout.setContentsMargins(0, 0, 0, 0)
        self.listing_title = QLabel("<b>Disagreements</b>")
        listing_layout.addWidget(self.listing_title)
        listing_layout.addWidget(self.table)
        listing_layout.addWidget(self.context)
        listing_layout.addLayout(buttons)
        listing_layout.addWidget(self.status)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(figures)
        splitter.addWidget(listing)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 5)
        splitter.setSizes([440, 540])  # a ratio: the figures' tables want about 440 px of a 1280 px window
        layout = QVBoxLayout(self)
        layout.addLayout(pick)
        layout.addWidget(splitter, 1)

        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(0)
        self._refresh_timer.timeout.connect(self.refresh)
        self._dirty = True
        self._defaults = ["", ""]  # the layers this view put in A and B (not the user)
        session.project_changed.connect(self._on_project_changed)
        session.project_replaced.connect(self._on_project_replaced)

    # --- following the project ------------------------------------------------------------
    def set_reference(self, reference: str) -> None:
        if reference != self.reference:
            self.reference = reference
            self.schedule_refresh()

    def _on_project_replaced(self, _project) -> None:
        self.fill_annotators()
        self.schedule_refresh()

    def _on_project_changed(self, event) -> None:
        if type(event) in AFFECTS_ANNOTATIONS or isinstance(event, SettingsChanged):
            if isinstance(event, SpanAdded) and self.isVisible():  # a hidden view catches up when shown
                self.fill_annotators()
            self.schedule_refresh()

    def fill_annotators(self) -> None:
        project = self.session.project
        names = project.annotators
        # Defaults: the two layers with the most spans on this reference (the
        # adjudicated layer last: it is the outcome, not one of the two compared).
        largest = ranked_layers(project, self.reference or None, last=self.target_layer())
        filled = False
        for i, combo in enumerate((self.annotator_a, self.annotator_b)):
            current = combo.currentText()
            if [combo.itemText(k) for k in range(combo.count())] == names:
                continue
            filled = True
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(names)
            # A layer the user chose stays; one this view chose follows the data (the
            # largest layers change as annotators work, and new layers appear).
            chosen = current in names and current != self._defaults[i]
            if chosen:
                combo.setCurrentText(current)
            elif len(largest) > i:
                combo.setCurrentText(largest[i])
            if not chosen:
                self._defaults[i] = combo.currentText()
            combo.blockSignals(False)
        # A and B on one layer compare nothing: both take the default pair.
        if filled and len(largest) >= 2 and self.annotator_a.currentText() == self.annotator_b.currentText():
            for i, (combo, name) in enumerate(zip((self.annotator_a, self.annotator_b), largest)):
                combo.blockSignals(True)
                combo.setCurrentText(name)
                combo.blockSignals(False)
                self._defaults[i] = name

    def schedule_refresh(self, *_args) -> None:
        """Recompute soon when shown; a hidden view only notes that it is stale."""
        self._dirty = True
        if self.isVisible():
            self._refresh_timer.start()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._dirty:
            self.fill_annotators()
            self.refresh()

    def _target_changed(self) -> None:
        QSettings().setValue("annotate/adjudication_layer", self.target_layer())
        self.schedule_refresh()

    def target_layer(self) -> str:
        return self.target.text().strip()

    # --- figures ----------------------------------------------------------------------
    def refresh(self) -> None:
        self._dirty = False
        project = self.session.project
        a, b = self.annotator_a.currentText(), self.annotator_b.currentText()
        self.comparison = None
        self.layers_agreement.reference = self.reference
        self.layers_agreement.fill(project.annotators, [n for n in (a, b) if n])
        self.layers_agreement.schedule()
        if not self.reference or not project.has_reference(self.reference):
            self._show_nothing("No reference to compare.")
            return
        if not a or not b or a == b:
            self._show_nothing("Choose two different annotators of this reference (A and B).")
            return
        from mtworkbench.core.campaign import shared_segments  # a campaign's annotators: their overlap only

        comparison = compare_annotators(project, self.reference, a, b, shared_segments(project, self.reference, a, b))
        self.comparison = comparison
        self.summary.setText(
            f"<p><b>Reference {esc(self.reference)}</b>: {esc(a)} (A) and {esc(b)} (B) over "
            f"{len(comparison.segments)} of {comparison.n_reference_segments} segments"
            f"{' (both annotated)' if comparison.scope == 'both annotated' else ''}</p>"
            f"<table cellspacing=4>"
            f"<tr><td>Exact-span F1</td><td><b>{_fmt(comparison.f1)}</b></td></tr>"
            f"<tr><td>Span F1 ignoring type</td><td>{_fmt(comparison.untyped_f1)}</td></tr>"
            f"<tr><td>Cohen’s κ per {esc(comparison.unit[:-1])}</td><td><b>{_fmt(comparison.kappa)}</b> "
            f"({comparison.n_tokens} {esc(comparison.unit)})</td></tr>"
            f"<tr><td>Spans</td><td>A {comparison.count_a} · B {comparison.count_b} · agreed {comparison.matched}</td></tr>"
            f"</table>"
        )
        self.by_type.setRowCount(len(comparison.by_type))
        for row, agreement in enumerate(comparison.by_type.values()):
            cells = [agreement.type, str(agreement.count_a), str(agreement.count_b), str(agreement.matched), _fmt(agreement.f1)]
            for column, value in enumerate(cells):
                item = QTableWidgetItem(value)
                if column:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.by_type.setItem(row, column, item)
        rows: list[DisagreementRow] = []
        seen: dict[tuple, DisagreementRow] = {}
        for seg, sa, sb in comparison.disagreements():
            disagreement = DisagreementRow(seg, sa, sb)
            key = (seg, self._span_key(sa), self._span_key(sb))
            if key in seen:
                seen[key].twins.append(disagreement)
            else:
                seen[key] = disagreement
                rows.append(disagreement)
        self._set_rows(rows)

    def _span_key(self, span: EntitySpan | None) -> tuple[str, str] | None:
        if span is None:
            return None
        text = self.session.project.reference_text(span.reference, span.segment) or ""
        return span.type, text[span.start:span.end]

    def _set_rows(self, rows: list[DisagreementRow]) -> None:
        selected = self.selected_row()
        self.model.set_rows(self.session.project, rows, self.target_layer())
        self.listing_title.setText(f"<b>Disagreements</b> ({len(rows)})")
        if selected is not None and rows:
            self.table.selectRow(min(selected, len(rows) - 1))
        self._show_context()

    def _show_nothing(self, message: str) -> None:
        self.summary.setText(f"<p>{esc(message)}</p>")
        self.by_type.setRowCount(0)
        self._set_rows([])

    # --- adjudication -------------------------------------------------------------------
    def selected_row(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].row() if rows else None

    def take_a(self) -> None:
        self.take("a")

    def take_b(self) -> None:
        self.take("b")

    def take(self, side: str) -> None:
        row_index = self.selected_row()
        target = self.target_layer()
        if row_index is None:
            self.status.setText("Select a disagreement first.")
            return
        if not target:
            self.status.setText("Name the adjudicated layer first.")
            return
        row = self.model.rows[row_index]
        project = self.session.project
        remove, add = [], []
        for place in [row, *row.twins]:
            place_remove, place_add = adjudication(project, place, side, target)
            remove += place_remove
            add += place_add
        if not remove and not add:
            self.status.setText(f"{target} already has {side.upper()}’s decision here.")
            return
        try:
            check_new_spans(project, add, remove)
        except ModelError as exc:
            self.status.setText(f"Not adjudicated: {exc}")
            return
        name = self.annotator_a.currentText() if side == "a" else self.annotator_b.currentText()
        self.session.push(ReplaceSpansCommand(project, remove, add, f"Adjudicate: accept {name}’s decision in segment {row.segment}"))
        self.status.setText(f"Accepted {name}’s decision in segment {row.segment} into {target}.")

    def take_agreed(self) -> None:
        if self.comparison is None:
            self.refresh()
        if self.comparison is None:
            return
        project = self.session.project
        try:
            copies = copy_to_layer(project, agreed_spans(self.comparison), self.target_layer())
            check_new_spans(project, copies)
        except ModelError as exc:
            self.status.setText(f"Not copied: {exc}")
            return
        if not copies:
            self.status.setText("Every agreed span is in the adjudicated layer already.")
            return
        self.session.push(AddSpansCommand(project, copies, f"Copy {len(copies)} agreed spans into {self.target_layer()}"))
        self.status.setText(f"Copied {len(copies)} agreed spans into {self.target_layer()}.")

    def _show_context(self, *_args) -> None:
        """The selected disagreement's segment, A's span underlined and B's on a tint."""
        row_index = self.selected_row()
        if row_index is None or row_index >= len(self.model.rows):
            self.context.setText("")
            return
        row = self.model.rows[row_index]
        reference = (row.a or row.b).reference  # type: ignore[union-attr]
        text = self.session.project.reference_text(reference, row.segment) or ""
        marks = {}
        for i in range(len(text)):
            in_a = row.a is not None and row.a.start <= i < row.a.end
            in_b = row.b is not None and row.b.start <= i < row.b.end
            marks[i] = (in_a, in_b)
        parts, i = [], 0
        while i < len(text):
            j = i
            while j < len(text) and marks[j] == marks[i]:
                j += 1
            chunk = html.escape(text[i:j])
            in_a, in_b = marks[i]
            style = ("text-decoration: underline; font-weight: bold;" if in_a else "") + (
                "background-color: #fde7a9;" if in_b else "")
            parts.append(f"<span style='{style}'>{chunk}</span>" if style else chunk)
            i = j
        self.context.setText(
            f"<b>Segment {html.escape(row.segment)}</b>: {''.join(parts)}<br>"
            "<small>A’s entity <u><b>underlined</b></u>, B’s on a <span style='background-color:#fde7a9'>tint</span>; "
            "double-click a row to open the segment.</small>"
        )

    def _show_segment(self, index: QModelIndex) -> None:
        if index.isValid():
            self.session.set_current_segment(self.model.rows[index.row()].segment)
