"""The one interface every metric implements (sacrebleu's shape).

A metric turns each segment into a row of *sufficient statistics* (a float64
numpy array of shape ``(n_segments, k)``) and turns a sum of such rows into a
score with a pure ``aggregate`` function. Corpus scores, document scores,
bootstrap resamples and pseudo-documents are all ``aggregate(stats[idx].sum(0))``,
so they cost one vectorised sum each. ``aggregate`` accepts any array whose
last axis is the statistics axis and returns one score per leading index, which
lets bootstrap evaluate all resamples at once.

numpy is imported where arrays are made, not with this module: a metric that
sets ``lean`` computes its corpus score from plain Python rows and sums
(``corpus_only``), so a one-shot ``score`` of plain files never loads numpy
(its import is a quarter of such a run).

Metrics are configured with options parsed from a spec string such as
``bleu:tokenize=none,smooth=floor`` (see :mod:`mtworkbench.metrics.spec`).
"""

from __future__ import annotations

from abc import ABC
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from mtworkbench.core.jobs import CancelCheck, ProgressCallback, check_cancel, report
from mtworkbench.core.scoring_input import (  # noqa: F401 - re-exported: metrics import them from here
    EntityMention,
    MetricError,
    MetricScore,
    ScoringInput,
)
from mtworkbench.metrics.signature import Signature

if TYPE_CHECKING:
    import numpy as np


# Reference sets a metric instance keeps (a few, for switching between test sets).
REFERENCE_CACHE_SIZE = 4


class MetricSpecError(MetricError):
    """Unknown metric or option in a spec; the CLI exits with status 2."""


