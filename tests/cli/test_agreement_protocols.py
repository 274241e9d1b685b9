"""``mtworkbench agreement`` on DA, MQM and relative-ranking bundles (issue 15, item 8):
the JSON sections and the text tables. The values are the hand-computed ones of
tests/analysis/test_protocol_agreement.py, read back through a saved bundle."""

from __future__ import annotations

import json
import math

import pytest

from mtworkbench.cli import main
from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from tests.analysis.test_protocol_agreement import da_project, mqm, ranking_project


def bundle_of(tmp_path, judgments, systems=("A",)) -> str:
    from mtworkbench.io.bundle.bundle import save_bundle

    seg_ids = [str(i) for i in range(1, 5)]
    project = Project(
        documents=[Document("d", [Paragraph("p", [Segment(s, f"Quelle {s}") for s in seg_ids])])],
        references=[Reference("r1", texts={s: f"Referenz {s}" for s in seg_ids})],
        systems=[System(name, texts={s: f"Ausgabe {name} {s} mit Fehlern" for s in seg_ids}) for name in systems],
    )
    for judge in dict.fromkeys(j.judge for j in judgments):
        project.add_judge(judge)
    for j in judgments:
        project.add_judgment(j)
    path = tmp_path / "p.mtwb.json"
    save_bundle(project, path)
    return str(path)


def run_json(capsys, *args) -> dict:
    assert main(["agreement", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_da_bundle_json(tmp_path, capsys):
    data = run_json(capsys, bundle_of(tmp_path, da_project()))
    assert data["protocols"] == ["da"]
    [pair] = data["scores"]
    assert pair["protocol"] == "da" and pair["judges"] == ["ann", "bob"] and pair["n"] == 4
    assert pair["mean_abs_diff"] == 7.5
    assert pair["pearson"] == pytest.approx(math.sqrt(0.6))
    assert pair["spearman"] == pytest.approx(3.5 / math.sqrt(22.5))
    [repeat] = data["score_intra"]
    assert (repeat["judge"], repeat["n"], repeat["mean_abs_diff"]) == ("ann", 2, 2.0)
    assert "ranking" not in data
    assert [c["rater"] for c in data["quality_control"]] == ["ann"]  # the BAD copy is judged there


def test_da_bundle_text(tmp_path, capsys):
    assert main(["agreement", bundle_of(tmp_path, da_project())]) == 0
    out = capsys.readouterr().out
    assert "DA scores (0-100)" in out and "LDC adequacy/fluency" not in out
    row = next(line for line in out.splitlines() if line.startswith("ann") and "bob" in line)
    assert row.split() == ["ann", "bob", "4", f"{math.sqrt(0.6):.3f}", f"{3.5 / math.sqrt(22.5):.3f}", "7.500"]
    repeat = next(line for line in out.splitlines() if line.split()[:2] == ["ann", "2"])
    assert repeat.split()[2:5] == ["2.000", "1.000", "1.000"]


def test_mqm_scores_follow_the_weights_option(tmp_path, capsys):
    judgments = [
        mqm("r1a", "r1", 1, ("Major", "Accuracy/Mistranslation")), mqm("r1b", "r1", 2),
        mqm("r1c", "r1", 3, ("Minor", "Fluency/Grammar"), ("Minor", "Style/Awkward")),
        mqm("r2a", "r2", 1, ("Minor", "Fluency/Grammar")), mqm("r2b", "r2", 2),
        mqm("r2c", "r2", 3, ("Major", "Accuracy/Omission")),
    ]
    path = bundle_of(tmp_path, judgments)
    [pair] = run_json(capsys, path)["scores"]
    # r1 -5, 0, -2; r2 -1, 0, -5: differences 4, 0, 3.
    assert pair["protocol"] == "mqm" and pair["mean_abs_diff"] == pytest.approx(7 / 3)
    [pair] = run_json(capsys, path, "--weights", "major=10")["scores"]
    assert pair["mean_abs_diff"] == pytest.approx((9 + 0 + 8) / 3)  # r1 -10, 0, -2; r2 -1, 0, -10


def test_ranking_bundle_json_and_text(tmp_path, capsys):
    path = bundle_of(tmp_path, ranking_project(), systems=("A", "B", "C"))
    data = run_json(capsys, path)
    assert data["protocols"] == ["rank"] and data["pairs"] == [] and data["scores"] == []
    ranking = data["ranking"]
    assert ranking["inter"]["n"] == 4 and ranking["inter"]["kappa"] == pytest.approx(5 / 21)
    assert ranking["inter"]["p_chance"] == pytest.approx(11 / 32)
    assert ranking["intra"]["kappa"] == pytest.approx(7 / 15)
    assert [p["judges"] for p in ranking["pairs"]] == [["ann", "bob"]]
    assert main(["agreement", path]) == 0
    out = capsys.readouterr().out
    assert "WMT 2013-2016" in out and "no two judges" not in out
    inter = next(line for line in out.splitlines() if line.startswith("inter-annotator"))
    assert inter.split()[-4:] == ["4", "0.500", "0.344", f"{5 / 21:.3f}"]
    intra = next(line for line in out.splitlines() if line.startswith("intra-annotator"))
    assert intra.split()[-4:] == ["3", "0.667", "0.375", f"{7 / 15:.3f}"]
