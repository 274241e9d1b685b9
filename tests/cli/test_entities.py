"""``mtworkbench entities``: import/export in every format through the CLI,
refused input exits 1 with file, line and column, compare prints agreement."""

from __future__ import annotations

import json

import pytest

from mtworkbench.cli import main
from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle

REF = ["Chirac visited Bonn.", "No names here.", "Kohl met Chirac in Bonn."]
MUC = [
    '<ENAMEX TYPE="PERSON">Chirac</ENAMEX> visited <ENAMEX TYPE="LOCATION">Bonn</ENAMEX>.',
    "No names here.",
    '<ENAMEX TYPE="PERSON">Kohl</ENAMEX> met <ENAMEX TYPE="PERSON">Chirac</ENAMEX> in Bonn.',
]


@pytest.fixture
def bundle(tmp_path):
    seg_ids = ["1", "2", "3"]
    project = Project(documents=[Document("d", [Paragraph("p", [Segment(s, "src") for s in seg_ids])])])
    project.add_reference(Reference("ref1", texts=dict(zip(seg_ids, REF))))
    project.add_system(System("mt", texts=dict(zip(seg_ids, ["Chirac went to Bonn.", "Nothing.", "Kohl saw him."]))))
    path = tmp_path / "p.mtwb.json"
    save_bundle(project, path)
    return path


def entity_rows(path, annotator="ann"):
    project = load_bundle(path)
    return [(s.segment, s.start, s.end, s.type) for s in project.spans if s.annotator == annotator]


EXPECTED = [("1", 0, 6, "PERSON"), ("1", 15, 19, "LOCATION"), ("3", 0, 4, "PERSON"), ("3", 9, 15, "PERSON")]


def test_import_muc_then_round_trip_through_every_format(bundle, tmp_path, capsys):
    muc = tmp_path / "in.sgml"
    muc.write_text("\n".join(MUC) + "\n", encoding="utf-8")
    assert main(["entities", "import", str(bundle), str(muc), "--reference", "ref1", "--annotator", "ann"]) == 0
    assert "imported 4 entities in 2 segments" in capsys.readouterr().out
    assert entity_rows(bundle) == EXPECTED
    for fmt, name in (("muc", "x.sgml"), ("conll", "x.conll"), ("brat", "x"), ("jsonl", "x.jsonl")):
        out = tmp_path / name
        assert main(["entities", "export", str(bundle), str(out), "--reference", "ref1", "--annotator", "ann", "--format", fmt]) == 0
        who = f"via-{fmt}"
        assert main(["entities", "import", str(bundle), str(out), "--reference", "ref1", "--annotator", who, "--format", fmt]) == 0
        assert entity_rows(bundle, who) == EXPECTED, fmt
    capsys.readouterr()
    assert main(["entities", "list", str(bundle)]) == 0
    assert "ref1\tann\t4" in capsys.readouterr().out


def test_exported_muc_is_exactly_the_tagged_text(bundle, tmp_path):
    muc = tmp_path / "in.sgml"
    muc.write_text("\n".join(MUC) + "\n", encoding="utf-8")
    main(["entities", "import", str(bundle), str(muc), "--reference", "ref1", "--annotator", "ann"])
    out = tmp_path / "out.sgml"
    main(["entities", "export", str(bundle), str(out), "--reference", "ref1"])
    assert out.read_text(encoding="utf-8") == muc.read_text(encoding="utf-8")


def test_malformed_file_exits_1_with_line_and_column(bundle, tmp_path, capsys):
    bad = tmp_path / "bad.sgml"
    bad.write_text(MUC[0] + "\nNo names here.\nKohl</ENAMEX> met Chirac in Bonn.\n", encoding="utf-8")
    assert main(["entities", "import", str(bundle), str(bad), "--reference", "ref1", "--annotator", "ann"]) == 1
    err = capsys.readouterr().err
    assert f"{bad}, line 3, column 5: </ENAMEX> closes no open tag" in err
    assert "Traceback" not in err
    assert entity_rows(bundle) == []  # the bundle was not touched


