"""`correlate`, `reliability` and `train-learned` on small bundles with hand-known answers."""

from __future__ import annotations

import json
import math

import pytest

from mtworkbench.cli import main
from mtworkbench.core.model import Document, Judgment, Paragraph, Project, Reference, Segment, System
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle

# Reference "a b c d" in every segment; system A has 0..4 substituted words per
# segment, so its segment WERs are 0, .25, .5, .75, 1 (tokenize=none default).
HYP_A = ["a b c d", "a b c x", "a b x x", "a x x x", "x x x x"]
DA_A = [2.0, 1.0, 4.0, 3.0, 5.0]


def make_bundle(path, systems=None, judgments=None, refs=1):
    segs = [Segment(f"s{i}", f"src {i}") for i in range(1, 6)]
    references = [Reference("r1", texts={s.id: "a b c d" for s in segs})]
    if refs == 2:
        references.append(Reference("r2", texts={s.id: "a b c e" for s in segs}))
    systems = systems or {"A": HYP_A}
    project = Project(
        documents=[Document("d1", [Paragraph("p1", segs)])],
        references=references,
        systems=[System(k, texts={s.id: t for s, t in zip(segs, v)}) for k, v in systems.items()],
    )
    judgments = judgments or {("da", "A"): DA_A}
    for (judge, system), values in judgments.items():
        if judge not in project.judges:
            project.add_judge(judge)
        for seg, v in zip(segs, values):
            if v is not None:
                project.add_judgment(Judgment(project.new_id("j"), judge, system, seg.id, score=v, scale="da-z"))
    save_bundle(project, path)
    return path


def run_json(capsys, argv):
    code = main(argv)
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def test_segment_level_pearson_by_hand(tmp_path, capsys):
    bundle = make_bundle(tmp_path / "p.mtwb.json")
    out = run_json(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "wer", "--json"])
    (res,) = out["results"]
    assert set(res) == {"metric", "human", "level", "method", "r", "n", "ci", "p"}
    # WER = (0..4)/4 vs 2,1,4,3,5: r = 0.8 (see tests/analysis/test_correlation.py).
    assert res["metric"] == "wer" and res["human"] == "da" and res["level"] == "segment"
    assert res["method"] == "pearson" and res["n"] == 5
    assert res["r"] == pytest.approx(0.8)
    z, half = 0.5 * math.log(9), 1.959963984540054 / math.sqrt(2)
    assert res["ci"] == pytest.approx([math.tanh(z - half), math.tanh(z + half)])
    out = run_json(capsys, ["correlate", str(bundle), "--human", "da:score", "--metric", "wer",
                            "--method", "kendall", "--json"])
    assert out["results"][0]["r"] == pytest.approx(0.6)
    assert out["results"][0]["p"] == pytest.approx(28 / 120)


def test_system_level_by_hand(tmp_path, capsys):
    systems = {"A": ["a b c d"] * 5, "B": ["a b c x"] * 5, "C": ["x x x x"] * 5}
    judgments = {("da", "A"): [3.0] * 5, ("da", "B"): [2.0, 2.0, None, 2.0, 2.0], ("da", "C"): [1.0] * 5}
    bundle = make_bundle(tmp_path / "p.mtwb.json", systems, judgments)
    out = run_json(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "wer",
                            "--level", "system", "--ci", "bootstrap", "--json"])
    (res,) = out["results"]
    # Corpus WER 0, .25, 1 vs mean human 3, 2, 1: sxy = -1, sxx = 0.541667, syy = 2.
    assert res["n"] == 3
    assert res["r"] == pytest.approx(-1 / math.sqrt(0.5416666666666666 * 2))
    lo, hi = res["ci"]
    assert lo - 1e-12 <= res["r"] <= hi + 1e-12


def test_bleu_orders_prediction_error(tmp_path, capsys):
    systems = {"A": ["a b c d"] * 5, "B": ["a b c x"] * 5, "C": ["a x c d"] * 5, "D": ["x x c d"] * 5}
    judgments = {("da", k): [v] * 5 for k, v in zip("ABCD", (4.0, 3.0, 2.5, 1.0))}
    bundle = make_bundle(tmp_path / "p.mtwb.json", systems, judgments)
    out = run_json(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "bleu:tokenize=none",
                            "--level", "system", "--bleu-orders", "4", "--json"])
    pe = out["prediction_error"]
    assert pe["orders"] == [1, 2, 3, 4]
    # BLEU-4 is the default BLEU: its 1 - R^2 matches the system-level r printed above.
    r = out["results"][0]["r"]
    assert pe["r"][3] == pytest.approx(r, abs=1e-12)
    assert pe["prediction_error"][3] == pytest.approx(1 - r * r, abs=1e-12)
    # Order 1: unigram precision 1, .75, .75, .5 with BP = 1 -> BLEU-1 = 100, 75, 75, 50.
    assert pe["bleu"]["1"] == pytest.approx([100.0, 75.0, 75.0, 50.0])
    assert main(["correlate", str(bundle), "--human", "da", "--metric", "wer", "--bleu-orders", "17"]) == 2


