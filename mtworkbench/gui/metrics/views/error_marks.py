"""Raters' error spans drawn over a metric view's candidate tokens.

A metric view tints the tokens the metric matched; an error span colours and
underlines the tokens a rater marked (text colour by severity, so both cues
show on one token), with a plain-text tooltip naming category, severity and
rater. ``apply_error_marks`` runs after every draw of a view (``base.refresh``).
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from mtworkbench.analysis.error_tokens import ErrorIndex, RaterSpan, token_errors
from mtworkbench.core.model import Project

SEVERITY_TEXT = {"major": "#C0261B", "critical": "#8B0000", "minor": "#7B3FA0", "neutral": "#6B6B6B"}
OTHER_SEVERITY = "#7B3FA0"

_indexes: WeakKeyDictionary = WeakKeyDictionary()


def severity_text_colour(severity: str) -> str:
    return SEVERITY_TEXT.get(severity.strip().lower(), OTHER_SEVERITY)


def error_index(project: Project) -> ErrorIndex:
    """The project's error index, rebuilt when its judgments change (cheap to check)."""
    judgments = project.judgments
    key = (len(judgments), id(judgments[-1]) if judgments else 0)
    cached = _indexes.get(project)
    if cached is None or cached[0] != key:
        # Only the judged outputs' texts: a map of every output would visit every text
        # of every system (a million in a large project) each time the judgments change.
        outputs = {s.id: s.texts for s in project.systems}
        texts = {(j.system, j.segment): outputs[j.system][j.segment] for j in judgments
                 if j.segment in outputs.get(j.system, ())}
        cached = (key, ErrorIndex(judgments, texts))
        _indexes[project] = cached
    return cached[1]


def output_text(project: Project, system: str, segment: str) -> str:
    try:
        return project.system(system).texts.get(segment, "")
    except (KeyError, ValueError, LookupError):
        return ""


def marks_for(spans: list[RaterSpan]) -> tuple[str, str]:
    """(text colour, tooltip) of a token covered by ``spans``: the worst severity's colour."""
    order = ("critical", "major", "minor", "neutral")
    worst = min(spans, key=lambda s: order.index(s.severity.lower()) if s.severity.lower() in order else 2)
    return severity_text_colour(worst.severity), "\n".join(s.describe() for s in spans)


def apply_error_marks(view) -> int:
    """Mark error tokens on the view's candidate panes; returns how many tokens were marked."""
    panes = [p for p in [getattr(view, "hyp_pane", None), *getattr(view, "order_panes", [])] if p is not None]
    if not panes:
        return 0
    spans: list[RaterSpan] = []
    text = ""
    if view.project is not None and getattr(view, "errors_visible", True):
        spans = error_index(view.project).of(view.system_id, view.segment_id)
        text = output_text(view.project, view.system_id, view.segment_id)
    marked = 0
    for pane in panes:
        found = token_errors(text, pane.tokens, spans)
        pane.set_error_marks({i: marks_for(s) for i, s in found.items()})
        marked = max(marked, len(found))
    return marked
