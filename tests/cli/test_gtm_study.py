"""``mtworkbench gtm-study`` and GTM through ``mtworkbench score``."""

from __future__ import annotations

import json
import math

import pytest

from mtworkbench.cli import main

# Segment 1 (worked by hand in tests/metrics/test_gtm_exact.py): the greedy
# takes 2-run + two 1-runs (2^e + 1 + 1), the maximum two 2-runs (2 * 2^e).
# Segment 2 is identical to its reference: greedy = exact.
HYP = ["c b c c", "the cat sat"]
REF = ["c c c b b", "the cat sat"]


@pytest.fixture
def files(tmp_path):
    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_text("\n".join(HYP) + "\n", encoding="utf-8")
    ref.write_text("\n".join(REF) + "\n", encoding="utf-8")
    return hyp, ref


def test_study_json(files, capsys):
    hyp, ref = files
    assert main(["gtm-study", "--hyp", str(hyp), "--ref", str(ref), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    (study,) = out["studies"]
    assert study["n_segments"] == 2 and study["n_refs"] == 1
    rows = {row["e"]: row for row in study["rows"]}
    assert set(rows) == {2.0, 3.0}
    for e, row in rows.items():
        expected = ((2**e + 2) / (2 * 2**e)) ** (1 / e)  # MMS ratio of segment 1
        assert row["equal"] == 1 and row["share_equal"] == 0.5
        assert row["min_ratio"] == pytest.approx(expected, rel=1e-12)
        assert row["median_ratio"] == pytest.approx((1 + expected) / 2, rel=1e-12)
        assert row["median_ratio_where_different"] == pytest.approx(expected, rel=1e-12)
        assert row["exact_fallbacks"] == 0
    assert rows[2.0]["min_ratio"] == pytest.approx(math.sqrt(6 / 8))


def test_study_table(files, capsys):
    hyp, ref = files
    assert main(["gtm-study", "--hyp", str(hyp), "--ref", str(ref), "-e", "2"]) == 0
    out = capsys.readouterr().out
    assert "| e | greedy = exact |" in out
    assert "| 2 | 50.0% (1/2) | 0.8660 | 0.9330 | 0.8660 | 0 |" in out


def test_study_leaves_out_grids_too_large_for_exact(files, capsys):
    hyp, ref = files
    assert main(["gtm-study", "--hyp", str(hyp), "--ref", str(ref), "--max-side", "3", "--json", "-e", "2"]) == 0
    row = json.loads(capsys.readouterr().out)["studies"][0]["rows"][0]
    # segment 1 has 4 and 5 tokens: left out; segment 2 (3 x 3) compared
    assert row["exact_fallbacks"] == 1 and row["equal"] == 1 and row["share_equal"] == 1.0


def test_study_on_a_bundle(files, tmp_path, capsys):
    from mtworkbench.io.bundle.bundle import save_bundle
    from mtworkbench.io.corpora.plaintext import import_plain

    hyp, ref = files
    src = tmp_path / "src.txt"
    src.write_text("x\ny\n", encoding="utf-8")
    bundle = tmp_path / "p.mtwb.json"
    save_bundle(import_plain(src, [ref], [("sys1", hyp), ("sys2", ref)]), bundle)
    assert main(["gtm-study", str(bundle), "--json", "-e", "2"]) == 0
    studies = json.loads(capsys.readouterr().out)["studies"]
    assert [s["system"] for s in studies] == ["sys1", "sys2"]
    assert studies[0]["rows"][0]["equal"] == 1
    assert studies[1]["rows"][0]["equal"] == 2  # the reference against itself
    assert main(["gtm-study", str(bundle), "--system", "nope"]) == 1
    assert "no system 'nope'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["gtm-study"], 2, "--hyp and at least one --ref"),
        (["gtm-study", "--hyp", "{hyp}"], 2, "--hyp and at least one --ref"),
        (["gtm-study", "--hyp", "{hyp}", "--ref", "{ref}", "-e", "1"], 2, "e > 1"),
        (["gtm-study", "--hyp", "{hyp}", "--ref", "{ref}", "-e", "two"], 2, "not a number"),
        (["gtm-study", "--hyp", "{hyp}", "--ref", "{missing}"], 1, "missing.txt"),
        (["gtm-study", "--hyp", "{hyp}", "--ref", "{short}"], 1, "line counts differ"),
        (["gtm-study", "--hyp", "{hyp}", "--ref", "{ref}", "--system", "s"], 2, "needs a bundle"),
    ],
)
def test_study_bad_input(files, tmp_path, capsys, argv, code, message):
    hyp, ref = files
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    paths = {"hyp": hyp, "ref": ref, "missing": tmp_path / "missing.txt", "short": short}
    assert main([a.format(**paths) for a in argv]) == code
    assert message in capsys.readouterr().err


def test_score_json_carries_precision_and_recall(tmp_path, capsys):
    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_text("a b c d\nx y\n", encoding="utf-8")
    ref.write_text("a b c\nx y z w\n", encoding="utf-8")
    argv = ["score", "--hyp", str(hyp), "--ref", str(ref), "--metric", "gtm:e=2", "--metric", "gtm:e=1,mode=exact", "--json"]
    assert main(argv) == 0
    entries = json.loads(capsys.readouterr().out)["scores"]
    greedy, exact = entries
    # segment 1: run "a b c" (3 cells), P = 3/4, R = 1; segment 2: "x y", P = 1, R = 1/2
    assert greedy["precision"] == [0.75, 1.0] and greedy["recall"] == [1.0, 0.5]
    assert greedy["segments"] == pytest.approx([6 / 7, 2 / 3])
    assert greedy["corpus_precision"] == pytest.approx(5 / 6)
    assert greedy["corpus_recall"] == pytest.approx(5 / 7)
    assert greedy["corpus"] == pytest.approx(2 * (5 / 6) * (5 / 7) / (5 / 6 + 5 / 7))
    assert exact["options"] == {"e": 1.0, "mode": "exact", "tokenize": "none"}
    assert exact["exact_fallback_segments"] == []
    assert exact["precision"] == [0.75, 1.0]


@pytest.mark.parametrize("spec", ["gtm:e=abc", "gtm:e=0.5", "gtm:mode=best"])
def test_score_rejects_bad_gtm_options(tmp_path, capsys, spec):
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a\n", encoding="utf-8")
    assert main(["score", "--hyp", str(hyp), "--ref", str(hyp), "--metric", spec]) == 2
    err = capsys.readouterr().err
    assert "gtm" in err and "Traceback" not in err
