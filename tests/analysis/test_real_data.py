"""Correlations on the shared corpora, cross-checked with sacrebleu + scipy directly."""

from __future__ import annotations

import csv
from collections import defaultdict

import numpy as np
import pytest
import sacrebleu
from scipy import stats as sstats

from mtworkbench.analysis.correlation import correlate
from mtworkbench.analysis.human_scores import collect_human_scores, level_pairs
from mtworkbench.io.corpora.plaintext import import_plain, read_lines
from mtworkbench.io.judgments.judgments import apply_import, plan_mqm_tsv, plan_score_lines
from mtworkbench.scoring.project_scores import score_project

WMT21_SYSTEMS = ("Facebook-AI", "HuaweiTSC", "NVIDIA-NeMo", "Online-W", "UEdin", "VolcTrans-AT",
                 "VolcTrans-GLAT", "eTranslation")


def test_mlqe_segment_bleu_vs_da_equals_sacrebleu_and_scipy(shared_dir):
    d = shared_dir / "data" / "mlqe-et-en"
    project = import_plain(d / "src.et", [d / "ref-1.en", d / "ref-2.en"], [("mt", d / "mt.en")])
    apply_import(project, plan_score_lines(project, "da", "mt", d / "da-z.scores", "da-z"))
    human = collect_human_scores(project, "da")
    (bleu,) = score_project(project, ["bleu"])
    m, h = level_pairs(bleu.segments, bleu.corpus, human, "segment")
    ours = correlate(m, h, "pearson")
    # Reference path: sacrebleu's sentence BLEU, the DA file read as floats, scipy.
    hyps, r1, r2 = (read_lines(d / f) for f in ("mt.en", "ref-1.en", "ref-2.en"))
    ref_scores = [sacrebleu.sentence_bleu(a, [b, c]).score for a, b, c in zip(hyps, r1, r2)]
    da = [float(x) for x in read_lines(d / "da-z.scores")]
    assert ours.n == 1000
    assert ours.r == pytest.approx(sstats.pearsonr(ref_scores, da).statistic, abs=1e-9)
    spear = correlate(m, h, "spearman").r
    assert spear == pytest.approx(sstats.spearmanr(ref_scores, da).statistic, abs=1e-9)


@pytest.mark.slow
def test_wmt21_system_level_mqm_matches_readme_and_sacrebleu(shared_dir):
    d = shared_dir / "data" / "wmt21-en-de-mqm"
    project = import_plain(d / "source.en", [d / "ref-A.de", d / "ref-C.de", d / "ref-D.de"],
                           [(s, d / "systems" / f"{s}.de") for s in WMT21_SYSTEMS])
    for s in WMT21_SYSTEMS:
        apply_import(project, plan_mqm_tsv(project, "mqm", s, d / "mqm.tsv"))
    human = collect_human_scores(project, "mqm")
    system_mqm = human.system_scores()
    # The data README's table: -mean(mqm) over rated segments, rounded to 2 decimals.
    with open(d / "system_mqm_readme.tsv", encoding="utf-8") as f:
        readme = {r["system_in_this_folder"]: float(r["mqm"]) for r in csv.DictReader(f, delimiter="\t")}
    for name, value in zip(human.systems, system_mqm):
        assert round(-value, 2) == pytest.approx(readme[name], abs=1e-9), name
    (bleu,) = score_project(project, ["bleu"])
    m, h = level_pairs(bleu.segments, bleu.corpus, human, "system")
    ours = correlate(m, h, "pearson")
    # Reference path: sacrebleu corpus BLEU and the MQM means computed from the TSV here.
    refs = [read_lines(d / f"ref-{k}.de") for k in "ACD"]
    reference_bleu = sacrebleu.metrics.BLEU(references=refs)  # references tokenised once
    sb = [reference_bleu.corpus_score(read_lines(d / "systems" / f"{s}.de"), None).score for s in WMT21_SYSTEMS]
    sums: dict[str, list[float]] = defaultdict(list)
    with open(d / "mqm.tsv", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["mqm"].strip():
                sums[row["system"]].append(float(row["mqm"]))
    mqm = [np.mean(sums[s]) for s in WMT21_SYSTEMS]
    assert ours.n == 8
    assert ours.r == pytest.approx(sstats.pearsonr(sb, mqm).statistic, abs=1e-9)
    # Segment level pools the 8 x 527 rated items.
    m, h = level_pairs(bleu.segments, bleu.corpus, human, "segment")
    assert len(h) == 8 * 527
