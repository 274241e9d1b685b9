"""``score`` with several --hyp files: each scored against the same references, named by its path."""

from __future__ import annotations

import json

from mtworkbench.cli import main

REF = ["Das Haus ist blau .", "Книга лежит на столе .", "東京は大きい街です 。", "البيت كبير ."]
HYPS = {
    "a.txt": ["Das Haus ist grün .", "Книга на столе .", "東京は大きい 。", "البيت كبير جدا ."],
    "b.txt": ["Ein Haus ist blau .", "Книга лежит .", "東京は街です 。", "البيت صغير ."],
}


def _files(tmp_path) -> list[str]:
    (tmp_path / "ref.txt").write_text("\n".join(REF) + "\n", encoding="utf-8")
    for name, lines in HYPS.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ["--ref", str(tmp_path / "ref.txt")]


def _json(capsys, *argv: str) -> dict:
    assert main(["score", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_several_hyps_give_each_file_the_scores_it_gets_alone(tmp_path, capsys):
    ref = _files(tmp_path)
    a, b = str(tmp_path / "a.txt"), str(tmp_path / "b.txt")
    both = _json(capsys, *ref, "--hyp", a, "--hyp", b, "--metric", "chrf", "--metric", "ter")
    assert [(s["metric"], s["system"]) for s in both["scores"]] == [("chrf", a), ("chrf", b), ("ter", a), ("ter", b)]
    for k, (metric, path) in enumerate([("chrf", a), ("chrf", b), ("ter", a), ("ter", b)]):
        alone = _json(capsys, *ref, "--hyp", path, "--metric", metric)["scores"][0]
        assert both["scores"][k] == alone | {"system": path}
    assert both["scores"][0]["corpus"] != both["scores"][1]["corpus"]
    # the table names each file
    assert main(["score", *ref, "--hyp", a, "--hyp", b, "--metric", "chrf"]) == 0
    table = capsys.readouterr().out
    assert a in table and b in table


def test_hyp_files_of_different_lengths_are_refused_naming_the_file(tmp_path, capsys):
    ref = _files(tmp_path)
    short = tmp_path / "short.txt"
    short.write_text("Das Haus\n", encoding="utf-8")
    assert main(["score", *ref, "--hyp", str(tmp_path / "a.txt"), "--hyp", str(short), "--metric", "chrf"]) == 1
    err = capsys.readouterr().err
    assert str(short) in err and "1 lines" in err and "Traceback" not in err


def test_the_same_hyp_file_twice_is_refused(tmp_path, capsys):
    ref = _files(tmp_path)
    a = str(tmp_path / "a.txt")
    assert main(["score", *ref, "--hyp", a, "--hyp", a, "--metric", "chrf"]) == 2
    assert "given twice" in capsys.readouterr().err
