"""Agreement between raters who marked error spans (MQM, ESA), on the items both rated.

For every pair of raters of one protocol, over the (system, segment) items both
rated (each rater's first judgment of an item; later repeats are left out, as
in ``agreement``):

* **exact span F1**: a span of one rater matches a span of the other with the
  same ``[start, end)`` in the translation; F1 = 2·matches / (spans of A +
  spans of B), pooled over the items (each span matches at most once). Errors
  without a place in the translation (omissions, source-side spans) take no part.
* **character-overlap F1**: the characters each rater covered with any span;
  F1 = 2·|common characters| / (|A's| + |B's|), pooled over the items.
* **severity agreement**: spans paired across the raters by largest character
  overlap (greedy, each span once, zero-width spans by equal position), and the
  share of those pairs given the same severity (letter case ignored); with
  Cohen's kappa over the pairs' severities.
* **score correlation**: Pearson and Spearman of the two raters' segment scores
  (MQM: minus the weighted errors; ESA: the 0-100 score).

A quantity with nothing to measure (no spans at all, fewer than two items) is None.
A span with only one end marked reaches the text's edge; it needs the text's
length, so without ``text_length`` such spans are left out.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from mtworkbench.analysis.agreement import pearson, segment_score, spearman
from mtworkbench.analysis.mqm_weights import GOOGLE_WEIGHTS, MqmWeights
from mtworkbench.core.jobs import CancelCheck, ProgressCallback, check_cancel, report
from mtworkbench.core.model import SPAN_PROTOCOLS, ErrorSpan, Judgment

Item = tuple[str, str]
Span = tuple[int, int]


@dataclass(frozen=True)
class SpanPairAgreement:
    protocol: str
    judges: tuple[str, str]
    n_items: int
    spans: tuple[int, int]  # located spans of each rater on the shared items
    exact_f1: float | None
    overlap_f1: float | None
    severity_pairs: int
    severity_agreement: float | None
    severity_kappa: float | None
    pearson: float | None
    spearman: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "protocol": self.protocol,
            "judges": list(self.judges),
            "n_items": self.n_items,
            "spans": list(self.spans),
            "exact_f1": self.exact_f1,
            "overlap_f1": self.overlap_f1,
            "severity_pairs": self.severity_pairs,
            "severity_agreement": self.severity_agreement,
            "severity_kappa": self.severity_kappa,
            "pearson": self.pearson,
            "spearman": self.spearman,
        }


def located(errors: Iterable[ErrorSpan], length: int | None = None) -> list[tuple[Span, str]]:
    """(span, lower-case severity) of the errors placed in the translation."""
    out = []
    for e in errors:
        if e.start is None and e.end is None:
            continue
        if (e.start is None or e.end is None) and length is None:
            continue
        start = 0 if e.start is None else e.start
        end = length if e.end is None else e.end
        if end is None:
            continue  # open-ended and the translation's length is unknown
        out.append(((start, end), e.severity.strip().lower()))
    return out


def _overlap(a: Span, b: Span) -> int:
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))


def _pair_severities(a: list[tuple[Span, str]], b: list[tuple[Span, str]]) -> list[tuple[str, str]]:
    """Greedy one-to-one pairing by largest overlap (ties: earlier spans first)."""
    candidates = []
    for i, (sa, _) in enumerate(a):
        for k, (sb, _) in enumerate(b):
            ov = _overlap(sa, sb)
            if ov > 0 or (sa == sb):  # two zero-width spans at one place also meet
                candidates.append((-ov, i, k))
    used_a, used_b, pairs = set(), set(), []
    for _, i, k in sorted(candidates):
        if i not in used_a and k not in used_b:
            used_a.add(i)
            used_b.add(k)
            pairs.append((a[i][1], b[k][1]))
    return pairs


def _chars(spans: Iterable[Span]) -> set[int]:
    covered: set[int] = set()
    for start, end in spans:
        covered.update(range(start, end))
    return covered


def _f1(common: int, total: int) -> float | None:
    return None if total == 0 else 2.0 * common / total


def judgment_score(j: Judgment, weights: MqmWeights = GOOGLE_WEIGHTS) -> float | None:
    return segment_score(j, weights)  # the same score the score-agreement table correlates


def span_pair_agreement(
    first_a: dict[Item, Judgment],
    first_b: dict[Item, Judgment],
    judges: tuple[str, str],
    protocol: str,
    weights: MqmWeights = GOOGLE_WEIGHTS,
    text_length: Callable[[Judgment], int] | None = None,
) -> SpanPairAgreement:
    shared = [item for item in first_a if item in first_b]
    exact = total = common_chars = total_chars = 0
    severities: list[tuple[str, str]] = []
    scores_a, scores_b = [], []
    spans_a = spans_b = 0
    for item in shared:
        ja, jb = first_a[item], first_b[item]
        a = located(ja.errors, text_length(ja) if text_length else None)
        b = located(jb.errors, text_length(jb) if text_length else None)
        spans_a += len(a)
        spans_b += len(b)
        exact += sum((Counter(s for s, _ in a) & Counter(s for s, _ in b)).values())
        total += len(a) + len(b)
        ca, cb = _chars(s for s, _ in a), _chars(s for s, _ in b)
        common_chars += len(ca & cb)
        total_chars += len(ca) + len(cb)
        severities += _pair_severities(a, b)
        sa, sb = judgment_score(ja, weights), judgment_score(jb, weights)
        if sa is not None and sb is not None:
            scores_a.append(sa)
            scores_b.append(sb)
    kappa = None
    if len(severities) >= 2:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # one severity throughout: 0/0, reported as None
            from sklearn.metrics import cohen_kappa_score  # imported when used: slow to import

            value = cohen_kappa_score([x for x, _ in severities], [y for _, y in severities])
        kappa = float(value) if np.isfinite(value) else None
    return SpanPairAgreement(
        protocol=protocol,
        judges=judges,
        n_items=len(shared),
        spans=(spans_a, spans_b),
        exact_f1=_f1(exact, total),
        overlap_f1=_f1(common_chars, total_chars),
        severity_pairs=len(severities),
        severity_agreement=(sum(x == y for x, y in severities) / len(severities)) if severities else None,
        severity_kappa=kappa,
        pearson=pearson(scores_a, scores_b),
        spearman=spearman(scores_a, scores_b),
    )


def span_agreement(
    judgments: Sequence[Judgment],
    weights: MqmWeights = GOOGLE_WEIGHTS,
    text_length: Callable[[Judgment], int] | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> list[SpanPairAgreement]:
    """Every pair of raters of a span protocol who share at least one item.

    ``progress(done, total)`` counts the pairs of raters compared; ``cancel()`` is
    asked before each (raising ``Cancelled``), as in every background job.
    """
    pairs = []
    for protocol in SPAN_PROTOCOLS:
        first: dict[str, dict[Item, Judgment]] = {}
        for j in judgments:
            if j.protocol == protocol and not j.qc:
                first.setdefault(j.judge, {}).setdefault((j.system, j.segment), j)
        pairs += [(first[a], first[b], (a, b), protocol) for a, b in combinations(first, 2)
                  if any(item in first[b] for item in first[a])]
    out = []
    for done, (a_items, b_items, judges, protocol) in enumerate(pairs):
        check_cancel(cancel)
        report(progress, done, len(pairs))
        out.append(span_pair_agreement(a_items, b_items, judges, protocol, weights, text_length))
    report(progress, len(pairs), len(pairs))
    return out
