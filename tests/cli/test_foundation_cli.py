"""The foundation commands as a user runs them: exit codes, messages, JSON contract."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mtworkbench.cli import main
from mtworkbench.io.bundle.bundle import load_bundle
from mtworkbench.resources import demo_project_path


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture
def corpus(tmp_path):
    src = write(tmp_path / "src.txt", ["üks kaks", "kolm", ""])
    ref1 = write(tmp_path / "ref1.txt", ["one two", "three four", ""])
    ref2 = write(tmp_path / "ref2.txt", ["one too", "three", "nothing"])
    mt = write(tmp_path / "mt.txt", ["one two", "three", "x"])
    return tmp_path, src, ref1, ref2, mt


def run_cli(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_score_plain_files_json_contract(capsys, corpus):
    _, _, ref1, ref2, mt = corpus
    code, out, err = run_cli(capsys, "score", "--hyp", mt, "--ref", ref1, "--ref", ref2, "--metric", "wer", "--metric", "per", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["n_segments"] == 3
    assert [s["metric"] for s in data["scores"]] == ["wer", "per"]
    wer = data["scores"][0]
    assert set(wer) >= {"metric", "system", "options", "signature", "corpus", "segments"}
    assert wer["system"] is None
    assert len(wer["segments"]) == 3
    # Hand-derived: seg 1 matches ref1 exactly (0 edits); seg 2 matches ref2 "three" (0 edits);
    # seg 3: "x" vs "" -> 1 insertion, vs "nothing" -> 1 substitution over 1 word. Minimum over refs.
    assert wer["segments"][:2] == [0.0, 0.0]
    assert "nrefs:2" in wer["signature"]


def test_score_readable_table(capsys, corpus):
    _, _, ref1, _, mt = corpus
    code, out, _ = run_cli(capsys, "score", "--hyp", mt, "--ref", ref1, "--metric", "wer")
    assert code == 0
    assert out.splitlines()[0] == "3 segments"
    assert out.splitlines()[2].startswith("wer")


def test_unknown_metric_is_a_usage_error_listing_metrics(capsys, corpus):
    _, _, ref1, _, mt = corpus
    code, _, err = run_cli(capsys, "score", "--hyp", mt, "--ref", ref1, "--metric", "blue")
    assert code == 2
    assert "unknown metric 'blue'" in err and "bleu" in err and "gtm" in err
    assert "Traceback" not in err


def test_unknown_option_is_a_usage_error_listing_options(capsys, corpus):
    _, _, ref1, _, mt = corpus
    code, _, err = run_cli(capsys, "score", "--hyp", mt, "--ref", ref1, "--metric", "bleu:tokenise=none")
    assert code == 2
    assert "unknown option tokenise" in err and "tokenize" in err


def test_line_count_mismatch_is_a_data_error(capsys, corpus, tmp_path):
    _, _, ref1, _, _ = corpus
    short = write(tmp_path / "short.txt", ["one"])
    code, _, err = run_cli(capsys, "score", "--hyp", short, "--ref", ref1, "--metric", "wer")
    assert code == 1
    assert "short.txt: 1 lines" in err and "ref1.txt: 3 lines" in err
    assert len(err.strip().splitlines()) == 1


def test_missing_file_is_a_data_error(capsys, corpus, tmp_path):
    _, _, ref1, _, _ = corpus
    code, _, err = run_cli(capsys, "score", "--hyp", tmp_path / "nope.txt", "--ref", ref1, "--metric", "wer")
    assert code == 1 and "nope.txt" in err and "No such file" in err


def test_invalid_utf8_is_a_data_error(capsys, corpus, tmp_path):
    _, _, ref1, _, _ = corpus
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"a\nb\n\xff\n")
    code, _, err = run_cli(capsys, "score", "--hyp", bad, "--ref", ref1, "--metric", "wer")
    assert code == 1 and "invalid UTF-8 at byte offset 4" in err


def test_import_validate_score_export_round_trip(capsys, corpus, tmp_path):
    _, src, ref1, ref2, mt = corpus
    bundle = tmp_path / "p.mtwb.json"
    code, out, err = run_cli(capsys, "import", "--source", src, "--ref", ref1, "--ref", ref2, "--system", f"mt={mt}",
                             "--src-lang", "et", "--tgt-lang", "en", "-o", bundle)
    assert code == 0, err
    project = load_bundle(bundle)
    assert project.segment_ids == ["1", "2", "3"] and project.source_language == "et"
    assert project.segment("3").source == ""  # empty lines are kept

    code, out, _ = run_cli(capsys, "validate", bundle)
    assert code == 0 and "3 segments, 2 references, 1 system," in out

    code, out, _ = run_cli(capsys, "score", bundle, "--metric", "wer", "--json")
    from_bundle = json.loads(out)["scores"][0]
    code, out, _ = run_cli(capsys, "score", "--hyp", mt, "--ref", ref1, "--ref", ref2, "--metric", "wer", "--json")
    from_files = json.loads(out)["scores"][0]
    assert from_bundle["system"] == "mt"
    assert from_bundle["segments"] == from_files["segments"]
    assert from_bundle["corpus"] == from_files["corpus"]

    out_dir = tmp_path / "exported"
    code, _, _ = run_cli(capsys, "export", bundle, "-o", out_dir)
    assert code == 0
    assert (out_dir / "sys-mt.txt").read_text(encoding="utf-8") == mt.read_text(encoding="utf-8")
    assert (out_dir / "source.txt").read_text(encoding="utf-8") == src.read_text(encoding="utf-8")


def test_import_bad_system_argument_is_usage_error(capsys, corpus, tmp_path):
    _, src, ref1, _, mt = corpus
    code, _, err = run_cli(capsys, "import", "--source", src, "--ref", ref1, "--system", str(mt), "-o", tmp_path / "x.mtwb.json")
    assert code == 2 and "ID=FILE" in err


def test_validate_broken_bundle_names_the_problem(capsys, tmp_path):
    data = json.loads(demo_project_path().read_text(encoding="utf-8"))
    data["format_version"] = 7
    bad = tmp_path / "bad.mtwb.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run_cli(capsys, "validate", bad)
    assert code == 1
    assert "$.format_version: format_version 7 is newer" in err


def test_score_bundle_unknown_system(capsys):
    code, _, err = run_cli(capsys, "score", demo_project_path(), "--system", "nope", "--metric", "wer")
    assert code == 1 and "no system 'nope'" in err and "systems: mt" in err


def test_entry_point_runs_as_module():
    out = subprocess.run([sys.executable, "-m", "mtworkbench", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("mtworkbench ")


def test_no_arguments_usage_error_for_unknown_command(capsys):
    code, _, err = run_cli(capsys, "frobnicate")
    assert code == 2 and "invalid choice" in err
