"""References among the systems are never scored against themselves; identical systems are
not "significant"; the compare report names its references and tests its corpus scores;
one system is not correlated at system level."""

from __future__ import annotations

import json

import pytest

from mtworkbench.cli import main
from mtworkbench.core.project_input import scoring_input, scoring_reference_ids, unscored_reason
from mtworkbench.io.bundle.bundle import load_bundle

SOURCES = ["今天天气很好。", "我们明天去北京。", "他在看书。", "这个问题很难。", "她喜欢喝茶。", "会议推迟了。"]
REF_A = ["The weather is nice today .", "We go to Beijing tomorrow .", "He is reading a book .",
         "This question is hard .", "She likes drinking tea .", "The meeting was postponed ."]
REF_B = ["Today the weather is good .", "Tomorrow we will go to Beijing .", "He reads a book .",
         "This problem is difficult .", "She loves to drink tea .", "The meeting has been delayed ."]
MT = ["Weather is good today .", "We tomorrow go Beijing .", "He is reading book .",
      "This question very hard .", "She like drink tea .", "Meeting postponed ."]


def _mtme(root, refs=("refA", "refB")):
    """An mt-metrics-eval layout, zh-en, whose references are also systems (as WMT ships them)."""
    lp = "zh-en"
    texts = {"refA": REF_A, "refB": REF_B}
    (root / "sources").mkdir(parents=True)
    (root / "references").mkdir()
    (root / "system-outputs" / lp).mkdir(parents=True)
    (root / "human-scores").mkdir()
    (root / "sources" / f"{lp}.txt").write_text("\n".join(SOURCES) + "\n", encoding="utf-8")
    for name in refs:
        (root / "references" / f"{lp}.{name}.txt").write_text("\n".join(texts[name]) + "\n", encoding="utf-8")
        (root / "system-outputs" / lp / f"{name}.txt").write_text("\n".join(texts[name]) + "\n", encoding="utf-8")
    (root / "system-outputs" / lp / "mt1.txt").write_text("\n".join(MT) + "\n", encoding="utf-8")
    (root / "system-outputs" / lp / "mt2.txt").write_text("\n".join(MT[::-1]) + "\n", encoding="utf-8")
    scores = {"refA": [0, -1, 0, 0, -1, 0], "refB": [-1, 0, 0, -1, 0, 0],
              "mt1": [-5, -6, -2, -4, -3, -7], "mt2": [-9, -8, -9, -7, -8, -9]}
    lines = [f"{s}\t{v}" for s, vals in scores.items() if s in refs or s.startswith("mt") for v in vals]
    (root / "human-scores" / f"{lp}.mqm.seg.score").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def _import(tmp_path, capsys, refs=("refA", "refB")):
    bundle = tmp_path / "zh.mtwb.json"
    assert main(["import", "--format", "mt-metrics-eval", str(_mtme(tmp_path / "mtme", refs)), "--lp", "zh-en",
                 "-o", str(bundle)]) == 0
    capsys.readouterr()
    return bundle


def _scores(capsys, argv):
    code = main(argv)
    out = capsys.readouterr()
    assert code == 0, out.err
    return {s["system"]: s for s in json.loads(out.out)["scores"]}, out.err


def test_a_reference_among_the_systems_is_scored_against_the_other_references(tmp_path, capsys):
    bundle = _import(tmp_path, capsys)
    project = load_bundle(bundle)
    assert scoring_reference_ids(project, "refA") == ["refB"]
    assert scoring_reference_ids(project, "mt1") == ["refA", "refB"]
    scores, _ = _scores(capsys, ["score", str(bundle), "--metric", "bleu", "--json", "--jobs", "1"])
    # WMT's BLEU-refA: refA is not among the references it is scored against
    assert scores["refA"]["corpus"] < 100 and scores["refB"]["corpus"] < 100
    plain, _ = _scores(capsys, ["score", "--hyp", str(tmp_path / "mtme/system-outputs/zh-en/refA.txt"),
                                "--ref", str(tmp_path / "mtme/references/zh-en.refB.txt"),
                                "--metric", "bleu", "--json"])
    assert scores["refA"]["corpus"] == pytest.approx(plain[None]["corpus"] if None in plain
                                                     else next(iter(plain.values()))["corpus"])
    assert "nrefs:1" in scores["refA"]["signature"] and "nrefs:2" in scores["mt1"]["signature"]