def test_williams_output_and_errors(tmp_path, capsys):
    bundle = make_bundle(tmp_path / "p.mtwb.json")
    out = run_json(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "wer", "--metric", "per",
                            "--williams", "--json"])
    assert len(out["results"]) == 2
    assert out["williams"][0]["a"] == "wer" and out["williams"][0]["df"] == 2
    assert main(["correlate", str(bundle), "--human", "nobody", "--metric", "wer"]) == 1
    assert "no judgments" in capsys.readouterr().err
    assert main(["correlate", str(bundle), "--human", "da", "--metric", "nosuch"]) == 2
    assert main(["correlate", str(bundle), "--human", "da", "--metric", "wer"]) == 0
    assert "0.8000" in capsys.readouterr().out


def test_reliability_cli(tmp_path, capsys):
    systems = {k: HYP_A[i:] + HYP_A[:i] for i, k in enumerate("ABCD")}
    judgments = {}
    for i, k in enumerate("ABCD"):
        judgments[("ann", k)] = [float((i + j) % 5) for j in range(5)]
        judgments[("bob", k)] = [float((i * j) % 5) for j in range(5)]
    bundle = make_bundle(tmp_path / "p.mtwb.json", systems, judgments)
    csv_path = tmp_path / "curves.csv"
    out = run_json(capsys, ["reliability", str(bundle), "--human", "all", "--metric", "wer",
                            "--lengths", "1,2,5,9", "--docs", "20", "--wilcoxon", "--csv", str(csv_path), "--json"])
    assert out["mode"] == "systems" and out["n_docs"] == 20
    labels = [c["label"] for c in out["curves"]]
    assert labels == ["wer", "inter-judge"]
    assert out["curves"][0]["lengths"] == [1, 2, 5]
    assert "9" in out["skipped"]
    assert csv_path.read_text().splitlines()[0] == "label,n,mean_spearman"
    assert out["wilcoxon"] and out["wilcoxon"][0]["a"] == "wer"
    assert [t["length"] for t in out["wilcoxon"]] == [1, 2, 5][: len(out["wilcoxon"])]
    assert all(t["n"] <= 20 for t in out["wilcoxon"])
    assert len(csv_path.read_text().splitlines()) == 1 + sum(len(c["lengths"]) for c in out["curves"])
    # Every system's outputs are a rotation of the same five hypotheses, so at n = 5
    # (the whole corpus) all systems have the same WER: Spearman is undefined.
    assert out["curves"][0]["mean_spearman"][2] is None
    assert out["curves"][0]["defined"][2] == 0


def test_train_learned_then_score_with_the_bundle_model(tmp_path, capsys):
    systems = {"A": HYP_A}
    bundle = make_bundle(tmp_path / "p.mtwb.json", systems, refs=2)
    model_file = tmp_path / "model.json"
    out = run_json(capsys, ["train-learned", str(bundle), "--C", "1,10", "--sigma", "1,3", "--human", "da",
                            "-o", str(model_file), "--json"])
    training = out["training"]
    assert len(training["grid"]) == 4
    assert training["accuracy"] == max(g["accuracy"] for g in training["grid"])
    assert out["saved"] is True
    project = load_bundle(bundle)
    assert project.learned_model["kind"] == "svc-rbf"
    assert json.loads(model_file.read_text())["support_vectors"] == project.learned_model["support_vectors"]
    # The bundle's model and the same model from a file give the same correlation.
    a = run_json(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "learned", "--json"])
    b = run_json(capsys, ["correlate", str(bundle), "--human", "da", "--metric", f"learned:model={model_file}",
                          "--json"])
    assert a["results"][0]["r"] == b["results"][0]["r"]
    assert a["results"][0]["r"] == out["correlation"]["r"]
    # One reference is not enough to train.
    one_ref = make_bundle(tmp_path / "q.mtwb.json")
    assert main(["train-learned", str(one_ref)]) == 1
    assert "two references" in capsys.readouterr().err
