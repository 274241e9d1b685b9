"""compare-mt's analyses (Neubig et al. 2019) of two systems of a project.

* **Score by reference length**: segments bucketed by the length of their
  reference in tokens (compare-mt's cutoffs 10, 20, ..., 60); in each bucket each
  metric's score of the bucket as a corpus (its aggregate of summed statistics, as
  compare-mt scores a bucket; for imported ``ext:`` scores the mean).
* **Word F-measure by frequency**: each word is bucketed by its frequency in the
  reference (or in a ``word<TAB>count`` file); per bucket, matches are
  ``min(count in reference, count in output)`` per segment, recall = matches /
  reference words, precision = matches / output words, F = 2PR / (P + R), and 0
  when nothing matches (compare-mt's cutoffs 1, 2, 3, 4, 5, 10, 100, 1000).
* **N-grams A matches more than B** (and the reverse): each n-gram (1..4) of an
  output matches when the reference still has an unmatched copy in the segment;
  n-grams are ranked by compare-mt's smoothed share
  ``(m_A + alpha) / (m_A + m_B + 2 alpha)`` with alpha = 1, highest for A,
  lowest for B.
* **Sentences that differ most**: per metric, the segments with the largest
  segment-score difference A - B in each direction.
* **Human error counts by bucket**: MQM/ESA error spans per length bucket when
  the project has any; otherwise the section says there are none.
* **Paired bootstrap** of each corpus score (as compare-mt adds to its report):
  sacrebleu's paired bootstrap resampling, B against A, 1000 samples; two
  systems with identical segment statistics get p = 1.

Metric scores (corpus, buckets, sentences) use every reference a system is
scored against (:func:`~mtworkbench.core.project_input.scoring_reference_ids`), and
the report lists them; the word, n-gram and length analyses use one reference
(the first unless chosen), named as such.

Tokens come from sacrebleu's tokenizer for the target language (13a; zh for
Chinese; characters for Japanese, Korean and Thai) and the report names it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from itertools import pairwise
from typing import Any

import numpy as np

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Project
from mtworkbench.core.project_input import scoring_reference_ids
from mtworkbench.core.wording import plural

LENGTH_CUTOFFS = (10, 20, 30, 40, 50, 60)
FREQ_CUTOFFS = (1, 2, 3, 4, 5, 10, 100, 1000)
ALPHA = 1.0
MAX_NGRAM = 4
CHARACTER_LANGUAGES = ("ja", "ko", "th")
SPAN_PROTOCOLS = ("mqm", "esa")


def tokenizer_for(language: str) -> tuple[str, Callable[[str], list[str]]]:
    """(name, function) of the sacrebleu tokenizer that suits the target language."""
    lang = (language or "").split("-")[0].split("_")[0].lower()
    tok: Callable[[str], str]
    if lang == "zh":
        from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

        tok, name = TokenizerZh(), "zh"
    elif lang in CHARACTER_LANGUAGES:
        from sacrebleu.tokenizers.tokenizer_char import TokenizerChar

        tok, name = TokenizerChar(), "char"
    else:
        from mtworkbench.metrics.tokens import sacrebleu_tokenizer

        tok, name = sacrebleu_tokenizer("13a"), "13a"
    return name, lambda text: tok(text.rstrip()).split()


def bucket_labels(cutoffs: Sequence[int]) -> list[str]:
    """compare-mt's bucket names: <c0, then single values or [a,b), then >=c_last."""
    labels = [f"<{cutoffs[0]}"]
    for prev, cur in pairwise(cutoffs):
        labels.append(str(prev) if cur - 1 == prev else f"[{prev},{cur})")
    labels.append(f">={cutoffs[-1]}")
    return labels


def bucket_of(value: float, cutoffs: Sequence[int]) -> int:
    for i, c in enumerate(cutoffs):
        if value < c:
            return i
    return len(cutoffs)


# --- results ----------------------------------------------------------------------------
@dataclass
class LengthBucket:
    label: str
    segments: int
    scores: dict[str, list[float | None]]  # metric -> [A, B]


@dataclass
class FrequencyBucket:
    label: str
    reference_words: int
    matches: list[int]  # [A, B]
    output_words: list[int]
    recall: list[float]
    precision: list[float]
    fmeasure: list[float]


