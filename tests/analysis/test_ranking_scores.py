"""System scores from relative rankings (expected wins, ratio of wins; ties left out),
checked on a hand-computed example, through ``human-scores`` and ``correlate``."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from mtworkbench.analysis.human_scores import collect_human_scores
from mtworkbench.analysis.ranking_scores import pairwise_counts, system_scores
from mtworkbench.cli import main
from mtworkbench.core.model import Document, Judgment, Paragraph, Project, Reference, Segment, System
from mtworkbench.core.ranking import Ranking, rankings_of
from mtworkbench.io.bundle.bundle import save_bundle

# Four screens: (segment, judge, {system: rank}).
SCREENS = [
    ("s1", "x", {"A": 1, "B": 2, "C": 2}),  # A>B, A>C, B=C
    ("s2", "x", {"A": 2, "B": 1, "C": 3}),  # B>A, A>C, B>C
    ("s3", "y", {"A": 1, "B": 1}),          # A=B
    ("s4", "y", {"C": 1, "A": 3}),          # C>A
]
# By hand: wins A>B 1, B>A 1, A>C 2, C>A 1, B>C 1, C>B 0; ties A=B 1, B=C 1.
#   A: vs B 1/2, vs C 2/3 -> expected wins 7/12; ratio of wins 3/(3+2) = 3/5; ties 1
#   B: vs A 1/2, vs C 1/1 -> 3/4;               ratio 2/(2+1) = 2/3;       ties 2
#   C: vs A 1/3, vs B 0/1 -> 1/6;               ratio 1/(1+3) = 1/4;       ties 1
EXPECTED = {"A": (7 / 12, 3 / 5, 3, 2, 1), "B": (3 / 4, 2 / 3, 2, 1, 2), "C": (1 / 6, 1 / 4, 1, 3, 1)}


def rankings() -> list[Ranking]:
    out = []
    for k, (segment, judge, ranks) in enumerate(SCREENS):
        systems = tuple(ranks)
        out.append(Ranking(f"r{k}", judge, segment, "ref", systems, tuple(ranks.values()),
                           tuple(f"j{k}{s}" for s in systems)))
    return out


def test_pairwise_counts_and_scores_by_hand():
    counts = pairwise_counts(rankings())
    assert dict(counts.wins) == {("A", "B"): 1, ("B", "A"): 1, ("A", "C"): 2, ("C", "A"): 1, ("B", "C"): 1}
    assert dict(counts.ties) == {("B", "C"): 1, ("A", "B"): 1}
    scores = {s.system: s for s in system_scores(rankings())}
    for system, (ew, ratio, wins, losses, ties) in EXPECTED.items():
        got = scores[system]
        assert got.expected_wins == pytest.approx(ew) and got.wins_ratio == pytest.approx(ratio)
        assert (got.wins, got.losses, got.ties, got.opponents) == (wins, losses, ties, 2)
    assert (scores["A"].segments, scores["A"].raters, scores["C"].segments) == (4, 2, 3)


def test_only_ties_gives_no_score():
    (only,) = system_scores([Ranking("r", "x", "s", None, ("A",), (1,), ("j",))] + [
        Ranking("t", "x", "s", None, ("A", "B"), (2, 2), ("a", "b"))], ["A"])
    assert math.isnan(only.expected_wins) and math.isnan(only.wins_ratio) and only.ties == 1


def ranked_bundle(path):
    segs = [Segment(s, f"src {s}") for s in ("s1", "s2", "s3", "s4")]
    hyps = {"A": "a b c d", "B": "a b c x", "C": "x x x x"}  # corpus WER 0, .25, 1
    project = Project(
        documents=[Document("d1", [Paragraph("p1", segs)])],
        references=[Reference("ref", texts={s.id: "a b c d" for s in segs})],
        systems=[System(k, texts={s.id: v for s in segs}) for k, v in hyps.items()],
    )
    for judge in ("x", "y"):
        project.add_judge(judge)
    for ranking in rankings():
        for j in ranking.judgments():
            project.add_judgment(j)
    project.add_judgment(Judgment("other", "x", "A", "s1", score=50, scale="da", protocol="da"))
    save_bundle(project, path)
    return project


def test_human_scores_use_expected_wins_at_system_level(tmp_path):
    project = ranked_bundle(tmp_path / "r.mtwb.json")
    assert len(rankings_of(project)) == 4
    human = collect_human_scores(project, "rank")
    assert list(human.system_scores()) == pytest.approx([EXPECTED[s][0] for s in ("A", "B", "C")])
    # Segment level: the rank itself (1 best), meaned over raters.
    assert human.matrix[0].tolist() == [1.0, 2.0, 1.0, 3.0]


def test_cli_human_scores_ranking_system_and_segment(tmp_path, capsys):
    path = tmp_path / "r.mtwb.json"
    ranked_bundle(path)
    assert main(["human-scores", str(path), "--protocol", "ranking", "--level", "system", "--json"]) == 0
    rows = {r["system"]: r for r in json.loads(capsys.readouterr().out)["scores"]}
    for system, (ew, ratio, wins, losses, ties) in EXPECTED.items():
        row = rows[system]
        assert row["score"] == pytest.approx(ew) and row["expected_wins"] == row["score"]
        assert row["wins_ratio"] == pytest.approx(ratio)
        assert (row["wins"], row["losses"], row["ties"]) == (wins, losses, ties)
    assert main(["human-scores", str(path), "--protocol", "rank", "--system", "C", "--json"]) == 0
    segment_rows = json.loads(capsys.readouterr().out)["scores"]
    assert [(r["segment"], r["score"]) for r in segment_rows] == [("s1", 2.0), ("s2", 3.0), ("s4", 1.0)]
    assert main(["human-scores", str(path), "--protocol", "rank", "--level", "system"]) == 0
    text = capsys.readouterr().out
    assert "expected wins" in text and "0.750000" in text


def test_correlate_pairs_corpus_scores_with_expected_wins(tmp_path, capsys):
    path = tmp_path / "r.mtwb.json"
    ranked_bundle(path)
    code = main(["correlate", str(path), "--human", "rank", "--metric", "wer", "--level", "system", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    (res,) = json.loads(out.out)["results"]
    wer = [0.0, 0.25, 1.0]
    ew = [EXPECTED[s][0] for s in ("A", "B", "C")]
    assert res["n"] == 3 and res["r"] == pytest.approx(np.corrcoef(wer, ew)[0, 1])
