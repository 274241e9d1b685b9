"""Judge workspace, Agreement tab, for DA, ESA, MQM and relative ranking (issue 15, item 8):
the protocol chooser offers the protocols present, each with its own columns; the
scatter offers their scores; the worker computes what the tab computes at once."""

from __future__ import annotations

import random

import numpy as np
from PySide6.QtCore import Qt

from mtworkbench.analysis.ranking_agreement import ranking_agreement
from mtworkbench.core.judging import QueueConfig
from mtworkbench.core.model import (
    Document,
    ErrorSpan,
    Judgment,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)
from mtworkbench.core.ranking import RankingSession, apply_ranking
from mtworkbench.gui.judge import agreement_job
from mtworkbench.gui.judge.agreement_tables import fmt
from mtworkbench.gui.judge.pair_scatter import JITTER
from tests.gui.span_project import OUT_A, OUT_B, span_project
from tests.gui.test_span_agreement_gui import open_agreement, rows


# --- a ranking project: three raters, five systems, 24 segments, a tenth repeated --------------
def ranking_project() -> Project:
    seg_ids = [str(i) for i in range(1, 25)]
    systems = ["online-A", "online-B", "uedin", "cu-bojar", "jhu"]
    project = Project(
        [Document("news", [Paragraph("p", [Segment(s, f"Zdroj věta {s}.") for s in seg_ids])])],
        [Reference("ref", texts={s: f"Reference sentence {s}." for s in seg_ids})],
        [System(name, texts={s: f"Output of {name} for sentence {s}." for s in seg_ids}) for name in systems],
        "cs", "en", name="ranking",
    )
    quality = {name: k for k, name in enumerate(systems)}  # online-A best ... jhu worst
    for k, judge in enumerate(("ann", "bob", "cyd")):
        project.add_judge(judge)
        draws = random.Random(k)
        session = RankingSession.start(project, judge, QueueConfig(seed=7, protocol="rank", repeat_share=0.1,
                                                                   min_repeat_gap=2, max_systems=5))
        while not session.finished:
            item = session.ranking_item(session.position)
            # A rater sees the true order through noise, and gives 1-5 with ties.
            noisy = [quality[s] + draws.gauss(0, 1.2) for s in item.systems]
            ranks = [min(5, max(1, 1 + int(v))) for v in noisy]
            apply_ranking(project, session.submit_ranking(ranks))
    return project


def table_cells(model):
    return [[model.index(r, c).data() for c in range(model.columnCount())] for r in range(model.rowCount())]


def test_ranking_agreement_in_the_tab(qtbot, screenshot_dir):
    project = ranking_project()
    ws = open_agreement(qtbot, project)
    panel = ws.agreement
    assert [panel.protocol.itemData(k) for k in range(panel.protocol.count())] == ["rank"]
    expected = ranking_agreement(project.judgments)
    header, body = rows(panel.pairs)
    assert header == ["Judges", "Compared\npairs", "P(A)", "P(E)", "κ"]
    assert body == [[f"{p.judges[0]}  ×  {p.judges[1]}", str(p.kappa.n), fmt(p.kappa.p_agree),
                     fmt(p.kappa.p_chance), fmt(p.kappa.kappa)] for p in expected.pairs]
    assert [row[0] for row in body] == ["ann  ×  bob", "ann  ×  cyd", "bob  ×  cyd"]
    assert all(int(row[1]) > 0 for row in body)
    header, body = rows(panel.intra)
    assert header[:2] == ["Judge", "Repeated\npairs"] and [row[0] for row in body] == ["ann", "bob", "cyd"]
    assert body[0][-1] == fmt(expected.repeats[0].kappa.kappa)
    # The pooled figures WMT tabulated, beside the chooser; the scatter has nothing to plot.
    note = panel.protocol_note.text()
    assert f"inter κ = {fmt(expected.inter.kappa)}" in note and f"intra κ = {fmt(expected.intra.kappa)}" in note
    assert len(panel.scatter.x) == 0 and not panel.scatter.isVisible()  # nothing to plot: the tables take the width
    # No adequacy/fluency columns anywhere for a ranking-only project.
    judges_header, _ = rows(panel.judges_table)
    assert not any("Adequacy" in h or "Fluency" in h or "Score" in h for h in judges_header)
    image = ws.grab()
    assert (image.width(), image.height()) == (1280, 800)
    image.save(str(screenshot_dir / "judge-agreement-ranking.png"))


