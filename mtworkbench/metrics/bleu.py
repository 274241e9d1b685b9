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
    lean: ClassVar[bool] = True

    references_need_numpy: ClassVar[bool] = True  # prepare_references builds ReferenceNgrams

    def statistics_row(self, segment: int, hypothesis: str, prepared: list[list[str]]) -> list[int]:
        """One segment's statistics from its reference token lists, with sets and
        counters (``corpus_totals`` adds these; integers, so the sums are exact)."""
        order = self.max_order
        hyp = self.tokens(hypothesis)
        n = len(hyp)
        ref_len = closest_length(n, [len(r) for r in prepared])[1]
        return [n, ref_len, *clipped_matches(hyp, prepared, order), *(max(0, n - k) for k in range(order))]

    def corpus_value(self, totals: Sequence[float]) -> float:
        """BLEU of one row of summed statistics with ``math`` (as sacrebleu computes
        it); the vectorised ``score_from_totals`` is the same formula over arrays."""
        n = self.max_order
        if len(totals) != 2 + 2 * n:
            raise MetricError(f"bleu: expected {2 + 2 * n} statistics, got {len(totals)}")
        if self.options["mteval"]:
            return self._mteval_value(totals)
        effective = self.options["effective_order"] == "yes"
        sys_len, ref_len = totals[0], totals[1]
        correct = list(totals[2 : 2 + n])
        total = list(totals[2 + n :])
        if not any(c > 0 for c in correct):
            return 0.0
        if sys_len < ref_len:
            bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
        else:
            bp = 1.0
        method, value = self.options["smooth"], self.smooth_value
        if method == "add-k":
            assert value is not None  # add-k always has one (SMOOTH_DEFAULTS)
            correct[1:] = [c + value for c in correct[1:]]
            total[1:] = [t + value for t in total[1:]]
        logs: list[float] = []  # per order up to the first without hypothesis n-grams
        doubling = 0
        for c, t in zip(correct, total):
            if not t > 0:
                break
            if c == 0:
                doubling += 1
                if method == "exp":
                    precision = 100.0 / (2.0**doubling * t)
                elif method == "floor":
                    assert value is not None
                    precision = 100.0 * value / t
                else:
                    precision = 0.0
            else:
                precision = 100.0 * c / t
            logs.append(math.log(precision) if precision > 0 else LOG_ZERO)
        used = len(logs) if effective else n
        logs += [LOG_ZERO] * (n - len(logs))  # orders after it: precision 0
        return bp * math.exp(self._log_mean_value(logs, used))

    def _log_mean_value(self, logs: list[float], used: int) -> float:
        """``_log_mean`` for one row."""
        weights = self.options["weights"]
        if not weights:
            mean = 0.0
            for x in logs[:used]:
                mean = mean + x
            return mean / max(used, 1)
        w = [wk if k < used else 0.0 for k, wk in enumerate(weights)]
        norm = sum(w)
        return sum(wk * x for wk, x in zip(w, logs)) / (norm if norm > 0 else 1.0)

    def _mteval_value(self, totals: Sequence[float]) -> float:
        """``_mteval_scores`` for one row."""
        n = self.max_order
        sys_len, ref_len = totals[0], totals[1]
        bp = math.exp(min(0.0, 1 - ref_len / sys_len)) if sys_len > 0 else 0.0
        logs = []
        doubling = 0
        for c, t in zip(totals[2 : 2 + n], totals[2 + n :]):
            if not t > 0:
                logs.append(0.0)
            elif c == 0:
                doubling += 1
                logs.append(math.log(1.0 / (2.0**doubling * t)))
            else:
                logs.append(math.log(c / t))
        return 100.0 * bp * math.exp(self._log_mean_value(logs, n))

    # --- aggregation ------------------------------------------------------------
    def aggregate(self, totals: np.ndarray) -> np.ndarray | float:
        return self.score_from_totals(totals, effective=self.options["effective_order"] == "yes")

    def segment_scores(self, data: ScoringInput, stats: np.ndarray) -> np.ndarray:
        import numpy as np

        if len(stats) == 0:
            return np.zeros(0)
        effective = self.options["effective_order"] != "no"
        return np.asarray(self.score_from_totals(stats, effective=effective), dtype=float)

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

    def score_from_totals(self, totals: np.ndarray, effective: bool) -> np.ndarray | float:
        """BLEU from summed statistics, vectorised over leading axes."""
        import numpy as np

        totals = np.asarray(totals, dtype=float)
        if totals.shape[-1] != 2 + 2 * self.max_order:
            raise MetricError(
                f"bleu: expected {2 + 2 * self.max_order} statistics, got {totals.shape[-1]}"
            )
        if self.options["mteval"]:
            out = self._mteval_scores(totals)
        else:
            out = self._sacrebleu_scores(totals, effective)
        return float(out) if out.ndim == 0 else out

    def _log_mean(self, logs: np.ndarray, used: np.ndarray | int) -> np.ndarray:
        """Weighted mean of per-order log precisions over the first ``used`` orders."""
        import numpy as np

        n = self.max_order
        mask = np.arange(n) < np.asarray(used)[..., None]
        weights = self.options["weights"]
        if not weights:
            # sacrebleu: sum(logs[:eff]) / eff, summed left to right
            total = np.zeros(logs.shape[:-1])
            for j in range(n):
                total = total + np.where(mask[..., j], logs[..., j], 0.0)
            return total / np.maximum(used, 1)
        w = np.where(mask, np.asarray(weights, dtype=float), 0.0)
        norm = w.sum(axis=-1)
        return (w * logs).sum(axis=-1) / np.where(norm > 0, norm, 1.0)

    def _sacrebleu_scores(self, totals: np.ndarray, effective: bool) -> np.ndarray:
        import numpy as np

        n = self.max_order
        sys_len, ref_len = totals[..., 0], totals[..., 1]
        correct = totals[..., 2 : 2 + n].copy()
        total = totals[..., 2 + n :].copy()
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            bp = np.where(
                sys_len < ref_len,
                np.where(sys_len > 0, np.exp(1 - ref_len / sys_len), 0.0),
                1.0,
            )
            any_match = (correct > 0).any(axis=-1)
            method = self.options["smooth"]
            value = self.smooth_value
            if method == "add-k":
                correct[..., 1:] += value
                total[..., 1:] += value
            # orders up to (not including) the first with no hypothesis n-grams
            alive = np.cumprod(total > 0, axis=-1).astype(bool)
            used = alive.sum(axis=-1) if effective else np.full(sys_len.shape, n)
            zero = alive & (correct == 0)
            precision = 100.0 * correct / total
            if method == "exp":
                doubling = np.cumsum(zero, axis=-1)
                smoothed = 100.0 / (2.0**doubling * total)
                precision = np.where(zero, smoothed, precision)
            elif method == "floor":
                assert value is not None  # floor always has one (SMOOTH_DEFAULTS)
                precision = np.where(zero, 100.0 * value / total, precision)
            else:
                precision = np.where(zero, 0.0, precision)
            precision = np.where(alive, precision, 0.0)
            positive = precision > 0
            logs = np.where(positive, np.log(np.where(positive, precision, 1.0)), LOG_ZERO)
            score = bp * np.exp(self._log_mean(logs, used))
        return np.where(any_match, score, 0.0)

    def _mteval_scores(self, totals: np.ndarray) -> np.ndarray:
        """mteval-v13a.pl ``bleu_score``, times 100."""
        import numpy as np

        n = self.max_order
        sys_len, ref_len = totals[..., 0], totals[..., 1]
        correct = totals[..., 2 : 2 + n]
        total = totals[..., 2 + n :]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            bp = np.where(sys_len > 0, np.exp(np.minimum(0.0, 1 - ref_len / sys_len)), 0.0)
            has = total > 0
            zero = has & (correct == 0)
            doubling = np.cumsum(zero, axis=-1)
            safe_total = np.where(has, total, 1.0)
            logs = np.where(
                zero,
                np.log(1.0 / (2.0**doubling * safe_total)),
                np.log(np.where(has & ~zero, correct, 1.0) / safe_total),
            )
            logs = np.where(has, logs, 0.0)
            score = 100.0 * bp * np.exp(self._log_mean(logs, n))
        return score

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
            score=float(self.score_from_totals(row, effective=effective)),
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
