"""The Judge agreement tab's numbers as one background job (``gui.worker``).

Kappas for every pair of judges and span agreement over every error span take
100-300 ms on 10,000 judgments, too long for the GUI thread; the job reads a
snapshot taken when it is made (the judgments list, the outputs' texts), so
edits made while it runs cannot change what it reads. It hands over the
``AgreementReport`` first (``deliver``), so the judges' tables fill before the
span table; its outcome is the span table's rows. No Qt here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mtworkbench.analysis.agreement import agreement
from mtworkbench.analysis.span_agreement import SpanPairAgreement
from mtworkbench.core.jobs import CancelCheck, ProgressCallback, check_cancel
from mtworkbench.core.model import Project
from mtworkbench.gui.judge.span_agreement_columns import span_pairs_job

# Up to this many judgments the tab computes at once, on the GUI thread (a few tens of ms).
INLINE_JUDGMENTS = 2000


def agreement_job(project: Project) -> Callable[[ProgressCallback, CancelCheck, Callable[[Any], None]],
                                                 list[SpanPairAgreement]]:
    judgments = project.judgments
    spans = span_pairs_job(project)

    def job(progress: ProgressCallback, cancel: CancelCheck, deliver: Callable[[Any], None]) -> list[SpanPairAgreement]:
        deliver(agreement(judgments))
        check_cancel(cancel)
        return spans(progress, cancel, deliver)

    return job
