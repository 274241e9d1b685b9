"""GTM: precision, recall and F-measure of the maximum matching on a bitext grid.

Default behaviour is GTM 1.4 exactly: whitespace tokens split
as Java's StringTokenizer splits them, case-sensitive, references concatenated
with barriers, GTM 1.4's greedy run selection with the budget
``min(|hyp|, mean reference length)``, and ``MMS = (sum len ** e) ** (1/e)``.
``mode=exact`` replaces the greedy with the true maximum (see gtm_exact).

Sufficient statistics per segment: (MMS, hypothesis length, mean reference
length); P, R and F of a corpus or document come from their sums.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from mtworkbench.core.jobs import CancelCheck, ProgressCallback
from mtworkbench.metrics.base import Metric, MetricError, MetricSpecError, Option, ScoringInput
from mtworkbench.metrics.formula import ARRAY, columns
from mtworkbench.metrics.gtm_grid import (
    Block,
    Grid,
    GridTooLarge,
    Rejection,
    Selection,
    build_grid,
    greedy_select,
    gtm_tokens,
)
from mtworkbench.metrics.tokens import TOKENIZERS, pretokenize

if TYPE_CHECKING:  # numpy and scipy load with the first array: `score --metric gtm` on files needs none
    import numpy as np
    from scipy import sparse

__all__ = ["GTM", "GTMResult", "AlignedBlock", "RejectedRun", "gtm_tokens", "score_segment", "prf", "SegmentOutcome"]

AlignedBlock = Block
RejectedRun = Rejection

# Hit matrices with more cells than this are returned as scipy.sparse.
DENSE_HIT_LIMIT = 250_000


def _parse_exponent(raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise ValueError("the exponent must be a number >= 1, e.g. e=2") from None
    return value


@dataclass
class GTMResult:
    """Everything the grid view draws for one segment.

    ``ref_tokens`` is the concatenated reference axis; the entries at
    ``barriers`` are barrier cells (empty strings) that never match. ``hits``
    is a boolean (n_hyp, width) array, or a scipy.sparse CSR matrix when the
    grid is large. ``chosen`` are the aligned blocks in selection order;
    ``rejected`` the candidate windows turned down because a cell was already
    taken (greedy mode; one entry stands for every candidate of that run and
    length containing the blocking cell). ``cap`` is the budget
    min(|hyp|, mean reference length); ``cap_reached`` says whether it ended
    the selection.
    """

    hyp_tokens: list[str]
    ref_tokens: list[str]
    barriers: tuple[int, ...]
    hits: np.ndarray | sparse.csr_matrix
    chosen: list[AlignedBlock]
    rejected: list[RejectedRun]
    exponent: float
    mode: str
    cap: float
    cap_reached: bool
    score: float  # sum of weight ** e: GTM's "maximum matching"
    mms: float  # score ** (1/e)
    hyp_len: int
    mean_ref_len: float
    precision: float
    recall: float
    f: float
    exact_fell_back: bool = False


def prf(mms: float, hyp_len: float, ref_len: float) -> tuple[float, float, float]:
    p = mms / hyp_len if hyp_len else 0.0
    r = mms / ref_len if ref_len else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


@dataclass
class SegmentOutcome:
    """One segment's tokens, grid, cap, selection and MMS."""

    hyp_tokens: list[str]
    ref_tokens: list[list[str]]
    grid: Grid
    cap: float
    selection: Selection
    mms: float
    mean_ref_len: float
    fell_back: bool


