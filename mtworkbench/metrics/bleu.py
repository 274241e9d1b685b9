"""BLEU (Papineni et al. 2002) equal to sacrebleu 2.x, with mteval-v13a's
segment-level variant as an option.

Options (spec ``bleu:key=value,...``):

- ``tokenize`` 13a (default) | intl | none -- sacrebleu's tokenizers;
- ``lowercase`` -- lowercase before tokenizing (``str.lower``, as sacrebleu);
- ``smooth`` exp (default) | floor | add-k | none, ``smooth_value`` (floor 0.1,
  add-k 1 when not given) -- sacrebleu's smoothing;
- ``max_order`` 1..16 (default 4);
- ``weights`` ``w1+w2+...`` (one per order; default uniform). Weights are
  normalised over the orders used (all of them, or the effective ones), so
  ``1+1+1+1`` equals the default;
- ``effective_order`` sentence (default) | yes | no -- drop orders without
  hypothesis n-grams: ``sentence`` does so for segment scores only
  (``sacrebleu.sentence_bleu``) and not for corpus scores (``corpus_bleu``);
- ``mteval`` -- mteval-v13a.pl's formula for segment and corpus scores: it
  smooths (exp) even when nothing matches, an order without hypothesis n-grams
  counts as p = 1 while still dividing by N, and BP = exp(min(0, 1 - r/c)).
  Reported on the same 0-100 scale (mteval prints 0-1). ``lowercase`` stays
  Python's ``str.lower`` (sacrebleu's); mteval without ``-c`` lowercases ASCII
  A-Z only, which differs on non-ASCII text.

Sufficient statistics per segment: ``hyp_len, ref_len, correct_1..N,
total_1..N`` exactly as sacrebleu's, so corpus BLEU is ``aggregate`` of their sum.

References: ``None`` marks a missing reference (variable number of references
per segment); an empty string is a reference of length 0 (sacrebleu's rule).

Bad input:
- a segment with no reference at all (every stream None): MetricError naming
  the segment (sacrebleu crashes there);
- empty or whitespace-only hypotheses: length 0, no n-grams; sentence BLEU 0;
  the corpus score still counts their references' lengths in the BP;
- a segment whose references are all empty: effective reference length 0, so
  it adds hypothesis n-grams that cannot match;
- an all-empty corpus (no hypothesis tokens): BLEU 0;
- long lines (10,000 tokens) are counted in linear time.
Line-count mismatches are caught when the ScoringInput is built.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from mtworkbench.core.jobs import CancelCheck, ProgressCallback, report
from mtworkbench.metrics.base import (
    Metric,
    MetricError,
    MetricSpecError,
    Option,
    ScoringInput,
    parse_bool,
    parse_float_list,
)
from mtworkbench.metrics.formula import ARRAY, columns
from mtworkbench.metrics.ngrams import Ngram, clipped_matches, closest_length, max_counts, ngram_counts
from mtworkbench.metrics.tokens import TOKENIZERS, sacrebleu_tokenizer, tokenizer_signature

if TYPE_CHECKING:  # numpy loads with the first array: `score --metric bleu` on files needs none
    import numpy as np

    from mtworkbench.metrics.ngram_match import ReferenceNgrams

SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1.0, "exp": None}
# sacrebleu's floor for log(0)
LOG_ZERO = -9999999999.0
MAX_ORDER_LIMIT = 16


def _parse_effective_order(raw: str) -> str:
    low = raw.strip().lower()
    if low == "sentence":
        return low
    try:
        return "yes" if parse_bool(low) else "no"
    except ValueError:
        raise ValueError("expected sentence, yes or no") from None


def _optional_float(raw: str) -> float | None:
    return None if raw.strip().lower() in ("", "none", "default") else float(raw)


@dataclass(frozen=True)
class _BleuReferences:
    """BLEU's prepared references: clip counts of the whole input, lengths per segment."""

    ngrams: ReferenceNgrams
    lengths: list[list[int]]


