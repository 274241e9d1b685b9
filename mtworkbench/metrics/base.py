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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from mtworkbench import __version__
from mtworkbench.core.jobs import CancelCheck, ProgressCallback


class MetricError(ValueError):
    """Bad metric input or settings; the message is shown to the user as is."""


class MetricSpecError(MetricError):
    """Unknown metric or option in a spec; the CLI exits with status 2."""


@dataclass(frozen=True)
class EntityMention:
    """A named entity marked in a reference: characters ``[start, end)``."""

    start: int
    end: int
    type: str


@dataclass
class ScoringInput:
    """What a metric sees: hypotheses and reference streams aligned by segment.

    ``references[k][i]`` is the k-th reference of segment i. A segment without a
    k-th reference has ``None`` there (variable number of references per segment);
    an empty string is a reference of length 0.
    """

    hypotheses: Sequence[str]
    references: Sequence[Sequence[str | None]]
    sources: Sequence[str] | None = None
    # Document and paragraph id per segment (paragraph ids unique across documents).
    documents: Sequence[str] | None = None
    paragraphs: Sequence[str] | None = None
    # entities[k][i]: the entity mentions annotated in references[k][i].
    entities: Sequence[Sequence[Sequence[EntityMention]]] | None = None
    # The language of hypotheses and references (e.g. "de"), when known.
    target_language: str | None = None

    def __post_init__(self) -> None:
        n = len(self.hypotheses)
        if not self.references:
            raise MetricError("at least one reference stream is needed")
        for k, stream in enumerate(self.references):
            if len(stream) != n:
                raise MetricError(
                    f"reference stream {k + 1} has {len(stream)} segments, "
                    f"the hypothesis has {n}"
                )
        for name in ("sources", "documents", "paragraphs"):
            seq = getattr(self, name)
            if seq is not None and len(seq) != n:
                raise MetricError(f"{name} has {len(seq)} entries, expected {n}")
        if self.entities is not None:
            if len(self.entities) != len(self.references) or any(
                len(s) != n for s in self.entities
            ):
                raise MetricError("entities must have one list per reference and segment")

    @property
    def n_segments(self) -> int:
        return len(self.hypotheses)

    @property
    def n_references(self) -> int:
        return len(self.references)

    def references_for(self, i: int) -> list[str]:
        """The references present for segment i, in stream order."""
        return [s[i] for s in self.references if s[i] is not None]

    def reference_choices(self, i: int, ref: int | None = None) -> list[tuple[int, str]]:
        """(stream index, text) of segment i's references, or only stream ``ref``."""
        if not 0 <= i < self.n_segments:
            raise MetricError(f"segment {i} is out of range (0..{self.n_segments - 1})")
        if ref is None:
            return [(k, s[i]) for k, s in enumerate(self.references) if s[i] is not None]
        if not 0 <= ref < self.n_references:
            raise MetricError(f"reference {ref} is out of range (0..{self.n_references - 1})")
        text = self.references[ref][i]
        return [] if text is None else [(ref, text)]

    def subset(self, indices: Sequence[int]) -> ScoringInput:
        pick = lambda seq: None if seq is None else [seq[i] for i in indices]  # noqa: E731
        return ScoringInput(
            hypotheses=[self.hypotheses[i] for i in indices],
            references=[[s[i] for i in indices] for s in self.references],
            sources=pick(self.sources),
            documents=pick(self.documents),
            paragraphs=pick(self.paragraphs),
            entities=None if self.entities is None else [[s[i] for i in indices] for s in self.entities],
            target_language=self.target_language,
        )


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


@dataclass
class MetricScore:
    """A metric's scores on one system: what the CLI prints and views show."""

    metric: str
    options: dict[str, Any]
    signature: str
    corpus: float
    segments: np.ndarray
    stats: np.ndarray
    stat_names: tuple[str, ...]
    # Further per-segment lists (e.g. "precision") and corpus-level values
    # (e.g. "corpus_precision") that the JSON entry carries beside "segments".
    extras: dict[str, Any] = field(default_factory=dict)
    system: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "metric": self.metric,
            "system": self.system,
            "options": _jsonable(self.options),
            "signature": self.signature,
            "corpus": _num(self.corpus),
            "segments": [_num(x) for x in np.asarray(self.segments, dtype=float)],
        }
        for key, value in self.extras.items():
            out[key] = _jsonable(value)
        return out


def _num(x: float) -> float | None:
    x = float(x)
    return x if np.isfinite(x) else None


def _jsonable(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return [_jsonable(v) for v in value.tolist()]
    if isinstance(value, (np.floating, float)):
        return _num(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


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
    # The target language whose defaults configured this metric (set by
    # metrics.language_defaults.create_metric_for); None when no language is known.
    language: str | None = None

    def language_fields(self) -> list[str]:
        """``['lang:zh']`` for the signature when a target language chose the defaults."""
        return [f"lang:{self.language}"] if self.language else []

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
            signature=self.signature(data.n_references),
            corpus=self.corpus_score(stats),
            segments=self.segment_scores(data, stats),
            stats=stats,
            stat_names=tuple(self.stat_names),
            extras=self.extras(data, stats),
            system=system,
        )

    def signature(self, n_refs: int | None = None) -> str:
        """``name|nrefs:2|opt:value|...|version:X`` in sacrebleu's style."""
        parts = [self.name]
        if n_refs is not None:
            parts.append(f"nrefs:{n_refs}")
        parts += self.language_fields()
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
