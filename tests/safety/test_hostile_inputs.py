"""Only savable data loads, only regular bounded files are read, no silent garbage, no tracebacks."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest

from mtworkbench.cli import main
from mtworkbench.core.errors import BundleError, DataError
from mtworkbench.core.files import read_regular_bytes
from mtworkbench.core.metric_files import FILE_OPTIONS, file_options_in_spec
from mtworkbench.io.bundle.bundle import dumps, loads, project_to_dict
from mtworkbench.io.bundle.json_checks import MAX_DEPTH, parse_json
from mtworkbench.io.corpora.plaintext import detect_wide_encoding, read_lines, read_text

from .helpers import env, project


def good_text() -> str:
    return dumps(project())


def _with_seconds(raw: str) -> str:
    data = good_text()
    assert '"seconds": 0.0' in data
    return data.replace('"seconds": 0.0', f'"seconds": {raw}', 1)


# (name, bundle text, JSON path in the message, words in the message)
UNSAVABLE = [
    ("NaN", _with_seconds("NaN"), "$.judgments[0].seconds", "NaN"),
    ("Infinity", _with_seconds("Infinity"), "$.judgments[0].seconds", "Infinity"),
    ("-Infinity", _with_seconds("-Infinity"), "$.judgments[0].seconds", "-Infinity"),
    ("1e400", _with_seconds("1e400"), "$.judgments[0].seconds", "out of range"),
    ("5000 digits", _with_seconds("9" * 5000), "$.judgments[0].seconds", "5000 digits"),
    ("400-digit int as a float", _with_seconds("9" * 400), "$.judgments[0].seconds", "too large"),
    ("lone surrogate", good_text().replace('"hyp 0 s1 ', '"\\ud800 ', 1),
     "$.systems[0].texts.s1", "lone surrogate U+D800"),
    ("lone low surrogate in a key", good_text().replace('"s2": "ref', '"\\udc00x": "ref', 1),
     "$.references[0].texts.\udc00x", "lone surrogate U+DC00"),
    ("nested 100,000 deep", "[" * 100_000 + "]" * 100_000, "$", "nested deeper"),
    ("deep learned_model", good_text()[:-2] + ', "learned_model": ' + "[" * 60 + "]" * 60 + "}\n",
     "$.learned_model" + "[0]" * (MAX_DEPTH - 1), "nested deeper"),
]


@pytest.mark.parametrize("name,text,path,words", UNSAVABLE, ids=[c[0] for c in UNSAVABLE])
def test_unsavable_bundles_are_refused_with_their_path(name, text, path, words):
    with pytest.raises(BundleError) as caught:
        loads(text, file="x.mtwb.json")
    assert caught.value.json_path == path
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_valid_surrogate_pairs_and_big_but_finite_numbers_load():
    text = good_text().replace('"hyp 0 s1 ', '"\\ud83d\\ude00 ', 1)
    assert "\U0001F600" in loads(text).system("sys0").texts["s1"]
    assert loads(_with_seconds("1e300")).judgments[0].seconds == 1e300
    assert parse_json("[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)) is not None


def test_every_loaded_bundle_saves_again(tmp_path):
    for _name, text, _, _ in UNSAVABLE:
        with pytest.raises(DataError):
            loads(text)
    data = project_to_dict(loads(good_text()))
    json.dumps(data, allow_nan=False).encode("utf-8")


def test_bundle_may_not_name_a_file_for_a_metric(tmp_path):
    data = project_to_dict(project())
    data["settings"]["metrics"] = ["bleu", "learned:model=/dev/zero"]
    with pytest.raises(BundleError, match="names a file") as caught:
        loads(json.dumps(data))
    assert caught.value.json_path == "$.settings.metrics[1]"
    assert file_options_in_spec(" Learned : tokenize=none, model = x.json") == ["model"]
    data["settings"]["metrics"] = ["bleu:tokenize=none", "learned", "no-such-metric:x=1"]
    assert loads(json.dumps(data)).settings.metrics[1] == "learned"


def test_every_path_option_is_declared():
    """Each metric option that names a file is in its class's ``file_options`` (so bundles cannot carry it)."""
    from mtworkbench.metrics.registry import metric_class, metric_names

    for name in metric_names():
        cls = metric_class(name)
        declared = set(getattr(cls, "file_options", ()))
        for option in cls.option_specs:
            names_a_file = any(w in option.help.lower() for w in ("file", "path", "folder", "directory"))
            assert names_a_file == (option.name in declared), f"{name}:{option.name}"
        assert declared == set(FILE_OPTIONS.get(name, ())), name  # the loader's list (core) agrees


# --- files ------------------------------------------------------------------------------
def test_non_regular_files_are_refused_before_reading(tmp_path):
    fifo = tmp_path / "fifo.txt"
    os.mkfifo(fifo)
    with pytest.raises(DataError, match="FIFO"):
        read_regular_bytes(fifo)  # returns at once: never opened for a blocking read
    with pytest.raises(DataError, match="device"):
        read_regular_bytes("/dev/zero")
    with pytest.raises(DataError, match="folder"):
        read_regular_bytes(tmp_path)
    sock_path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(sock_path))
        with pytest.raises(DataError, match="socket"):
            read_text(sock_path)