@dataclass(frozen=True)
class NgramOccurrence:
    """One hypothesis n-gram occurrence and whether it was credited."""

    order: int
    start: int  # token position in the hypothesis
    tokens: Ngram
    count: int  # occurrences of this n-gram in the hypothesis
    clip: int  # maximum count in any single reference
    matched: bool  # True for the first min(count, clip) occurrences


@dataclass
class BLEUExplanation:
    """What a view needs to show why a segment got its BLEU."""

    segment: int
    hyp_tokens: list[str]
    ref_tokens: list[list[str] | None]  # per reference stream; None = missing
    effective_reference: int  # stream index giving the effective length
    hyp_len: int
    ref_len: int
    correct: list[int]
    total: list[int]
    precisions: list[float]  # 0-100, after smoothing, as sacrebleu reports
    brevity_penalty: float
    score: float  # the segment score as in ``segment_scores``
    occurrences: list[NgramOccurrence] = field(default_factory=list)

    def matched(self, order: int | None = None) -> list[NgramOccurrence]:
        return [o for o in self.occurrences if o.matched and (order is None or o.order == order)]


class BLEU(Metric):
    """Corpus and sentence BLEU, sacrebleu-compatible (0-100)."""

    name: ClassVar[str] = "bleu"
    scale: ClassVar[str] = "0-100"
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("tokenize", str, "13a", "sacrebleu tokenizer", choices=TOKENIZERS),
        Option("lowercase", parse_bool, False, "lowercase before tokenizing"),
        Option("smooth", str, "exp", "smoothing method", choices=tuple(SMOOTH_DEFAULTS)),
        Option("smooth_value", _optional_float, None, "floor / add-k value"),
        Option("max_order", int, 4, "maximum n-gram order (1..16)"),
        Option("weights", parse_float_list, (), "order weights w1+w2+... (default uniform)"),
        Option(
            "effective_order",
            _parse_effective_order,
            "sentence",
            "drop orders without hypothesis n-grams: sentence (segment scores only), yes, no",
        ),
        Option("mteval", parse_bool, False, "mteval-v13a.pl formula (smoothing, BP)"),
    )

    def validate_options(self) -> None:
        n = self.options["max_order"]
        if not 1 <= n <= MAX_ORDER_LIMIT:
            raise MetricSpecError(
                f"bleu: max_order must be between 1 and {MAX_ORDER_LIMIT}, got {n}"
            )
        weights = self.options["weights"]
        if weights:
            if len(weights) != n:
                raise MetricSpecError(f"bleu: weights has {len(weights)} values, max_order is {n}")
            if any(w < 0 or not math.isfinite(w) for w in weights) or sum(weights) <= 0:
                raise MetricSpecError("bleu: weights must be non-negative with a positive sum")
        value = self.options["smooth_value"]
        if value is not None and (not math.isfinite(value) or value < 0):
            raise MetricSpecError("bleu: smooth_value must be a non-negative number")

    # --- options ------------------------------------------------------------
    @property
    def max_order(self) -> int:
        return self.options["max_order"]

    @property
    def smooth_value(self) -> float | None:
        value = self.options["smooth_value"]
        return SMOOTH_DEFAULTS[self.options["smooth"]] if value is None else value

    @property
    def stat_names(self) -> tuple[str, ...]:
        n = self.max_order
        return (
            ("hyp_len", "ref_len")
            + tuple(f"correct_{i}" for i in range(1, n + 1))
            + tuple(f"total_{i}" for i in range(1, n + 1))
        )

    def tokens(self, text: str) -> list[str]:
        if self.options["lowercase"]:
            text = text.lower()
        return sacrebleu_tokenizer(self.options["tokenize"])(text.rstrip()).split()

    # Options that change the reference side (tokens, n-gram orders).
    reference_options: ClassVar[tuple[str, ...]] = ("tokenize", "lowercase", "max_order")

    # --- statistics -----------------------------------------------------------
    def extract_reference(self, segment: int, refs: Sequence[str | None]) -> list[list[str]]:
        """The token lists of the segment's references."""
        tokens = [self.tokens(r) for r in refs if r is not None]
        if not tokens:
            raise MetricError(f"bleu: segment {segment + 1} has no reference")
        return tokens

    def prepare_references(self, data: ScoringInput) -> _BleuReferences:
        """Reference n-gram clip counts of the whole input (for the vectorised
        matching) and, per segment, the reference lengths."""
        from mtworkbench.metrics.ngram_match import ReferenceNgrams

        tokens = super().prepare_references(data)
        lengths = [[len(r) for r in refs] for refs in tokens]
        return _BleuReferences(ReferenceNgrams(tokens, self.max_order), lengths)

    def segment_statistics(
        self,
        data: ScoringInput,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> np.ndarray:
        """All segments at once: the n-gram matching is vectorised over the corpus."""
        import numpy as np

        n_seg = data.n_segments
        order = self.max_order
        report(progress, 0, n_seg)
        refs = self.references(data)
        hyps = [self.tokens(data.hypotheses[i]) for i in self.segments(n_seg, progress, cancel)]
        stats = np.zeros((n_seg, 2 + 2 * order))
        hyp_len = np.array([len(h) for h in hyps], dtype=float)
        stats[:, 0] = hyp_len
        stats[:, 1] = [closest_length(len(h), lens)[1] for h, lens in zip(hyps, refs.lengths)]
        stats[:, 2 : 2 + order] = refs.ngrams.clipped_matches(hyps)
        stats[:, 2 + order :] = np.maximum(0.0, hyp_len[:, None] - np.arange(order))
        return stats

    # --- the plain-Python path (score on files; no numpy) ---------------------------
    # statistics_row needs no numpy; the plain-Python path extracts each segment's
    # references itself, since prepare_references builds numpy n-gram tables.
    lean: ClassVar[bool] = True

    def statistics_row(self, segment: int, hypothesis: str, prepared: list[list[str]]) -> list[int]:
        """One segment's statistics from its reference token lists, with sets and
        counters (``corpus_totals`` adds these; integers, so the sums are exact)."""
        order = self.max_order
        hyp = self.tokens(hypothesis)
        n = len(hyp)
        ref_len = closest_length(n, [len(r) for r in prepared])[1]
        return [n, ref_len, *clipped_matches(hyp, prepared, order), *(max(0, n - k) for k in range(order))]

    # --- aggregation: one formula for both paths (metrics.formula) -----------------
    def score_formula(self, t: Sequence[Any], m: Any) -> Any:
        return self.bleu(t, m, effective=self.options["effective_order"] == "yes")

    def segment_scores(self, data: ScoringInput, stats: np.ndarray) -> np.ndarray:
        import numpy as np

        if len(stats) == 0:
            return np.zeros(0)
        effective = self.options["effective_order"] != "no"
        return np.asarray(ARRAY.result(self.bleu(columns(stats), ARRAY, effective)), dtype=float)

    def extras(self, data: ScoringInput, stats: np.ndarray) -> dict[str, Any]:
        """sacrebleu's corpus details: per-order precisions (0-100), BP, lengths."""
        import numpy as np

        n = self.max_order
        totals = np.asarray(stats, dtype=float).sum(axis=0) if len(stats) else np.zeros(2 + 2 * n)
        correct = [int(x) for x in totals[2 : 2 + n]]
        total = [int(x) for x in totals[2 + n :]]
        return {
            "corpus_precisions": _sacrebleu_precisions(
                correct, total, self.options["smooth"], self.smooth_value
            ),
            "corpus_bp": _brevity_penalty(int(totals[0]), int(totals[1])),
            "corpus_sys_len": int(totals[0]),
            "corpus_ref_len": int(totals[1]),
        }

    def bleu(self, t: Sequence[Any], m: Any, effective: bool) -> Any:
        """BLEU of summed statistics ``t`` (floats, or arrays over leading axes) in the
        arithmetic ``m``: sacrebleu's, or with ``mteval`` mteval-v13a.pl's ``bleu_score``."""
        if len(t) != 2 + 2 * self.max_order:
            raise MetricError(f"bleu: expected {2 + 2 * self.max_order} statistics, got {len(t)}")
        if self.options["mteval"]:
            return self._mteval(t, m)
        return self._sacrebleu(t, m, effective)

    def _sacrebleu(self, t: Sequence[Any], m: Any, effective: bool) -> Any:
        """sacrebleu's ``BLEU.compute_bleu``: the orders up to (not including) the first
        without hypothesis n-grams count; zero matches there are smoothed."""
        n = self.max_order
        sys_len, ref_len = t[0], t[1]
        correct = list(t[2 : 2 + n])
        total = list(t[2 + n :])
        any_match = correct[0] > 0
        for c in correct[1:]:
            any_match = any_match | (c > 0)
        bp = m.where(sys_len < ref_len, m.where(sys_len > 0, m.exp(1 - m.div(ref_len, sys_len)), 0.0), 1.0)
        method, value = self.options["smooth"], self.smooth_value
        if method == "add-k":
            assert value is not None  # add-k always has one (SMOOTH_DEFAULTS)
            correct[1:] = [c + value for c in correct[1:]]
            total[1:] = [x + value for x in total[1:]]
        logs = []
        alive: Any = True
        used: Any = 0
        doubling: Any = 0
        for c, x in zip(correct, total):
            alive = alive & (x > 0)
            zero = alive & (c == 0)
            doubling = doubling + zero
            precision = m.div(100.0 * c, x)
            if method == "exp":
                precision = m.where(zero, m.div(100.0, 2.0**doubling * x), precision)
            elif method == "floor":
                assert value is not None  # floor always has one (SMOOTH_DEFAULTS)
                precision = m.where(zero, m.div(100.0 * value, x), precision)
            else:
                precision = m.where(zero, 0.0, precision)
            precision = m.where(alive, precision, 0.0)
            logs.append(m.log(precision, LOG_ZERO))
            used = used + alive
        score = bp * m.exp(self._log_mean(logs, used if effective else n, m))
        return m.where(any_match, score, 0.0)

    def _mteval(self, t: Sequence[Any], m: Any) -> Any:
        """mteval-v13a.pl ``bleu_score``, times 100: every order counts; an order without
        hypothesis n-grams adds log 1, one without matches is smoothed by halving."""
        n = self.max_order
        sys_len, ref_len = t[0], t[1]
        bp = m.where(sys_len > 0, m.exp(m.minimum(0.0, 1 - m.div(ref_len, sys_len))), 0.0)
        logs = []
        doubling: Any = 0
        for c, x in zip(t[2 : 2 + n], t[2 + n :]):
            has = x > 0
            zero = has & (c == 0)
            doubling = doubling + zero
            safe = m.where(has, x, 1.0)
            smoothed = m.log(1.0 / (2.0**doubling * safe), 0.0)
            plain = m.log(c / safe, 0.0)
            logs.append(m.where(has, m.where(zero, smoothed, plain), 0.0))
        return 100.0 * bp * m.exp(self._log_mean(logs, n, m))

    def _log_mean(self, logs: list[Any], used: Any, m: Any) -> Any:
        """Weighted mean of per-order log precisions over the first ``used`` orders,
        summed left to right as sacrebleu does."""
        weights = self.options["weights"]
        if not weights:
            total: Any = 0.0
            for k, x in enumerate(logs):
                total = total + m.where(k < used, x, 0.0)
            return total / m.maximum(used, 1)
        norm: Any = 0.0
        weighted: Any = 0.0
        for k, (wk, x) in enumerate(zip(weights, logs)):
            w = m.where(k < used, wk, 0.0)
            norm = norm + w
            weighted = weighted + w * x
        return weighted / m.where(norm > 0, norm, 1.0)

    # --- explanation --------------------------------------------------------------
    def explain(self, data: ScoringInput, segment: int, ref: int | None = None) -> BLEUExplanation:
        """Matched n-grams of segment ``segment`` with their clip counts (against
        reference stream ``ref`` only, if given)."""
        import numpy as np

        i = segment
        n = self.max_order
        hyp = self.tokens(data.hypotheses[i])
        ref_tokens: list[list[str] | None] = [None] * data.n_references
        for k, text in data.reference_choices(i, ref):
            ref_tokens[k] = self.tokens(text)
        present = [(k, r) for k, r in enumerate(ref_tokens) if r is not None]
        if not present:
            raise MetricError(f"bleu: segment {i + 1} has no reference")
        clips = max_counts(ngram_counts(r, n) for _, r in present)
        index, ref_len = closest_length(len(hyp), [len(r) for _, r in present])
        hyp_counts = ngram_counts(hyp, n)
        seen: Counter[Ngram] = Counter()
        occurrences = []
        for order in range(1, n + 1):
            for start in range(len(hyp) - order + 1):
                gram = tuple(hyp[start : start + order])
                seen[gram] += 1
                clip = clips.get(gram, 0)
                occurrences.append(
                    NgramOccurrence(order, start, gram, hyp_counts[gram], clip, seen[gram] <= clip)
                )
        correct = [0] * n
        total = [0] * n
        for o in occurrences:
            total[o.order - 1] += 1
            correct[o.order - 1] += o.matched
        row = np.array([len(hyp), ref_len, *correct, *total], dtype=float)
        effective = self.options["effective_order"] != "no"
        return BLEUExplanation(
            segment=i,
            hyp_tokens=hyp,
            ref_tokens=ref_tokens,
            effective_reference=present[index][0],
            hyp_len=len(hyp),
            ref_len=ref_len,
            correct=correct,
            total=total,
            precisions=_sacrebleu_precisions(
                correct, total, self.options["smooth"], self.smooth_value
            ),
            brevity_penalty=_brevity_penalty(len(hyp), ref_len),
            score=float(ARRAY.result(self.bleu(columns(row), ARRAY, effective))),
            occurrences=occurrences,
        )

    # --- signature ---------------------------------------------------------------
    def signature_fields(self) -> list[tuple[str, Any]]:
        """sacrebleu's BLEU signature, plus our extra settings when not default."""
        o = self.options
        smooth = o["smooth"]
        if SMOOTH_DEFAULTS[smooth] is not None:
            smooth += f"[{self.smooth_value:.2f}]"
        fields: list[tuple[str, Any]] = [
            ("case", "lc" if o["lowercase"] else "mixed"),
            ("eff", "yes" if o["effective_order"] == "yes" else "no"),
            ("tok", tokenizer_signature(o["tokenize"])),
            ("smooth", "mteval" if o["mteval"] else smooth),
        ]
        if o["max_order"] != 4:
            fields.append(("order", o["max_order"]))
        if o["weights"]:
            fields.append(("weights", "+".join(f"{w:g}" for w in o["weights"])))
        return fields


def _brevity_penalty(sys_len: int, ref_len: int) -> float:
    if sys_len >= ref_len:
        return 1.0
    return math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0


def _sacrebleu_precisions(
    correct: Sequence[float], total: Sequence[float], method: str, value: float | None
) -> list[float]:
    """Per-order precisions (0-100) as sacrebleu's BLEUScore reports them."""
    out = [0.0] * len(correct)
    if not any(correct):
        return out
    doubling = 1.0
    for k, (c, t) in enumerate(zip(correct, total)):
        if method == "add-k" and k > 0 and value is not None:
            c, t = c + value, t + value
        if t == 0:
            break
        if c == 0:
            if method == "exp":
                doubling *= 2
                out[k] = 100.0 / (doubling * t)
            elif method == "floor" and value is not None:
                out[k] = 100.0 * value / t
        else:
            out[k] = 100.0 * c / t
    return out
