"""Columns of the Judge agreement tab's span table (MQM, ESA): what two raters who
marked error spans agree on, from ``analysis.span_agreement`` (no Qt here), and the
job that computes them on the worker from a snapshot of the project."""

from __future__ import annotations

from collections.abc import Callable

from mtworkbench.analysis.span_agreement import SpanPairAgreement, span_agreement
from mtworkbench.core.jobs import CancelCheck, ProgressCallback
from mtworkbench.core.model import Judgment, Project


def _f(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f}%"


SPAN_COLUMNS = (
    ("Raters", lambda p: f"{p.judges[0]}  ×  {p.judges[1]}", "The two raters"),
    ("Protocol", lambda p: p.protocol.upper(), "MQM or ESA"),
    ("Shared\nitems", lambda p: str(p.n_items), "Items both rated (first ratings only)"),
    ("Spans", lambda p: f"{p.spans[0]} / {p.spans[1]}", "Spans each rater placed in the translation on the shared items"),
    ("Exact\nspan F1", lambda p: _f(p.exact_f1), "Spans with the same start and end, F1 over both raters' spans"),
    ("Overlap\nF1", lambda p: _f(p.overlap_f1), "Characters both raters covered, F1 over the characters each covered"),
    ("Severity\nsame", lambda p: _pct(p.severity_agreement),
     "Spans paired by largest overlap: share given the same severity"),
    ("Severity\nκ", lambda p: _f(p.severity_kappa), "Cohen's kappa of the paired spans' severities"),
    ("Score\nr", lambda p: _f(p.pearson), "Pearson correlation of the raters' segment scores (MQM: minus weighted errors)"),
    ("Score\nρ", lambda p: _f(p.spearman), "Spearman correlation of the raters' segment scores"),
)


def span_pairs(project: Project, progress: ProgressCallback | None = None,
               cancel: CancelCheck | None = None) -> list[SpanPairAgreement]:
    """Every pair of span raters sharing items; an open-ended span reaches the end of the output."""
    return span_pairs_job(project)(progress, cancel, lambda _item: None)


def span_pairs_job(project: Project) -> Callable[..., list[SpanPairAgreement]]:
    """``span_pairs`` as a worker job (``gui.worker``), over the project as it is now.

    The judgments list and the outputs' texts are copied here, on the GUI thread, so
    edits made while the job runs cannot change what it reads (the model is not
    thread-safe); judgments are immutable.
    """
    judgments = project.judgments
    texts = {s.id: dict(s.texts) for s in project.systems}

    def length(j: Judgment) -> int:
        return len(j.text if j.text is not None else texts.get(j.system, {}).get(j.segment, ""))

    def job(progress: ProgressCallback | None, cancel: CancelCheck | None, _deliver) -> list[SpanPairAgreement]:
        return span_agreement(judgments, text_length=length, progress=progress, cancel=cancel)

    return job
