"""Judge workspace, Agreement tab: Krippendorff's alpha and Gwet's AC1/AC2 over all judges,
computed on the tab's background job, per protocol as the chooser picks it."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from mtworkbench.analysis.judge_reliability import judge_reliability
from mtworkbench.core.model import Document, Judgment, Paragraph, Project, Reference, Segment, System
from mtworkbench.gui.judge.agreement_tables import fmt
from tests.gui.test_span_agreement_gui import open_agreement, rows


def three_judge_project() -> Project:
    seg_ids = [str(i) for i in range(1, 13)]
    project = Project([Document("d", [Paragraph("p", [Segment(s, f"源句 {s}。") for s in seg_ids])])],
                      [Reference("ref", texts={s: f"Referenz {s}." for s in seg_ids})],
                      [System(n, texts={s: f"Ausgabe {n} {s}." for s in seg_ids}) for n in ("A", "B")],
                      "zh", "de", name="three judges")
    rng = np.random.default_rng(3)
    for judge in ("ann", "李雷", "Юля"):
        project.add_judge(judge)
    k = 0
    for system in ("A", "B"):
        for s in seg_ids:
            truth = int(rng.integers(1, 6))
            for n, judge in enumerate(("ann", "李雷", "Юля")):
                if (int(s) + n) % 4 == 0:
                    continue  # this judge did not rate the item
                noisy = int(np.clip(truth + rng.integers(-1, 2), 1, 5))
                k += 1
                project.add_judgment(Judgment(f"j{k}", judge, system, s, "ref", adequacy=noisy,
                                              fluency=int(np.clip(noisy + rng.integers(-1, 2), 1, 5))))
                k += 1
                project.add_judgment(Judgment(f"j{k}", judge, system, s, "ref", score=float(rng.integers(0, 101)),
                                              scale="da", protocol="da"))
    return project


def test_all_judges_table_per_protocol(qtbot, screenshot_dir):
    project = three_judge_project()
    ws = open_agreement(qtbot, project)
    panel = ws.agreement
    qtbot.waitUntil(lambda: panel.reliability_model.rowCount() > 0, timeout=20000)
    assert panel.reliability_table.isVisible()
    expected = {(r.protocol, r.quantity): r for r in judge_reliability(project.judgments)}
    header, body = rows(panel.reliability_table)
    assert header == ["Statistic", "Judges", "Value", "95% CI", "Items"]
    adequacy = expected[("ldc", "adequacy")]
    want = adequacy.stat("alpha:ordinal")
    assert ["Adequacy: α ordinal", "3", fmt(want.value), f"[{fmt(want.low)}, {fmt(want.high)}]",
            str(want.n_pairable_items)] in body
    assert {row[0].split(":")[0] for row in body} == {"Adequacy", "Fluency"} and len(body) == 8
    ws.grab().save(str(screenshot_dir / "agreement_all_judges_ldc.png"))
    # Choose DA with the keyboard: the table shows DA's interval alpha and AC2 only.
    panel.protocol.setFocus()
    qtbot.keyClick(panel.protocol, Qt.Key.Key_Down)
    qtbot.waitUntil(lambda: panel.current_protocol() == "da")
    header, body = rows(panel.reliability_table)
    da = expected[("da", "score")]
    assert [row[0] for row in body] == ["Score: α interval", "Score: AC2 quadratic"]
    assert body[0][2] == fmt(da.stat("alpha:interval").value)
    ws.grab().save(str(screenshot_dir / "agreement_all_judges_da.png"))


def test_large_project_takes_the_job_route(qtbot, monkeypatch):
    from mtworkbench.gui.judge import agreement_job

    monkeypatch.setattr(agreement_job, "INLINE_JUDGMENTS", 10)
    project = three_judge_project()
    ws = open_agreement(qtbot, project)
    panel = ws.agreement
    qtbot.waitUntil(lambda: panel.reliability_model.rowCount() > 0 and panel.worker is None, timeout=20000)
    header, body = rows(panel.reliability_table)
    want = judge_reliability(project.judgments)[0].stats[0]
    assert body[0][2] == fmt(want.value)
    assert panel.reliability_worker is None  # the one job computed everything


@pytest.mark.parametrize("n", [1])
def test_one_judge_shows_no_table(qtbot, n):
    project = three_judge_project()
    for j in list(project.judgments):
        if j.judge != "ann":
            project.remove_judgment(j.id)
    ws = open_agreement(qtbot, project)
    panel = ws.agreement
    qtbot.waitUntil(lambda: panel.reliability_worker is None, timeout=20000)
    assert panel.reliability_model.rowCount() == 0 and not panel.reliability_table.isVisible()
