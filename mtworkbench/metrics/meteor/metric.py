"""The ``meteor`` metric: candidates, an aligner, Meteor's statistics and formula.

Options (spec ``meteor:key=value,...``):

- ``preset``: ``meteor-1.x-en`` (default; Meteor 1.x's English ranking task:
  alpha 0.85, beta 0.20, gamma 0.60, delta 0.75, weights exact 1.0, stem 0.6,
  synonym 0.8) or ``2005`` (Banerjee & Lavie: 0.9, 3.0, 0.5, 0.5, weights 1.0);
- ``alpha``, ``beta``, ``gamma``, ``delta``: override the preset;
- ``modules``: ``exact+stem+synonym`` (default), any subset in any order
  (the order is the order candidates are tried in);
- ``weights``: one scoring weight per module, e.g. ``1+0.6+0.8``;
- ``lowercase``: lowercase both sides first (Meteor's ``-lower``; default no,
  Meteor is case-sensitive by default);
- ``aligner``: ``meteor`` (Meteor 1.x's beam search, quirks included) or
  ``exact`` (true optimum of the same objective);
- ``language``: function-word list (``en``; ``none`` = no function words).

Multiple references: each is aligned and scored; the highest score wins (the
first on ties) and its statistics are the segment's row. A segment with no
reference at all is scored against an empty reference (score 0).
"""

from __future__ import annotations

import weakref

from dataclasses import dataclass
from typing import Any

import numpy as np

from mtworkbench.core.jobs import CancelCheck, ProgressCallback
from mtworkbench.metrics.base import (
    Metric,
    MetricError,
    MetricSpecError,
    Option,
    ScoringInput,
    parse_bool,
    parse_float_list,
    parse_plus_list,
)
from mtworkbench.metrics.meteor import scoring
from mtworkbench.metrics.meteor.exact_aligner import exact_search
from mtworkbench.metrics.meteor.function_words import FUNCTION_WORDS
from mtworkbench.metrics.meteor.matchers import (
    KNOWN_MODULES,
    SEARCH_WEIGHTS,
    SYNONYM,
    CandidateFinder,
    tokenize,
)
from mtworkbench.metrics.meteor.results import (
    MeteorChunk,
    MeteorLink,
    MeteorReferenceResult,
    MeteorResult,
)
from mtworkbench.metrics.meteor.search import BEAM_SIZE, meteor_search


@dataclass(frozen=True)
class Preset:
    alpha: float
    beta: float
    gamma: float
    delta: float
    weights: dict[str, float]


PRESETS: dict[str, Preset] = {
    "meteor-1.x-en": Preset(0.85, 0.20, 0.60, 0.75, {"exact": 1.0, "stem": 0.6, "synonym": 0.8, "paraphrase": 0.6}),
    "2005": Preset(0.9, 3.0, 0.5, 0.5, {"exact": 1.0, "stem": 1.0, "synonym": 1.0, "paraphrase": 1.0}),
}


def _optional_float(raw: str) -> float | None:
    return None if raw.strip().lower() in ("", "none", "default") else float(raw)


def _optional_weights(raw: str) -> tuple[float, ...] | None:
    return None if raw.strip().lower() in ("", "none", "default") else parse_float_list(raw)


