"""LEPOR and hLEPOR (Han et al. 2012, 2013), after the original Perl scripts.

For a hypothesis of c words and a reference of r words:

- LP (length penalty) = exp(1 - r/c) if c < r, 1 if c = r, exp(1 - c/r) if c > r;
- alignment: each hypothesis word is aligned to one reference word with the
  same (lowercased) form. With one candidate, that one; with several, the
  candidates whose context agrees (the word just before, or just after, is the
  same on both sides) are preferred, and among those (or among all, when no
  context agrees) the nearest position ``|i - j|`` wins, the leftmost on ties.
  Several hypothesis words may align to the same reference word, as in the
  Perl script (the script's own example needs three "the" aligned to one reference "the");
- NPD = (1/c) * sum |i/c - a_i/r| over aligned hypothesis words (1-based
  positions), NPosPenal = exp(-NPD);
- P, R from clipped word matches (sum over word forms of min(count in hyp,
  count in ref)), HPR = (alpha + beta) / (alpha/R + beta/P), alpha 9 (recall),
  beta 1;
- LEPOR = LP * NPosPenal * HPR; hLEPOR = weighted harmonic mean of LP,
  NPosPenal and HPR with weights 2:1:7.
- System level: the mean of the sentence scores (statistics: score sum and
  segment count, so pseudo-documents and bootstrap are one sum each).

Deliberate deviations from the Perl original:

- empty hypothesis or reference, or no match at all: score 0 (Perl divides by
  zero and dies or prints "nan");
- several references (the Perl scripts take one): each is scored and the best
  sentence score wins (the first on ties), as for METEOR;
- tokens: whitespace split (``tokenize=none``) or sacrebleu's 13a tokenizer
  (``tokenize=13a``), lowercased by default (``lowercase=no`` to keep case);
  the Perl scripts expect pre-tokenised text;
- tie-breaking among equally near candidates (leftmost) is our choice; the
  Perl code's "nearest" is not specified more closely in the papers.
"""

from __future__ import annotations

import math
import weakref
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from mtworkbench.core.jobs import CancelCheck, ProgressCallback
from mtworkbench.metrics.base import (
    Metric,
    MetricSpecError,
    Option,
    ScoringInput,
    parse_bool,
    parse_float_list,
)
from mtworkbench.metrics.tokens import tokenize

STAT_NAMES = ("score_sum", "segments", "lp_sum", "npospenal_sum", "hpr_sum")


@dataclass
class LeporReferenceResult:
    """A hypothesis scored against one reference."""

    reference_index: int
    hypothesis_tokens: list[str]
    reference_tokens: list[str]
    # alignment[i] = reference index (0-based) of hypothesis word i, or None.
    alignment: list[int | None]
    lp: float
    npd: float
    npospenal: float
    matches: int
    precision: float
    recall: float
    hpr: float
    score: float


@dataclass
class LeporResult:
    """One segment: the winning reference's components, and every reference's."""

    segment: int
    metric: str
    chosen_reference: int | None
    hypothesis_tokens: list[str]
    reference_tokens: list[str]
    alignment: list[int | None]
    lp: float
    npd: float
    npospenal: float
    precision: float
    recall: float
    hpr: float
    score: float
    per_reference: list[LeporReferenceResult] = field(default_factory=list)


def length_penalty(c: int, r: int) -> float:
    if c == r:
        return 1.0
    if c == 0 or r == 0:
        return 0.0
    return math.exp(1.0 - r / c) if c < r else math.exp(1.0 - c / r)


def align(hyp: list[str], ref: list[str]) -> list[int | None]:
    """Context-dependent alignment of each hypothesis word (see the module docstring)."""
    where: dict[str, list[int]] = {}
    for j, w in enumerate(ref):
        where.setdefault(w, []).append(j)
    out: list[int | None] = []
    for i, w in enumerate(hyp):
        cands = where.get(w)
        if not cands:
            out.append(None)
            continue
        if len(cands) == 1:
            out.append(cands[0])
            continue
        supported = [j for j in cands if _context_agrees(hyp, ref, i, j)]
        pool = supported or cands
        out.append(min(pool, key=lambda j: (abs(i - j), j)))
    return out


def _context_agrees(hyp: list[str], ref: list[str], i: int, j: int) -> bool:
    if i > 0 and j > 0 and hyp[i - 1] == ref[j - 1]:
        return True
    return i + 1 < len(hyp) and j + 1 < len(ref) and hyp[i + 1] == ref[j + 1]


def score_pair(
    hyp: list[str], ref: list[str], alpha: float, beta: float, combine, reference_index: int = 0
) -> LeporReferenceResult:
    c, r = len(hyp), len(ref)
    alignment = align(hyp, ref)
    if c and r:
        npd = sum(abs((i + 1) / c - (a + 1) / r) for i, a in enumerate(alignment) if a is not None) / c
    else:
        npd = 0.0
    npospenal = math.exp(-npd)
    hc, rc = Counter(hyp), Counter(ref)
    matches = sum(min(n, rc[w]) for w, n in hc.items())
    precision = matches / c if c else 0.0
    recall = matches / r if r else 0.0
    hpr = (alpha + beta) / (alpha / recall + beta / precision) if matches else 0.0
    lp = length_penalty(c, r)
    score = combine(lp, npospenal, hpr) if matches else 0.0
    return LeporReferenceResult(
        reference_index, hyp, ref, alignment, lp, npd, npospenal, matches, precision, recall, hpr, score
    )