def score_segment(
    hyp: str, refs: list[str], e: float, mode: str = "greedy", keep_rejections: bool = False
) -> SegmentOutcome:
    """One segment as GTM 1.4 scores it (mode=greedy) or with the true maximum.

    Any positive ``e`` is accepted here because GTM 1.4 accepts it (two of its
    own test cases use e < 1); the metric's option insists on e >= 1.
    """
    if not e > 0:
        raise ValueError(f"the exponent must be positive, got {e!r}")
    hyp_tokens = gtm_tokens(hyp)
    ref_tokens = [gtm_tokens(r) for r in refs]
    grid = build_grid(hyp_tokens, ref_tokens)
    mean_ref = float(sum(len(r) for r in ref_tokens)) / len(ref_tokens) if ref_tokens else 0.0
    cap = min(float(len(hyp_tokens)), mean_ref)
    fell_back = False
    if mode == "exact":
        from mtworkbench.metrics.gtm_exact import exact_select

        if e < 1:
            raise ValueError("the exact mode needs e >= 1")
        sel: Selection = exact_select(grid, [len(r) for r in ref_tokens], cap, e)
        fell_back = sel.fell_back  # type: ignore[attr-defined]
    else:
        sel = greedy_select(grid, cap, e, record_rejections=keep_rejections)
    mms = sel.score ** (1.0 / e) if sel.score > 0 else 0.0
    return SegmentOutcome(hyp_tokens, ref_tokens, grid, cap, sel, mms, mean_ref, fell_back)


