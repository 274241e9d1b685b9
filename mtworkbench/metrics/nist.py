"""NIST (Doddington 2002) exactly as mteval-v13a.pl -c computes it.

(Not nltk's ``corpus_nist``, which differs with several references.)

- Tokens: sacrebleu's 13a tokenizer (mteval's own normalisation); case is kept
  (mteval ``-c``). ``lowercase=yes`` reproduces mteval without ``-c``: only ASCII
  A-Z are lowercased, as Perl's ``tr/A-Z/a-z/`` does.
- Information weights from the references of the whole input: n-grams counted
  over every segment of every reference stream (identical references count
  twice); info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn)), with the total
  reference token count as the numerator for unigrams, and also for bigrams whose
  first token is exactly ``0`` (Perl treats the string "0" as false;
  ``zero_quirk=no`` turns that off).
- Matches: a hypothesis n-gram counts up to its largest count in any single
  reference of the segment; each matched occurrence adds its information weight.
- Score = sum over n of info_n / hyp_ngrams_n (0 for an order the hypothesis is
  too short for), times BP = exp(-beta ln^2(Lsys/Lref)) for Lsys < Lref
  (1 otherwise, 0 when Lsys = 0), beta = -ln(0.5) / ln^2(1.5); Lref is the MEAN
  reference length (empty references count 0).

Sufficient statistics per segment: ``hyp_len, ref_len`` (the mean over the
segment's references), ``info_1..N`` and ``hyp_ngrams_1..N``; the system score
pools them over segments before dividing (not a mean of segment scores).

Bad input:
- a segment whose references are all empty (or missing) has no reference length
  for the brevity penalty (mteval divides by zero): MetricError naming it;
- empty or whitespace-only hypothesis: length 0, score 0;
- an empty corpus (no segments): score 0;
- variable number of references per segment (None = missing): the segment's
  Lref is the mean over the references it has;
- long lines are counted in linear time.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from mtworkbench.metrics.base import (
    Metric,
    MetricError,
    MetricSpecError,
    Option,
    ScoringInput,
    parse_bool,
)
from mtworkbench.metrics.ngrams import Ngram, max_counts, ngram_counts
from mtworkbench.metrics.tokens import TOKENIZERS, sacrebleu_tokenizer

# BP = 0.5 when the length ratio is 2/3
BETA = -math.log(0.5) / math.log(1.5) ** 2
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


@dataclass(frozen=True)
class _NistReference:
    """One segment's prepared references."""

    clips: dict[Ngram, int]  # largest count in any single reference
    ref_len: float  # mean reference length
    info: dict[Ngram, float]  # information weights of the whole input (shared)


@dataclass(frozen=True)
class NistMatch:
    """A matched hypothesis n-gram occurrence and its information weight."""

    order: int
    start: int
    tokens: Ngram
    info: float  # bits


@dataclass
class NISTExplanation:
    segment: int
    hyp_tokens: list[str]
    ref_tokens: list[list[str] | None]
    ref_len: float  # mean reference length
    info: list[float]  # per order, summed over matched occurrences
    hyp_ngrams: list[int]
    brevity_penalty: float
    score: float
    matches: list[NistMatch] = field(default_factory=list)


