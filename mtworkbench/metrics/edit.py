"""Edit-distance metrics: WER, PER (ours) and TER, chrF, chrF++ (sacrebleu's).

WER and PER (as Kulesza & Shieber 2004 use them), rates where 0 is perfect and
lower is better (WER exceeds 1 when insertions outnumber reference words):

- Tokens: whitespace split of the text by default (``tokenize=none``), so the
  metric sees exactly the words the user wrote; ``tokenize=13a`` or ``intl``
  applies sacrebleu's tokenizer first, and ``lowercase=yes`` lowercases.
- WER: word-level Levenshtein distance (substitutions, insertions, deletions,
  each cost 1) over the reference length. PER (Tillmann 1997): position
  independent errors ``max(|hyp|, |ref|) - |bag(hyp) & bag(ref)|`` over the
  reference length.
- Several references: the segment uses the reference with the lowest rate (the
  first one on ties); its (errors, reference length) pair is the segment's
  sufficient statistics. Corpus = summed errors / summed reference lengths.
- A zero reference length follows sacrebleu's TER convention: the rate is 0
  when there are no errors (empty hypothesis) and 1 otherwise.
- ``explain(data, segment, ref=None)`` gives the reference chosen and a minimal word alignment
  (equal / substitute / insert / delete steps) for the views.

TER is sacrebleu's: its Tercom tokenizer, and its edit counting restated for
speed in :mod:`mtworkbench.metrics.ter_fast` (property tests check every segment
against sacrebleu's own code); chrF statistics through
sacrebleu's statistics extractor (the one its own significance tests use), with
a vectorised re-statement of its aggregation so that bootstrap resamples are one
array operation. Scores are on sacrebleu's 0-100 scale.

Bad input (all metrics here):
- a segment with no reference at all (every stream ``None``): MetricError
  naming the segment;
- an empty corpus (no segments; empty files): score 0 and no segment scores
  (sacrebleu raises IndexError there); line-count mismatches are refused when
  the ScoringInput is built;
- empty or whitespace-only hypothesis or reference lines are valid: an empty
  hypothesis against a non-empty reference has WER = PER = 1, against an empty
  reference 0; chrF of an empty hypothesis is 0;
- long lines (10,000 tokens) are handled: the Levenshtein distance uses the
  bit-parallel algorithm (Hyyroe 2001) on Python integers, O(|hyp| * |ref| / word);
  chrF is linear. TER's shift search is bounded by sacrebleu's candidate
  budget; ter_fast handles 2,000-token lines in well under a second.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from mtworkbench.metrics.base import (
    Metric,
    MetricError,
    MetricSpecError,
    Option,
    ScoringInput,
    parse_bool,
)
from mtworkbench.metrics.tokens import TOKENIZERS, tokenize

if TYPE_CHECKING:  # numpy loads with the first array: `score --metric chrf` on files needs none
    import numpy as np

def levenshtein(hyp: Sequence[Any], ref: Sequence[Any]) -> int:
    """Edit distance between two token sequences (unit costs).

    Bit-parallel (Myers 1999 / Hyyroe 2001): one bit per reference position in
    Python integers, so a 10,000 x 10,000 token comparison takes 10,000 big-int
    steps instead of 10^8 cell updates.
    """
    m = len(ref)
    if m == 0:
        return len(hyp)
    if not hyp:
        return m
    masks: dict[Any, int] = {}
    for i, token in enumerate(ref):
        masks[token] = masks.get(token, 0) | (1 << i)
    full = (1 << m) - 1
    top = 1 << (m - 1)
    pv, mv, dist = full, 0, m
    for token in hyp:
        eq = masks.get(token, 0)
        xv = eq | mv
        xh = (((eq & pv) + pv) ^ pv) | eq
        ph = mv | ~(xh | pv)
        mh = pv & xh
        if ph & top:
            dist += 1
        elif mh & top:
            dist -= 1
        ph = (ph << 1) | 1
        mh <<= 1
        pv = (mh | ~(xv | ph)) & full
        mv = ph & xv & full
    return dist


@dataclass(frozen=True)
class EditOperation:
    """One step of a word alignment: ``equal``, ``substitute``, ``insert``
    (a hypothesis word with no reference word) or ``delete`` (a reference word
    the hypothesis lacks). Indices are token positions; None where absent."""

    op: str
    hyp: int | None
    ref: int | None


@dataclass
class WordErrorExplanation:
    """A segment's WER/PER with the alignment against the reference used."""

    segment: int
    hyp_tokens: list[str]
    ref_tokens: list[str]
    reference: int  # stream index of the reference with the lowest rate
    errors: int
    ref_len: int
    rate: float
    operations: list[EditOperation]  # a minimal Levenshtein alignment (WER)