@dataclass
class NgramDifference:
    ngram: str
    matches_a: int
    matches_b: int
    score: float


@dataclass
class SentenceDifference:
    metric: str
    segment: str
    position: int
    score_a: float
    score_b: float
    difference: float
    source: str
    reference: str  # the text of the analyses' reference
    output_a: str
    output_b: str
    # the texts of the references the metric scores use, by reference id
    references: dict[str, str] = field(default_factory=dict)


@dataclass
class PairedBootstrap:
    """Paired bootstrap of one metric's corpus score: B against A."""

    metric: str
    n_samples: int
    p_value: float | None
    identical: bool  # equal segment statistics: nothing to test, p = 1
    significant: bool  # p < 0.05
    mean: list[float | None]  # [A, B] bootstrap means
    ci: list[float | None]  # [A, B] 95% half-widths


@dataclass
class ErrorBucket:
    label: str
    counts: dict[str, list[int]]  # severity -> [A, B]


@dataclass
class SystemComparison:
    system_a: str
    system_b: str
    reference: str
    tokenizer: str
    frequency_source: str
    metrics: list[str]
    corpus: dict[str, list[float | None]]
    length_buckets: list[LengthBucket]
    frequency_buckets: list[FrequencyBucket]
    ngrams_a: list[NgramDifference]  # A matches more often
    ngrams_b: list[NgramDifference]  # B matches more often
    differences: list[SentenceDifference]
    errors: list[ErrorBucket] | None
    notes: list[str] = field(default_factory=list)
    # the references the metric scores use (A's; a note says when B's differ)
    score_references: list[str] = field(default_factory=list)
    significance: list[PairedBootstrap] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return _clean(asdict(self))


