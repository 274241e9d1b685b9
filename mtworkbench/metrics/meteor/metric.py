"""The ``meteor`` metric: candidates, an aligner, Meteor's statistics and formula.

Options (spec ``meteor:key=value,...``):

- ``preset``: ``meteor-1.x-XX`` = Meteor 1.4's defaults for ``-l XX``
  (Meteor's language table: modules, weights, alpha/beta/gamma/delta, the Snowball
  stemmer and function-word list of language XX; Meteor's language-independent
  defaults, with a notice, for a language Meteor does not know). The default
  ``meteor-1.x-en`` is Meteor 1.x's English ranking task: alpha 0.85, beta
  0.20, gamma 0.60, delta 0.75, weights exact 1.0, stem 0.6, synonym 0.8.
  ``2005`` is Banerjee & Lavie: 0.9, 3.0, 0.5, 0.5, weights 1.0. A project's
  target language (``--tgt-lang``) picks ``meteor-1.x-XX``;
- ``alpha``, ``beta``, ``gamma``, ``delta``: override the preset;
- ``modules``: any subset of exact, stem, synonym in any order (the order is
  the order candidates are tried in), and paraphrase last; default: the
  preset's. Meteor's paraphrase module needs its paraphrase table, which is
  not shipped: without ``paraphrase=PATH`` it is left out and the signature
  says ``para:no-table``;
- ``paraphrase``: a Meteor paraphrase table (``paraphrase-XX.gz`` format) the
  user owns, for the paraphrase module (see paraphrase.py);
- ``weights``: one scoring weight per module, e.g. ``1+0.6+0.8``;
- ``lowercase``: lowercase both sides first (Meteor's ``-lower``; default no,
  Meteor is case-sensitive by default);
- ``aligner``: ``meteor`` (Meteor 1.x's beam search, quirks included) or
  ``exact`` (true optimum of the same objective);
- ``language``: function-word list (``en``, ``de``, ``fr``, ``cz``, ``none``;
  default: the preset's);
- ``stemmer``: Snowball stemmer language (default: the preset's);
- ``tokenize``: a sacrebleu tokenizer run first (``zh``, ``ja-mecab``,
  ``ko-mecab`` for languages written without spaces; default none);
- ``norm``: Meteor's ``-norm`` for raw text (its tokeniser, then lowercase).

Multiple references: each is aligned and scored; the highest score wins (the
first on ties) and its statistics are the segment's row. A segment with no
reference at all is scored against an empty reference (score 0).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mtworkbench.core.jobs import CancelCheck, ProgressCallback
from mtworkbench.core.language import meteor_defaults
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
from mtworkbench.metrics.meteor.function_words import FUNCTION_WORD_LISTS, function_words
from mtworkbench.metrics.meteor.matchers import (
    KNOWN_MODULES,
    PARAPHRASE,
    SEARCH_WEIGHTS,
    STEM,
    SYNONYM,
    CandidateFinder,
    tokenize,
)
from mtworkbench.metrics.meteor.normalise import NORM_LANGUAGES, normalise
from mtworkbench.metrics.meteor.results import (
    MeteorChunk,
    MeteorLink,
    MeteorReferenceResult,
    MeteorResult,
)
from mtworkbench.metrics.meteor.search import BEAM_SIZE, meteor_search
from mtworkbench.metrics.tokens import TOKENIZERS, pretokenize

if TYPE_CHECKING:  # numpy loads with the first array: `score --metric meteor` on files needs none
    import numpy as np


@dataclass(frozen=True)
class Preset:
    alpha: float
    beta: float
    gamma: float
    delta: float
    weights: dict[str, float]
    # Meteor's default modules (paraphrase included where Meteor has it),
    # function-word list and Snowball stemmer.
    modules: tuple[str, ...] = ("exact", "stem", "synonym")
    function_words: str = "en"
    stemmer: str | None = "english"
    # Set when Meteor has no defaults for the language (shown to the user).
    notice: str | None = None


PRESETS: dict[str, Preset] = {
    "meteor-1.x-en": Preset(
        0.85, 0.20, 0.60, 0.75, {"exact": 1.0, "stem": 0.6, "synonym": 0.8, "paraphrase": 0.6},
        modules=("exact", "stem", "synonym", "paraphrase"),
    ),
    "2005": Preset(0.9, 3.0, 0.5, 0.5, {"exact": 1.0, "stem": 1.0, "synonym": 1.0, "paraphrase": 1.0}),
}
_LANGUAGE_PRESET = "meteor-1.x-"


def preset(name: str) -> Preset:
    """A named preset, or Meteor 1.4's defaults for ``meteor-1.x-XX``."""
    if name in PRESETS:
        return PRESETS[name]
    d = meteor_defaults(name[len(_LANGUAGE_PRESET):])
    return Preset(
        d.alpha, d.beta, d.gamma, d.delta, dict(zip(d.modules, d.weights)),
        d.modules, d.function_words, d.stemmer, d.notice,
    )


