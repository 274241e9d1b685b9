"""Parity with Meteor 1.4 (golden runs in ../shared/golden/meteor): every segment's
score, precision, recall, penalty and sufficient statistics, and the corpus score."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from mtworkbench.metrics.base import ScoringInput
from mtworkbench.metrics.registry import create_metric

pytestmark = pytest.mark.shared

RUNS = {
    "i_exact": "meteor:preset=2005,modules=exact",
    "ii_exact-stem": "meteor:preset=2005,modules=exact+stem",
    "iii_exact-stem-syn": "meteor:preset=2005",
    "iv_default-en-exact-stem-syn": "meteor",
}



@pytest.fixture(scope="module")
def mlqe_tokenised(shared_dir):
    """The goldens' inputs, rebuilt as their ``preprocessing_command`` says:
    universal newlines, sacrebleu 13a tokenizer, str.lower()."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tok = Tokenizer13a()
    out = {}
    for name in ("mt.en", "ref-1.en"):
        with open(shared_dir / "data" / "mlqe-et-en" / name, encoding="utf-8") as handle:
            out[name] = [tok(line.rstrip("\n")).lower() for line in handle]
    return out


def load_golden(shared_dir, tag):
    path = shared_dir / "golden" / "meteor" / f"mlqe-et-en.mt.vs-ref1.{tag}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def test_preprocessing_matches_the_goldens(shared_dir, mlqe_tokenised):
    golden = load_golden(shared_dir, "i_exact")
    for name, key in (("mt.en", "mt.en.tok.lc"), ("ref-1.en", "ref-1.en.tok.lc")):
        text = "".join(line + "\n" for line in mlqe_tokenised[name])
        assert hashlib.sha256(text.encode("utf-8")).hexdigest() == golden["preprocessed_sha256"][key]


@pytest.mark.parametrize("tag", list(RUNS))
def test_meteor_1_4_parity(shared_dir, mlqe_tokenised, wordnet_cache, tag):
    golden = load_golden(shared_dir, tag)
    metric = create_metric(RUNS[tag])
    data = ScoringInput(mlqe_tokenised["mt.en"], [mlqe_tokenised["ref-1.en"]])
    out = metric.score(data)

    assert golden["sufficient_stats_columns"] == list(metric.stat_names[:23])
    want_stats = np.array(golden["segment_sufficient_stats"], dtype=float)
    same_rows = (out.stats[:, :23] == want_stats).all(axis=1)
    assert same_rows.sum() == 1000, f"statistics differ on segments {np.where(~same_rows)[0][:10]}"

    for ours, key in (
        (out.segments, "segments"),
        (out.extras["segment_precision"], "segment_precision"),
        (out.extras["segment_recall"], "segment_recall"),
        (out.extras["segment_frag_penalty"], "segment_frag_penalty"),
    ):
        close = np.abs(np.asarray(ours) - np.array(golden[key])) <= 1e-9
        assert close.sum() == 1000, f"{key} differs on segments {np.where(~close)[0][:10]}"
    assert out.corpus == pytest.approx(golden["corpus"], abs=1e-9)
    system = golden["system_stats"]
    assert out.extras["corpus_precision"] == pytest.approx(system["precision"], abs=1e-9)
    assert out.extras["corpus_recall"] == pytest.approx(system["recall"], abs=1e-9)
    assert out.extras["corpus_frag_penalty"] == pytest.approx(system["frag_penalty"], abs=1e-9)
