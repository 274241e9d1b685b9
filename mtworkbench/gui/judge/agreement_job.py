"""The Judge agreement tab's numbers as one background job (``gui.worker``).

Kappas for every pair of judges and span agreement over every error span take
100-300 ms on 10,000 judgments, too long for the GUI thread; the job reads a
snapshot taken when it is made (the judgments list, the outputs' texts), so
edits made while it runs cannot change what it reads. It hands over the
``AgreementReport`` (of the judgments that are not quality-control copies) and
the number of judgments first (``deliver``), so the judges' tables fill before
the others; its outcome is the span table's and the quality-control table's rows.
No Qt here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mtworkbench.analysis.agreement import AgreementReport, agreement
from mtworkbench.analysis.judge_reliability import QuantityReliability, judge_reliability
from mtworkbench.analysis.quality_control import RaterQualityControl, quality_control
from mtworkbench.analysis.span_agreement import SpanPairAgreement
from mtworkbench.core.jobs import CancelCheck, ProgressCallback, check_cancel
from mtworkbench.core.model import Judgment, Project
from mtworkbench.gui.judge.span_agreement_columns import span_pairs_job

# Up to this many judgments the tab computes at once, on the GUI thread (a few tens of ms).
INLINE_JUDGMENTS = 2000


def tab_report(judgments: Sequence[Judgment]) -> AgreementReport:
    """The report the tab shows, computed alike at once (``AgreementPanel.refresh``) and
    here on the worker: every protocol's section (LDC, DA, ESA, MQM scores with Google's
    weights, WMT's ranking kappa), BAD quality-control copies left out."""
    return agreement([j for j in judgments if not j.qc])


@dataclass(frozen=True)
class AgreementTables:
    """The job's outcome: the rows of the span, quality-control and all-judges tables."""

    span_pairs: list[SpanPairAgreement]
    quality_control: list[RaterQualityControl]
    reliability: list[QuantityReliability]


def agreement_job(project: Project, report: bool = True
                  ) -> Callable[[ProgressCallback, CancelCheck, Callable[[Any], None]], AgreementTables]:
    """The job; ``report`` False when the tab computed the report itself (a small project) and
    needs only the slower tables: span agreement and alpha/AC1/AC2 with their bootstrap intervals."""
    judgments = list(project.judgments)
    spans = span_pairs_job(project)

    def job(progress: ProgressCallback, cancel: CancelCheck, deliver: Callable[[Any], None]) -> AgreementTables:
        if report:
            deliver((tab_report(judgments), len(judgments)))
        check_cancel(cancel)
        checks = quality_control(judgments)
        pairs = spans(progress, cancel, deliver)
        reliability = judge_reliability(judgments, cancelled=cancel)
        return AgreementTables(pairs, checks, reliability)

    return job


def reliability_job(project: Project) -> Callable[[ProgressCallback, CancelCheck, Callable[[Any], None]],
                                                   list[QuantityReliability]]:
    """Alpha and AC1/AC2 over all judges alone (a small project's tab computes the rest at once):
    their bootstrap intervals take longer than the GUI thread may wait."""
    judgments = list(project.judgments)

    def job(_progress: ProgressCallback, cancel: CancelCheck, _deliver: Callable[[Any], None]
            ) -> list[QuantityReliability]:
        return judge_reliability(judgments, cancelled=cancel)

    return job