# Explanations build the full dynamic-programming table; beyond this many
# cells (e.g. two 3,000-token lines) they are refused rather than stall a view.
MAX_ALIGNMENT_CELLS = 10_000_000


def levenshtein_alignment(hyp: Sequence[Any], ref: Sequence[Any]) -> list[EditOperation]:
    """A minimal edit script turning ``ref`` into ``hyp`` (ties: prefer equal or
    substitution, then deletion, then insertion)."""
    n, m = len(hyp), len(ref)
    if n * m > MAX_ALIGNMENT_CELLS:
        raise MetricError(f"alignment of {n} x {m} tokens is too large to explain")
    table = [list(range(m + 1))]
    for i in range(1, n + 1):
        prev, row, token = table[-1], [i] + [0] * m, hyp[i - 1]
        for j in range(1, m + 1):
            row[j] = min(prev[j - 1] + (token != ref[j - 1]), prev[j] + 1, row[j - 1] + 1)
        table.append(row)
    ops: list[EditOperation] = []
    i, j = n, m
    while i > 0 or j > 0:
        if i > 0 and j > 0 and table[i][j] == table[i - 1][j - 1] + (hyp[i - 1] != ref[j - 1]):
            same = hyp[i - 1] == ref[j - 1]
            ops.append(EditOperation("equal" if same else "substitute", i - 1, j - 1))
            i, j = i - 1, j - 1
        elif j > 0 and table[i][j] == table[i][j - 1] + 1:
            ops.append(EditOperation("delete", None, j - 1))
            j -= 1
        else:
            ops.append(EditOperation("insert", i - 1, None))
            i -= 1
    ops.reverse()
    return ops


def position_independent_errors(hyp: Sequence[Any], ref: Sequence[Any]) -> int:
    """PER errors: max(|hyp|, |ref|) minus the bag-of-words overlap."""
    overlap = sum((Counter(hyp) & Counter(ref)).values())
    return max(len(hyp), len(ref)) - overlap