class Meteor(Metric):
    name = "meteor"
    scale = "0-1"
    option_specs = (
        Option("preset", str, "meteor-1.x-en", "parameter preset", choices=tuple(PRESETS)),
        Option("alpha", _optional_float, None, "recall weight in Fmean (preset when unset)"),
        Option("beta", _optional_float, None, "fragmentation exponent (preset when unset)"),
        Option("gamma", _optional_float, None, "maximum fragmentation penalty (preset when unset)"),
        Option("delta", _optional_float, None, "content vs function word weight (preset when unset)"),
        Option("modules", parse_plus_list, ("exact", "stem", "synonym"), "matching modules in order"),
        Option("weights", _optional_weights, None, "scoring weight per module, e.g. 1+0.6+0.8"),
        Option("lowercase", parse_bool, False, "lowercase both sides (Meteor -lower)"),
        Option("aligner", str, "meteor", "alignment search", choices=("meteor", "exact")),
        Option("language", str, "en", "function-word list", choices=tuple(FUNCTION_WORDS)),
    )
    signature_keys = {"lowercase": "lc", "aligner": "align", "modules": "mod"}

    def validate_options(self) -> None:
        o = self.options
        preset = PRESETS[o["preset"]]
        modules = tuple(o["modules"])
        bad = [m for m in modules if m not in KNOWN_MODULES]
        if bad:
            raise MetricSpecError(
                f"meteor: unknown module {', '.join(bad)}; available: {', '.join(KNOWN_MODULES)}"
            )
        if len(set(modules)) != len(modules):
            raise MetricSpecError("meteor: a module is listed twice")
        weights = o["weights"]
        if weights is None:
            weights = tuple(preset.weights[m] for m in modules)
        elif len(weights) != len(modules):
            raise MetricSpecError(
                f"meteor: {len(weights)} weights for {len(modules)} modules ({'+'.join(modules)})"
            )
        params = {
            k: (o[k] if o[k] is not None else getattr(preset, k))
            for k in ("alpha", "beta", "gamma", "delta")
        }
        for k in ("alpha", "delta"):
            if not 0.0 <= params[k] <= 1.0:
                raise MetricSpecError(f"meteor: {k} must be in [0, 1], got {params[k]}")
        if params["gamma"] < 0 or params["beta"] < 0:
            raise MetricSpecError("meteor: beta and gamma must be >= 0")
        self.alpha, self.beta = params["alpha"], params["beta"]
        self.gamma, self.delta = params["gamma"], params["delta"]
        self.modules = modules
        self.weights = dict(zip(modules, weights))
        self.search_weights = tuple(SEARCH_WEIGHTS[m] for m in modules)
        self.function_words = FUNCTION_WORDS[o["language"]]
        self._finder: CandidateFinder | None = None
        # Which reference won per segment in the last segment_statistics call, for extras().
        self._chosen: tuple[weakref.ref, np.ndarray] | None = None
        self._chosen_now = np.zeros(0, dtype=int)

    # --- configuration shown to the user ------------------------------------
    def signature_fields(self) -> list[tuple[str, Any]]:
        return [
            ("preset", self.options["preset"]),
            ("mod", self.modules),
            ("w", tuple(self.weights[m] for m in self.modules)),
            ("a", self.alpha),
            ("b", self.beta),
            ("g", self.gamma),
            ("d", self.delta),
            ("lc", self.options["lowercase"]),
            ("align", self.options["aligner"]),
            ("fw", self.options["language"]),
        ]

    @property
    def stat_names(self) -> tuple[str, ...]:
        return scoring.STAT_NAMES

    # --- alignment ------------------------------------------------------------
    @property
    def finder(self) -> CandidateFinder:
        if self._finder is None:
            tables = None
            if SYNONYM in self.modules:
                from mtworkbench.metrics.wordnet_data import (
                    WordNetUnavailable,
                    load_synonym_tables,
                )

                try:
                    tables = load_synonym_tables()
                except WordNetUnavailable as exc:
                    raise MetricError(f"meteor: {exc} (or drop 'synonym' from modules)") from None
            self._finder = CandidateFinder(self.modules, tables)
        return self._finder

    def tokens(self, text: str) -> list[str]:
        return tokenize(text, lowercase=self.options["lowercase"])

    def align(self, hyp: list[str], ref: list[str]) -> list[tuple[int, int, int]]:
        """Links (hyp, ref, module slot) sorted by reference position."""
        cands = self.finder.find(hyp, ref)
        if self.options["aligner"] == "exact":
            return exact_search(cands)
        return meteor_search(cands, self.search_weights, BEAM_SIZE)

    def _pair_row(self, hyp: list[str], ref: list[str]) -> tuple[np.ndarray, list]:
        links = self.align(hyp, ref)
        return scoring.statistics_row(hyp, ref, links, self.modules, self.function_words), links

    def formula(self, totals: np.ndarray) -> dict[str, np.ndarray]:
        return scoring.meteor_formula(
            totals, self.alpha, self.beta, self.gamma, self.delta, self.weights, self.modules
        )

    def _best_reference(self, hyp_text: str, refs: list[tuple[int, list[str]]]):
        """(row, links, stream index, ref tokens, per-ref list) of the winning reference.

        ``refs`` are (stream index, tokens) of the references to try.
        """
        hyp = self.tokens(hyp_text)
        if not refs:
            refs = [(-1, [])]
        best = None
        per_ref = []
        for k, ref in refs:
            row, links = self._pair_row(hyp, ref)
            score = scoring.meteor_score_scalar(
                row.tolist(), self.alpha, self.beta, self.gamma, self.delta, self.weights, self.modules
            )
            per_ref.append((k, ref, row, links, score))
            # Meteor keeps a reference only when it scores strictly higher.
            if best is None or score > best[4]:
                best = per_ref[-1]
        assert best is not None
        return hyp, best, per_ref

    # --- Metric interface -------------------------------------------------------
    # Alignment is slow per segment: report and check cancel more often.
    progress_every = 50
    # Options that change the reference tokens.
    reference_options = ("lowercase",)

    def extract_reference(self, segment: int, refs) -> list[tuple[int, list[str]]]:
        """(stream index, tokens) of the references present; a segment without
        any is scored against an empty reference (score 0)."""
        return [(k, self.tokens(r)) for k, r in enumerate(refs) if r is not None]

    def statistics_row(self, segment: int, hypothesis: str, prepared) -> np.ndarray:
        _, best, _ = self._best_reference(hypothesis, prepared)
        self._chosen_now[segment] = best[0]
        return best[2]

    def segment_statistics(
        self,
        data: ScoringInput,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> np.ndarray:
        """The base loop, remembering which reference won per segment (for extras)."""
        _ = self.finder  # load WordNet before the first segment (clear progress)
        self._chosen_now = np.full(data.n_segments, -1, dtype=int)
        stats = super().segment_statistics(data, progress, cancel)
        self._chosen = (weakref.ref(data), self._chosen_now)
        return stats

    def aggregate(self, totals: np.ndarray) -> np.ndarray | float:
        score = self.formula(totals)["score"]
        return float(score) if np.ndim(score) == 0 else score

    def extras(self, data: ScoringInput, stats: np.ndarray) -> dict[str, Any]:
        parts = self.formula(stats)
        corpus = self.formula(np.asarray(stats).sum(axis=0))
        out: dict[str, Any] = {
            "segment_precision": parts["precision"],
            "segment_recall": parts["recall"],
            "segment_frag_penalty": parts["penalty"],
            "corpus_precision": float(corpus["precision"]),
            "corpus_recall": float(corpus["recall"]),
            "corpus_frag_penalty": float(corpus["penalty"]),
        }
        if self._chosen is not None and self._chosen[0]() is data:
            out["chosen_reference"] = self._chosen[1]
        return out

    # --- for the views -----------------------------------------------------------
    def explain(self, data: ScoringInput, segment: int, ref: int | None = None) -> MeteorResult:
        """Alignment and scores of segment ``segment`` (against reference stream ``ref`` if given)."""
        i = segment
        refs = [(k, self.tokens(text)) for k, text in data.reference_choices(i, ref)]
        hyp, best, per_ref = self._best_reference(data.hypotheses[i], refs)
        results = [self._reference_result(hyp, k, r, row, links) for k, r, row, links, _ in per_ref]
        winner = next(r for r in results if r.reference_index == best[0])
        return MeteorResult(
            segment=i,
            chosen_reference=None if best[0] < 0 else best[0],
            hypothesis_tokens=hyp,
            reference_tokens=winner.reference_tokens,
            links=winner.links,
            chunks=winner.chunks,
            precision=winner.precision,
            recall=winner.recall,
            fmean=winner.fmean,
            frag=winner.frag,
            penalty=winner.penalty,
            score=winner.score,
            aligner=self.options["aligner"],
            per_reference=results,
        )

    def _reference_result(self, hyp, k, ref, row, links) -> MeteorReferenceResult:
        f = {key: float(v) for key, v in self.formula(row).items()}
        fw = self.function_words
        return MeteorReferenceResult(
            reference_index=k,
            hypothesis_tokens=hyp,
            reference_tokens=ref,
            links=[MeteorLink(i, j, self.modules[slot]) for i, j, slot in links],
            chunks=[MeteorChunk(*span) for span in scoring.chunk_spans(links)],
            precision=f["precision"],
            recall=f["recall"],
            fmean=f["fmean"],
            frag=f["frag"],
            penalty=f["penalty"],
            score=f["score"],
            statistics=dict(zip(scoring.STAT_NAMES, row.tolist())),
            hyp_function_words=[w.lower() in fw for w in hyp],
            ref_function_words=[w.lower() in fw for w in ref],
        )
