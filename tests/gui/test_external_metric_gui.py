"""Imported metric scores (ext:NAME) in the Metrics workspace: corpus table with
intervals, the sentence browser, and the settings dialog that offers them."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog

from mtworkbench.core.model import System
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
from mtworkbench.io.scores.external_scores import import_score_lines
from tests.gui.test_metrics_workspace import corpus_value, open_metrics, wait_scored


@pytest.fixture
def with_external(demo_copy, tmp_path):
    project = load_bundle(demo_copy)
    ids = project.segment_ids
    project.add_system(System("mt_copy", "machine", {s: project.system_text("mt", s) for s in ids}))
    rng = np.random.default_rng(5)
    scores = {"mt": rng.uniform(0.5, 0.9, len(ids)), "mt_copy": rng.uniform(0.1, 0.4, len(ids))}
    for system, values in scores.items():
        f = tmp_path / f"comet.{system}.txt"
        f.write_text("".join(f"{v}\n" for v in values), encoding="utf-8")
        import_score_lines(project, "COMET", f, system)
        import_score_lines(project, "ERR", f, system, higher_is_better=False)
    project.settings.metrics = ["bleu", "ext:COMET", "ext:ERR"]
    project.settings.baseline = "mt"
    save_bundle(project, demo_copy)
    return demo_copy, scores


def test_corpus_table_and_browser_show_imported_scores(qtbot, window, with_external, screenshot_dir):
    path, scores = with_external
    workspace = open_metrics(qtbot, window, path)
    cell = corpus_value(workspace, "mt", "ext:COMET")
    # System score = mean of the imported segment scores; bootstrap interval around it.
    assert cell.score == pytest.approx(scores["mt"].mean())
    assert cell.ci_lower < cell.score < cell.ci_upper
    # The copy scores far lower on every segment: the paired test marks it significant.
    qtbot.waitUntil(lambda: corpus_value(workspace, "mt_copy", "ext:COMET").p_value is not None, timeout=30_000)
    assert corpus_value(workspace, "mt_copy", "ext:COMET").p_value < 0.05
    # Higher is better: the copy's lower score is marked worse than the baseline.
    assert corpus_value(workspace, "mt_copy", "ext:COMET").comparison("ext:COMET", cell.score) == -1
    # The same numbers declared lower-is-better: the copy is marked better.
    qtbot.waitUntil(lambda: corpus_value(workspace, "mt_copy", "ext:ERR").p_value is not None, timeout=30_000)
    assert corpus_value(workspace, "mt_copy", "ext:ERR").comparison("ext:ERR", cell.score) == 1
    titles = [c.title for c in workspace.browser.model.columns]
    assert "ext:COMET" in titles
    workspace.grab().save(str(screenshot_dir / "metrics-external.png"))


def test_settings_dialog_offers_imported_metrics(qtbot, window, with_external):
    path, _ = with_external
    workspace = open_metrics(qtbot, window, path)
    seen = {}

    def fill_dialog():
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QDialog)
        seen["available"] = [dialog.available.item(i).text() for i in range(dialog.available.count())]
        dialog.specs_edit.setPlainText("ext:NOPE")
        dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
        seen["message"] = dialog.message.text()
        dialog.specs_edit.setPlainText("ext:COMET\nchrf")
        dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()

    QTimer.singleShot(0, fill_dialog)
    qtbot.mouseClick(workspace.settings_button, Qt.MouseButton.LeftButton)
    assert "ext:COMET" in seen["available"]
    assert "unknown external metric 'ext:NOPE'" in seen["message"]
    assert window.session.project.settings.metrics == ["ext:COMET", "chrf"]
    wait_scored(qtbot, workspace)
    assert corpus_value(workspace, "mt", "ext:COMET").score is not None


def test_analysis_workspace_correlates_an_imported_metric(qtbot, tmp_path):
    from mtworkbench.analysis.correlation import correlate
    from mtworkbench.gui.analysis.workspace import AnalysisWorkspace
    from mtworkbench.gui.session import ProjectSession
    from tests.gui.test_analysis import (
        RELIABILITY_DOCS,
        core_pairs,
        judged_project,
        run_compute,
        table_values,
    )

    project = judged_project()
    # "Computed elsewhere": a noisy copy of the mean adequacy of each item.
    human = {}
    for j in project.judgments:
        human.setdefault((j.system, j.segment), []).append(j.adequacy)
    rng = np.random.default_rng(2)
    for system in [s.id for s in project.systems]:
        values = [np.mean(human[(system, sid)]) + rng.normal(0, 0.5) for sid in project.segment_ids]
        f = tmp_path / f"{system}.txt"
        f.write_text("".join(f"{v}\n" for v in values), encoding="utf-8")
        import_score_lines(project, "XCOMET", f, system)
    assert project.settings.metrics[-1] == "ext:XCOMET"  # listed like every other metric
    session = ProjectSession()
    ws = AnalysisWorkspace(session)
    qtbot.addWidget(ws)
    ws.resize(1100, 700)
    ws.docs_spin.setValue(RELIABILITY_DOCS)
    session.replace_project(project, None)
    ws.show()
    qtbot.waitExposed(ws)
    ws.select_human("all:adequacy")
    ws.level_combo.setCurrentText("segment")
    ws.method_combo.setCurrentText("pearson")
    run_compute(qtbot, ws)
    got = table_values(ws)
    (m, h) = core_pairs(project, "all:adequacy", False, ["ext:XCOMET"], "segment")["ext:XCOMET"]
    assert got["ext:XCOMET"]["r"] == correlate(m, h, "pearson", "fisher").r
    # Noise sd 0.5 on a 1-5 scale: it agrees with people far better than WER does.
    assert got["ext:XCOMET"]["r"] > abs(got["wer"]["r"])


def test_compare_two_systems_writes_and_opens_the_report(qtbot, tmp_path, monkeypatch):
    from mtworkbench.gui.analysis import compare_report
    from mtworkbench.gui.analysis.workspace import AnalysisWorkspace
    from mtworkbench.gui.session import ProjectSession
    from tests.gui.test_analysis import judged_project

    session = ProjectSession()
    ws = AnalysisWorkspace(session)
    qtbot.addWidget(ws)
    session.replace_project(judged_project(), None)
    ws.show()
    qtbot.waitExposed(ws)
    target = tmp_path / "report.html"
    opened = []
    monkeypatch.setattr(compare_report.QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    monkeypatch.setattr(compare_report.QDesktopServices, "openUrl", lambda url: opened.append(url.toLocalFile()))

    def fill_dialog():
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QDialog)
        dialog.system_a.setCurrentText("sys0")
        dialog.system_b.setCurrentText("sys0")
        dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
        assert "two different systems" in dialog.message.text()
        dialog.system_b.setCurrentText("sys3")
        dialog.metrics.setText("chrf; wer")
        dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()

    QTimer.singleShot(0, fill_dialog)
    qtbot.mouseClick(ws.compare_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: opened == [str(target)], timeout=30_000)
    html = target.read_text(encoding="utf-8")
    # sys0 keeps 95% of the reference's words, sys3 50%: A's chrF is higher in the report.
    assert "<h1>sys0 vs sys3</h1>" in html and html.count("<svg") >= 3
    import re

    a, b = map(float, re.search(r"<tr><td>chrf</td><td class=n>([\d.]+)</td><td class=n>([\d.]+)</td>", html).groups())
    assert a > b
