"""``mtworkbench typology``: show, export, import, reset, rename and --max-errors on a bundle."""

from __future__ import annotations

import json

import pytest

from mtworkbench.cli import main
from mtworkbench.core.model import Document, ErrorSpan, Judgment, Paragraph, Project, Segment, System
from mtworkbench.core.mqm_typology import GOOGLE_TYPOLOGY
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle


@pytest.fixture
def bundle(tmp_path):
    p = Project([Document("d", [Paragraph("p", [Segment("a", "Der Hund")])])], systems=[System("S", texts={"a": "The dog"})])
    p.add_judge("r1")
    p.add_judgment(Judgment("j1", "r1", "S", "a", protocol="mqm", errors=(ErrorSpan(0, 3, "Minor", "Fluency/Grammar"),)))
    path = tmp_path / "p.mtwb.json"
    save_bundle(p, path)
    return path


def test_show_lists_keys_and_uses(bundle, capsys):
    assert main(["typology", str(bundle)]) == 0
    out = capsys.readouterr().out
    assert "[a] Accuracy" in out and "    [am] Mistranslation" in out
    assert "[fg] Grammar  (1 errors)" in out and "5 errors a segment" in out


def test_export_edit_import_round_trip(bundle, tmp_path, capsys):
    exported = tmp_path / "t.json"
    assert main(["typology", str(bundle), "--export", str(exported)]) == 0
    data = json.loads(exported.read_text("utf-8"))
    assert data["categories"][0]["name"] == "Accuracy"
    data["categories"] = [c for c in data["categories"] if c["name"] in ("Accuracy", "Style")]
    data["categories"][1]["subcategories"].append({"name": "Wordy", "key": "w"})
    exported.write_text(json.dumps(data), "utf-8")
    assert main(["typology", str(bundle), "--import", str(exported), "--max-errors", "3"]) == 0
    err = capsys.readouterr().err
    assert "kept 1 category in use: Fluency/Grammar" in err
    project = load_bundle(bundle)
    assert project.settings.mqm_typology.names()[-3:] == ("Style/Wordy", "Fluency", "Fluency/Grammar")
    assert project.settings.mqm_max_errors == 3
    assert main(["typology", str(bundle), "--export", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["categories"][1]["subcategories"][-1] == {"name": "Wordy", "key": "w"}
    assert main(["typology", str(bundle), "--reset"]) == 0
    assert load_bundle(bundle).settings.mqm_typology == GOOGLE_TYPOLOGY


def test_rename_updates_the_judgments(bundle, capsys):
    assert main(["typology", str(bundle), "--rename", "Fluency/Grammar", "Syntax"]) == 0
    project = load_bundle(bundle)
    assert project.judgment("j1").errors[0].category == "Fluency/Syntax"
    assert "Fluency/Syntax" in project.settings.mqm_typology


def test_errors_are_one_line_and_change_nothing(bundle, tmp_path, capsys):
    before = bundle.read_bytes()
    bad = tmp_path / "bad.json"
    bad.write_text('{"categories": [{"name": "A", "key": "a"}, {"name": "B", "key": "a"}]}', "utf-8")
    assert main(["typology", str(bundle), "--import", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}: $.categories[1].key: key 'a' is taken by 'A'" in err and err.count("\n") == 1
    assert main(["typology", str(bundle), "--rename", "Fluency/Grammar", "Spelling"]) == 1
    assert "subcategory 'Spelling' already" in capsys.readouterr().err
    assert main(["typology", str(bundle), "--rename", "Nope", "X"]) == 1
    assert "no category 'Nope'" in capsys.readouterr().err
    assert main(["typology", str(bundle), "--max-errors", "0"]) == 2
    assert main(["typology", str(bundle), "--reset", "--export", "x.json"]) == 2
    assert bundle.read_bytes() == before
