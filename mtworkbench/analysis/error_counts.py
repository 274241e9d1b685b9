"""How many errors raters marked per system, by category and severity (MQM, ESA).

The table that lets a reader see where a system's errors are: for each system, the number of
errors in each (category, severity) cell, counting every rater's errors on the
system's rated segments (DA quality-control copies left out). Categories can be
cut to their top level (``Accuracy/Mistranslation`` -> ``Accuracy``); severities
are compared without regard to case and shown in the data's first spelling.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mtworkbench.core.model import SPAN_PROTOCOLS, Judgment


def score_without_spans(judgment: Judgment) -> bool:
    """An MQM segment score with no spans: an imported score (a rater in the app records
    spans and no score), so its spans were never recorded; it is no "no errors" rating."""
    return judgment.protocol == "mqm" and judgment.score is not None and not judgment.errors


@dataclass
class ErrorCounts:
    protocol: str
    systems: list[str]
    categories: list[str]  # most frequent first
    severities: list[str]  # most frequent first
    counts: dict[tuple[str, str, str], int] = field(default_factory=dict)  # (system, category, severity)
    rated: dict[str, int] = field(default_factory=dict)  # system -> judgments (rater x segment)

    def count(self, system: str, category: str | None = None, severity: str | None = None) -> int:
        return sum(n for (s, c, v), n in self.counts.items()
                   if s == system and category in (None, c) and severity in (None, v))

    def to_json(self) -> dict[str, Any]:
        return {
            "protocol": self.protocol,
            "categories": self.categories,
            "severities": self.severities,
            "systems": [
                {"system": s, "rated": self.rated.get(s, 0), "errors": self.count(s),
                 "counts": [{"category": c, "severity": v, "n": n}
                            for (s2, c, v), n in sorted(self.counts.items()) if s2 == s]}
                for s in self.systems
            ],
        }


def error_counts(judgments: Sequence[Judgment], protocol: str = "mqm", top_level: bool = False) -> ErrorCounts:
    if protocol not in SPAN_PROTOCOLS:
        raise ValueError(f"error counts need a span protocol ({', '.join(SPAN_PROTOCOLS)}), not {protocol!r}")
    spelling: dict[str, str] = {}
    counts: Counter[tuple[str, str, str]] = Counter()
    rated: Counter[str] = Counter()
    systems: list[str] = []
    for j in judgments:
        if j.protocol != protocol or j.qc or score_without_spans(j):
            continue
        if j.system not in rated:
            systems.append(j.system)
        rated[j.system] += 1
        for e in j.errors:
            category = e.category.split("/", 1)[0] if top_level else e.category
            severity = spelling.setdefault(e.severity.strip().lower(), e.severity.strip())
            counts[(j.system, category, severity)] += 1
    by_category: Counter[str] = Counter()
    by_severity: Counter[str] = Counter()
    for (_, c, v), n in counts.items():
        by_category[c] += n
        by_severity[v] += n
    return ErrorCounts(
        protocol=protocol,
        systems=systems,
        categories=[c for c, _ in by_category.most_common()],
        severities=[v for v, _ in by_severity.most_common()],
        counts=dict(counts),
        rated=dict(rated),
    )
