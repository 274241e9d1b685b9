"""A span-marking metric's error spans (xCOMET's, ``comet:model=NAME``) as suggestions for a
judge's ESA or MQM queue.

The spans come the way every score comes (``scoring.job.run_scoring``): from the project's score
file when they are stored there (scored before, in the app or with ``score BUNDLE``), else the
model runs once for all the systems asked for. Each suggestion carries the model's registered
name and content fingerprint, read from the score's signature, so the judgment records which
model made it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from mtworkbench.core.jobs import CancelCheck, ProgressCallback
from mtworkbench.core.model import Project
from mtworkbench.core.scoring_input import MetricError
from mtworkbench.core.suggested_spans import SuggestedSpan
from mtworkbench.scoring.cache import ScoreCache, cache_for
from mtworkbench.scoring.job import ScoringRequest, run_scoring

_FIELD = re.compile(r"(?:^|\|)(model|sha256):([^|]*)")


@dataclass
class ModelSpans:
    """The spans by (system, segment), the spec they came from and the model that made them."""

    spec: str
    model: str
    fingerprint: str
    spans: dict[tuple[str, str], list[SuggestedSpan]]

    @property
    def count(self) -> int:
        return sum(len(v) for v in self.spans.values())


def model_of(signature: str) -> tuple[str, str]:
    """The model's registered name and (shortened) content fingerprint in a neural metric's signature."""
    fields = dict(_FIELD.findall(signature))
    return fields.get("model", ""), fields.get("sha256", "")


def model_spans(
    project: Project,
    spec: str,
    systems: Sequence[str] | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
    cache: ScoreCache | None = None,
) -> ModelSpans:
    """The error spans metric ``spec`` marks in ``systems``' outputs (default: all).

    Raises ``MetricError`` when the metric marks no spans (a regression COMET, BLEU...) or
    cannot run (model not registered: its message says how to register it)."""
    wanted = tuple(s.id for s in project.systems) if systems is None else tuple(systems)
    request = ScoringRequest(specs=(spec,), systems=wanted, ci_samples=0, use_processes=False)
    outcome = run_scoring(project, cache if cache is not None else cache_for(project), request,
                          progress=progress, cancel=cancel)
    if spec in outcome.failures:
        raise outcome.failures[spec]
    segments = [s.id for s in project.segments]
    found: dict[tuple[str, str], list[SuggestedSpan]] = {}
    model = fingerprint = ""
    for item in outcome.items:
        if item.spec != spec or item.system not in wanted:
            continue
        score = item.entry.score
        rows = score.extras.get("error_spans")
        if not isinstance(rows, list):
            raise MetricError(f"{spec} marks no error spans (only a word-level metric such as xCOMET does); "
                              "choose an xCOMET checkpoint")
        if len(rows) != len(segments):
            raise MetricError(f"{spec}: {len(rows)} segments of error spans for system {item.system!r}, "
                              f"the project has {len(segments)}")
        model, fingerprint = model_of(score.signature)
        for segment, spans in zip(segments, rows):
            found[(item.system, segment)] = [
                SuggestedSpan(int(s["start"]), int(s["end"]), str(s["severity"]), "",
                              None if s.get("confidence") is None else float(s["confidence"]), model, fingerprint)
                for s in spans if int(s["end"]) > int(s["start"])]
    return ModelSpans(spec, model or spec, fingerprint, found)
