"""Error spans a word-level metric (xCOMET) marks in a hypothesis, as plain data.

Each span is ``[start, end)`` in characters of the hypothesis (Python string
offsets, as the tokenizer reports them), a severity (``minor``, ``major``,
``critical``) and a confidence (the mean probability of the chosen tag over the
span's tokens). ``as_judgments`` turns them into the judgments the raters' span
agreement reads (:mod:`mtworkbench.analysis.span_agreement`), so metric and
raters compare with the same code; ``spans_from_json`` reads them back from a
score's extras.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from mtworkbench.core.model import ErrorSpan as RaterErrorSpan
from mtworkbench.core.model import Judgment

SEVERITIES = ("minor", "major", "critical")
# xCOMET's own MQM weights for its span score (minor 1, major 5, critical 10, capped at 25)
SPAN_PENALTY = {"minor": 1, "major": 5, "critical": 10}


@dataclass(frozen=True)
class MetricSpan:
    start: int
    end: int
    severity: str
    confidence: float
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "severity": self.severity,
                "confidence": self.confidence, "text": self.text}


def decode_tags(
    labels: Sequence[str],
    probabilities: Sequence[Any],
    offsets: Sequence[tuple[int, int]],
) -> list[tuple[int, int, str, list[Any]]]:
    """Spans from one hypothesis's tokens: a run of error tags (``I-severity``) is a span
    from the first token's start to the last token's end, with the first token's
    severity; ``O`` closes it. A run still open after the last token is not a span
    (xCOMET's decoding, whose last token is the end-of-sequence marker)."""
    spans: list[tuple[int, int, str, list[Any]]] = []
    current: list[Any] | None = None
    for label, probability, (start, end) in zip(labels, probabilities, offsets):
        if label.startswith("I"):
            if current is None:
                current = [start, end, label.split("-", 1)[1], [probability]]
            else:
                current[1] = end
                current[3].append(probability)
        elif label == "O" and current is not None:
            spans.append((current[0], current[1], current[2], current[3]))
            current = None
    return spans


def span_score(spans: Iterable[MetricSpan]) -> float:
    """xCOMET's score from spans alone: 1 - min(25, weighted errors) / 25."""
    penalty = min(25, sum(SPAN_PENALTY.get(s.severity, 0) for s in spans))
    return (25 - penalty) / 25


def spans_from_json(rows: Sequence[Sequence[dict[str, Any]]]) -> list[list[MetricSpan]]:
    """Per-segment spans from a score's JSON extras (``error_spans``)."""
    return [[MetricSpan(int(s["start"]), int(s["end"]), str(s["severity"]), float(s.get("confidence", 0.0)),
                        str(s.get("text", ""))) for s in segment] for segment in rows]


def as_judgments(
    spans: Sequence[Sequence[MetricSpan]],
    system: str,
    segment_ids: Sequence[str],
    judge: str = "xCOMET",
    protocol: str = "mqm",
    scores: Sequence[float] | None = None,
) -> list[Judgment]:
    """One MQM (or ESA) judgment per segment with the metric's spans as its errors, the
    shape the raters' span agreement compares (``span_pair_agreement``). ``scores``: the
    metric's segment scores as the judgments' scores; without them an MQM judgment is
    scored by its weighted errors, as a rater's is."""
    if len(spans) != len(segment_ids) or (scores is not None and len(scores) != len(segment_ids)):
        raise ValueError(f"{len(spans)} segments of spans for {len(segment_ids)} segment ids")
    out = []
    for k, (sid, found) in enumerate(zip(segment_ids, spans)):
        errors = tuple(RaterErrorSpan(s.start, s.end, s.severity, comment=f"confidence {s.confidence:.3f}")
                       for s in found)
        out.append(Judgment(id=f"{judge}:{system}:{sid}", judge=judge, system=system, segment=sid,
                            score=None if scores is None else float(scores[k]), scale=protocol, protocol=protocol,
                            errors=errors))
    return out
