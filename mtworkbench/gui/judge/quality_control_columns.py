"""Columns of the Judge agreement tab's quality-control table: per rater, whether
the BAD items hidden in their DA/ESA queue scored lower than the originals
(``analysis.quality_control``; no Qt here)."""

from __future__ import annotations

from mtworkbench.analysis.quality_control import ALPHA, RaterQualityControl, quality_control
from mtworkbench.core.model import Project


def _f(value: float | None, digits: int = 1) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _p(value: float | None) -> str:
    if value is None:
        return "—"
    return "< 0.001" if value < 0.001 else f"{value:.3f}"


def verdict(check: RaterQualityControl) -> str:
    return {True: "pass", False: "FAIL", None: "—"}[check.passed]


QC_COLUMNS = (
    ("Rater", lambda c: c.rater, "Rater whose queue held BAD items"),
    ("BAD\nitems", lambda c: str(c.n_bad), "BAD items (degraded copies) the rater scored"),
    ("Pairs", lambda c: str(c.n_pairs), "BAD items whose original the rater scored too"),
    ("Mean\noriginal", lambda c: _f(c.mean_original), "Mean score the rater gave the originals of those pairs"),
    ("Mean\nBAD", lambda c: _f(c.mean_bad), "Mean score the rater gave the BAD copies"),
    ("Wilcoxon\np", lambda c: _p(c.wilcoxon_p),
     "One-sided Wilcoxon signed-rank test on the pairs: BAD scored lower than the original"),
    ("Result", verdict, f"pass: p < {ALPHA} (the rater noticed the degraded copies); FAIL otherwise"),
)


def qc_rows(project: Project) -> list[RaterQualityControl]:
    """Every rater who scored a BAD item, in order of appearance."""
    return quality_control(project.judgments)
