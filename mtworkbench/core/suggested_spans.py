"""Error spans a model suggests to a judge (ESA-AI, MQM with pre-marked spans), and what the
judge made of each (no Qt).

A queue item may carry a model's error spans (xCOMET's, or spans stored with a metric's
scores): the rating view shows them pre-marked, told apart from the judge's own, and the
judge keeps, changes (severity, category, extent) or deletes each one. A pre-marked span
the judge leaves alone is part of the rating, as in WMT's ESA-AI, so it counts as kept.
The judgment records one ``SpanOutcome`` per suggestion: the suggestion as offered (with the
model's name and content fingerprint), the decision, and which of the judgment's errors it
became. ``span_accept_rates`` counts the decisions per severity and category.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mtworkbench.core.json_reader import JsonReader

SPAN_DECISIONS = ("kept", "changed", "deleted")


@dataclass(frozen=True)
class SuggestedSpan:
    """One span a model marked: characters ``[start, end)`` of the translation shown, the
    severity it is pre-marked with, a category when the source gives one, the model's
    confidence when known, and the model (registered name, content fingerprint)."""

    start: int
    end: int
    severity: str
    category: str = ""
    confidence: float | None = None
    model: str = ""
    fingerprint: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"start": self.start, "end": self.end, "severity": self.severity}
        if self.category:
            out["category"] = self.category
        if self.confidence is not None:
            out["confidence"] = self.confidence
        out["model"], out["fingerprint"] = self.model, self.fingerprint
        return out

    @classmethod
    def from_json(cls, value: Any, path: str, check: JsonReader) -> SuggestedSpan:
        obj = check.keys(value, path, {"start", "end", "severity", "model", "fingerprint"},
                         {"category", "confidence"})
        start, end = check.int(obj["start"], f"{path}.start"), check.int(obj["end"], f"{path}.end")
        if not 0 <= start < end:
            check.fail(f"expected 0 <= start < end, found {start}-{end}", path)
        confidence = obj.get("confidence")
        return cls(start, end, check.str(obj["severity"], f"{path}.severity"),
                   check.str(obj.get("category", ""), f"{path}.category"),
                   None if confidence is None else check.number(confidence, f"{path}.confidence"),
                   check.str(obj["model"], f"{path}.model"), check.str(obj["fingerprint"], f"{path}.fingerprint"))


@dataclass(frozen=True)
class SpanOutcome:
    """What the judge did with a suggested span; ``error`` is the index of the judgment's
    error it became (None when deleted)."""

    suggestion: SuggestedSpan
    decision: str
    error: int | None = None

    def __post_init__(self) -> None:
        if self.decision not in SPAN_DECISIONS:
            raise ValueError(f"unknown decision {self.decision!r}; expected one of {', '.join(SPAN_DECISIONS)}")
        if (self.error is None) != (self.decision == "deleted"):
            raise ValueError("a deleted suggestion became no error; a kept or changed one names its error")

    def to_json(self) -> dict[str, Any]:
        return {"suggestion": self.suggestion.to_json(), "decision": self.decision, "error": self.error}

    @classmethod
    def from_json(cls, value: Any, path: str, check: JsonReader, n_errors: int) -> SpanOutcome:
        obj = check.keys(value, path, {"suggestion", "decision", "error"}, set())
        decision = check.choice(obj["decision"], f"{path}.decision", SPAN_DECISIONS)
        error = None if obj["error"] is None else check.int(obj["error"], f"{path}.error")
        if (error is None) != (decision == "deleted") or (error is not None and not 0 <= error < n_errors):
            check.fail(f"expected the index of one of the judgment's {n_errors} errors for a kept or changed "
                       "suggestion, null for a deleted one", f"{path}.error")
        return cls(SuggestedSpan.from_json(obj["suggestion"], f"{path}.suggestion", check), decision, error)


@dataclass(frozen=True)
class SpanAcceptRate:
    """Decisions on the suggestions of one severity (and category, when they had one)."""

    severity: str
    category: str
    kept: int
    changed: int
    deleted: int

    @property
    def decided(self) -> int:
        return self.kept + self.changed + self.deleted

    @property
    def rate(self) -> float | None:
        """Kept as suggested, of those decided (None before any)."""
        return self.kept / self.decided if self.decided else None

    def to_json(self) -> dict[str, Any]:
        return {"severity": self.severity, "category": self.category, "kept": self.kept, "changed": self.changed,
                "deleted": self.deleted, "accept_rate": self.rate}


def span_accept_rates(outcomes: Iterable[SpanOutcome]) -> list[SpanAcceptRate]:
    """Per suggested severity and category (sorted), how many were kept, changed and deleted."""
    counts: dict[tuple[str, str], list[int]] = {}
    for o in outcomes:
        row = counts.setdefault((o.suggestion.severity.lower(), o.suggestion.category), [0, 0, 0])
        row[SPAN_DECISIONS.index(o.decision)] += 1
    return [SpanAcceptRate(sev, cat, *row) for (sev, cat), row in sorted(counts.items())]


def total_rate(rows: Iterable[SpanAcceptRate]) -> SpanAcceptRate:
    rows = list(rows)
    return SpanAcceptRate("all", "", sum(r.kept for r in rows), sum(r.changed for r in rows),
                          sum(r.deleted for r in rows))


def format_outcomes(outcomes: Iterable[SpanOutcome]) -> str:
    """A table cell: ``START-END:SEVERITY[:CATEGORY]=DECISION[@ERROR]`` items separated by ``;``
    (``@ERROR``: the 1-based error the suggestion became)."""
    items = []
    for o in outcomes:
        s = o.suggestion
        label = f"{s.start}-{s.end}:{s.severity}" + (f":{s.category}" if s.category else "")
        items.append(f"{label}={o.decision}" + ("" if o.error is None else f"@{o.error + 1}"))
    return ";".join(items)