def test_size_limit_is_named(tmp_path):
    big = tmp_path / "big.txt"
    big.write_bytes(b"a\n" * 2048)
    with pytest.raises(DataError, match="larger than 0 MiB"):
        read_regular_bytes(big, max_bytes=1024)
    assert read_regular_bytes(big, max_bytes=4096) == b"a\n" * 2048


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_are_refused_by_name(tmp_path, encoding):
    path = tmp_path / "t.txt"
    path.write_bytes("Hello world\nsecond line\n".encode(encoding))
    family = "UTF-16" if "16" in encoding else "UTF-32"
    with pytest.raises(DataError, match=f"looks like {family}.*save it as UTF-8"):
        read_lines(path)


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_in_a_cjk_script_is_recognised_by_its_line_breaks(tmp_path, encoding):
    path = tmp_path / "zh.txt"
    path.write_bytes("日本語のテキスト\n第二行です\n三行目\n".encode(encoding))
    with pytest.raises(DataError, match="looks like UTF-16"):
        read_lines(path)


def test_text_with_a_few_nul_bytes_is_not_taken_for_utf16():
    assert detect_wide_encoding(b"one\n\x00two\nthree\n") is None
    assert detect_wide_encoding(b"hello\x00world\n") is None
    assert detect_wide_encoding(b"plain ascii text") is None
    assert detect_wide_encoding("日本語のテキスト".encode()) is None


def test_cr_only_and_nul_are_refused_with_count_and_line(tmp_path):
    path = tmp_path / "t.txt"
    path.write_bytes(b"one\rtwo\rthree\r")
    with pytest.raises(DataError, match=r"CR-only line endings \(3 CR"):
        read_lines(path)
    path.write_bytes(b"one\r\ntwo\r\n")  # CRLF is fine
    assert read_lines(path) == ["one", "two"]
    path.write_bytes(b"one\ntw\x00o\n")
    with pytest.raises(DataError, match=r"t.txt:2: NUL byte at column 3"):
        read_lines(path)


# --- the CLI: one line, exit 1, never a traceback ---------------------------------------
def _write(path, content):
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    return str(path)


def hostile_files(tmp_path):
    files = {
        "utf16": "a\nb\n".encode("utf-16-le") * 4,
        "utf32": "a\nb\n".encode("utf-32"),
        "cr": b"a\rb\r",
        "nul": b"a\nb\x00\n",
        "invalid-utf8": b"a\n\xff\n",
        "empty": b"",
    }
    return {name: _write(tmp_path / f"{name}.txt", data) for name, data in files.items()}


def test_cli_refuses_hostile_inputs_in_one_line(tmp_path, capsys):
    ok = _write(tmp_path / "ok.txt", "a\nb\n")
    bundle = tmp_path / "good.mtwb.json"
    assert main(["import", "--source", ok, "--ref", ok, "--system", f"A={ok}", "-o", str(bundle)]) == 0
    bad_bundles = {name: _write(tmp_path / f"b{i}.mtwb.json", text) for i, (name, text, _, _) in enumerate(UNSAVABLE)}
    runs = []
    for f in hostile_files(tmp_path).values():
        runs += [
            ["import", "--source", f, "--ref", ok, "--system", f"A={ok}", "-o", str(tmp_path / "o.mtwb.json")],
            ["import", "--source", ok, "--ref", f, "-o", str(tmp_path / "o.mtwb.json")],
            ["import", "--format", "tsv", "--source", f, "-o", str(tmp_path / "o.mtwb.json")],
            ["import", "--format", "sgml", "--source", f, "-o", str(tmp_path / "o.mtwb.json")],
            ["import", "--format", "wmt-xml", "--source", f, "-o", str(tmp_path / "o.mtwb.json")],
            ["score", "--hyp", f, "--ref", ok, "--metric", "bleu"],
            ["judgments", "import", str(bundle), f],
        ]
    for f in bad_bundles.values():
        runs += [["validate", f], ["score", f, "--metric", "bleu"], ["judgments", "export", f, "-o", "-"],
                 ["export", f, "-o", str(tmp_path / "out")]]
    before = bundle.read_bytes()
    for argv in runs:
        capsys.readouterr()
        code = main(argv)
        err = capsys.readouterr().err
        if argv[-1].endswith("empty.txt") and code == 0:
            continue  # an empty file can be a valid (empty) input for some commands
        assert code == 1, (argv, err)
        assert err.count("\n") == 1 and err.startswith("mtworkbench "), (argv, err)
    assert bundle.read_bytes() == before  # a refused import changes nothing
    assert not (tmp_path / "o.mtwb.json").exists()


def test_cli_never_waits_on_a_fifo(tmp_path):
    fifo = tmp_path / "p.mtwb.json"
    os.mkfifo(fifo)
    for argv in (["validate", str(fifo)], ["score", str(fifo), "--metric", "bleu"],
                 ["import", "--source", str(fifo), "--ref", str(fifo), "-o", str(tmp_path / "o.mtwb.json")]):
        result = subprocess.run([sys.executable, "-m", "mtworkbench", *argv], capture_output=True, text=True,
                                env=env(), timeout=120)
        assert result.returncode == 1 and "FIFO" in result.stderr and "Traceback" not in result.stderr


def test_overlong_csv_fields_are_refused_in_one_line(tmp_path, capsys):
    from mtworkbench.io.judgments.judgments import read_mqm_tsv

    mqm = tmp_path / "m.tsv"
    mqm.write_text("system\tseg_id\tmqm\nA\t1\t" + "x" * 200_000 + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"m.tsv:2: field larger than field limit"):
        read_mqm_tsv(mqm, "A")
    header = tmp_path / "h.tsv"
    header.write_text("x" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        read_mqm_tsv(header, "A")
    assert len(str(caught.value)) < 400