def _parse_preset(raw: str) -> str:
    name = raw.strip().lower()
    if name in PRESETS:
        return name
    if name.startswith(_LANGUAGE_PRESET) and re.fullmatch(r"[a-z]{2,3}", name[len(_LANGUAGE_PRESET):]):
        return name
    raise ValueError(f"expected {', '.join(PRESETS)} or meteor-1.x-XX for a language code XX")


def _optional_modules(raw: str) -> tuple[str, ...] | None:
    return None if raw.strip().lower() in ("", "default") else parse_plus_list(raw)


def _optional_choice(choices: tuple[str, ...]):
    def parse(raw: str) -> str | None:
        value = raw.strip().lower()
        if value in ("", "default"):
            return None
        if value not in choices:
            raise ValueError(f"expected one of {', '.join(choices)}")
        return value

    return parse


def _snowball_languages() -> tuple[str, ...]:
    from mtworkbench.metrics.meteor import snowball

    return snowball.languages()


def _optional_float(raw: str) -> float | None:
    return None if raw.strip().lower() in ("", "none", "default") else float(raw)


def _optional_weights(raw: str) -> tuple[float, ...] | None:
    return None if raw.strip().lower() in ("", "none", "default") else parse_float_list(raw)


# Meteor's beam search (as the reference jar runs it) grows faster than the square of
# a segment's length: 2,000 tokens take seconds, 20,000 would take hours. Longer
# segments are refused with this limit named instead of running without end.
MAX_SEGMENT_TOKENS = 2_000


def check_segment_length(name: str, segment: int, hyp_tokens: int, ref_tokens: list[int]) -> None:
    longest = max([hyp_tokens, *ref_tokens])
    if longest > MAX_SEGMENT_TOKENS:
        side = "hypothesis" if hyp_tokens == longest else "reference"
        raise MetricError(
            f"{name}: segment {segment + 1}: the {side} has {longest:,} tokens; METEOR aligns at most "
            f"{MAX_SEGMENT_TOKENS:,} tokens a segment (split the segment)"
        )