def brevity_penalty(sys_len: np.ndarray | float, ref_len: np.ndarray | float) -> np.ndarray:
    """mteval's ``nist_length_penalty`` of sys_len / ref_len, vectorised."""
    sys_len = np.asarray(sys_len, dtype=float)
    ref_len = np.asarray(ref_len, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = sys_len / ref_len
        log_ratio = np.log(np.where(ratio > 0, ratio, 1.0))
        bp = np.exp(-BETA * log_ratio * log_ratio)
    return np.where(ratio >= 1, 1.0, np.where(ratio <= 0, 0.0, bp))


class NIST(Metric):
    """NIST score, mteval-v13a -c compatible (unbounded, higher is better)."""

    name: ClassVar[str] = "nist"
    scale: ClassVar[str] = "unbounded"
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("max_order", int, 5, "maximum n-gram order"),
        Option("lowercase", parse_bool, False, "lowercase ASCII A-Z (mteval without -c)"),
        Option("tokenize", str, "13a", "sacrebleu tokenizer", choices=TOKENIZERS),
        Option("zero_quirk", parse_bool, True, "mteval's bigram-starting-with-'0' weight"),
    )
    signature_keys: ClassVar[dict[str, str]] = {
        "max_order": "order",
        "lowercase": "lc",
        "tokenize": "tok",
        "zero_quirk": "zero",
    }

    # Options that change the reference side (tokens, n-gram orders, weights).
    reference_options: ClassVar[tuple[str, ...]] = (
        "max_order", "lowercase", "tokenize", "zero_quirk",
    )

    def validate_options(self) -> None:
        if self.options["max_order"] < 1:
            raise MetricSpecError("nist: max_order must be at least 1")

    @property
    def max_order(self) -> int:
        return self.options["max_order"]

    @property
    def stat_names(self) -> tuple[str, ...]:
        n = self.max_order
        return (
            ("hyp_len", "ref_len")
            + tuple(f"info_{i}" for i in range(1, n + 1))
            + tuple(f"hyp_ngrams_{i}" for i in range(1, n + 1))
        )

    def tokens(self, text: str) -> list[str]:
        if self.options["lowercase"]:
            text = text.translate(_ASCII_LOWER)
        return sacrebleu_tokenizer(self.options["tokenize"])(text.strip()).split()

    # --- references -------------------------------------------------------------
    def extract_reference(self, segment: int, refs: Sequence[str | None]) -> list[list[str]]:
        """The token lists of the segment's references (one non-empty at least)."""
        tokens = [self.tokens(r) for r in refs if r is not None]
        if not tokens or not any(tokens):
            raise MetricError(
                f"nist: segment {segment + 1} has no non-empty reference, so its "
                "brevity penalty is undefined (mteval-v13a.pl divides by zero)"
            )
        return tokens

    def prepare_references(self, data: ScoringInput) -> list[_NistReference]:
        """Per segment: clip counts, mean reference length and the information
        weights, which come from the references of the whole input."""
        n = self.max_order
        pooled: Counter[Ngram] = Counter()
        total_tokens = 0
        segments = []
        for refs in super().prepare_references(data):
            counts = [ngram_counts(r, n) for r in refs]
            for c in counts:
                pooled.update(c)
            total_tokens += sum(len(r) for r in refs)
            segments.append((max_counts(counts), sum(len(r) for r in refs) / len(refs)))
        info = self._information(pooled, total_tokens)
        return [_NistReference(clips, ref_len, info) for clips, ref_len in segments]

    def _information(self, counts: Counter[Ngram], total_tokens: int) -> dict[Ngram, float]:
        quirk = self.options["zero_quirk"]
        info = {}
        for gram, count in counts.items():
            prefix = gram[:-1]
            if not prefix or (quirk and prefix == ("0",)):
                denominator = total_tokens
            else:
                denominator = counts[prefix]
            info[gram] = -math.log(count / denominator) / math.log(2)
        return info

    # --- statistics ------------------------------------------------------------
    def statistics_row(self, segment: int, hypothesis: str, prepared: _NistReference) -> list[float]:
        n = self.max_order
        hyp = self.tokens(hypothesis)
        clips, info = prepared.clips, prepared.info
        gained = [0.0] * n
        for gram, count in ngram_counts(hyp, n).items():
            clip = clips.get(gram)
            if clip:
                gained[len(gram) - 1] += info[gram] * min(count, clip)
        return [len(hyp), prepared.ref_len, *gained, *(max(0, len(hyp) - k) for k in range(n))]

    def aggregate(self, totals: np.ndarray) -> np.ndarray | float:
        totals = np.asarray(totals, dtype=float)
        n = self.max_order
        info = totals[..., 2 : 2 + n]
        counts = totals[..., 2 + n :]
        with np.errstate(divide="ignore", invalid="ignore"):
            per_order = np.where(counts > 0, info / np.where(counts > 0, counts, 1.0), 0.0)
        score = np.zeros(totals.shape[:-1])
        for j in range(n):  # left to right, as mteval accumulates
            score = score + per_order[..., j]
        out = score * brevity_penalty(totals[..., 0], totals[..., 1])
        return float(out) if out.ndim == 0 else out

    def per_order(self, totals: np.ndarray) -> np.ndarray:
        """Individual n-gram scores (mteval's "Individual N-gram scoring")."""
        totals = np.asarray(totals, dtype=float)
        n = self.max_order
        info, counts = totals[..., 2 : 2 + n], totals[..., 2 + n :]
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(counts > 0, info / np.where(counts > 0, counts, 1.0), 0.0)

    def extras(self, data: ScoringInput, stats: np.ndarray) -> dict[str, Any]:
        return {"corpus_per_order": self.per_order(stats.sum(axis=0))}

    # --- explanation -------------------------------------------------------------
    def explain(self, data: ScoringInput, segment: int, ref: int | None = None) -> NISTExplanation:
        """Matched n-grams of segment ``segment`` with their information weights.

        The weights always come from all references of the input; ``ref`` limits
        the clip counts and the reference length to that reference stream.
        """
        i = segment
        n = self.max_order
        prepared = self.references(data)[i]
        info, clips, ref_len = prepared.info, prepared.clips, prepared.ref_len
        if ref is not None:
            chosen = [self.tokens(text) for _, text in data.reference_choices(i, ref)]
            if not chosen:
                raise MetricError(f"nist: segment {i + 1} has no reference {ref + 1}")
            clips = max_counts(ngram_counts(r, n) for r in chosen)
            ref_len = float(len(chosen[0]))
        hyp = self.tokens(data.hypotheses[i])
        seen: Counter[Ngram] = Counter()
        matches = []
        for order in range(1, n + 1):
            for start in range(len(hyp) - order + 1):
                gram = tuple(hyp[start : start + order])
                seen[gram] += 1
                if seen[gram] <= clips.get(gram, 0):
                    matches.append(NistMatch(order, start, gram, info[gram]))
        gained = [0.0] * n
        for m in matches:
            gained[m.order - 1] += m.info
        hyp_ngrams = [max(0, len(hyp) - k) for k in range(n)]
        totals = np.array([len(hyp), ref_len, *gained, *hyp_ngrams], dtype=float)
        return NISTExplanation(
            segment=i,
            hyp_tokens=hyp,
            ref_tokens=[None if (r := s[i]) is None else self.tokens(r) for s in data.references],
            ref_len=ref_len,
            info=gained,
            hyp_ngrams=hyp_ngrams,
            brevity_penalty=float(brevity_penalty(len(hyp), ref_len)),
            score=float(self.aggregate(totals)),
            matches=matches,
        )
