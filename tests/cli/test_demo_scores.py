"""The demo ships its DA scores already imported (pseudo-judge ``da``), so it is a
meta-evaluation example on first start; the file stays for trying the import."""

from __future__ import annotations

import json
import shutil

import sacrebleu
from scipy import stats

from mtworkbench.cli import main
from mtworkbench.io.bundle.bundle import load_bundle
from mtworkbench.resources import demo_project_path, resource_path


def test_demo_da_scores_import_and_correlate(tmp_path, capsys):
    bundle = tmp_path / "demo.mtwb.json"
    shutil.copy(demo_project_path(), bundle)
    scores = resource_path("demo", "da-z.scores")
    project = load_bundle(bundle)
    shipped = {j.segment: j.score for j in project.judgments if j.judge == "da"}
    lines = [float(x) for x in scores.read_text(encoding="utf-8").split()]
    assert [shipped[sid] for sid in project.segment_ids] == lines
    assert {j.scale for j in project.judgments if j.judge == "da"} == {"da-z"}
    # Importing the file again is refused, naming the judge and system.
    assert main(["judgments", "import-scores", str(bundle), "--judge", "da", "--system", "mt",
                 "--scores", str(scores), "--scale", "da-z"]) == 1
    assert "judge 'da' already has judgments of system 'mt'" in capsys.readouterr().err
    capsys.readouterr()
    assert main(["correlate", str(bundle), "--human", "da:score", "--metric", "chrf",
                 "--level", "segment", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)["results"][0]

    # Independently: sacrebleu's sentence chrF against both references, Pearson with the DA lines.
    ids = project.segment_ids
    refs = [[project.reference_text(r.id, sid) for r in project.references] for sid in ids]
    chrf = [sacrebleu.sentence_chrf(project.system_text("mt", sid), rs).score for sid, rs in zip(ids, refs)]
    da = [float(x) for x in scores.read_text(encoding="utf-8").split()]
    assert result["n"] == 50
    assert abs(result["r"] - stats.pearsonr(chrf, da)[0]) < 1e-9
