"""The Analysis workspace on real direct-assessment scores: the demo project's 50
MLQE et-en segments with their DA z-scores (lines 1-50 of ../shared's da-z.scores)."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu
from PySide6.QtCore import QSize, Qt
from scipy import stats

from mtworkbench.io.judgments.judgments import apply_import, plan_score_lines
from tests.gui.test_analysis import run_compute, table_values

pytestmark = pytest.mark.shared

SPECS = ["bleu", "chrf", "ter", "nist", "gtm"]


@pytest.fixture
def da_lines(shared_dir, tmp_path):
    lines = (shared_dir / "data" / "mlqe-et-en" / "da-z.scores").read_text(encoding="utf-8").splitlines()[:50]
    path = tmp_path / "da-z-1-50.scores"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, np.array([float(v) for v in lines])


def test_demo_with_real_da_scores_matches_sacrebleu_and_scipy(qtbot, legacy_demo_copy, da_lines, screenshot_dir):
    from mtworkbench.gui.main_window import MainWindow

    path, da = da_lines
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(QSize(1280, 800))
    assert window.open_path(legacy_demo_copy)
    project = window.session.project
    apply_import(project, plan_score_lines(project, "da", project.systems[0].id, path, "da-z"))
    ws = window.workspaces["Analysis"]
    window.tabs.setCurrentWidget(ws)
    window.show()
    qtbot.waitExposed(window)
    ws.set_metric_specs(SPECS)
    ws.docs_spin.setValue(300)
    ws.select_human("da:score")
    run_compute(qtbot, ws)

    # Reference: sacrebleu's sentence chrF (both references) against DA with scipy's Pearson r.
    system = project.systems[0]
    hyps = [system.texts[s] for s in project.segment_ids]
    refs = [[r.texts[s] for r in project.references if r.texts.get(s)] for s in project.segment_ids]
    chrf = np.array([sacrebleu.sentence_chrf(h, rr).score for h, rr in zip(hyps, refs)])
    expected = stats.pearsonr(chrf, da)
    got = table_values(ws)
    assert got["chrf"]["r"] == pytest.approx(expected.statistic, abs=1e-12)
    assert got["chrf"]["p"] == pytest.approx(expected.pvalue, rel=1e-9)
    assert got["chrf"]["n"] == 50
    ws.select_scatter_metric("chrf")
    assert ws.scatter.point_count() == 50
    assert f"r = {expected.statistic:.3f}" in ws.scatter.caption_text
    assert list(ws.reliability_view.curves) == SPECS
    qtbot.wait(50)
    window.grab().save(str(screenshot_dir / "analysis-mlqe-da.png"))
    ws.table.selectRow(0)
    qtbot.mouseClick(ws.compute_button, Qt.MouseButton.LeftButton)  # recompute: all from the score cache
    with qtbot.waitSignal(ws.worker.finished, timeout=10000):
        pass
    assert table_values(ws) == got