@dataclass(frozen=True)
class CorpusScore:
    """A corpus score without its segments: what ``score`` prints for plain files,
    computed by ``Metric.corpus_only`` without numpy."""

    metric: str
    signature: str
    corpus: float
    totals: tuple[float, ...]  # the summed sufficient statistics
    system: str | None = None


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
    """Base class: sufficient statistics plus a pure score formula.

    A metric sets ``name``, ``option_specs``, ``stat_names`` (may be a property
    when it depends on options) and implements three things:

    - ``extract_reference(segment, refs)``: what it precomputes from one
      segment's references (token lists, n-gram counts, ...). The base class
      calls it once per segment and caches the result by the reference texts
      and the options, so one instance scoring many systems against the same
      references extracts them once;
    - ``statistics_row(segment, hypothesis, prepared)``: the segment's row of
      sufficient statistics from its hypothesis and its prepared references;
    - ``score_formula(t, m)``: the score from summed statistics, written once for
      the plain-Python and the numpy path (``metrics.formula``); or, for a metric
      with no plain-Python form, ``aggregate(totals)`` alone.

    The base class owns the loop over segments (``segment_statistics``), with
    progress reports and cancel checks every ``progress_step(n)`` segments
    (``progress_every`` unless overridden), and derives ``aggregate`` (bootstrap,
    documents, segments) and ``corpus_value`` (no numpy) from the one formula. A
    metric with corpus-level needs overrides ``prepare_references`` (e.g. NIST's
    information weights) or ``segment_statistics`` (e.g. BLEU's vectorised
    matching), and then still uses ``references`` (the cache) and ``segments`` or
    ``batches`` (progress and cancel). It may override ``segment_scores``,
    ``extras``, ``signature_fields`` and ``explain``.
    """

    name: ClassVar[str]
    option_specs: ClassVar[tuple[Option, ...]] = ()
    higher_is_better: ClassVar[bool] = True
    # "0-100", "0-1" or "unbounded": the scale of the reference tool.
    scale: ClassVar[str] = "0-1"
    # Short signature keys in sacrebleu's style, option name -> key.
    signature_keys: ClassVar[dict[str, str]] = {}
    # The ScoringInput fields segment_statistics reads. Scores persisted with a
    # project are keyed on exactly these (scoring/store.py), so a metric that
    # reads another field must list it here.
    reads: ClassVar[tuple[str, ...]] = ("hypotheses", "references", "target_language")
    # Segments between two progress reports and cancel checks.
    progress_every: ClassVar[int] = 500
    # Options that change what extract_reference returns (the cache key); None = all.
    reference_options: ClassVar[tuple[str, ...] | None] = None
    # Above this many segments the base loop extracts references batch by batch and
    # keeps none: per-segment reference data (chrF's n-gram counters, ~50 KB a
    # segment) would otherwise hold gigabytes for a million segments.
    stream_above: ClassVar[int] = 50_000
    # The target language whose defaults configured this metric (set by
    # metrics.registry.create_metric); None when no language is known.
    language: str | None = None
    # The one setting of the plain-Python path: True when ``statistics_row`` needs no
    # numpy and the score has a plain-Python form (``score_formula``, or ``corpus_value``).
    # ``corpus_only`` then scores a corpus without numpy, and ``corpus_score`` goes
    # through ``corpus_value`` too, so both give the same number. A metric whose
    # ``prepare_references`` is its own (numpy tables) gets each segment's
    # ``extract_reference`` on that path instead.
    lean: ClassVar[bool] = False
    # False for a metric that can score without references (reference-free neural metrics):
    # ``score --src S --hyp H`` then needs no --ref.
    needs_references: ClassVar[bool] = True
    # True for a metric that holds a large model: the scoring service runs it in its own
    # process (one model load per run), never spread over worker processes.
    single_process: ClassVar[bool] = False

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

    def bind(self, project: Any) -> None:
        """Take what this metric needs from the project before scoring it (nothing by default).

        The scoring service calls it once per metric instance; the learned metric
        takes the project's trained model here.
        """

    def binding_digest(self) -> str:
        """What this metric took from outside its options (``bind``, imported data), as
        text for the persisted score store's key: a score is reused only while this is
        unchanged. Empty when the options say everything."""
        return ""

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

    def score_formula(self, t: Sequence[Any], m: Any) -> Any:
        """The score from summed statistics, written once for both paths
        (``metrics.formula``): ``t[i]`` is statistic i, a float or an array over the
        leading axes, and ``m`` the arithmetic (``SCALAR`` or ``ARRAY``). A metric
        implements this, or ``aggregate`` alone when it has no plain-Python path."""
        raise NotImplementedError(f"{self.name}: implement score_formula or aggregate")

    def aggregate(self, totals: np.ndarray) -> np.ndarray | float:
        """Score from summed statistics; vectorised over all leading axes."""
        from mtworkbench.metrics.formula import ARRAY, columns

        return ARRAY.result(self.score_formula(columns(totals), ARRAY))

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
        while len(cache) > REFERENCE_CACHE_SIZE:
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

    def before_segments(self) -> None:
        """Load what scoring needs (a metric's resources) before the first segment, so
        progress starts with the segments; nothing by default."""

    def _rows(
        self,
        data: ScoringInput,
        row: Callable[[int, str, Any], Any],
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
        stream: bool = False,
    ) -> Iterator[Any]:
        """``row(i, hypothesis_i, prepared_i)`` for every segment in order; ``stream``:
        ``prepared_i`` is ``extract_reference`` of segment i, never ``prepare_references``."""
        self.before_segments()
        hypotheses = data.hypotheses
        if stream or (
            data.n_segments > self.stream_above and type(self).prepare_references is Metric.prepare_references
        ):
            streams = data.references
            for batch in self.batches(data.n_segments, progress, cancel):
                for i in batch:
                    yield row(i, hypotheses[i], self.extract_reference(i, [s[i] for s in streams]))
            return
        prepared = self.references(data)
        for batch in self.batches(data.n_segments, progress, cancel):
            for i in batch:
                yield row(i, hypotheses[i], prepared[i])

    def segment_rows(
        self,
        data: ScoringInput,
        row: Callable[[int, str, Any], Any],
        width: int,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> np.ndarray:
        """The loop: ``row(i, hypothesis_i, prepared_i)`` for every segment, as an array."""
        import numpy as np

        out = np.zeros((data.n_segments, width))
        for i, values in enumerate(self._rows(data, row, progress, cancel)):
            out[i] = values
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
        import numpy as np

        if len(stats) == 0:
            return np.zeros(0)
        return np.asarray(self.aggregate(stats), dtype=float)

    def extras(self, data: ScoringInput, stats: np.ndarray) -> dict[str, Any]:
        """Further per-segment lists and corpus values for the JSON entry."""
        return {}

    def corpus_score(self, stats: np.ndarray) -> float:
        import numpy as np

        totals = np.asarray(stats, dtype=float).sum(axis=0)
        if self.lean:
            return self.corpus_value(totals.tolist())
        return float(self.aggregate(totals))

    # --- the plain-Python path (lean metrics) ----------------------------------
    def corpus_value(self, totals: Sequence[float]) -> float:
        """The corpus score from summed statistics given as plain floats, with
        ``math`` rather than numpy: ``score_formula`` on the plain-Python path."""
        from mtworkbench.metrics.formula import SCALAR

        return SCALAR.result(self.score_formula(list(totals), SCALAR))

    def corpus_totals(
        self,
        data: ScoringInput,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> list[float]:
        """``segment_statistics(data).sum(axis=0)`` without numpy: the rows of
        ``statistics_row`` added in segment order, as numpy adds the rows of an
        (n, k) array along axis 0, so the floats are the same."""
        totals: list[float] | None = None
        own_references = type(self).prepare_references is not Metric.prepare_references
        for values in self._rows(data, self.statistics_row, progress, cancel, stream=own_references):
            if totals is None:
                totals = [float(x) for x in values]
            else:
                totals = [t + float(x) for t, x in zip(totals, values)]
        return totals if totals is not None else [0.0] * len(self.stat_names)

    def corpus_only(
        self,
        data: ScoringInput,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
        system: str | None = None,
    ) -> CorpusScore:
        """The corpus score alone, in plain Python (``lean`` metrics only): the same
        number as ``score(data).corpus``."""
        if not self.lean:
            raise MetricError(f"{self.name}: no plain-Python corpus score")
        totals = self.corpus_totals(data, progress, cancel)
        return CorpusScore(self.name, self.signature_for(data), self.corpus_value(totals), tuple(totals), system)

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

    def signature_fields(self) -> list[tuple[str, Any]]:
        """(short key, value) pairs of the signature; by default every option."""
        return [(self.signature_keys.get(k, k), v) for k, v in self.options.items()]

    def language_fields(self) -> list[tuple[str, Any]]:
        """``[("lang", "zh")]`` when a target language chose the defaults, first in the signature."""
        return [("lang", self.language)] if self.language else []

    def make_signature(self, n_refs: int | None = None) -> Signature:
        return Signature(self.name, n_refs, tuple(self.language_fields() + self.signature_fields()))

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