def test_text_mismatch_and_unknown_types_are_refused(bundle, tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"segment": "1", "text": "Chirac visited Berlin."}\n', encoding="utf-8")
    assert main(["entities", "import", str(bundle), str(bad), "--reference", "ref1", "--annotator", "a"]) == 1
    assert "line 1: the text differs from reference segment '1'" in capsys.readouterr().err
    series = tmp_path / "s.jsonl"
    series.write_text('{"segment": "2", "text": "No names here.", "entities": [{"start": 3, "end": 8, "type": "TV_SERIES"}]}\n', encoding="utf-8")
    assert main(["entities", "import", str(bundle), str(series), "--reference", "ref1", "--annotator", "a"]) == 1
    assert "unknown entity type 'TV_SERIES'" in capsys.readouterr().err
    assert main(["entities", "import", str(bundle), str(series), "--reference", "ref1", "--annotator", "a", "--create-types"]) == 0
    project = load_bundle(bundle)
    assert "TV_SERIES" in project.entity_type_names
    keys = [t.key for t in project.settings.entity_types]
    assert keys[-1] == "V" and len(set(keys)) == len(keys)  # T is taken by TIME
    # A second import by the same annotator needs --replace.
    assert main(["entities", "import", str(bundle), str(series), "--reference", "ref1", "--annotator", "a"]) == 1
    assert "--replace" in capsys.readouterr().err
    assert main(["entities", "import", str(bundle), str(series), "--reference", "ref1", "--annotator", "a", "--replace"]) == 0
    assert len(entity_rows(bundle, "a")) == 1


def test_conll_aliases_and_new_reference(bundle, tmp_path, capsys):
    conll = tmp_path / "x.conll"
    conll.write_text("Kohl B-PER\nreist O\n\nnichts O\n\nnach O\nBonn B-LOC\n", encoding="utf-8")
    assert main(["entities", "import", str(bundle), str(conll), "--reference", "de", "--annotator", "a"]) == 0
    project = load_bundle(bundle)
    assert project.reference("de").texts == {"1": "Kohl reist", "2": "nichts", "3": "nach Bonn"}
    assert [(s.segment, s.type) for s in project.spans] == [("1", "PERSON"), ("3", "LOCATION")]


def test_compare_and_usage_errors(bundle, tmp_path, capsys):
    muc = tmp_path / "in.sgml"
    muc.write_text("\n".join(MUC) + "\n", encoding="utf-8")
    main(["entities", "import", str(bundle), str(muc), "--reference", "ref1", "--annotator", "a"])
    other = tmp_path / "b.sgml"
    other.write_text("\n".join([MUC[0], MUC[1], REF[2]]) + "\n", encoding="utf-8")
    main(["entities", "import", str(bundle), str(other), "--reference", "ref1", "--annotator", "b"])
    capsys.readouterr()
    assert main(["entities", "compare", str(bundle), "a", "b", "--reference", "ref1", "--all-segments",
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    # a has 4 entities, b the 2 of line 1: F1 = 2*2/(4+2).
    assert result["entities"] == [4, 2] and result["matched"] == 2
    assert result["f1"] == pytest.approx(4 / 6)
    # by default only line 1, the one segment b marked anything in, is compared
    assert main(["entities", "compare", str(bundle), "a", "b", "--reference", "ref1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["segments"] == 1 and result["entities"] == [2, 2] and result["f1"] == 1.0
    assert main(["entities", "export", str(bundle), str(tmp_path / "x.txt2"), "--reference", "ref1", "--annotator", "a"]) == 2
    assert "give --format" in capsys.readouterr().err
    assert main(["entities", "export", str(bundle), str(tmp_path / "x.jsonl"), "--reference", "ref1"]) == 1
    assert "name the annotator" in capsys.readouterr().err


def test_score_bundle_with_nee(bundle, tmp_path, capsys):
    muc = tmp_path / "in.sgml"
    muc.write_text("\n".join(MUC) + "\n", encoding="utf-8")
    main(["entities", "import", str(bundle), str(muc), "--reference", "ref1", "--annotator", "a"])
    capsys.readouterr()
    # Segment units: seg1 Chirac, Bonn found (2/2); seg3 Kohl found, Chirac not (1/2) -> 3/4.
    assert main(["score", str(bundle), "--metric", "nee:unit=segment", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    entry = next(s for s in out["scores"] if s["metric"] == "nee")
    assert entry["corpus"] == pytest.approx(3 / 4)
    assert entry["by_type"] == {"LOCATION": {"found": 1, "total": 1}, "PERSON": {"found": 2, "total": 3}}
