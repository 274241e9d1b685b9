"""Every command's output file (-o, --export, --csv, --html): '-' is standard output,
/dev/stdout works, and a FIFO or device named there is written to, never replaced."""

from __future__ import annotations

import os
import stat
import threading

import pytest

from mtworkbench.cli import main
from mtworkbench.core.model import EntitySpan, Judgment
from mtworkbench.core.output import write_output
from mtworkbench.io.bundle.bundle import load_bundle, loads, save_bundle

from .helpers import cli, project

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")


@pytest.fixture
def bundle(tmp_path):
    p = project()
    p.add_span(EntitySpan("e1", "r1", "s1", 0, 3, "PERSON", "ann"))
    p.add_judgment(Judgment("j2", "ann", "sys1", "s2", "r1", score=70.0, scale="da", protocol="da"))
    p.add_judgment(Judgment("j3", "ann", "sys1", "s3", "r1", score=20.0, scale="esa", protocol="esa"))
    path = tmp_path / "p.mtwb.json"
    save_bundle(p, path)
    return path


# (command line with OUT for the output, text the output must contain)
COMMANDS = [
    (["export", "{b}", "--format", "tsv", "-o", "OUT"], "source"),
    (["export", "{b}", "--format", "wmt-xml", "-o", "OUT"], "<seg"),
    (["judgments", "export", "{b}", "-o", "OUT"], "judge,system"),
    (["judgments", "export", "{b}", "--format", "da", "-o", "OUT"], "rater,system"),
    (["judgments", "export", "{b}", "--format", "esa", "-o", "OUT"], "rater,system"),
    (["typology", "{b}", "--export", "OUT"], "Accuracy"),
    (["entities", "export", "{b}", "OUT", "--reference", "r1", "--format", "jsonl"], "PER"),
    (["entities", "export", "{b}", "OUT", "--reference", "r1", "--format", "muc"], "ENAMEX"),
    (["entities", "export", "{b}", "OUT", "--reference", "r1", "--format", "conll"], "PER"),
]


def _args(template, bundle, out):
    return [str(bundle) if a == "{b}" else str(out) if a == "OUT" else a for a in template]


@needs_fifo
@pytest.mark.parametrize("template,expected", COMMANDS, ids=[" ".join(c[0][:3]) for c in COMMANDS])
def test_a_fifo_named_as_output_is_written_to_and_stays_a_fifo(bundle, tmp_path, template, expected, capsys):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
    reader.start()
    code = main(_args(template, bundle, fifo))
    reader.join(timeout=30)
    assert code == 0, capsys.readouterr().err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and expected in got[0].decode("utf-8")
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@needs_fifo
def test_a_bundle_written_into_a_fifo(bundle, tmp_path, capsys):
    fifo = tmp_path / "bundle.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
    reader.start()
    csv = tmp_path / "e.jsonl"
    csv.write_text('{"segment": "s1", "text": "ref s1 yyyyyyyyyyyyyyyyyyyy", '
                   '"entities": [{"start": 0, "end": 3, "type": "LOCATION"}]}\n', encoding="utf-8")
    code = main(["entities", "import", str(bundle), str(csv), "--reference", "r1", "--annotator", "b",
                 "--create-types", "-o", str(fifo)])
    reader.join(timeout=30)
    assert code == 0, capsys.readouterr().err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert any(s.annotator == "b" for s in loads(got[0].decode("utf-8")).spans)
    assert not (tmp_path / ".bundle.fifo.lock").exists()  # nothing to lock: it is not a file


def test_a_character_device_stays_a_device(bundle, tmp_path, capsys):
    node = tmp_path / "null"
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # what /dev/null is
    except (PermissionError, AttributeError, OSError):
        pytest.skip("creating a device node needs root")
    try:
        os.close(os.open(node, os.O_WRONLY))
        writable = True
    except OSError:  # a file system mounted nodev
        writable = False
    code = main(["judgments", "export", str(bundle), "-o", str(node)])
    assert stat.S_ISCHR(os.lstat(node).st_mode)
    err = capsys.readouterr().err
    assert code == (0 if writable else 1), err
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_dash_is_standard_output_for_every_writer(bundle, capsys):
    for args, expected in ((["judgments", "export", str(bundle), "--format", "da", "-o", "-"], "rater,system"),
                           (["export", str(bundle), "--format", "tsv", "-o", "-"], "source"),
                           (["entities", "export", str(bundle), "-", "--reference", "r1", "--format", "jsonl"],
                            "PER")):
        assert main(args) == 0
        out = capsys.readouterr().out
        assert expected in out
        assert "wrote" not in out  # messages go to stderr when the data goes to stdout


@pytest.mark.parametrize("name", ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
def test_dev_stdout_reaches_the_pipe(bundle, tmp_path, name):
    if not os.path.exists(name):
        pytest.skip(f"no {name} here")
    for args, expected in ((["judgments", "export", str(bundle), "--format", "esa", "-o", name], "rater,system"),
                           (["export", str(bundle), "--format", "tsv", "-o", name], "source"),
                           (["typology", str(bundle), "--export", name], "Accuracy")):
        result = cli(*args)
        assert result.returncode == 0, result.stderr
        assert expected in result.stdout
        assert ".tmp" not in result.stderr
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_folder_is_refused_by_name(tmp_path):
    with pytest.raises(IsADirectoryError) as info:
        write_output(tmp_path, "x")
    assert str(tmp_path) in str(info.value.filename)


def test_a_regular_file_is_still_replaced_atomically(bundle, tmp_path):
    out = tmp_path / "j.csv"
    out.write_text("old")
    assert main(["judgments", "export", str(bundle), "--format", "da", "-o", str(out)]) == 0
    assert out.read_text().startswith("rater,system") and stat.S_ISREG(os.lstat(out).st_mode)
    assert load_bundle(bundle).judgments  # the bundle itself untouched


@pytest.mark.parametrize("name", ["-", "/dev/stdout"])
def test_a_bundle_to_standard_output_is_only_the_bundle(tmp_path, name):
    if name != "-" and not os.path.exists(name):
        pytest.skip(f"no {name} here")
    src = tmp_path / "src.txt"
    src.write_text("Guten Morgen\n早上好\nДоброе утро\n", encoding="utf-8")
    result = cli("import", "--source", str(src), "--ref", str(src), "-o", name)
    assert result.returncode == 0, result.stderr
    assert [s.source for s in loads(result.stdout).segments] == ["Guten Morgen", "早上好", "Доброе утро"]
    assert "wrote" in result.stderr
    assert not (tmp_path / "-").exists() and not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
