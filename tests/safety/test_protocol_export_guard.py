"""ESA, DA and ranking CSV exports guard formula cells like the judgments table; the
readers undo the guard, so export and import give back the same texts."""

from __future__ import annotations

import pytest

from mtworkbench.cli import main
from mtworkbench.core.model import Judgment
from mtworkbench.core.ranking import Ranking
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
from mtworkbench.io.judgments.protocol_csv import plan_protocol_csv
from mtworkbench.io.judgments.ranking_csv import plan_ranking_file

from .helpers import project

HOSTILE = ['=HYPERLINK("http://x","y")', "@SUM(A1)", "=cmd|' /C calc'!A0", "+cmd", "-2+3", "'quoted",
           "=ВЫЧИСЛИТЬ()", "=合計(1)", "@جمع"]


@pytest.fixture
def bundle(tmp_path):
    p = project(n_segments=len(HOSTILE), n_systems=2)
    for k, text in enumerate(HOSTILE):
        seg = p.segment_ids[k]
        for protocol in ("esa", "da"):
            p.add_judgment(Judgment(p.new_id("j"), "ann", "sys0", seg, "r1", score=50.0 + k, scale=protocol,
                                    protocol=protocol, comment=text, timestamp="2026-11-27T00:00:00Z"))
        ranking = Ranking(f"rk{k}", "ann", seg, "r1", ("sys0", "sys1"), (1, 2),
                          (p.new_id("j"), p.new_id("j") + "b"), comment=text)
        for j in ranking.judgments():
            p.add_judgment(j)
    path = tmp_path / "p.mtwb.json"
    save_bundle(p, path)
    return path


def _cells(text):
    return [cell for line in text.splitlines() for cell in line.split(",")]


@pytest.mark.parametrize("fmt", ["esa", "da", "rank"])
def test_formula_cells_are_guarded_and_read_back(bundle, tmp_path, fmt, capsys):
    out = tmp_path / f"{fmt}.csv"
    assert main(["judgments", "export", str(bundle), "--format", fmt, "-o", str(out)]) == 0, capsys.readouterr()
    text = out.read_text(encoding="utf-8")
    for line in text.splitlines()[1:]:
        comment_cell = line.rsplit(",", 1)[-1]
        assert not comment_cell.lstrip('"').startswith(("=", "+", "@")), line
    assert "'-2+3" in text and "''quoted" in text
    fresh = load_bundle(bundle)
    plan = plan_ranking_file(fresh, out) if fmt == "rank" else plan_protocol_csv(fresh, out, fmt)
    assert sorted({j.comment for j in plan.judgments}) == sorted(HOSTILE)


@pytest.mark.parametrize("fmt", ["esa", "da", "rank"])
def test_raw_writes_cells_unchanged(bundle, tmp_path, fmt):
    out = tmp_path / f"{fmt}.csv"
    assert main(["judgments", "export", str(bundle), "--format", fmt, "--raw", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "@SUM(A1)" in text and "'@SUM(A1)" not in text and ",+cmd" in text