def test_the_only_reference_as_a_system_gets_no_reference_based_score(tmp_path, capsys):
    bundle = _import(tmp_path, capsys, refs=("refA",))
    project = load_bundle(bundle)
    assert "only reference" in (unscored_reason(project, "refA") or "")
    assert unscored_reason(project, "mt1") is None
    assert scoring_input(project, "refA").references == [[None] * len(SOURCES)]
    scores, err = _scores(capsys, ["score", str(bundle), "--metric", "bleu", "--metric", "chrf", "--json",
                                   "--jobs", "1"])
    assert "refA" not in scores and {"mt1", "mt2"} <= set(scores)
    assert "refA is the reference 'refA', the project's only reference" in err
    # correlate pairs no self-score: refA's MQM items are not among the pairs of a reference-based metric
    code = main(["correlate", str(bundle), "--human", "mqm", "--metric", "bleu", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    (res,) = json.loads(out.out)["results"]
    assert res["n"] == 2 * len(SOURCES)  # mt1 and mt2 only, not refA's 6 items
    assert "left out" in out.err
    assert main(["compare", str(bundle), "--metric", "bleu"]) == 1
    assert "the project's only reference" in capsys.readouterr().err
    assert main(["compare", str(bundle), "--metric", "bleu", "--system", "mt1", "--system", "mt2"]) == 0


def test_identical_copy_of_the_baseline_is_not_significant(tmp_path, capsys):
    ref = tmp_path / "ref.txt"
    ref.write_text("\n".join(REF_A) + "\n", encoding="utf-8")
    base, copy, other = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "c.txt"
    base.write_text("\n".join(MT) + "\n", encoding="utf-8")
    copy.write_bytes(base.read_bytes())
    other.write_text("\n".join(REF_A[:3] + MT[3:]) + "\n", encoding="utf-8")
    for method in ("paired-bs", "paired-ar"):
        argv = ["compare", "--ref", str(ref), "--system", f"base={base}", "--system", f"copy={copy}",
                "--system", f"other={other}", "--metric", "bleu", "--method", method]
        assert main([*argv, "--json"]) == 0
        rows = {r["system"]: r for r in json.loads(capsys.readouterr().out)["systems"]}
        assert rows["copy"]["p_value"] == 1.0 and rows["copy"]["identical"] and not rows["copy"]["significant"]
        assert rows["other"]["p_value"] < 1.0 and not rows["other"]["identical"]
        assert main(argv) == 0
        table = capsys.readouterr().out
        copy_line = next(line for line in table.splitlines() if line.startswith("copy"))
        assert "1.0000" in copy_line and "*" not in copy_line and "identical" in copy_line


def test_compare_report_names_its_references_and_tests_corpus_scores(tmp_path, capsys):
    bundle = _import(tmp_path, capsys)
    html = tmp_path / "report.html"
    code = main(["analyze", str(bundle), "--system", "mt1", "--system", "mt2", "--metric", "bleu",
                 "--json", "--html", str(html)])
    out = capsys.readouterr()
    assert code == 0, out.err
    cmp = json.loads(out.out)
    assert cmp["score_references"] == ["refA", "refB"]
    (test,) = cmp["significance"]
    assert test["metric"] == "bleu" and 0 < test["p_value"] <= 1 and test["identical"] is False
    # every sentence shows each reference its scores were computed against
    assert all(set(d["references"]) == {"refA", "refB"} for d in cmp["differences"])
    page = html.read_text(encoding="utf-8")
    assert "metric scores against references refA, refB" in page
    assert "paired bootstrap p" in page and REF_B[0] in page


def test_one_system_is_not_correlated_at_system_level(tmp_path, capsys):
    bundle = _import(tmp_path, capsys)
    code = main(["correlate", str(bundle), "--human", "mqm", "--metric", "bleu", "--level", "system",
                 "--system", "mt1"])
    out = capsys.readouterr()
    assert code != 0
    assert "one system cannot be correlated" in out.err and "metric" not in out.out