def mixed_project() -> Project:
    """span_project's MQM raters r1, r2, with ESA scores by them, DA by ann and bob, LDC by ann and bob."""
    project = span_project()
    project.add_judge("bob")
    n = 0
    for system in ("sysA", "sysB"):
        for seg in ("1", "2", "3"):
            k = int(seg) + (3 if system == "sysB" else 0)
            for judge, da, _esa, adequacy in (("ann", 10 * k, 15 * k, 1 + k % 5), ("bob", 12 * k - 5, 14 * k + 3, 1 + (k + 1) % 5)):
                n += 1
                project.add_judgment(Judgment(f"da{n}", judge, system, seg, "ref", score=float(da), scale="da", protocol="da"))
                project.add_judgment(Judgment(f"ldc{n}", judge, system, seg, "ref", adequacy=adequacy, fluency=adequacy))
            for judge, score in (("r1", 90 - 9 * k), ("r2", 85 - 8 * k)):
                n += 1
                text = (OUT_A if system == "sysA" else OUT_B)[int(seg) - 1]
                project.add_judgment(Judgment(f"esa{n}", judge, system, seg, None, score=float(score), scale="esa",
                                              protocol="esa", errors=(ErrorSpan(0, min(3, len(text)), "minor"),)))
    return project


def test_the_chooser_offers_the_protocols_present_and_the_scatter_follows(qtbot):
    ws = open_agreement(qtbot, mixed_project())
    panel = ws.agreement
    assert [panel.protocol.itemData(k) for k in range(panel.protocol.count())] == ["ldc", "da", "esa", "mqm"]
    assert [panel.quantity.itemText(k) for k in range(panel.quantity.count())] == [
        "Adequacy", "Fluency", "DA score", "ESA score", "MQM score"]
    assert panel.current_protocol() == "ldc" and "Adequacy\nκw" in rows(panel.pairs)[0]
    # The user picks "MQM score" for the scatter by keyboard: the tables go to MQM too.
    panel.quantity.setFocus()
    qtbot.keyClick(panel.quantity, Qt.Key.Key_End)
    assert panel.quantity.currentText() == "MQM score" and panel.current_protocol() == "mqm"
    header, body = rows(panel.pairs)
    assert header == ["Judges", "Shared\nitems", "Pearson\nr", "Spearman\nρ", "Mean\n|Δ|"]
    qtbot.waitUntil(lambda: bool(panel.span_model.rows))
    mqm_spans = next(r for r in panel.span_model.rows if r.protocol == "mqm")
    assert body == [["r1  ×  r2", "4", fmt(mqm_spans.pearson), fmt(mqm_spans.spearman),
                     fmt(panel.report.score_pairs("mqm")[0].mean_abs_diff, 2)]]
    # The scatter plots the MQM scores of the 4 shared items (Google's weights).
    pair = panel.report.score_pairs("mqm")[0]
    assert len(panel.scatter.x) == 4 and np.all(np.abs(panel.scatter.x - pair.paired.a) <= JITTER)
    # r1: sysA 1 Minor, 2 Major; sysB 1 Major + Minor, 2 Minor (Google's weights 5 and 1).
    assert sorted(pair.paired.a.tolist()) == [-6.0, -5.0, -1.0, -1.0]
    # Back to DA with the protocol chooser, by keyboard: the scatter shows DA scores.
    panel.protocol.setFocus()
    qtbot.keyClick(panel.protocol, Qt.Key.Key_Home)
    qtbot.keyClick(panel.protocol, Qt.Key.Key_Down)
    assert panel.current_protocol() == "da" and panel.quantity.currentText() == "DA score"
    header, body = rows(panel.pairs)
    da_a = np.array([10.0 * k for k in range(1, 7)])
    da_b = np.array([12.0 * k - 5 for k in range(1, 7)])
    assert body == [["ann  ×  bob", "6", "1.000", "1.000", f"{np.mean(np.abs(da_a - da_b)):.2f}"]]
    assert sorted(panel.scatter.x.round().tolist()) == da_a.tolist()
    assert "DA score · 6 items" in panel.scatter.getPlotItem().titleLabel.text
    # ESA: r1 and r2 on 6 items, 0-100 scores.
    qtbot.keyClick(panel.protocol, Qt.Key.Key_Down)
    assert panel.current_protocol() == "esa"
    assert rows(panel.pairs)[1][0][:2] == ["r1  ×  r2", "6"]
    # The judges' table has adequacy/fluency (LDC present) and score columns (DA, ESA present).
    judges_header, _ = rows(panel.judges_table)
    assert "Adequacy\nmean" in judges_header and "Score\nmean" in judges_header