class GTM(Metric):
    name = "gtm"
    scale = "0-1"
    option_specs = (
        Option("e", _parse_exponent, 1.0, "exponent (a real >= 1) rewarding longer runs"),
        Option(
            "mode",
            str,
            "greedy",
            "greedy = GTM 1.4's run selection; exact = the true maximum matching",
            choices=("greedy", "exact"),
        ),
        Option(
            "tokenize",
            str,
            "none",
            "sacrebleu tokenizer run before GTM's whitespace split (zh, ja-mecab, ko-mecab "
            "for languages written without spaces; none = GTM 1.4)",
            choices=TOKENIZERS,
        ),
    )
    signature_keys = {"tokenize": "tok"}
    stat_names = ("mms", "hyp_len", "mean_ref_len")
    lean = True

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._last_stats: np.ndarray | None = None
        self._last_fallbacks: list[int] = []
        self._fallbacks: list[int] = []

    def validate_options(self) -> None:
        e = self.options["e"]
        if isinstance(e, bool) or not isinstance(e, (int, float)):
            raise MetricSpecError(f"gtm: option e={e!r}: the exponent must be a number >= 1")
        e = float(e)
        if not math.isfinite(e) or e < 1:
            raise MetricSpecError(f"gtm: option e={e!r}: the exponent must be a finite number >= 1")
        self.options["e"] = e

    @property
    def exponent(self) -> float:
        return self.options["e"]

    # GTM is slow per segment: report and check cancel about every 1% of the input.
    def progress_step(self, n: int) -> int:
        return max(1, n // 100)

    # References are kept as texts (score_segment tokenises both sides), pre-tokenised
    # for languages written without spaces.
    reference_options: ClassVar[tuple[str, ...]] = ("tokenize",)

    def extract_reference(self, segment: int, refs: Sequence[str | None]) -> list[str]:
        """The references present; a segment without any scores 0 (GTM 1.4 does not refuse it)."""
        return [pretokenize(r, self.options["tokenize"]) for r in refs if r is not None]

    def statistics_row(self, segment: int, hypothesis: str, prepared: list[str]) -> tuple[float, ...]:
        hypothesis = pretokenize(hypothesis, self.options["tokenize"])
        try:
            out = score_segment(hypothesis, prepared, self.exponent, self.options["mode"])
        except GridTooLarge as exc:
            raise MetricError(f"{self.name}: segment {segment + 1}: {exc}") from None
        if out.fell_back:
            self._fallbacks.append(segment)
        return (out.mms, len(out.hyp_tokens), out.mean_ref_len)

    def segment_statistics(
        self,
        data: ScoringInput,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> np.ndarray:
        """The base loop, remembering which segments fell back to the greedy (for extras)."""
        self._fallbacks = []
        stats = super().segment_statistics(data, progress, cancel)
        self._last_stats, self._last_fallbacks = stats, self._fallbacks
        return stats

    def score_formula(self, t: Sequence[Any], m: Any) -> Any:
        return self.prf(t, m)[2]

    @staticmethod
    def prf(t: Sequence[Any], m: Any) -> tuple[Any, Any, Any]:
        """Precision, recall and F of summed (MMS, hypothesis length, mean reference
        length), written once for both paths (``metrics.formula``)."""
        mms, hyp_len, ref_len = t
        p = m.div(mms, hyp_len)
        r = m.div(mms, ref_len)
        return p, r, m.div(2 * p * r, p + r)

    @staticmethod
    def _prf_arrays(totals: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        p, r, f = GTM.prf(columns(totals), ARRAY)
        return ARRAY.result(p), ARRAY.result(r), ARRAY.result(f)

    def extras(self, data: ScoringInput, stats: np.ndarray) -> dict[str, Any]:
        import numpy as np

        stats = np.asarray(stats, dtype=float)
        if len(stats) == 0:
            p_seg = r_seg = np.zeros(0)
            p_all = r_all = np.zeros(())
        else:
            p_seg, r_seg, _ = self._prf_arrays(stats)
            p_all, r_all, _ = self._prf_arrays(stats.sum(axis=0))
        out: dict[str, Any] = {
            "precision": np.asarray(p_seg, dtype=float),
            "recall": np.asarray(r_seg, dtype=float),
            "corpus_precision": float(p_all),
            "corpus_recall": float(r_all),
        }
        if self.options["mode"] == "exact":
            fallbacks = self._last_fallbacks if stats is self._last_stats else []
            # Segments whose grid was too large (or too hard) for the exact
            # search and got the greedy's value instead.
            out["exact_fallback_segments"] = list(fallbacks)
        return out

    # --- the grid view ----------------------------------------------------------
    def explain(self, data: ScoringInput, segment: int, ref: int | None = None) -> GTMResult:
        """The grid, the chosen and rejected runs and the scores of segment
        ``segment`` (against reference stream ``ref`` only, if given)."""
        name = self.options["tokenize"]
        refs = [pretokenize(text, name) for _, text in data.reference_choices(segment, ref)]
        out = score_segment(
            pretokenize(data.hypotheses[segment], name), refs, self.exponent, self.options["mode"],
            keep_rejections=True,
        )
        hyp_tokens, grid, sel, mms, mean_ref = (
            out.hyp_tokens, out.grid, out.selection, out.mms, out.mean_ref_len
        )
        axis: list[str] = []
        for tokens in out.ref_tokens:
            axis.extend(tokens)
            axis.append("")  # barrier
        p, r, f = prf(mms, len(hyp_tokens), mean_ref)
        used = sum(b.weight for b in sel.blocks)
        return GTMResult(
            hyp_tokens=hyp_tokens,
            ref_tokens=axis,
            barriers=grid.barriers,
            hits=hit_matrix(grid),
            chosen=list(sel.blocks),
            rejected=list(sel.rejections or []),
            exponent=self.exponent,
            mode=self.options["mode"],
            cap=out.cap,
            cap_reached=out.cap > 0 and used >= out.cap - 1e-9,
            score=sel.score,
            mms=mms,
            hyp_len=len(hyp_tokens),
            mean_ref_len=mean_ref,
            precision=p,
            recall=r,
            f=f,
            exact_fell_back=out.fell_back,
        )


def hit_matrix(grid: Grid) -> np.ndarray | sparse.csr_matrix:
    """The boolean hit matrix of a grid: dense when small, CSR when large."""
    import numpy as np
    from scipy import sparse

    rows: list[int] = []
    cols: list[int] = []
    for i0, j0, m in zip(grid.run_i, grid.run_j, grid.run_len):
        rows.extend(range(i0, i0 + m))
        cols.extend(range(j0, j0 + m))
    shape = (grid.n_hyp, grid.width)
    if grid.n_hyp * grid.width > DENSE_HIT_LIMIT:
        return sparse.csr_matrix((np.ones(len(rows), dtype=bool), (rows, cols)), shape=shape)
    dense = np.zeros(shape, dtype=bool)
    dense[rows, cols] = True
    return dense
