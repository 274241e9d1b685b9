"""Span agreement as a background job: it counts the pairs of raters it compared and
stops when asked (the Judge workspace runs it on the worker)."""

from __future__ import annotations

import pytest

from mtworkbench.analysis.span_agreement import span_agreement
from mtworkbench.core.jobs import Cancelled
from mtworkbench.core.model import ErrorSpan, Judgment


def three_raters() -> list[Judgment]:
    out = []
    for k, rater in enumerate(("a", "b", "c")):
        for segment in ("1", "2"):
            out.append(Judgment(f"{rater}{segment}", rater, "sys", segment, protocol="mqm",
                                errors=(ErrorSpan(k, k + 3, "Minor", "Fluency/Grammar"),)))
    return out


def test_progress_counts_pairs_of_raters_and_results_are_unchanged():
    seen = []
    rows = span_agreement(three_raters(), progress=lambda done, total: seen.append((done, total)))
    assert [r.judges for r in rows] == [("a", "b"), ("a", "c"), ("b", "c")]
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]
    assert rows == span_agreement(three_raters())


def test_cancel_stops_before_the_next_pair():
    asked = []

    def cancel() -> bool:
        asked.append(1)
        return len(asked) > 1  # let the first pair through

    with pytest.raises(Cancelled):
        span_agreement(three_raters(), cancel=cancel)
    assert len(asked) == 2