class Meteor(Metric):
    name = "meteor"
    scale = "0-1"
    option_specs = (
        Option("preset", _parse_preset, "meteor-1.x-en", "parameter preset: meteor-1.x-XX (Meteor 1.4's defaults for language XX) or 2005"),
        Option("alpha", _optional_float, None, "recall weight in Fmean (preset when unset)"),
        Option("beta", _optional_float, None, "fragmentation exponent (preset when unset)"),
        Option("gamma", _optional_float, None, "maximum fragmentation penalty (preset when unset)"),
        Option("delta", _optional_float, None, "content vs function word weight (preset when unset)"),
        Option("modules", _optional_modules, None, "matching modules in order (preset's when unset)"),
        Option("weights", _optional_weights, None, "scoring weight per module, e.g. 1+0.6+0.8"),
        Option("lowercase", parse_bool, False, "lowercase both sides (Meteor -lower)"),
        Option("aligner", str, "meteor", "alignment search", choices=("meteor", "exact")),
        Option("language", _optional_choice(FUNCTION_WORD_LISTS), None, "function-word list: en, de, fr, cz, none (preset's when unset)"),
        Option("stemmer", _optional_choice(_snowball_languages()), None, "Snowball stemmer language (preset's when unset)"),
        Option("tokenize", str, "none", "sacrebleu tokenizer run first (zh, ja-mecab, ko-mecab for languages without spaces)", choices=TOKENIZERS),
        Option("norm", parse_bool, False, "Meteor's -norm for raw text: its tokenisation, then lowercasing"),
        Option("paraphrase", str, "", "a Meteor paraphrase table (paraphrase-XX.gz format) for the paraphrase module"),
    )
    signature_keys = {"lowercase": "lc", "aligner": "align", "modules": "mod"}

    def validate_options(self) -> None:
        o = self.options
        preset = self.preset = globals()["preset"](o["preset"])
        table = o["paraphrase"].strip()
        if o["modules"] is None:
            # Meteor's paraphrase module needs its paraphrase-XX.gz table (not shipped):
            # without paraphrase=PATH it is left out, and the signature says so.
            modules = tuple(m for m in preset.modules if m != PARAPHRASE or table)
            self.paraphrase_left_out = PARAPHRASE in preset.modules and not table
        else:
            modules = tuple(o["modules"])
            self.paraphrase_left_out = False
        if PARAPHRASE in modules:
            if not table:
                raise MetricSpecError(
                    "meteor: the paraphrase module needs a Meteor paraphrase table: give "
                    "paraphrase=PATH (paraphrase-XX.gz format), or leave it out of modules"
                )
            if modules[-1] != PARAPHRASE:
                raise MetricSpecError("meteor: paraphrase must be the last module (as in Meteor's presets)")
            if o["aligner"] != "meteor":
                raise MetricSpecError("meteor: the paraphrase module works with aligner=meteor only")
        elif table and o["modules"] is not None:
            raise MetricSpecError("meteor: paraphrase=PATH given but paraphrase is not among the modules")
        bad = [m for m in modules if m not in KNOWN_MODULES and m != PARAPHRASE]
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
        self.function_word_list = o["language"] or preset.function_words
        self.function_words = function_words(self.function_word_list)
        self.stemmer = o["stemmer"] or preset.stemmer
        if o["norm"] and self.norm_language not in NORM_LANGUAGES:
            raise MetricSpecError(
                f"meteor: norm=yes: Meteor 1.4's normaliser knows {', '.join(NORM_LANGUAGES)} only, "
                f"not {self.norm_language}; tokenise the text first (e.g. with sacrebleu's 13a) "
                "and leave norm off"
            )
        if STEM in modules and self.stemmer is None:
            raise MetricSpecError(
                "meteor: the stem module needs a Snowball stemmer; this language has none "
                "(give stemmer=LANGUAGE or leave stem out of modules)"
            )
        self._finder: CandidateFinder | None = None
        # Which reference won per segment in the last segment_statistics call, for extras().
        self._chosen: tuple[weakref.ref, np.ndarray] | None = None
        self._chosen_now: list[int] = []

    # --- configuration shown to the user ------------------------------------
    def signature_fields(self) -> list[tuple[str, Any]]:
        fields: list[tuple[str, Any]] = [
            ("preset", self.options["preset"]),
            ("mod", self.modules),
            ("w", tuple(self.weights[m] for m in self.modules)),
            ("a", self.alpha),
            ("b", self.beta),
            ("g", self.gamma),
            ("d", self.delta),
            ("lc", self.options["lowercase"]),
            ("align", self.options["aligner"]),
            ("fw", self.function_word_list),
        ]
        if STEM in self.modules:
            fields.append(("stem", self.stemmer))
        if self.options["tokenize"] != "none":
            fields.append(("tok", self.options["tokenize"]))
        fields.append(("norm", self.options["norm"]))
        if self.paraphrase_left_out:
            fields.append(("para", "no-table"))
        elif PARAPHRASE in self.modules:
            fields.append(("para", Path(self.options["paraphrase"]).name))
        if self.preset.notice:
            fields.append(("defaults", "language-independent"))
        return fields

    @property
    def notice(self) -> str | None:
        """A one-line notice for the user when Meteor has no defaults for the language."""
        return self.preset.notice

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
            word_modules = tuple(m for m in self.modules if m != PARAPHRASE)
            self._finder = CandidateFinder(word_modules, tables, self.stemmer or "english")
        return self._finder

    def tokens(self, text: str) -> list[str]:
        text = pretokenize(text, self.options["tokenize"])
        if self.options["norm"]:
            # Meteor's -norm: its tokeniser for the language, then lowercase (-norm implies -lower)
            return tokenize(normalise(text, self.norm_language), lowercase=True)
        return tokenize(text, lowercase=self.options["lowercase"])

    @property
    def norm_language(self) -> str:
        """The language whose rules ``norm=yes`` follows (the preset's; English for 2005)."""
        name = self.options["preset"]
        return name[len(_LANGUAGE_PRESET):] if name.startswith(_LANGUAGE_PRESET) else "en"

    def align(self, hyp: list[str], ref: list[str]) -> list[tuple[int, int, int]]:
        """Links (hyp, ref, module slot) sorted by reference position."""
        cands = self.finder.find(hyp, ref)
        if self.options["aligner"] == "exact":
            return exact_search(cands)
        return meteor_search(cands, self.search_weights, BEAM_SIZE)

    def _pair_row(self, hyp: list[str], ref: list[str]) -> tuple[list[float], list]:
        if PARAPHRASE in self.modules:
            return self._phrase_row(hyp, ref)
        links = self.align(hyp, ref)
        return scoring.statistics_row(hyp, ref, links, self.modules, self.function_words), links

    def _phrase_row(self, hyp: list[str], ref: list[str]) -> tuple[list[float], list]:
        """Alignment with the paraphrase module: matches may span several words."""
        from mtworkbench.metrics.meteor import paraphrase as para

        table = para.load_paraphrase_table(self.options["paraphrase"])
        by_ref = para.phrase_candidates(self.finder.find(hyp, ref), hyp, ref, table, len(self.modules) - 1)
        matches = para.phrase_search(by_ref, len(hyp), self.search_weights, BEAM_SIZE)
        row = para.phrase_statistics_row(hyp, ref, matches, self.modules, self.function_words)
        return row, para.word_links(matches)

    def formula(self, totals: np.ndarray) -> dict[str, np.ndarray]:
        return scoring.meteor_formula(
            totals, self.alpha, self.beta, self.gamma, self.delta, self.weights, self.modules
        )

    def _best_reference(self, hyp_text: str, refs: list[tuple[int, list[str]]], segment: int = 0):
        """(row, links, stream index, ref tokens, per-ref list) of the winning reference.

        ``refs`` are (stream index, tokens) of the references to try.
        """
        hyp = self.tokens(hyp_text)
        check_segment_length(self.name, segment, len(hyp), [len(r) for _, r in refs])
        if not refs:
            refs = [(-1, [])]
        best = None
        per_ref = []
        for k, ref in refs:
            row, links = self._pair_row(hyp, ref)
            score = scoring.meteor_score_scalar(
                row, self.alpha, self.beta, self.gamma, self.delta, self.weights, self.modules
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
    reference_options = ("lowercase", "tokenize", "norm", "preset")

    def extract_reference(self, segment: int, refs) -> list[tuple[int, list[str]]]:
        """(stream index, tokens) of the references present; a segment without
        any is scored against an empty reference (score 0)."""
        return [(k, self.tokens(r)) for k, r in enumerate(refs) if r is not None]

    def statistics_row(self, segment: int, hypothesis: str, prepared) -> list[float]:
        _, best, _ = self._best_reference(hypothesis, prepared, segment)
        if segment < len(self._chosen_now):  # segment_statistics is recording
            self._chosen_now[segment] = best[0]
        return best[2]

    def before_segments(self) -> None:
        _ = self.finder  # load WordNet before the first segment (clear progress)

    def segment_statistics(
        self,
        data: ScoringInput,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> np.ndarray:
        """The base loop, remembering which reference won per segment (for extras)."""
        import numpy as np

        self._chosen_now = [-1] * data.n_segments
        try:
            stats = super().segment_statistics(data, progress, cancel)
        finally:
            chosen, self._chosen_now = self._chosen_now, []
        self._chosen = (weakref.ref(data), np.asarray(chosen, dtype=int))
        return stats

    def score_formula(self, t: Sequence[Any], m: Any) -> Any:
        """Meteor's score of summed rows, one formula for both paths (``scoring.meteor_parts``)."""
        parts = scoring.meteor_parts(t, m, self.alpha, self.beta, self.gamma, self.delta, self.weights,
                                     self.modules)
        return parts["score"]

    # statistics_row needs no numpy: the plain-Python path (score on files) serves Meteor.
    lean = True

    def extras(self, data: ScoringInput, stats: np.ndarray) -> dict[str, Any]:
        import numpy as np

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
        hyp, best, per_ref = self._best_reference(data.hypotheses[i], refs, i)
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
            statistics=dict(zip(scoring.STAT_NAMES, [float(x) for x in row])),
            hyp_function_words=[w.lower() in fw for w in hyp],
            ref_function_words=[w.lower() in fw for w in ref],
        )
