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
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from mtworkbench.core.jobs import CancelCheck, ProgressCallback, check_cancel, report
from mtworkbench.metrics.signature import Signature


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

    A metric sets ``name``, ``option_specs``, ``stat_names`` (may be a property
    when it depends on options) and implements three things:

    - ``extract_reference(segment, refs)``: what it precomputes from one
      segment's references (token lists, n-gram counts, ...). The base class
      calls it once per segment and caches the result by the reference texts
      and the options, so one instance scoring many systems against the same
      references extracts them once;
    - ``statistics_row(segment, hypothesis, prepared)``: the segment's row of
      sufficient statistics from its hypothesis and its prepared references;
    - ``aggregate(totals)``: the score from summed statistics.

    The base class owns the loop over segments (``segment_statistics``), with
    progress reports and cancel checks every ``progress_step(n)`` segments
    (``progress_every`` unless overridden). A metric with corpus-level needs
    overrides ``prepare_references`` (e.g. NIST's information weights) or
    ``segment_statistics`` (e.g. BLEU's vectorised matching), and then still
    uses ``references`` (the cache) and ``segments`` or ``batches`` (progress
    and cancel). It may override ``segment_scores``, ``extras``,
    ``signature_fields`` and ``explain``.
    """

    name: ClassVar[str]
    option_specs: ClassVar[tuple[Option, ...]] = ()
    higher_is_better: ClassVar[bool] = True
    # "0-100", "0-1" or "unbounded": the scale of the reference tool (SPECS.md).
    scale: ClassVar[str] = "0-1"
    # Short signature keys in sacrebleu's style, option name -> key.
    signature_keys: ClassVar[dict[str, str]] = {}
    # Segments between two progress reports and cancel checks.
    progress_every: ClassVar[int] = 500
    # Options that change what extract_reference returns (the cache key); None = all.
    reference_options: ClassVar[tuple[str, ...] | None] = None
    # Reference sets kept per instance (a few, for switching between test sets).
    reference_cache_size: ClassVar[int] = 4

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
        self._reference_cache: OrderedDict[Any, Any] = OrderedDict()
        self.validate_options()

    def validate_options(self) -> None:
        """Check option values together; raise MetricSpecError with a clear message."""

    @property
    def stat_names(self) -> tuple[str, ...]:  # pragma: no cover - overridden
        raise NotImplementedError

    # --- what a metric implements ---------------------------------------------
    def extract_reference(self, segment: int, refs: Sequence[str | None]) -> Any:
        """What the metric precomputes from segment ``segment``'s references.

        ``refs`` has one entry per reference stream (None = missing). By default
        the references present, as texts; a segment without any is refused.
        """
        present = [r for r in refs if r is not None]
        if not present:
            raise MetricError(f"{self.name}: segment {segment + 1} has no reference")
        return present

    def statistics_row(self, segment: int, hypothesis: str, prepared: Any) -> Any:
        """The sufficient statistics of one segment (a sequence of len(stat_names))."""
        raise NotImplementedError(
            f"{self.name}: implement statistics_row or override segment_statistics"
        )

    @abstractmethod
    def aggregate(self, totals: np.ndarray) -> np.ndarray | float:
        """Score from summed statistics; vectorised over all leading axes."""

    def explain(self, data: ScoringInput, segment: int, ref: int | None = None) -> Any:
        """Why segment ``segment`` got its score: a result dataclass a view draws.

        ``ref`` restricts the explanation to that reference stream (0-based);
        None uses the segment's references as scoring does.
        """
        raise MetricError(f"{self.name}: no explanation is available for this metric")

    # --- what the base class provides -----------------------------------------
    def reference_key(self, data: ScoringInput) -> Any:
        """Cache key of a reference set: its texts and the extraction options."""
        names = self.options if self.reference_options is None else self.reference_options
        options = tuple((k, _hashable(self.options[k])) for k in names)
        return options, tuple(tuple(stream) for stream in data.references)

    def prepare_references(self, data: ScoringInput) -> Any:
        """What the metric keeps of the input's references: by default a list of
        ``extract_reference`` per segment (indexed by segment in the base loop);
        a metric overriding ``segment_statistics`` may return its own structure."""
        streams = data.references
        return [
            self.extract_reference(i, [s[i] for s in streams]) for i in range(data.n_segments)
        ]

    def references(self, data: ScoringInput) -> Any:
        """``prepare_references(data)``, cached by reference content and options."""
        key = self.reference_key(data)
        cache = self._reference_cache
        if key in cache:
            cache.move_to_end(key)
            return cache[key]
        prepared = self.prepare_references(data)
        cache[key] = prepared
        while len(cache) > self.reference_cache_size:
            cache.popitem(last=False)
        return prepared

    def progress_step(self, n: int) -> int:
        """Items between two progress reports and cancel checks, for n items."""
        return self.progress_every

    def batches(
        self,
        n: int,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
        every: int | None = None,
    ) -> Iterator[range]:
        """0..n-1 in ranges of ``every`` (default ``progress_step(n)``) items: before
        each, check cancel and report progress(done, n); at the end report (n, n)."""
        step = max(1, every or self.progress_step(n))
        for start in range(0, n, step):
            check_cancel(cancel)
            report(progress, start, n)
            yield range(start, min(n, start + step))
        report(progress, n, n)

    def segments(
        self,
        n: int,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
        every: int | None = None,
    ) -> Iterator[int]:
        """0..n-1 one by one, with the progress and cancel of ``batches``."""
        for batch in self.batches(n, progress, cancel, every):
            yield from batch

    def segment_rows(
        self,
        data: ScoringInput,
        row: Callable[[int, str, Any], Any],
        width: int,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> np.ndarray:
        """The loop: ``row(i, hypothesis_i, prepared_i)`` for every segment, as an array."""
        prepared = self.references(data)
        hypotheses = data.hypotheses
        out = np.zeros((data.n_segments, width))
        for batch in self.batches(data.n_segments, progress, cancel):
            for i in batch:
                out[i] = row(i, hypotheses[i], prepared[i])
        return out

    def segment_statistics(
        self,
        data: ScoringInput,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> np.ndarray:
        """Sufficient statistics, float64 array of shape (n_segments, len(stat_names))."""
        return self.segment_rows(data, self.statistics_row, len(self.stat_names), progress, cancel)

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

    def signature_fields(self) -> list[tuple[str, Any]]:
        """(short key, value) pairs of the signature; by default every option."""
        return [(self.signature_keys.get(k, k), v) for k, v in self.options.items()]

    def make_signature(self, n_refs: int | None = None) -> Signature:
        return Signature(self.name, n_refs, tuple(self.signature_fields()))

    def signature(self, n_refs: int | None = None) -> str:
        """``name|nrefs:2|opt:value|...|version:X`` in sacrebleu's style."""
        return self.make_signature(n_refs).format()

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


def _hashable(value: Any) -> Any:
    """An option value usable in a cache key."""
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value
