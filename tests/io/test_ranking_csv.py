"""Relative rankings as CSV: import, export back the same table, round trips through a
bundle and the CLI, the judge's screen order kept, malformed rows named by line and column."""

from __future__ import annotations

import pytest

from mtworkbench.cli import main
from mtworkbench.core.errors import DataError
from mtworkbench.core.judging import QueueConfig
from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.core.ranking import RankingSession, apply_ranking, rankings_of
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
from mtworkbench.io.judgments.judgments import apply_import
from mtworkbench.io.judgments.ranking_csv import plan_ranking_file, ranking_table

RANKS = ("rater,segment,system1,rank1,system2,rank2,system3,rank3,reference,seconds,timestamp,comment\n"
         "r1,s1,B,2,A,1,C,2,ref,12.5,2026-01-01T00:00:00Z,\n"
         "r2,s1,C,1,A,1,,,,0,,\"tie, both fine\"\n"
         "r1,s2,A,5,C,3,B,4,ref,3,,日本語のコメント\n")


def project() -> Project:
    segs = [Segment("s1", "Hallo Welt."), Segment("s2", "猫が好きです。")]
    texts = {"A": ("Hello world.", "I like cats."), "B": ("Hi world.", "Cats I like."), "C": ("Hello, world!", "猫")}
    return Project([Document("d", [Paragraph("p", segs)])],
                   references=[Reference("ref", texts={"s1": "Hello world.", "s2": "I love cats."})],
                   systems=[System(k, texts={"s1": v[0], "s2": v[1]}) for k, v in texts.items()])


def test_import_then_export_gives_the_same_table(tmp_path):
    path = tmp_path / "rank.csv"
    path.write_text(RANKS, encoding="utf-8")
    p = project()
    plan = plan_ranking_file(p, path)
    assert plan.judges == ["r1", "r2"] and len(plan.judgments) == 8
    apply_import(p, plan)
    assert ranking_table(p) == RANKS
    rankings = rankings_of(p)
    assert [(r.judge, r.segment, r.systems, r.ranks) for r in rankings] == [
        ("r1", "s1", ("B", "A", "C"), (2, 1, 2)), ("r2", "s1", ("C", "A"), (1, 1)),
        ("r1", "s2", ("A", "C", "B"), (5, 3, 4))]
    assert all(j.protocol == "rank" and j.scale == "rank" and j.ranking for j in p.judgments)
    # Through a bundle: the same table again.
    save_bundle(p, tmp_path / "p.mtwb.json")
    assert ranking_table(load_bundle(tmp_path / "p.mtwb.json")) == RANKS


def test_cli_import_export_round_trip(tmp_path, capsys):
    path = tmp_path / "rank.csv"
    path.write_text(RANKS, encoding="utf-8")
    bundle = tmp_path / "p.mtwb.json"
    save_bundle(project(), bundle)
    assert main(["judgments", "import", str(bundle), "--format", "rank", str(path)]) == 0
    assert "imported 8 judgments" in capsys.readouterr().out
    out = tmp_path / "back.csv"
    assert main(["judgments", "export", str(bundle), "--format", "rank", "-o", str(out)]) == 0
    assert "3 rankings" in capsys.readouterr().out
    assert out.read_text(encoding="utf-8") == RANKS
    assert main(["judgments", "export", str(bundle), "--format", "rank", "-o", "-"]) == 0
    assert capsys.readouterr().out == RANKS


def test_export_keeps_the_order_the_judge_saw(tmp_path):
    p = project()
    p.add_judge("ann")
    session = RankingSession.start(p, "ann", QueueConfig(seed=7, protocol="rank", repeat_share=0))
    shown = session.current_ranking.systems
    apply_ranking(p, session.submit_ranking(list(range(1, len(shown) + 1)), seconds=1))
    header, row = ranking_table(p).splitlines()
    cells = row.split(",")
    assert tuple(cells[2:2 + 2 * len(shown):2]) == shown
    assert cells[3:3 + 2 * len(shown):2] == [str(k) for k in range(1, len(shown) + 1)]
    # Imported into a fresh copy, then exported: the same.
    path = tmp_path / "r.csv"
    path.write_text(ranking_table(p), encoding="utf-8")
    q = project()
    apply_import(q, plan_ranking_file(q, path))
    assert ranking_table(q) == ranking_table(p)


@pytest.mark.parametrize("text, message", [
    ("rater,system1,rank1,system2,rank2\n", "header lacks column 'segment'"),
    ("rater,segment,system1,rank1\nr,s1,A,1\n", "header lacks column 'system2'"),
    ("rater,segment,system1,rank1,system2,rank2,stars\n", r"column 7: unknown column 'stars'"),
    ("rater,segment,system1,rank1,system2,rank2\nr,s1,A,1,B,6\n", r":2, column 'rank2': expected a rank"),
    ("rater,segment,system1,rank1,system2,rank2\nr,s1,A,1,B,1.5\n", r"column 'rank2': expected a rank"),
    ("rater,segment,system1,rank1,system2,rank2\nr,s1,A,1,Z,2\n", r"column 'system2': no system 'Z'"),
    ("rater,segment,system1,rank1,system2,rank2\nr,s1,A,1,A,2\n", "ranked twice"),
    ("rater,segment,system1,rank1,system2,rank2\nr,s1,A,1,,\n", "at least two systems"),
    ("rater,segment,system1,rank1,system2,rank2\nr,s9,A,1,B,2\n", r"column 'segment': no segment 's9'"),
    ("rater,segment,system1,rank1,system2,rank2\n,s1,A,1,B,2\n", "column 'rater': must not be empty"),
    ("rater,segment,system1,rank1,system2,rank2,reference\nr,s1,A,1,B,2,nope\n", "no reference 'nope'"),
    ("rater,segment,system1,rank1,system2,rank2\nr,s1,A,1,,2\n", "column 'system2': empty"),
])
def test_malformed_rows_are_named_and_nothing_is_imported(tmp_path, text, message):
    path = tmp_path / "bad.csv"
    path.write_text(text, encoding="utf-8")
    p = project()
    with pytest.raises(DataError, match=message) as info:
        plan_ranking_file(p, path)
    assert str(path) in str(info.value)
    assert p.judgment_count == 0
