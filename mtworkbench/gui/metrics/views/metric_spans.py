"""xCOMET's error spans beside the raters' MQM/ESA spans on the same output.

The spans come from the scores the Metrics workspace computed and cached (the
metric's ``error_spans``), never from running the model per click: a segment not
scored yet says so. One line per source over the same text (the metric, then each
rater), tinted by severity; a last line marks the characters where the metric and
at least one rater both marked an error. Below, every span as a row: who marked it,
its severity, its text and whether the other side marked any of it. Text is
plain: spans and texts come from the data.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout

from mtworkbench.core.model import Project
from mtworkbench.core.scoring_input import MetricError
from mtworkbench.core.wording import plural
from mtworkbench.gui.metrics.error_strip import severity_tint
from mtworkbench.gui.metrics.views.base import MetricDetailView
from mtworkbench.gui.metrics.views.error_marks import error_index, output_text
from mtworkbench.gui.metrics.views.text_panes import Mark, MarkedTextPane, TextBlock
from mtworkbench.metrics.base import Metric
from mtworkbench.metrics.neural.spans import MetricSpan, spans_from_json
from mtworkbench.metrics.registry import create_metric
from mtworkbench.metrics.spec import parse_spec

OVERLAP_TINT = "#9FD8A0"  # green: unlike every severity tint
METRIC_LABEL = "xCOMET"


@dataclass(frozen=True)
class SpanRow:
    who: str  # the metric's label or a rater
    start: int
    end: int
    severity: str
    text: str
    overlaps: bool  # the other side marked some of these characters


@dataclass(frozen=True)
class SegmentSpans:
    """What the view draws for one (system, segment)."""

    spec: str
    text: str
    metric: list[MetricSpan]
    raters: dict[str, list[tuple[int, int, str, str]]]  # rater -> (start, end, severity, description)

    def overlap(self) -> list[tuple[int, int]]:
        """Character runs inside a metric span and a rater's span."""
        metric = {i for s in self.metric for i in range(s.start, s.end)}
        people = {i for spans in self.raters.values() for s in spans for i in range(s[0], s[1])}
        both = sorted(metric & people)
        runs: list[tuple[int, int]] = []
        for i in both:
            if runs and runs[-1][1] == i:
                runs[-1] = (runs[-1][0], i + 1)
            else:
                runs.append((i, i + 1))
        return runs

    def rows(self) -> list[SpanRow]:
        people = {i for spans in self.raters.values() for s in spans for i in range(s[0], s[1])}
        metric = {i for s in self.metric for i in range(s.start, s.end)}
        out = [SpanRow(METRIC_LABEL, s.start, s.end, s.severity, self.text[s.start:s.end],
                       any(i in people for i in range(s.start, s.end))) for s in self.metric]
        for rater, spans in self.raters.items():
            out += [SpanRow(rater, a, b, sev, self.text[a:b], any(i in metric for i in range(a, b)))
                    for a, b, sev, _ in spans]
        return out


def segment_spans(project: Project, system: str, segment: str, specs: list[str]) -> SegmentSpans:
    """The first of ``specs`` whose cached scores hold error spans for the system; MetricError
    saying what to do when none does."""
    from mtworkbench.scoring.cache import cache_for

    cache = cache_for(project)
    index = project.segment_ids.index(segment)
    for spec in specs:
        entry = cache.current(system, spec)
        rows = None if entry is None else entry.score.extras.get("error_spans")
        if isinstance(rows, list) and index < len(rows):
            text = output_text(project, system, segment)
            raters: dict[str, list[tuple[int, int, str, str]]] = {}
            for s in error_index(project).of(system, segment):
                raters.setdefault(s.rater, []).append((s.start, s.end, s.severity, s.describe()))
            return SegmentSpans(spec, text, spans_from_json([rows[index]])[0], raters)
    if not specs:
        raise MetricError("no xCOMET metric is chosen: add comet:model=NAME with an xCOMET checkpoint in "
                          "Metrics… (Metrics > Models… registers one), then score")
    if any(cache.current(system, s) is not None for s in specs):
        raise MetricError(f"{', '.join(specs)}: these scores hold no error spans (only xCOMET-style checkpoints "
                          "mark spans)")
    raise MetricError(f"{specs[0]} has not scored system {system} yet: press Score")


class MetricSpansView(MetricDetailView):
    """Metric spans vs the raters' spans on the selected output."""

    title = "xCOMET spans vs raters"
    default_metric = "comet"
    reads_scores = True  # drawn from the cached scores: drawn again after each scoring

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.pane = MarkedTextPane("Error spans", max_height=260)
        self.summary = QLabel()
        self.summary.setObjectName("metric-spans-summary")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        self.table = QTableWidget(0, 5)
        self.table.setObjectName("metric-spans-table")
        self.table.setHorizontalHeaderLabels(["Marked by", "Severity", "Characters", "Text", "Other side too"])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(True)
        layout = QVBoxLayout(self.content)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.pane, 2)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 3)
        self.spans: SegmentSpans | None = None
        self.specs: list[str] = []

    def make_metric(self, spec: str) -> Metric:
        if "model" not in parse_spec(spec)[1]:
            raise MetricError("add comet:model=NAME with an xCOMET checkpoint in Metrics…, then score, to see its "
                              "error spans here")
        return create_metric(spec)

    def explain(self, project: Project, system_id: str, segment_id: str) -> SegmentSpans:
        # The chosen spec first, then any other COMET spec of the project (one may be xCOMET).
        others = [s for s in project.settings.metrics if parse_spec(s)[0] == "comet" and s != self.metric_spec]
        return segment_spans(project, system_id, segment_id, [self.metric_spec, *others])

    def draw(self, result: SegmentSpans) -> None:
        self.spans = result
        blocks = [TextBlock(f"{METRIC_LABEL}:", result.text, tuple(
            Mark(s.start, s.end, severity_tint(s.severity), f"{METRIC_LABEL}: {s.severity} "
                 f"(confidence {s.confidence:.2f})", underline=s.severity in ("major", "critical"))
            for s in result.metric))]
        for rater, spans in result.raters.items():
            blocks.append(TextBlock(f"{rater}:", result.text, tuple(
                Mark(a, b, severity_tint(sev), about, underline=sev.lower() in ("major", "critical"))
                for a, b, sev, about in spans)))
        overlap = result.overlap()
        blocks.append(TextBlock("both:", result.text, tuple(
            Mark(a, b, OVERLAP_TINT, f"{METRIC_LABEL} and a rater both marked this") for a, b in overlap)))
        self.pane.set_title(f"Error spans: {self.system_id}, segment {self.segment_id} ({result.spec})")
        self.pane.set_blocks(blocks)
        n_metric = len(result.metric)
        n_people = sum(len(v) for v in result.raters.values())
        rater_note = f"{n_people} by {plural(len(result.raters), 'rater')}" if result.raters else "no rater marked spans here"
        self.summary.setText(f"{METRIC_LABEL}: {plural(n_metric, 'span')}; raters: {rater_note}; "
                             f"{plural(sum(b - a for a, b in overlap), 'character')} marked by both.")
        rows = result.rows()
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            cells = (row.who, row.severity, f"{row.start}–{row.end}", row.text, "yes" if row.overlaps else "no")
            for c, text in enumerate(cells):
                self.table.setItem(r, c, QTableWidgetItem(text))  # plain text items
        self.table.resizeColumnsToContents()