class LEPOR(Metric):
    """LEPOR = LP * NPosPenal * HPR, system score = mean of sentence scores."""

    name: ClassVar[str] = "lepor"
    scale = "0-1"
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("alpha", float, 9.0, "recall weight in HPR"),
        Option("beta", float, 1.0, "precision weight in HPR"),
        Option("lowercase", parse_bool, True, "compare lowercased words"),
        Option("tokenize", str, "none", "tokenizer (zh, ja-mecab, ko-mecab for languages without spaces)", choices=("none", "13a", "zh", "ja-mecab", "ko-mecab")),
    )
    signature_keys = {"lowercase": "lc", "tokenize": "tok"}

    def validate_options(self) -> None:
        if self.options["alpha"] <= 0 or self.options["beta"] <= 0:
            raise MetricSpecError(f"{self.name}: alpha and beta must be > 0")
        # Which reference won per segment in the last segment_statistics call, for extras().
        self._chosen: tuple[weakref.ref, np.ndarray] | None = None
        self._chosen_now = np.zeros(0, dtype=int)

    @property
    def stat_names(self) -> tuple[str, ...]:
        return STAT_NAMES

    def combine(self, lp: float, npospenal: float, hpr: float) -> float:
        return lp * npospenal * hpr

    def tokens(self, text: str) -> list[str]:
        return tokenize(text, self.options["tokenize"], self.options["lowercase"])

    def _score_refs(self, hyp_text: str, refs: list[tuple[int, list[str]]]):
        """``refs`` are (stream index, tokens) of the references to try."""
        hyp = self.tokens(hyp_text)
        results = [
            score_pair(hyp, ref, self.options["alpha"], self.options["beta"], self.combine, k)
            for k, ref in refs
        ]
        best = None
        for res in results:
            if best is None or res.score > best.score:
                best = res
        return hyp, best, results

    progress_every = 200
    # Options that change the reference tokens.
    reference_options = ("lowercase", "tokenize")

    def extract_reference(self, segment: int, refs: Sequence[str | None]) -> list[tuple[int, list[str]]]:
        """(stream index, tokens) of the references present (a segment without any scores 0)."""
        return [(k, self.tokens(r)) for k, r in enumerate(refs) if r is not None]

    def statistics_row(self, segment: int, hypothesis: str, prepared) -> np.ndarray:
        _, best, _ = self._score_refs(hypothesis, prepared)
        row = np.zeros(len(STAT_NAMES))
        row[1] = 1.0
        if best is not None:
            row[0] = best.score
            row[2:5] = (best.lp, best.npospenal, best.hpr)
            self._chosen_now[segment] = best.reference_index
        return row

    def segment_statistics(
        self,
        data: ScoringInput,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> np.ndarray:
        """The base loop, remembering which reference won per segment (for extras)."""
        self._chosen_now = np.full(data.n_segments, -1, dtype=int)
        stats = super().segment_statistics(data, progress, cancel)
        self._chosen = (weakref.ref(data), self._chosen_now)
        return stats

    def aggregate(self, totals: np.ndarray) -> np.ndarray | float:
        t = np.asarray(totals, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = np.where(t[..., 1] > 0, t[..., 0] / t[..., 1], 0.0)
        return float(mean) if np.ndim(mean) == 0 else mean

    def extras(self, data: ScoringInput, stats: np.ndarray) -> dict[str, Any]:
        out: dict[str, Any] = {
            "segment_lp": stats[:, 2],
            "segment_npospenal": stats[:, 3],
            "segment_hpr": stats[:, 4],
        }
        if self._chosen is not None and self._chosen[0]() is data:
            out["chosen_reference"] = self._chosen[1]
        return out

    def explain(self, data: ScoringInput, segment: int, ref: int | None = None) -> LeporResult:
        """Components and alignment of segment ``segment`` (against reference stream ``ref`` if given)."""
        i = segment
        refs = [(k, self.tokens(text)) for k, text in data.reference_choices(i, ref)]
        hyp, best, results = self._score_refs(data.hypotheses[i], refs)
        if best is None:
            return LeporResult(i, self.name, None, hyp, [], [None] * len(hyp),
                               0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, [])
        return LeporResult(
            segment=i,
            metric=self.name,
            chosen_reference=best.reference_index,
            hypothesis_tokens=hyp,
            reference_tokens=best.reference_tokens,
            alignment=best.alignment,
            lp=best.lp,
            npd=best.npd,
            npospenal=best.npospenal,
            precision=best.precision,
            recall=best.recall,
            hpr=best.hpr,
            score=best.score,
            per_reference=results,
        )


class HLEPOR(LEPOR):
    """hLEPOR: weighted harmonic mean of LP, NPosPenal and HPR (weights 2:1:7)."""

    name: ClassVar[str] = "hlepor"
    option_specs: ClassVar[tuple[Option, ...]] = LEPOR.option_specs + (
        Option("weights", parse_float_list, (2.0, 1.0, 7.0), "weights of LP+NPosPenal+HPR"),
    )
    signature_keys = {"lowercase": "lc", "tokenize": "tok", "weights": "w"}

    def validate_options(self) -> None:
        super().validate_options()
        w = self.options["weights"]
        if len(w) != 3 or any(x < 0 for x in w) or sum(w) <= 0:
            raise MetricSpecError("hlepor: weights needs three non-negative numbers, e.g. 2+1+7")

    def combine(self, lp: float, npospenal: float, hpr: float) -> float:
        w_lp, w_npp, w_hpr = self.options["weights"]
        parts = ((w_lp, lp), (w_npp, npospenal), (w_hpr, hpr))
        if any(w > 0 and v <= 0 for w, v in parts):
            return 0.0
        return (w_lp + w_npp + w_hpr) / sum(w / v for w, v in parts if w > 0)
