"""Per-rater DA quality control on BAD references (WMT practice).

For each rater, the scores they gave BAD copies (``qc="bad"`` judgments) are set
against the scores they gave the originals of the same (system, segment) items:

* ``wilcoxon_p``: the one-sided Wilcoxon signed-rank test on the pairs (BAD,
  original), alternative "BAD scored lower" (``scipy.stats.wilcoxon`` of
  BAD - original, ``alternative="less"``); the rater passes when p < 0.05.
* ``mannwhitney_p``: the one-sided Mann-Whitney U test of all the rater's BAD
  scores against all their scores of those originals (unpaired), reported
  alongside, as Appraise's campaign view does.

A rater who scored an original more than once enters with the mean of those
scores. With no pair the test is undefined (None) and the rater neither passes
nor fails (``passed`` None); pairs that are all equal fail (nothing scored lower).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mtworkbench.core.model import Judgment

ALPHA = 0.05


@dataclass(frozen=True)
class RaterQualityControl:
    rater: str
    n_bad: int  # BAD items the rater scored
    n_pairs: int  # of those, with the original scored by the rater too
    mean_bad: float | None
    mean_original: float | None
    wilcoxon_p: float | None
    mannwhitney_p: float | None
    passed: bool | None

    def to_json(self) -> dict[str, Any]:
        return {
            "rater": self.rater,
            "n_bad": self.n_bad,
            "n_pairs": self.n_pairs,
            "mean_bad": self.mean_bad,
            "mean_original": self.mean_original,
            "wilcoxon_p": self.wilcoxon_p,
            "mannwhitney_p": self.mannwhitney_p,
            "passed": self.passed,
        }


def _finite(value: float) -> float | None:
    value = float(value)
    return value if np.isfinite(value) else None


def rater_quality_control(judgments: Sequence[Judgment], rater: str) -> RaterQualityControl:
    own = [j for j in judgments if j.judge == rater and j.score is not None]
    bad = [j for j in own if j.qc == "bad"]
    originals: dict[tuple[str, str], list[float]] = {}
    for j in own:
        if not j.qc and j.score is not None:  # (own has only scored judgments: this narrows the type)
            originals.setdefault((j.system, j.segment), []).append(float(j.score))
    pairs = [(float(j.score), float(np.mean(originals[(j.system, j.segment)])))
             for j in bad if j.score is not None and (j.system, j.segment) in originals]
    if not pairs:
        return RaterQualityControl(rater, len(bad), 0, None, None, None, None, None)
    b = np.array([x for x, _ in pairs])
    o = np.array([y for _, y in pairs])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # all differences zero: p is NaN, reported as None
        try:
            from scipy import stats  # imported when used: scipy.stats is slow to import
            w = _finite(stats.wilcoxon(b, o, alternative="less").pvalue)
        except ValueError:  # every difference zero
            w = None
        from scipy import stats  # imported when used: scipy.stats is slow to import
        u = _finite(stats.mannwhitneyu(b, o, alternative="less").pvalue)
    return RaterQualityControl(
        rater=rater,
        n_bad=len(bad),
        n_pairs=len(pairs),
        mean_bad=float(b.mean()),
        mean_original=float(o.mean()),
        wilcoxon_p=w,
        mannwhitney_p=u,
        # Every pair equal leaves the test undefined, but BAD was not scored lower: a fail.
        passed=False if w is None else w < ALPHA,
    )


def quality_control(judgments: Sequence[Judgment]) -> list[RaterQualityControl]:
    """Every rater who scored at least one BAD item, in order of appearance."""
    raters = list(dict.fromkeys(j.judge for j in judgments if j.qc == "bad"))
    return [rater_quality_control(judgments, r) for r in raters]
