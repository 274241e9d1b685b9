"""NEE for the unit (paragraph, by default) holding the current segment.

The reference shows every annotated entity: found ones green, missed ones red
(and underlined, so the difference does not rest on colour alone). The output
shows where each found entity was matched, in green, and lists the missed ones
in red. A table gives found / total per entity type for this unit and system.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.model import Project
from mtworkbench.core.scoring_input import MetricError
from mtworkbench.core.wording import plural
from mtworkbench.gui.metrics.views.base import MetricDetailView, segment_input
from mtworkbench.gui.metrics.views.colours import GREEN, VERMILLION, tint
from mtworkbench.gui.metrics.views.table_model import RowsModel
from mtworkbench.gui.metrics.views.text_panes import Mark, MarkedTextPane, TextBlock
from mtworkbench.metrics.base import MetricSpecError
from mtworkbench.metrics.nee import NEE, NEEExplanation

FOUND = GREEN
MISSED = VERMILLION


def unit_segments(project: Project, segment_id: str, unit: str) -> list[str]:
    """The ids of the segments in ``segment_id``'s NEE unit, in project order."""
    if unit == "segment":
        return [segment_id]
    document = project.document(project.document_of(segment_id))
    if unit == "document":
        return [s.id for p in document.paragraphs for s in p.segments]
    paragraph = project.paragraph_of(segment_id)
    return [s.id for p in document.paragraphs if p.id == paragraph for s in p.segments]


def scored_reference(project: Project, choice: str | int, layer: str | None = None) -> int:
    """The 0-based reference stream NEE scores: as NEE decides it on the whole project
    (only ``layer``'s spans count; None = every layer)."""
    annotated = {span.reference for span in project.spans if layer is None or span.annotator == layer}
    if choice != "first":
        if not 1 <= int(choice) <= len(project.references):
            raise MetricSpecError(
                f"nee: option reference={choice} but there are {plural(len(project.references), 'reference')}"
            )
        if project.references[int(choice) - 1].id not in annotated:
            raise MetricError(f"nee: reference {choice} has no entity annotated")
        return int(choice) - 1
    for k, ref in enumerate(project.references):
        if ref.id in annotated:
            return k
    raise MetricError("nee: no reference has any entity annotated")