def _clean(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return float(value) if np.isfinite(value) else None
    if isinstance(value, np.integer):
        return int(value)
    return value


# --- the analyses -----------------------------------------------------------------------
@dataclass(frozen=True)
class WordFrequencies:
    """Word counts given from outside the project (compare-mt's count file) and the
    name of the file they came from, which the report shows."""

    counts: Counter
    file_name: str


def frequency_buckets(refs: list[list[str]], outs: list[list[list[str]]], freq: Counter,
                      cutoffs: Sequence[int] = FREQ_CUTOFFS) -> list[FrequencyBucket]:
    n_b = len(cutoffs) + 1
    ref_total = np.zeros(n_b, dtype=np.int64)
    out_total = np.zeros((len(outs), n_b), dtype=np.int64)
    matches = np.zeros((len(outs), n_b), dtype=np.int64)
    for i, ref in enumerate(refs):
        rc = Counter(ref)
        for w, c in rc.items():
            ref_total[bucket_of(freq.get(w, 0), cutoffs)] += c
        for k, out in enumerate(outs):
            oc = Counter(out[i])
            for w, c in oc.items():
                b = bucket_of(freq.get(w, 0), cutoffs)
                out_total[k, b] += c
                matches[k, b] += min(c, rc.get(w, 0))
    buckets = []
    for b, label in enumerate(bucket_labels(cutoffs)):
        rec: list[float] = []
        prec: list[float] = []
        f: list[float] = []
        for k in range(len(outs)):
            m = matches[k, b]
            if m == 0:
                r = p = fm = 0.0
            else:
                r, p = m / ref_total[b], m / out_total[k, b]
                fm = 2 * p * r / (p + r)
            rec.append(float(r))
            prec.append(float(p))
            f.append(float(fm))
        buckets.append(FrequencyBucket(label, int(ref_total[b]), matches[:, b].tolist(),
                                       out_total[:, b].tolist(), rec, prec, f))
    return buckets


def ngram_matches(refs: list[list[str]], out: list[list[str]], max_n: int = MAX_NGRAM) -> Counter:
    """Per n-gram (1..max_n), how often the output matches an unused reference copy."""
    matched: Counter = Counter()
    for ref, hyp in zip(refs, out):
        available: Counter = Counter()
        for n in range(1, max_n + 1):
            for i in range(len(ref) - n + 1):
                available[tuple(ref[i:i + n])] += 1
        for n in range(1, max_n + 1):
            for i in range(len(hyp) - n + 1):
                g = tuple(hyp[i:i + n])
                if available[g] > 0:
                    available[g] -= 1
                    matched[g] += 1
    return matched


def ngram_differences(ma: Counter, mb: Counter, top: int, alpha: float = ALPHA
                      ) -> tuple[list[NgramDifference], list[NgramDifference]]:
    scored = [
        NgramDifference(" ".join(g), ma[g], mb[g], (ma[g] + alpha) / (ma[g] + mb[g] + 2 * alpha))
        for g in set(ma) | set(mb)
    ]
    # Ties (many n-grams share a score) go to the more frequent, then alphabetical: repeatable.
    # Each list keeps the side it is about: share above 1/2 for A, below for B.
    for_a = sorted((d for d in scored if d.score > 0.5), key=lambda d: (-d.score, -(d.matches_a + d.matches_b), d.ngram))
    for_b = sorted((d for d in scored if d.score < 0.5), key=lambda d: (d.score, -(d.matches_a + d.matches_b), d.ngram))
    return for_a[:top], for_b[:top]


def compare_systems(
    project: Project,
    system_a: str,
    system_b: str,
    scored: Sequence[Any],
    reference: str | None = None,
    frequencies: WordFrequencies | None = None,
    top_ngrams: int = 20,
    top_sentences: int = 5,
) -> SystemComparison:
    """The analyses; ``scored`` holds each metric's scores of the project's systems
    (``scoring.project_scores.SystemScores``: spec, metric, segments, corpus, stats
    with rows in project system order), at least of A and B. ``frequencies``: word
    counts read from a file (by default counted in the reference)."""
    for s in (system_a, system_b):
        if not project.has_system(s):
            raise DataError(f"no system {s!r}; systems: {', '.join(x.id for x in project.systems)}")
    if system_a == system_b:
        raise DataError("choose two different systems")
    if not project.references:
        raise DataError("the project has no reference")
    ref_id = reference or project.references[0].id
    if not project.has_reference(ref_id):
        raise DataError(f"no reference {ref_id!r}; references: {', '.join(r.id for r in project.references)}")
    notes: list[str] = []
    score_refs_a = scoring_reference_ids(project, system_a)
    score_refs_b = scoring_reference_ids(project, system_b)
    if score_refs_b != score_refs_a:
        notes.append(f"{system_a} is scored against {', '.join(score_refs_a) or 'no reference'}, {system_b} "
                     f"against {', '.join(score_refs_b) or 'no reference'} (a system is never scored against itself)")
    seg_ids = project.segment_ids
    ref_texts = project.reference(ref_id).texts
    present = [i for i, sid in enumerate(seg_ids) if ref_texts.get(sid) is not None]
    if len(present) < len(seg_ids):
        notes.append(f"{plural(len(seg_ids) - len(present), 'segment')} without reference {ref_id} are left out "
                     "of the word and n-gram analyses")
    tok_name, tok = tokenizer_for(project.target_language)
    if not project.target_language:
        notes.append("the project names no target language: tokens from sacrebleu's 13a tokenizer")
    refs = [tok(ref_texts[seg_ids[i]]) for i in present]
    outs = [[tok(project.system(s).texts[seg_ids[i]]) for i in present] for s in (system_a, system_b)]

    rows = [s.id for s in project.systems]
    metrics = [sc.spec for sc in scored]
    ia, ib = rows.index(system_a), rows.index(system_b)
    corpus: dict[str, list[float | None]] = {sc.spec: [float(sc.corpus[ia]), float(sc.corpus[ib])] for sc in scored}

    # Score by reference length (all references present: length of the chosen one).
    lengths = np.array([len(tok(ref_texts.get(sid) or "")) for sid in seg_ids])
    which = np.array([bucket_of(n, LENGTH_CUTOFFS) for n in lengths])
    length_buckets = []
    for b, label in enumerate(bucket_labels(LENGTH_CUTOFFS)):
        idx = np.flatnonzero(which == b)
        scores: dict[str, list[float | None]] = {}
        for sc in scored:
            vals: list[float | None] = []
            for row in (ia, ib):
                if len(idx) == 0:
                    vals.append(None)
                else:
                    vals.append(float(sc.metric.aggregate(sc.stats[row][idx].sum(axis=0))))
            scores[sc.spec] = vals
        length_buckets.append(LengthBucket(label, len(idx), scores))

    # Word F-measure by frequency.
    if frequencies is not None:
        freq = frequencies.counts
        freq_source = f"file {frequencies.file_name}"
    else:
        freq = Counter(w for r in refs for w in r)
        freq_source = f"reference {ref_id}"
    freq_buckets = frequency_buckets(refs, outs, freq)

    ngrams_a, ngrams_b = ngram_differences(ngram_matches(refs, outs[0]), ngram_matches(refs, outs[1]), top_ngrams)

    # Sentences that differ most, per metric, in both directions.
    differences = []
    sources = [s.source for s in project.segments]
    for sc in scored:
        diff = sc.segments[ia] - sc.segments[ib]
        ok = np.flatnonzero(np.isfinite(diff))
        if len(ok) == 0:
            continue
        order = ok[np.argsort(-diff[ok], kind="stable")]
        picks = [i for i in order[:top_sentences] if diff[i] > 0]
        picks += [i for i in order[::-1][:top_sentences] if diff[i] < 0]
        for i in picks:
            sid = seg_ids[i]
            differences.append(SentenceDifference(
                sc.spec, sid, int(i + 1), float(sc.segments[ia][i]), float(sc.segments[ib][i]), float(diff[i]),
                sources[i], ref_texts.get(sid) or "", project.system(system_a).texts[sid],
                project.system(system_b).texts[sid],
                {r: t for r in score_refs_a if (t := project.reference(r).texts.get(sid)) is not None}))

    errors = error_buckets(project, system_a, system_b, which)
    if errors is None:
        notes.append("no MQM/ESA error spans in this project: no error counts")
    significance = paired_bootstraps(scored, ia, ib)
    result = SystemComparison(system_a, system_b, ref_id, tok_name, freq_source, list(metrics), corpus,
                              length_buckets, freq_buckets, ngrams_a, ngrams_b, differences, errors, notes,
                              score_refs_a, significance)
    return result


PAIRED_SAMPLES = 1000


def paired_bootstraps(scored: Sequence[Any], ia: int, ib: int,
                      n_samples: int = PAIRED_SAMPLES) -> list[PairedBootstrap]:
    """sacrebleu's paired bootstrap of each metric's corpus score, B against A."""
    from mtworkbench.analysis.significance import DEFAULT_SEED, paired_test
    from mtworkbench.core.scoring_input import MetricError

    out = []
    for sc in scored:
        stats = np.asarray(sc.stats, float)
        if not (np.isfinite(sc.corpus[ia]) and np.isfinite(sc.corpus[ib])) or stats.ndim != 3:
            continue
        try:
            result = paired_test(sc.metric, [("A", stats[ia]), ("B", stats[ib])], "paired-bs", n_samples,
                                 DEFAULT_SEED)
        except MetricError:
            continue
        base, other = result.systems
        out.append(PairedBootstrap(sc.spec, n_samples, other.p_value, other.identical, other.significant(),
                                   [base.mean, other.mean], [base.ci, other.ci]))
    return out


def _error_spans(judgment: Any) -> list[Any]:
    """Error spans of a judgment, if its protocol records any (MQM/ESA); else []."""
    spans = getattr(judgment, "errors", None) or getattr(judgment, "error_spans", None)
    return list(spans) if spans else []


def error_buckets(project: Project, system_a: str, system_b: str, length_bucket: np.ndarray
                  ) -> list[ErrorBucket] | None:
    """Counts of human error spans by severity and reference-length bucket; None without spans."""
    pos = {sid: i for i, sid in enumerate(project.segment_ids)}
    counts: dict[int, dict[str, list[int]]] = {}
    found = False
    for j in project.judgments:
        if j.system not in (system_a, system_b) or j.qc:  # a BAD copy's errors are not the system's
            continue
        # An MQM/ESA judgment without errors still says "rated, no errors".
        found = found or getattr(j, "protocol", "") in SPAN_PROTOCOLS
        for span in _error_spans(j):
            found = True
            severity = str(getattr(span, "severity", None) or (span.get("severity") if isinstance(span, dict)
                                                                   else None) or "error")
            b = int(length_bucket[pos[j.segment]])
            row = counts.setdefault(b, {}).setdefault(severity, [0, 0])
            row[0 if j.system == system_a else 1] += 1
    if not found:
        return None
    return [ErrorBucket(label, counts.get(b, {})) for b, label in enumerate(bucket_labels(LENGTH_CUTOFFS))]
