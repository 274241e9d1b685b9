"""The plain-Python corpus path (``Metric.corpus_only``) that ``score`` uses on files.

BLEU, chrF, GTM and METEOR compute their corpus score without numpy so that a one-shot
``mtworkbench score`` never imports it. These tests check that the path really
imports no numpy (in a fresh interpreter), and that it gives exactly the
numbers of the numpy path: the same summed statistics and the same corpus score,
on random corpora (hypothesis) and on the shared WMT17 and MLQE-PE data.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtworkbench.cli import main
from mtworkbench.metrics import ScoringInput, create_metric
from mtworkbench.metrics.gtm_grid import PYTHON_ONLY_SPACE, gtm_tokens
from mtworkbench.metrics.ngrams import clipped_matches, max_counts, ngram_counts

ROOT = Path(__file__).resolve().parents[2]

# Few words, so that n-grams repeat within and across segments; punctuation and
# digits exercise 13a's paths.
WORDS = ["the", "cat", "a", "sat", "on", "the", "mat", "3.5", "1,000", "U.S.", "-", "!", "über", ".", ","]

line = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join)


@st.composite
def corpora(draw, max_refs: int = 3, missing: bool = True) -> ScoringInput:
    n = draw(st.integers(0, 8))
    hyps = draw(st.lists(line, min_size=n, max_size=n))
    n_refs = draw(st.integers(1, max_refs))
    refs = [draw(st.lists(line, min_size=n, max_size=n)) for _ in range(n_refs)]
    if missing and n_refs > 1:
        # a missing reference (None) in some stream, never in the first
        for k in range(1, n_refs):
            for i in range(n):
                if draw(st.booleans()) and draw(st.booleans()):
                    refs[k][i] = None  # type: ignore[call-overload]
    return ScoringInput(hyps, refs)


BLEU_SPECS = [
    "bleu", "bleu:smooth=floor", "bleu:smooth=add-k", "bleu:smooth=none", "bleu:effective_order=yes",
    "bleu:max_order=2", "bleu:max_order=6", "bleu:weights=0.4+0.3+0.2+0.1", "bleu:mteval=true",
    "bleu:lowercase=true,tokenize=none", "bleu:smooth=floor,smooth_value=0.3,effective_order=yes",
]
CHRF_SPECS = ["chrf", "chrf++", "chrf:eps_smoothing=true", "chrf:beta=1,whitespace=true"]
GTM_SPECS = ["gtm", "gtm:e=2", "gtm:e=3.5"]
METEOR_SPECS = ["meteor", "meteor:modules=exact", "meteor:lowercase=true,modules=exact+stem"]
LEAN_SPECS = BLEU_SPECS + CHRF_SPECS + GTM_SPECS + METEOR_SPECS


def assert_same_as_numpy_path(spec: str, data: ScoringInput) -> None:
    lean = create_metric(spec).corpus_only(data)
    full = create_metric(spec).score(data)
    assert list(lean.totals) == np.asarray(full.stats, dtype=float).sum(axis=0).tolist()
    assert lean.corpus == full.corpus or (math.isnan(lean.corpus) and math.isnan(full.corpus))
    assert lean.signature == full.signature


@settings(max_examples=80, deadline=None)
@given(data=corpora(), spec=st.sampled_from(LEAN_SPECS))
def test_corpus_only_equals_the_numpy_path(wordnet_cache, data: ScoringInput, spec: str) -> None:
    assert_same_as_numpy_path(spec, data)


@settings(max_examples=80, deadline=None)
@given(data=corpora(missing=False), spec=st.sampled_from(LEAN_SPECS))
def test_scalar_aggregate_equals_the_vectorised_one(wordnet_cache, data: ScoringInput, spec: str) -> None:
    """``corpus_value`` (math) against ``aggregate`` (numpy) on the same totals:
    equal for GTM and chrF (only + - * /), and to the last bits for BLEU and
    METEOR, whose exp, log and pow differ between numpy's vector code and libm
    by an ulp at times."""
    metric = create_metric(spec)
    totals = metric.corpus_totals(data)
    vectorised = float(metric.aggregate(np.asarray(totals)))
    scalar = metric.corpus_value(totals)
    if spec.startswith(("bleu", "meteor")):
        assert scalar == pytest.approx(vectorised, rel=1e-12, abs=1e-12)
    else:
        assert scalar == vectorised or (math.isnan(scalar) and math.isnan(vectorised))


@settings(max_examples=200, deadline=None)
@given(
    hyp=st.lists(st.sampled_from("abcd"), max_size=10),
    refs=st.lists(st.lists(st.sampled_from("abcde"), max_size=10), min_size=1, max_size=3),
    order=st.integers(1, 5),
)
def test_clipped_matches_counts_as_the_counters_do(hyp, refs, order) -> None:
    """The set shortcut against the plain definition: min(hyp count, max ref count)."""
    clip = max_counts(ngram_counts(r, order) for r in refs)
    expected = [0] * order
    for gram, count in ngram_counts(hyp, order).items():
        expected[len(gram) - 1] += min(count, clip.get(gram, 0))
    assert clipped_matches(hyp, refs, order) == expected


def test_shared_data_scores_equal_the_numpy_path(shared_dir, wordnet_cache) -> None:
    wmt = shared_dir / "data" / "wmt17-en-de-systems"
    system = sorted((wmt / "systems").iterdir())[0]
    read = lambda p: p.read_text(encoding="utf-8").splitlines()  # noqa: E731
    bleu_data = ScoringInput(read(system), [read(wmt / "ref.de")])
    for spec in ("bleu", "bleu:mteval=true", "chrf"):
        assert_same_as_numpy_path(spec, bleu_data)
    mlqe = shared_dir / "data" / "mlqe-et-en"
    gtm_data = ScoringInput(read(mlqe / "mt.en"), [read(mlqe / "ref-1.en"), read(mlqe / "ref-2.en")])
    for spec in ("gtm:e=2", "gtm", "meteor"):
        assert_same_as_numpy_path(spec, gtm_data)


def _files(tmp_path: Path) -> tuple[Path, Path, Path]:
    hyp, ref1, ref2 = tmp_path / "hyp.txt", tmp_path / "ref1.txt", tmp_path / "ref2.txt"
    hyp.write_text("the cat sat on the mat .\nit is 3.5 km , he said\n\nU.S. troops - left\n", encoding="utf-8")
    ref1.write_text("the cat sat on a mat .\nit was 3.5 km , she said\nnothing\nthe U.S. troops left\n",
                    encoding="utf-8")
    ref2.write_text("a cat was on the mat\nhe said it is 3.5 km\n\nU.S. soldiers left\n", encoding="utf-8")
    return hyp, ref1, ref2


def test_score_on_files_imports_no_numpy(tmp_path: Path, wordnet_cache) -> None:
    """A fresh interpreter runs ``score`` on files with BLEU, chrF, GTM and METEOR
    (WordNet synonyms included); numpy and scipy are not among its modules afterwards."""
    hyp, ref1, ref2 = _files(tmp_path)
    argv = ["score", "--hyp", str(hyp), "--ref", str(ref1), "--ref", str(ref2), "--metric", "bleu",
            "--metric", "gtm:e=2", "--metric", "chrf", "--metric", "bleu:mteval=true", "--metric", "meteor"]
    code = (
        "import sys, json\n"
        "from mtworkbench.cli import main\n"
        f"status = main({argv!r})\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'scipy'))\n"
        "print(json.dumps({'status': status, 'heavy': heavy}))\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"status": 0, "heavy": []}
    assert "gtm" in done.stdout and "meteor" in done.stdout and "4 segments" in done.stdout


def test_score_table_prints_the_json_corpus_scores(tmp_path: Path, capsys, wordnet_cache) -> None:
    """The lean table and the full ``--json`` output (numpy path) agree."""
    hyp, ref1, ref2 = _files(tmp_path)
    argv = ["score", "--hyp", str(hyp), "--ref", str(ref1), "--ref", str(ref2)]
    specs = ["bleu", "gtm:e=2", "chrf++", "bleu:smooth=floor", "meteor"]
    for spec in specs:
        argv += ["--metric", spec]
    assert main(argv) == 0
    table = capsys.readouterr().out.splitlines()
    assert main([*argv, "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)["scores"]
    assert table[0] == "4 segments"
    rows = [row.split() for row in table[2:]]
    assert [r[0] for r in rows] == [s["metric"] for s in scores]
    assert [r[2] for r in rows] == [f"{s['corpus']:.4f}" for s in scores]
    assert [r[3] for r in rows] == [s["signature"] for s in scores]


def test_gtm_fast_split_knows_every_space_python_splits_on() -> None:
    """gtm_tokens uses str.split() unless the text holds a character str.split()
    splits on and Java's StringTokenizer does not; that list must be complete."""
    every_char = "".join(map(chr, range(0x110000)))
    listed = set(re.findall(f"[{PYTHON_ONLY_SPACE}]", every_char))
    python_only = {c for c in every_char if c.isspace()} - set(" \t\n\r\f")
    assert listed == python_only


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(["a", "b", "é", " ", "\t", "\n", "\r", "\f", "\x0b", "\x1c", "\x01",
                                          "\x85", "\xa0", "\u2003", "\u3000", "\ufeff"]), max_size=20))
def test_gtm_tokens_split_as_java_does(text: str) -> None:
    java_trimmed = text.strip("".join(chr(c) for c in range(0x21)))
    expected = [t for t in re.split(r"[ \t\n\r\f]+", java_trimmed) if t]
    assert gtm_tokens(text) == expected