def _rate(errors: np.ndarray | float, ref_len: np.ndarray | float) -> np.ndarray:
    """errors / ref_len, with sacrebleu TER's convention for ref_len == 0."""
    import numpy as np

    errors = np.asarray(errors, dtype=float)
    ref_len = np.asarray(ref_len, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = errors / ref_len
    return np.where(ref_len > 0, rate, np.where(errors > 0, 1.0, 0.0))


class _WordErrorMetric(Metric):
    """Shared machinery of WER and PER: (errors, ref_len) per segment."""

    scale: ClassVar[str] = "0-1"
    higher_is_better: ClassVar[bool] = False
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option(
            "tokenize",
            str,
            "none",
            "none: split on whitespace; 13a/intl: sacrebleu's tokenizer first",
            choices=TOKENIZERS,
        ),
        Option("lowercase", parse_bool, False, "lowercase before comparing"),
    )
    signature_keys: ClassVar[dict[str, str]] = {"tokenize": "tok", "lowercase": "lc"}

    @property
    def stat_names(self) -> tuple[str, ...]:
        return ("errors", "ref_len")

    def errors(self, hyp: list[str], ref: list[str]) -> int:  # pragma: no cover
        raise NotImplementedError

    def tokens(self, text: str) -> list[str]:
        return tokenize(text, self.options["tokenize"], self.options["lowercase"])

    def extract_reference(
        self, segment: int, refs: Sequence[str | None]
    ) -> list[tuple[int, list[str]]]:
        """(stream index, tokens) of the references present."""
        tokens = [(k, self.tokens(r)) for k, r in enumerate(refs) if r is not None]
        if not tokens:
            raise MetricError(f"{self.name}: segment {segment + 1} has no reference")
        return tokens

    def _best(
        self, hyp: list[str], refs: list[tuple[int, list[str]]]
    ) -> tuple[float, int, int, list[str]]:
        """(rate, errors, stream, tokens) of the reference with the lowest rate (first on ties)."""
        best: tuple[float, int, int, list[str]] | None = None
        for k, ref in refs:
            errors = self.errors(hyp, ref)
            rate = float(_rate(errors, len(ref)))
            if best is None or rate < best[0]:
                best = (rate, errors, k, ref)
        assert best is not None
        return best

    def statistics_row(
        self, segment: int, hypothesis: str, prepared: list[tuple[int, list[str]]]
    ) -> tuple[int, int]:
        _, errors, _, ref = self._best(self.tokens(hypothesis), prepared)
        return errors, len(ref)

    def aggregate(self, totals: np.ndarray) -> np.ndarray | float:
        import numpy as np

        totals = np.asarray(totals, dtype=float)
        out = _rate(totals[..., 0], totals[..., 1])
        return float(out) if out.ndim == 0 else out

    def explain(
        self, data: ScoringInput, segment: int, ref: int | None = None
    ) -> WordErrorExplanation:
        """Segment ``segment``: the reference chosen (or stream ``ref``) and a word
        alignment against it."""
        i = segment
        choices = data.reference_choices(i, ref)
        if not choices:
            raise MetricError(f"{self.name}: segment {i + 1} has no reference")
        hyp = self.tokens(data.hypotheses[i])
        best = self._best(hyp, [(k, self.tokens(text)) for k, text in choices])
        rate, errors, k, ref_tokens = best
        return WordErrorExplanation(
            segment=i,
            hyp_tokens=hyp,
            ref_tokens=ref_tokens,
            reference=k,
            errors=errors,
            ref_len=len(ref_tokens),
            rate=rate,
            operations=levenshtein_alignment(hyp, ref_tokens),
        )


class WER(_WordErrorMetric):
    """Word error rate: Levenshtein distance over reference length (0-1)."""

    name: ClassVar[str] = "wer"

    def errors(self, hyp: list[str], ref: list[str]) -> int:
        return levenshtein(hyp, ref)


class PER(_WordErrorMetric):
    """Position-independent word error rate (Tillmann 1997) (0-1)."""

    name: ClassVar[str] = "per"

    def errors(self, hyp: list[str], ref: list[str]) -> int:
        return position_independent_errors(hyp, ref)


