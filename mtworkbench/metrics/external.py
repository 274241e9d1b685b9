"""``ext:NAME``: a metric whose scores were computed elsewhere and imported.

Nothing is computed here: the scores come from ``project.external_scores``
(:mod:`mtworkbench.io.scores.external_scores`). Sufficient statistics are
``[score, 1]`` per scored segment (``[0, 0]`` where a segment has no score), so
the corpus score, bootstrap intervals, paired tests and pseudo-documents are the
mean of segment scores, like every other metric's aggregate. A system-level
score imported from a ``.sys.score`` file replaces the corpus mean.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from mtworkbench.core.jobs import CancelCheck, ProgressCallback
from mtworkbench.metrics.base import (
    Metric,
    MetricError,
    MetricScore,
    MetricSpecError,
    ScoringInput,
)
from mtworkbench.metrics.signature import Signature

PREFIX = "ext:"


def is_external(spec: str, project: Any = None) -> bool:
    """``ext:NAME``; with a project, also a bare ``NAME`` it imported scores for, as long as
    no built-in metric can be made from that name alone (``--metric COMET`` means ``ext:COMET``:
    the built-in COMET needs ``model=``)."""
    spec = spec.strip()
    if spec.startswith(PREFIX):
        return True
    if project is None or ":" in spec or spec not in (getattr(project, "external_scores", None) or {}):
        return False
    from mtworkbench.metrics.registry import create_metric, metric_names

    if spec.lower() not in metric_names():
        return True
    try:
        create_metric(spec.lower())
    except ValueError:  # a built-in that cannot be used bare (a neural metric without its model)
        return True
    return False


class ExternalMetric(Metric):
    name = "ext"
    scale = "unbounded"

    def __init__(self, metric_name: str, record: dict[str, Any], segment_ids: Sequence[str]) -> None:
        super().__init__()
        # One instance per imported metric, so name and direction are the instance's own.
        self.name = PREFIX + metric_name  # type: ignore[misc]
        self.metric_name = metric_name
        self.higher_is_better = bool(record.get("higher_is_better", True))  # type: ignore[misc]
        self._segments: dict[str, np.ndarray] = {}
        self._system_scores: dict[str, float | None] = {}
        for system, entry in record.get("systems", {}).items():
            seg = entry.get("segments", {})
            self._segments[system] = np.array(
                [np.nan if seg.get(sid) is None else float(seg[sid]) for sid in segment_ids], dtype=float)
            self._system_scores[system] = entry.get("system")
        self._provenance = list(record.get("provenance", []))
        self._current: str | None = None

    def binding_digest(self) -> str:
        # The imported numbers are this metric's whole input: re-importing other scores
        # under the same name must not reuse scores persisted from the old ones.
        import hashlib

        h = hashlib.blake2b(digest_size=16)
        h.update(f"{self.metric_name}|{self.higher_is_better}".encode())
        for system in sorted(self._segments):
            h.update(f"|{system}|{self._system_scores.get(system)!r}|".encode())
            h.update(np.ascontiguousarray(self._segments[system]).tobytes())
        return h.hexdigest()

    @property
    def stat_names(self) -> tuple[str, ...]:
        return ("score", "count")

    @property
    def systems(self) -> list[str]:
        return list(self._segments)

    def _scores_of(self, system: str | None, n_segments: int) -> np.ndarray:
        if system is None:
            raise MetricError(f"{self.name}: imported scores belong to a system; score it through the project")
        if system not in self._segments:
            # No file was imported for this system: every segment unscored (NaN), so a
            # correlation over several systems uses the ones that have scores.
            return np.full(n_segments, np.nan)
        scores = self._segments[system]
        if len(scores) != n_segments:
            raise MetricError(f"{self.name}: {len(scores)} imported scores for {system!r}, "
                              f"the input has {n_segments} segments")
        return scores

    def segment_statistics(
        self,
        data: ScoringInput,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> np.ndarray:
        scores = self._scores_of(self._current, data.n_segments)
        present = np.isfinite(scores)
        return np.column_stack([np.where(present, scores, 0.0), present.astype(float)])

    def aggregate(self, totals: np.ndarray) -> np.ndarray | float:
        totals = np.asarray(totals, dtype=float)
        with np.errstate(invalid="ignore", divide="ignore"):
            return totals[..., 0] / totals[..., 1]

    def corpus_score(self, stats: np.ndarray) -> float:
        """The mean of the imported scores; where adding them overflows (forty scores of
        1e308), the mean of the scores divided by the largest, times it: 1e308 again."""
        with np.errstate(over="ignore", invalid="ignore"):
            value = super().corpus_score(stats)
        if math.isfinite(value):
            return value
        stats = np.asarray(stats, dtype=float)
        values = stats[stats[:, 1] > 0, 0] if stats.ndim == 2 and len(stats) else np.zeros(0)
        if not values.size or not np.all(np.isfinite(values)):
            return value
        scale = float(np.max(np.abs(values)))
        return scale * (math.fsum(float(v) / scale for v in values) / len(values))

    def score(
        self,
        data: ScoringInput,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
        system: str | None = None,
    ) -> MetricScore:
        self._current = system
        result = super().score(data, progress, cancel, system)
        # Direction travels with the score: views that know only the spec read it here.
        result.extras["higher_is_better"] = self.higher_is_better
        given = None if system is None else self._system_scores.get(system)
        if given is not None:
            result.corpus = float(given)
        return result

    def make_signature(self, n_refs: int | None = None) -> Signature:
        # No references were used here; the fields say which files the scores came from.
        return Signature(self.name, None, tuple(self.signature_fields()))

    def signature_fields(self) -> list[tuple[str, Any]]:
        files = [p for p in self._provenance if self._current is None or self._current in p.get("systems", [])]
        return [("imported", f"{p.get('level', 'segment')}:{p.get('file')}@sha256:{str(p.get('sha256', ''))[:12]}")
                for p in files]

    def spec(self) -> str:
        return self.name


def external_metric(spec: str, project: Any) -> ExternalMetric:
    """The ``ext:NAME`` metric bound to the project's imported scores."""
    spec = spec.strip()
    name = spec.removeprefix(PREFIX)
    scores = getattr(project, "external_scores", {}) or {}
    if name not in scores:
        raise MetricSpecError(f"unknown external metric {spec!r}; imported: "
                              + (", ".join(PREFIX + n for n in scores) or "(none; use 'mtworkbench metrics import-scores')"))
    return ExternalMetric(name, scores[name], project.segment_ids)
