"""Messages name what failed and stay readable: a full disk names the file, a differing
text shows where it differs, echoed data is cut, MUC types read back, and file names
that are not UTF-8 are named instead of failing the message."""

from __future__ import annotations

import errno
import os
import sys

import pytest

from mtworkbench.cli import main
from mtworkbench.core import atomic
from mtworkbench.core.model import EntityTypeStyle
from mtworkbench.core.scoring_input import EntityMention
from mtworkbench.io.annotations.entity_records import AnnotatedText
from mtworkbench.io.annotations.muc import read_muc, write_muc
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle

from .helpers import cli, project


@pytest.fixture
def bundle(tmp_path):
    path = tmp_path / "p.mtwb.json"
    save_bundle(project(), path)
    return path


def test_a_full_disk_names_the_file(bundle, tmp_path, monkeypatch, capsys):
    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", full)
    out = tmp_path / "judgments.csv"
    assert main(["judgments", "export", str(bundle), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert str(out) in err and "No space left on device" in err
    assert not out.exists() and not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert main(["typology", str(bundle), "--rename", "Accuracy", "Genauigkeit"]) == 1
    assert str(bundle) in capsys.readouterr().err


def test_a_missing_folder_names_the_target_not_a_temporary_file(bundle, tmp_path, capsys):
    out = tmp_path / "no-such-folder" / "j.csv"
    assert main(["judgments", "export", str(bundle), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert str(out) in err and ".tmp" not in err


def test_a_differing_text_says_where_it_differs(bundle, tmp_path, capsys):
    prefix = "Ein sehr langer gemeinsamer Anfang, länger als vierzig Zeichen: "
    p = load_bundle(bundle)
    p.reference("r1").texts["s1"] = prefix + "Привет мир"
    save_bundle(p, bundle)
    jsonl = tmp_path / "e.jsonl"
    jsonl.write_text('{"segment": "s1", "text": "' + prefix + 'Привет миф", "entities": []}\n', encoding="utf-8")
    assert main(["entities", "import", str(bundle), str(jsonl), "--reference", "r1", "--annotator", "a"]) == 1
    err = capsys.readouterr().err
    assert f"at character {len(prefix) + 10}" in err
    assert "мир" in err and "миф" in err


def test_a_megabyte_of_bad_data_is_not_echoed_whole(bundle, tmp_path):
    token = "Ж" * 1_000_000
    conll = tmp_path / "e.conll"
    rest = "".join(f"ref\tO\ns{k}\tO\n{'y' * 20}\tO\n\n" for k in (2, 3))
    conll.write_text(f"{token}\tB-PERSON\ns1\tO\n{'y' * 20}\tO\n\n{rest}", encoding="utf-8")
    result = cli("entities", "import", str(bundle), str(conll), "--reference", "r1", "--annotator", "a")
    assert result.returncode == 1
    assert len(result.stderr) < 5000 and "more" in result.stderr
    csv = tmp_path / "j.csv"
    csv.write_text("judge,system,segment,reference,adequacy,fluency,seconds,comment\n"
                   f"x,sys1,s2,r1,{'9' * 1_000_000}x,4,1,\n", encoding="utf-8")
    result = cli("judgments", "import", str(bundle), str(csv))
    assert result.returncode == 1 and len(result.stderr) < 5000 and "j.csv" in result.stderr


@pytest.mark.parametrize("entity_type", ['"><x>T', "A&B", "<ORG>", "Ärzte<&>\"'", "人名"])
def test_muc_types_with_markup_characters_read_back(tmp_path, entity_type):
    path = tmp_path / "e.muc"
    write_muc(path, [AnnotatedText("Bonn liegt am Rhein", [EntityMention(0, 4, entity_type)])])
    assert read_muc(path)[0].mentions == [EntityMention(0, 4, entity_type)]


@pytest.mark.parametrize("entity_type", [" PER", "PER ", "A\nB"])
def test_muc_types_that_cannot_read_back_are_refused_by_name(tmp_path, entity_type):
    from mtworkbench.core.errors import DataError

    with pytest.raises(DataError, match="cannot be written in MUC"):
        write_muc(tmp_path / "e.muc", [AnnotatedText("Bonn liegt", [EntityMention(0, 4, entity_type)])])
    assert not (tmp_path / "e.muc").exists()


def test_a_muc_export_of_a_project_type_with_markup_imports_again(bundle, tmp_path, capsys):
    from mtworkbench.core.model import EntitySpan

    p = load_bundle(bundle)
    p.set_setting("entity_types", [*p.settings.entity_types, EntityTypeStyle('"><x>T', "q", "#ff0000")])
    p.add_span(EntitySpan("e1", "r1", "s1", 0, 3, '"><x>T', "ann"))
    save_bundle(p, bundle)
    out = tmp_path / "e.muc"
    assert main(["entities", "export", str(bundle), str(out), "--reference", "r1"]) == 0, capsys.readouterr()
    assert main(["entities", "import", str(bundle), str(out), "--reference", "r1", "--annotator", "again"]) == 0, \
        capsys.readouterr()
    assert [s.type for s in load_bundle(bundle).spans if s.annotator == "again"] == ['"><x>T']


@pytest.mark.skipif(sys.platform == "win32" or sys.platform == "darwin",
                    reason="file names must be able to hold bytes that are not UTF-8")
def test_file_names_that_are_not_utf8_are_named(tmp_path):
    folder = os.fsencode(tmp_path)
    src = folder + b"/\xfe-source.txt"
    with open(src, "wb") as f:
        f.write("Guten Morgen\nДобрый день\n".encode())
    out = folder + b"/\xff.mtwb.json"
    env = dict(os.environ, PYTHONPATH=os.fsdecode(os.path.dirname(os.path.dirname(os.path.dirname(__file__)))))
    import subprocess

    def run(*args):
        return subprocess.run([sys.executable.encode(), b"-m", b"mtworkbench", *args], env=env,
                              capture_output=True, timeout=120)

    made = run(b"import", b"--source", src, b"--ref", src, b"--system", b"s=" + src, b"-o", out)
    assert made.returncode == 0, made.stderr
    assert b"codec" not in made.stderr
    scored = run(b"score", out, b"--metric", b"bleu")
    assert scored.returncode == 0, scored.stderr
    missing = run(b"judgments", b"import", out, folder + b"/\xfd-missing.csv")
    assert missing.returncode == 1 and b"codec" not in missing.stderr
    assert b"missing.csv" in missing.stderr
    refused = run(b"judgments", b"export", out, b"-o", folder + b"/no-folder/\xfc.csv")
    assert refused.returncode == 1 and b"codec" not in refused.stderr and b".csv" in refused.stderr


def test_text_that_cannot_be_encoded_is_refused_naming_the_file(tmp_path):
    from mtworkbench.core.errors import DataError

    target = tmp_path / "out.csv"
    with pytest.raises(DataError, match=r"out\.csv: cannot be written: .*name-\\udcff-here"):
        atomic.atomic_write_text(target, "a long line before the name-\udcff-here and after", keep_backup=False)
    assert not target.exists()