class TER(Metric):
    """Translation edit rate, sacrebleu's (0-100, lower is better).

    Statistics per segment: the fewest edits over the references and the
    average reference length, exactly sacrebleu's. Text preparation is
    sacrebleu's Tercom tokenizer; the edits are counted by
    :mod:`mtworkbench.metrics.ter_fast`, the same algorithm made fast.
    """

    name: ClassVar[str] = "ter"
    scale: ClassVar[str] = "0-100"
    higher_is_better: ClassVar[bool] = False
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("normalized", parse_bool, False, "Tercom normalisation of punctuation"),
        Option("no_punct", parse_bool, False, "remove punctuation"),
        Option("asian_support", parse_bool, False, "split CJK characters"),
        Option("case_sensitive", parse_bool, False, "keep case (Tercom lowercases)"),
    )
    signature_keys: ClassVar[dict[str, str]] = {
        "normalized": "norm",
        "no_punct": "punct",
        "asian_support": "asian",
        "case_sensitive": "case",
    }

    def signature_fields(self) -> list[tuple[str, Any]]:
        """sacrebleu's TER signature fields."""
        o = self.options
        return [
            ("case", "mixed" if o["case_sensitive"] else "lc"),
            ("tok", "tercom"),
            ("norm", o["normalized"]),
            ("punct", not o["no_punct"]),
            ("asian", o["asian_support"]),
        ]

    @property
    def stat_names(self) -> tuple[str, ...]:
        return ("edits", "ref_len")

    # TER's shift search costs most per segment: report and check cancel more often.
    progress_every: ClassVar[int] = 100

    def _words(self, text: str, passes: int) -> list[int]:
        """sacrebleu's preprocessing (rstrip, Tercom tokenizer, whitespace split),
        words as ints: cheap to compare and hash in the shift search."""
        tokenize = getattr(self, "_tercom", None)
        if tokenize is None:
            from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

            tokenize = self._tercom = TercomTokenizer(**self.options)
            self._word_ids: dict[str, int] = {}
        for _ in range(passes):
            text = tokenize(text.rstrip())
        ids = self._word_ids
        return [ids.setdefault(w, len(ids)) for w in text.split()]

    def extract_reference(self, segment: int, refs: Sequence[str | None]) -> list[list[int]]:
        # sacrebleu 2.6 tokenizes references twice (once when it caches them, again
        # in TER's reference extraction); with normalized=yes the second pass can
        # split more (``it's's`` -> ``it 's 's``), so we do the same.
        return [self._words(r, 2) for r in super().extract_reference(segment, refs)]

    def statistics_row(self, segment: int, hypothesis: str, prepared: list[list[int]]) -> tuple[float, float]:
        from mtworkbench.metrics.ter_fast import translation_edits

        hyp = self._words(hypothesis, 1)
        # sacrebleu: the fewest edits over the references, and their mean length
        return min(translation_edits(hyp, ref) for ref in prepared), sum(map(len, prepared)) / len(prepared)

    def aggregate(self, totals: np.ndarray) -> np.ndarray | float:
        import numpy as np

        totals = np.asarray(totals, dtype=float)
        out = 100.0 * _rate(totals[..., 0], totals[..., 1])
        return float(out) if out.ndim == 0 else out