class NEEView(MetricDetailView):
    title = "NEE entities"
    default_metric = "nee"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.segment_ids: list[str] = []
        self.scores_label = QLabel()
        self.scores_label.setWordWrap(True)
        self.legend = QLabel(
            f'<span style="background-color:{tint(FOUND)}">&nbsp;found&nbsp;</span> in the output &nbsp; '
            f'<span style="background-color:{tint(MISSED)}; text-decoration: underline">&nbsp;missed&nbsp;</span>'
            " not in the output"
        )
        self.ref_pane = MarkedTextPane("Reference", max_height=260)
        self.out_pane = MarkedTextPane("Output", max_height=260)
        self.table_model = RowsModel(["type", "found", "total", "NEE"], self)
        self.table = QTableView()
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move between cells
        self.table.setModel(self.table_model)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.verticalHeader().setVisible(False)
        # Columns as wide as their contents ("0.6667", a type's name), never "0...."; the
        # last one takes what is left.
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        texts = QWidget()
        texts_layout = QVBoxLayout(texts)
        texts_layout.setContentsMargins(0, 0, 0, 0)
        texts_layout.addWidget(self.ref_pane)
        texts_layout.addWidget(self.out_pane)
        texts_layout.addStretch(1)
        table_box = QWidget()
        table_layout = QVBoxLayout(table_box)
        table_layout.setContentsMargins(0, 0, 0, 0)
        table_layout.addWidget(QLabel("<b>Per type (this unit, this system)</b>"))
        table_layout.addWidget(self.table)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(texts)
        splitter.addWidget(table_box)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self.content)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.scores_label)
        layout.addWidget(self.legend)
        layout.addWidget(splitter, 1)

    def make_metric(self, spec: str) -> NEE:
        metric = super().make_metric(spec)
        if not isinstance(metric, NEE):
            raise MetricSpecError("the NEE view shows the nee metric only")
        return metric

    def explain(self, project: Project, system_id: str, segment_id: str) -> NEEExplanation:
        """The unit holding the segment, read from the project alone (fast on large
        projects), with the reference stream chosen over the whole corpus as when scoring."""
        metric = self.current_metric
        assert isinstance(metric, NEE)
        unit_ids = unit_segments(project, segment_id, metric.options["unit"])
        data = segment_input(project, system_id, unit_ids)
        self._data = data
        self.segment_ids = unit_ids
        k = scored_reference(project, metric.options["reference"], metric.layer_name(data))
        if not any(metric.entities(data)[k]):  # type: ignore[index]
            # Nothing annotated in this unit: NEE has nothing to look up here.
            return NEEExplanation(metric.unit_ids(data)[0], list(range(len(unit_ids))), k, [])
        unit_metric = NEE(**{**metric.options, "reference": k + 1})
        return unit_metric.explain(data, unit_ids.index(segment_id))

    def draw(self, ex: NEEExplanation) -> None:
        data = self._data
        score = "no entity in this unit" if not ex.total else f"{ex.found}/{ex.total} = {ex.score:.3f}"
        self.scores_label.setText(
            f"<b>NEE ({self.current_metric.options['unit']} {html.escape(ex.unit)}): {score}</b>"  # type: ignore[union-attr]
            f" &nbsp; entities of reference {ex.reference + 1}"
            f" (layer {html.escape(self.current_metric.layer_name(self._data) or 'none')}),"  # type: ignore[union-attr]
            f" output of {html.escape(self.system_id)}"
        )
        current = self.segment_ids.index(self.segment_id) if self.segment_id in self.segment_ids else -1
        ref_blocks, out_blocks = [], []
        for i in ex.segments:
            found_ref, missed_ref, found_out = ex.for_segment(i)
            ref_marks = [Mark(p.start, p.end, tint(FOUND), "found") for p in found_ref]
            ref_marks += [Mark(p.start, p.end, tint(MISSED), "missed", underline=True) for p in missed_ref]
            label = f"[{self.segment_ids[i]}]"
            ref_text = data.references[ex.reference][i]
            if ref_text is not None:
                ref_blocks.append(TextBlock(label, ref_text, tuple(ref_marks), i == current))
            out_marks = tuple(Mark(p.start, p.end, tint(FOUND), "found") for p in found_out)
            out_blocks.append(TextBlock(label, data.hypotheses[i], out_marks, i == current))
        missed = [e for e in ex.entities if not e.found]
        footer = ""
        if missed:
            items = ", ".join(
                f'<span style="background-color:{tint(MISSED)}; text-decoration: underline">'
                f"{html.escape(e.text)}</span> ({html.escape(e.type)})" for e in missed
            )
            footer = f'<p style="margin:6px 0 2px 0">Missed, not in the output: {items}</p>'
        self.ref_pane.set_title(f"Reference {ex.reference + 1}: {ex.total} entities")
        self.ref_pane.set_blocks(ref_blocks)
        self.out_pane.set_title(f"Output ({self.system_id}): {ex.found} found")
        self.out_pane.set_blocks(out_blocks, footer)
        self._fill_table(ex)

    def _fill_table(self, ex: NEEExplanation) -> None:
        by_type = ex.by_type()
        rows = [(t, c["found"], c["total"]) for t, c in by_type.items()]
        rows.append(("all", ex.found, ex.total))
        shown = [(t, found, total, found / total if total else "—") for t, found, total in rows]
        self.table_model.set_rows(shown, bold_rows={len(shown) - 1})

    def table_rows(self) -> list[tuple[str, int, int]]:
        """The per-type table as (type, found, total) rows (for tests)."""
        return [(t, found, total) for t, found, total, _ in self.table_model.rows]