def test_worker_and_tab_show_the_same_numbers_for_every_protocol(qtbot, monkeypatch):
    """What the tab computes at once and what the worker computes for a large project are the
    same report, cell for cell, in every protocol's section."""
    project = mixed_project()
    # Rankings in the mixed project: r1 and r2 rank sysA and sysB on the three segments.
    n = 0
    for judge in ("r1", "r2"):
        for seg in ("1", "2", "3"):
            n += 1
            for system, rank in (("sysA", 1), ("sysB", 1 + (int(seg) + len(judge)) % 2 + (judge == "r2"))):
                project.add_judgment(Judgment(f"rk{n}{system}", judge, system, seg, None, score=float(rank),
                                              scale="rank", protocol="rank", ranking=f"rank{n}"))
    project.add_judgment(Judgment("bad", "ann", "sysA", "1", "ref", score=3.0, scale="da", protocol="da", qc="bad",
                                  text="The house is."))

    def shown(panel):
        out = {}
        for k in range(panel.protocol.count()):
            panel.protocol.setCurrentIndex(k)
            out[panel.current_protocol()] = (table_cells(panel.pairs_model), table_cells(panel.intra_model),
                                            panel.protocol_note.text())
        return out, table_cells(panel.summary_model)

    first = open_agreement(qtbot, project)
    inline = first.agreement
    assert inline.worker is None
    at_once = shown(inline)
    assert set(at_once[0]) == {"ldc", "da", "esa", "mqm", "rank"}
    # LDC: ann x bob, and the score-only raters r1, r2 set against their adequacy (pseudo-judges).
    assert {p: len(at_once[0][p][0]) for p in at_once[0]} == {"ldc": 5, "da": 1, "esa": 1, "mqm": 1, "rank": 1}
    assert ["ann  ×  bob", "6"] in [row[:2] for row in at_once[0]["ldc"][0]]
    # r1 ranks sysA <, =, < sysB on segments 1-3; r2 <, <, <: P(A) = 2/3, one tie in six labels:
    # P(E) = 1/36 + 2 (5/12)^2 = 3/8, kappa = (2/3 - 3/8) / (5/8) = 7/15.
    assert at_once[0]["rank"][0] == [["r1  ×  r2", "3", "0.667", "0.375", f"{7 / 15:.3f}"]]
    monkeypatch.setattr(agreement_job, "INLINE_JUDGMENTS", 0)  # now the same project counts as large
    second = open_agreement(qtbot, project)
    on_worker = second.agreement
    qtbot.waitUntil(lambda: on_worker.worker is None and on_worker.report is not None)
    assert on_worker.report == inline.report
    assert shown(on_worker) == at_once