class CHRF(Metric):
    """chrF through sacrebleu (0-100): character n-gram F-beta.

    Statistics per segment: [hyp, ref, match] counts per order of the reference
    with the best sentence F (sacrebleu's choice), char orders then word orders.
    """

    name: ClassVar[str] = "chrf"
    scale: ClassVar[str] = "0-100"
    default_word_order: ClassVar[int] = 0
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("char_order", int, 6, "character n-gram order"),
        Option("word_order", int, 0, "word n-gram order (2 = chrF++)"),
        Option("beta", int, 2, "weight of recall against precision"),
        Option("lowercase", parse_bool, False, "lowercase before comparing"),
        Option("whitespace", parse_bool, False, "keep whitespace in character n-grams"),
        Option("eps_smoothing", parse_bool, False, "chrF++.py epsilon smoothing"),
    )
    signature_keys: ClassVar[dict[str, str]] = {
        "char_order": "nc",
        "word_order": "nw",
        "lowercase": "lc",
        "whitespace": "space",
        "eps_smoothing": "eps",
    }

    def validate_options(self) -> None:
        if self.options["char_order"] < 1:
            raise MetricSpecError(f"{self.name}: char_order must be at least 1")
        if self.options["word_order"] < 0:
            raise MetricSpecError(f"{self.name}: word_order must be 0 or more")
        if self.options["beta"] < 0:
            raise MetricSpecError(f"{self.name}: beta must be 0 or more")

    @property
    def order(self) -> int:
        return self.options["char_order"] + self.options["word_order"]

    @property
    def stat_names(self) -> tuple[str, ...]:
        names = []
        orders = (("char", self.options["char_order"]), ("word", self.options["word_order"]))
        for kind, count in orders:
            for n in range(1, count + 1):
                names += [f"{kind}{n}_hyp", f"{kind}{n}_ref", f"{kind}{n}_match"]
        return tuple(names)

    # sacrebleu's chrF preprocesses and extracts n-grams itself.
    reference_options: ClassVar[tuple[str, ...]] = (
        "char_order", "word_order", "lowercase", "whitespace",
    )

    def _sacrebleu(self) -> Any:
        """sacrebleu's chrF with these options (made once per instance)."""
        metric = getattr(self, "_sacrebleu_chrf", None)
        if metric is None:
            from sacrebleu.metrics import CHRF as SacreCHRF

            metric = SacreCHRF(**self.options)
            self._sacrebleu_chrf = metric
        return metric

    # The same three steps as sacrebleu's ``_extract_corpus_statistics`` (its
    # statistics extractor for significance tests), one segment at a time so
    # that the references go through the shared cache.
    def extract_reference(self, segment: int, refs: Sequence[str | None]) -> Any:
        metric = self._sacrebleu()
        present = super().extract_reference(segment, refs)
        return metric._extract_reference_info([metric._preprocess_segment(r) for r in present])

    def statistics_row(self, segment: int, hypothesis: str, prepared: Any) -> list[int]:
        metric = self._sacrebleu()
        return metric._compute_segment_statistics(metric._preprocess_segment(hypothesis), prepared)

    def score_formula(self, t: Sequence[Any], m: Any) -> Any:
        """sacrebleu's chrF F-score of summed (hypothesis, reference, matched) n-gram counts
        per order, written once for both paths (``metrics.formula``)."""
        n = self.order
        if len(t) != 3 * n:
            raise MetricError(f"{self.name}: expected {3 * n} statistics, got {len(t)}")
        eps = 1e-16
        factor = self.options["beta"] ** 2
        prec, rec, both = [], [], []
        for k in range(n):
            n_hyp, n_ref, n_match = t[3 * k : 3 * k + 3]
            prec.append(m.where(n_hyp > 0, m.div(n_match, n_hyp), eps))
            rec.append(m.where(n_ref > 0, m.div(n_match, n_ref), eps))
            both.append((n_hyp > 0) & (n_ref > 0))
        if self.options["eps_smoothing"]:
            total_f: Any = 0.0
            for p, r in zip(prec, rec):
                denom = factor * p + r
                total_f = total_f + m.where(denom > 0, m.div((1 + factor) * p * r, denom), eps)
            return 100 * total_f / n
        eff: Any = 0
        avg_prec: Any = 0.0
        avg_rec: Any = 0.0
        for p, r, ok in zip(prec, rec, both):
            eff = eff + ok
            avg_prec = avg_prec + m.where(ok, p, 0.0)
            avg_rec = avg_rec + m.where(ok, r, 0.0)
        avg_prec = m.where(eff > 0, avg_prec / m.maximum(eff, 1), 0.0)
        avg_rec = m.where(eff > 0, avg_rec / m.maximum(eff, 1), 0.0)
        # beta=0 without recall: 0/0, NaN
        score = m.div((1 + factor) * avg_prec * avg_rec, (factor * avg_prec) + avg_rec, math.nan)
        return m.where(avg_prec + avg_rec != 0, 100 * score, 0.0)

    # statistics_row needs no numpy: the plain-Python path (score on files) serves chrF.
    lean: ClassVar[bool] = True

    def signature_fields(self) -> list[tuple[str, Any]]:
        """sacrebleu's chrF signature fields (plus beta when not 2)."""
        o = self.options
        fields: list[tuple[str, Any]] = [
            ("case", "lc" if o["lowercase"] else "mixed"),
            ("eff", not o["eps_smoothing"]),
            ("nc", o["char_order"]),
            ("nw", o["word_order"]),
            ("space", o["whitespace"]),
        ]
        if o["beta"] != 2:
            fields.append(("beta", o["beta"]))
        return fields


class CHRFPlusPlus(CHRF):
    """chrF++: chrF with word unigrams and bigrams (word_order=2)."""

    name: ClassVar[str] = "chrf++"
    option_specs: ClassVar[tuple[Option, ...]] = tuple(
        Option(o.name, o.parse, 2, o.help) if o.name == "word_order" else o
        for o in CHRF.option_specs
    )
