"""The one interface every metric implements (sacrebleu's shape).

A metric turns each segment into a row of *sufficient statistics* (a float64
numpy array of shape ``(n_segments, k)``) and turns a sum of such rows into a
score with a pure ``aggregate`` function. Corpus scores, document scores,
bootstrap resamples and pseudo-documents are all ``aggregate(stats[idx].sum(0))``,
so they cost one vectorised sum each. ``aggregate`` accepts any array whose
last axis is the statistics axis and returns one score per leading index, which
lets bootstrap evaluate all resamples at once.

Metrics are configured with options parsed from a spec string such as
``bleu:tokenize=none,smooth=floor`` (see :mod:`mtworkbench.metrics.spec`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from mtworkbench import __version__
from mtworkbench.core.jobs import CancelCheck, ProgressCallback
from mtworkbench.core.scoring_input import (  # noqa: F401 - re-exported: metrics import them from here
    EntityMention,
    MetricError,
    MetricScore,
    ScoringInput,
)


class MetricSpecError(MetricError):
    """Unknown metric or option in a spec; the CLI exits with status 2."""


@dataclass(frozen=True)
class Option:
    """One option a metric accepts in its spec string."""

    name: str
    parse: Callable[[str], Any]
    default: Any
    help: str
    choices: tuple[str, ...] | None = None

    def convert(self, metric: str, raw: Any) -> Any:
        if not isinstance(raw, str):
            return raw
        if self.choices is not None and raw not in self.choices:
            raise MetricSpecError(
                f"{metric}: option {self.name}={raw!r} is not one of {', '.join(self.choices)}"
            )
        try:
            return self.parse(raw)
        except (ValueError, TypeError) as exc:
            raise MetricSpecError(f"{metric}: option {self.name}={raw!r}: {exc}") from None


def parse_bool(raw: str) -> bool:
    low = raw.strip().lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise ValueError("expected true or false")


def parse_plus_list(raw: str) -> tuple[str, ...]:
    """``exact+stem+synonym`` -> ('exact', 'stem', 'synonym')."""
    items = tuple(p for p in raw.split("+") if p)
    if not items:
        raise ValueError("expected one or more items joined by '+'")
    return items


def parse_float_list(raw: str) -> tuple[float, ...]:
    """``1+0.6+0.8`` -> (1.0, 0.6, 0.8)."""
    return tuple(float(p) for p in parse_plus_list(raw))


class Metric(ABC):
    """Base class: sufficient statistics plus a pure aggregation.

    Subclasses set ``name``, ``option_specs``, ``stat_names`` (may be a property
    when it depends on options) and implement ``segment_statistics`` and
    ``aggregate``. They may override ``segment_scores`` (e.g. sentence BLEU with
    effective order differs from aggregating one row) and ``extras``.
    """

    name: ClassVar[str]
    option_specs: ClassVar[tuple[Option, ...]] = ()
    higher_is_better: ClassVar[bool] = True
    # "0-100", "0-1" or "unbounded": the scale of the reference tool (SPECS.md).
    scale: ClassVar[str] = "0-1"
    # Short signature keys in sacrebleu's style, option name -> key.
    signature_keys: ClassVar[dict[str, str]] = {}

    def __init__(self, **options: Any) -> None:
        known = {o.name: o for o in self.option_specs}
        unknown = sorted(set(options) - set(known))
        if unknown:
            valid = ", ".join(sorted(known)) or "(none)"
            raise MetricSpecError(
                f"{self.name}: unknown option {', '.join(unknown)}; valid options: {valid}"
            )
        self.options: dict[str, Any] = {
            o.name: o.convert(self.name, options[o.name]) if o.name in options else o.default
            for o in self.option_specs
        }
        self.validate_options()

    def validate_options(self) -> None:
        """Check option values together; raise MetricSpecError with a clear message."""

    def bind(self, project: Any) -> None:
        """Take what this metric needs from the project before scoring it (nothing by default).

        The scoring service calls it once per metric instance; the learned metric
        takes the project's trained model here.
        """

    @property
    def stat_names(self) -> tuple[str, ...]:  # pragma: no cover - overridden
        raise NotImplementedError

    # --- the two functions that define a metric -------------------------------
    @abstractmethod
    def segment_statistics(
        self,
        data: ScoringInput,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> np.ndarray:
        """Sufficient statistics, float64 array of shape (n_segments, len(stat_names))."""

    @abstractmethod
    def aggregate(self, totals: np.ndarray) -> np.ndarray | float:
        """Score from summed statistics; vectorised over all leading axes."""

    # --- derived -------------------------------------------------------------
    def segment_scores(self, data: ScoringInput, stats: np.ndarray) -> np.ndarray:
        """Per-segment scores; by default each segment scored as a corpus of one."""
        if len(stats) == 0:
            return np.zeros(0)
        return np.asarray(self.aggregate(stats), dtype=float)

    def extras(self, data: ScoringInput, stats: np.ndarray) -> dict[str, Any]:
        """Further per-segment lists and corpus values for the JSON entry."""
        return {}

    def corpus_score(self, stats: np.ndarray) -> float:
        return float(self.aggregate(np.asarray(stats, dtype=float).sum(axis=0)))

    def score(
        self,
        data: ScoringInput,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
        system: str | None = None,
    ) -> MetricScore:
        stats = self.segment_statistics(data, progress=progress, cancel=cancel)
        return MetricScore(
            metric=self.name,
            options=dict(self.options),
            signature=self.signature_for(data),
            corpus=self.corpus_score(stats),
            segments=self.segment_scores(data, stats),
            stats=stats,
            stat_names=tuple(self.stat_names),
            extras=self.extras(data, stats),
            system=system,
        )

    def signature_for(self, data: ScoringInput) -> str:
        """The signature of scoring ``data`` (a metric may name what it chose in it)."""
        return self.signature(data.n_references)

    def signature(self, n_refs: int | None = None) -> str:
        """``name|nrefs:2|opt:value|...|version:X`` in sacrebleu's style."""
        parts = [self.name]
        if n_refs is not None:
            parts.append(f"nrefs:{n_refs}")
        for key, value in self.options.items():
            short = self.signature_keys.get(key, key)
            if isinstance(value, (tuple, list)):
                value = "+".join(str(v) for v in value)
            elif isinstance(value, bool):
                value = "yes" if value else "no"
            parts.append(f"{short}:{value}")
        parts.append(f"version:mtworkbench-{__version__}")
        return "|".join(parts)

    def spec(self) -> str:
        """The spec string that recreates this metric with non-default options."""
        defaults = {o.name: o.default for o in self.option_specs}
        changed = []
        for key, value in self.options.items():
            if value != defaults[key]:
                if isinstance(value, (tuple, list)):
                    value = "+".join(str(v) for v in value)
                changed.append(f"{key}={value}")
        return self.name + (":" + ",".join(changed) if changed else "")
