"""The Analysis workspace: choices, background computation, table/scatter/reliability, export."""

from __future__ import annotations

import csv
import math
import random
import threading
import time

import numpy as np
import pytest
from PySide6.QtCore import QSize, Qt

from mtworkbench.analysis.correlation import (
    correlate,
    scatter_summary,
    williams_from_scores,
)
from mtworkbench.analysis.human_scores import collect_human_scores, level_pairs
from mtworkbench.core.jobs import check_cancel
from mtworkbench.core.model import (
    Document,
    Judgment,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)
from mtworkbench.gui.analysis.human_choices import human_choices
from mtworkbench.gui.analysis.workspace import AnalysisWorkspace
from mtworkbench.gui.session import ProjectSession
from mtworkbench.gui.worker import running_workers
from mtworkbench.scoring.project_scores import score_project

SPECS = ["wer", "per", "chrf"]
RELIABILITY_DOCS = 60  # few pseudo-documents: the curves' shape, not their precision, is tested


def judged_project(n_segments: int = 30, n_systems: int = 4, seed: int = 7) -> Project:
    """Systems of decreasing quality (noisy copies of the reference) rated by two judges.

    Both judges rate every item (adequacy and fluency, 1-5) from the fraction of
    reference words a system kept, plus judge-specific noise, so humans and
    metrics agree without agreeing perfectly.
    """
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(400)]
    segments = [Segment(str(i + 1), " ".join(rng.choices(vocab, k=10))) for i in range(n_segments)]
    documents = [Document("d1", [Paragraph("d1p1", segments)])]
    refs = {s.id: " ".join(rng.choices(vocab, k=rng.randint(6, 14))) for s in segments}
    project = Project(documents, [Reference("ref", texts=refs)], [], "xx", "en", name="judged")
    project.settings.metrics = list(SPECS)
    kept: dict[tuple[str, str], float] = {}
    for k in range(n_systems):
        keep = 0.95 - 0.15 * k
        texts = {}
        for sid, ref in refs.items():
            words = ref.split()
            out = [w if rng.random() < keep else rng.choice(vocab) for w in words]
            kept[(f"sys{k}", sid)] = sum(a == b for a, b in zip(out, words)) / len(words)
            texts[sid] = " ".join(out)
        project.add_system(System(f"sys{k}", texts=texts))
    n = 0
    for judge, noise in (("alice", 0.6), ("bob", 0.9)):
        project.add_judge(judge)
        for (system, segment), quality in kept.items():
            n += 1
            adequacy = int(min(5, max(1, round(1 + 4 * quality + rng.gauss(0, noise)))))
            fluency = int(min(5, max(1, round(2 + 3 * quality + rng.gauss(0, noise)))))
            project.add_judgment(Judgment(f"j{n}", judge, system, segment, "ref", adequacy, fluency))
    return project


@pytest.fixture
def workspace(qtbot):
    session = ProjectSession()
    ws = AnalysisWorkspace(session)
    qtbot.addWidget(ws)
    ws.resize(1100, 700)
    ws.docs_spin.setValue(RELIABILITY_DOCS)
    session.replace_project(judged_project(), None)
    ws.show()
    qtbot.waitExposed(ws)
    return ws


def run_compute(qtbot, ws: AnalysisWorkspace) -> None:
    with qtbot.waitSignal(ws.compute_button.clicked, timeout=1000):
        qtbot.mouseClick(ws.compute_button, Qt.MouseButton.LeftButton)
    assert ws.worker is not None, ws.status.text()
    with qtbot.waitSignal(ws.worker.finished, timeout=20000):
        pass
    qtbot.waitUntil(lambda: not ws.progress.isVisible(), timeout=2000)


def core_pairs(project: Project, human_spec: str, z: bool, specs: list[str], level: str):
    """The core's (metric, human) arrays per spec, computed the CLI's way."""
    human = collect_human_scores(project, human_spec, z=z)
    rated = human.rated_systems()
    rows = [human.systems.index(s) for s in rated]
    scored = score_project(project, specs, rated)
    return {sc.spec: level_pairs(sc.segments, sc.corpus, human, level, rows) for sc in scored}


def table_values(ws: AnalysisWorkspace) -> dict[str, dict[str, float]]:
    model = ws.table_model
    out = {}
    for row in range(model.rowCount()):
        values = {
            name: model.data(model.index(row, col), Qt.ItemDataRole.UserRole)
            for col, name in enumerate(("metric", "r", "ci_low", "ci_high", "p", "n", "williams_p"))
        }
        out[values.pop("metric")] = values
    return out


def test_human_choices_list_judges_and_fields():
    project = judged_project(n_segments=3, n_systems=2)
    specs = [c.spec for c in human_choices(project)]
    assert specs == ["all:adequacy", "all:fluency", "alice:adequacy", "alice:fluency", "bob:adequacy", "bob:fluency"]
    assert human_choices(Project()) == []


def test_no_judgments_shows_explanation_not_empty_plots(qtbot, legacy_demo_copy):
    demo_copy = legacy_demo_copy  # the demo without its judgments
    from mtworkbench.io.bundle.bundle import load_bundle

    session = ProjectSession()
    ws = AnalysisWorkspace(session)
    qtbot.addWidget(ws)
    session.replace_project(load_bundle(demo_copy), None)
    ws.show()
    assert ws.pages.currentWidget() is ws.empty_page
    assert "No human scores" in ws.empty_message.text()
    assert "import-scores" in ws.empty_message.text()
    assert not ws.compute_button.isEnabled()
    assert ws.human_combo.count() == 0
    # Adding a judgment switches to the results page without a restart.
    project = session.project
    project.add_judge("me")
    project.add_judgment(Judgment("j1", "me", project.systems[0].id, project.segment_ids[0], None, 4, 3))
    qtbot.waitUntil(lambda: ws.pages.currentWidget() is ws.results, timeout=1000)
    assert ws.compute_button.isEnabled()
    assert ws.human_combo.currentData() == "me:adequacy"


def test_metric_list_defaults_to_project_settings(workspace):
    assert workspace.checked_specs() == SPECS
    workspace.metric_list.item(1).setCheckState(Qt.CheckState.Unchecked)
    workspace.metric_list.item(2).setText("chrf:beta=1")  # specs are editable
    assert workspace.checked_specs() == ["wer", "chrf:beta=1"]


def test_segment_level_table_scatter_and_reliability_match_core(qtbot, workspace):
    ws = workspace
    project = ws.project
    ws.select_human("all:adequacy")
    ws.z_check.setChecked(True)
    ws.level_combo.setCurrentText("segment")
    ws.method_combo.setCurrentText("pearson")
    run_compute(qtbot, ws)

    pairs = core_pairs(project, "all:adequacy", True, SPECS, "segment")
    got = table_values(ws)
    assert list(got) == SPECS
    for spec, (m, h) in pairs.items():
        expected = correlate(m, h, "pearson", "fisher")
        assert got[spec]["r"] == expected.r
        assert (got[spec]["ci_low"], got[spec]["ci_high"]) == expected.ci
        assert got[spec]["p"] == expected.p
        assert got[spec]["n"] == expected.n == 4 * 30
    # WER and PER are error rates: better translations score lower.
    assert got["wer"]["r"] < 0 < got["chrf"]["r"]
    # The bold "best" row orients error rates: the strongest agreement, whatever its sign.
    agreement = {"wer": -got["wer"]["r"], "per": -got["per"]["r"], "chrf": got["chrf"]["r"]}
    best = max(agreement, key=agreement.get)
    assert ws.table_model.best == best
    # Williams test of each other metric against the best, error rates sign-flipped (lower is better).
    sign = {"wer": -1, "per": -1, "chrf": 1}
    m_best, h = pairs[best]
    for spec in SPECS:
        if spec == best:
            assert math.isnan(got[spec]["williams_p"])
            continue
        expected = williams_from_scores(h, sign[best] * m_best, sign[spec] * pairs[spec][0], "pearson")
        assert got[spec]["williams_p"] == expected.p
    best_row = SPECS.index(best)
    assert ws.table_model.data(ws.table_model.index(best_row, 6)) == "best"

    # The scatter shows the selected metric's n points and its coefficients.
    ws.select_scatter_metric("chrf")
    m, h = pairs["chrf"]
    summary = scatter_summary(m, h)
    assert ws.scatter.point_count() == summary.n == 120
    assert f"r = {summary.pearson:.3f}" in ws.scatter.caption_text
    assert f"ρ = {summary.spearman:.3f}" in ws.scatter.caption_text
    assert f"τ = {summary.kendall:.3f}" in ws.scatter.caption_text
    assert "n = 120" in ws.scatter.caption_text
    xs, ys = ws.scatter.line.getData()
    assert ys[0] == pytest.approx(summary.slope * xs[0] + summary.intercept)
    # Selecting a table row shows that metric's scatter.
    ws.table.selectRow(0)
    assert ws.scatter_metric.currentText() == "wer"
    assert ws.scatter.summary.x_label == "wer"

    # One reliability curve per metric, plus judge vs judge (two judges rated every item).
    curves = ws.reliability_view.curves
    assert list(curves) == [*SPECS, "inter-judge"]
    result = ws.outcome.reliability
    assert result.mode == "systems" and result.n_docs == RELIABILITY_DOCS
    x, y = curves["chrf"].xData, curves["chrf"].yData  # the data, not the log10 display coordinates
    assert list(x) == result.curve("chrf").lengths == [1, 2, 3, 5, 7, 10, 15, 25]
    assert np.allclose(y, result.curve("chrf").mean)
    assert "30" in ws.reliability_note.text()  # lengths beyond the 30 rated segments are skipped


def test_system_level_spearman_bootstrap_matches_core(qtbot, workspace):
    ws = workspace
    ws.select_human("bob:fluency")
    ws.level_combo.setCurrentText("system")
    ws.method_combo.setCurrentText("spearman")
    ws.interval_combo.setCurrentIndex(ws.interval_combo.findData("bootstrap"))
    ws.reliability_check.setChecked(False)
    run_compute(qtbot, ws)

    pairs = core_pairs(ws.project, "bob:fluency", False, SPECS, "system")
    got = table_values(ws)
    for spec, (m, h) in pairs.items():
        expected = correlate(m, h, "spearman", "bootstrap")
        assert got[spec]["r"] == expected.r
        assert (got[spec]["ci_low"], got[spec]["ci_high"]) == expected.ci
        assert got[spec]["n"] == 4
    assert ws.table_model.headerData(1, Qt.Orientation.Horizontal) == "Spearman ρ"
    # System level: one labelled point per system.
    assert ws.scatter.point_count() == 4
    assert [label.toPlainText() for label in ws.scatter.labels] == ["sys0", "sys1", "sys2", "sys3"]
    assert ws.outcome.reliability is None and not ws.reliability_view.curves


def test_exports_write_png_svg_and_csv(qtbot, workspace, tmp_path):
    ws = workspace
    ws.select_human("alice:adequacy")
    run_compute(qtbot, ws)
    for name, export in (("scatter", ws.export_scatter), ("reliability", ws.export_reliability)):
        for suffix in (".png", ".svg"):
            path = tmp_path / f"{name}{suffix}"
            export(path)
            assert path.stat().st_size > 1000, path
    assert (tmp_path / "scatter.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = (tmp_path / "reliability.svg").read_text(encoding="utf-8")
    assert "<svg" in svg and "chrf" in svg

    table = tmp_path / "table.csv"
    ws.export_table_csv(table)
    rows = list(csv.DictReader(table.open(encoding="utf-8")))
    assert [r["metric"] for r in rows] == SPECS
    got = table_values(ws)
    for r in rows:
        assert float(r["r"]) == got[r["metric"]]["r"]
        assert float(r["ci_low"]) == got[r["metric"]]["ci_low"]
        assert int(r["n"]) == got[r["metric"]]["n"]
        assert r["human"] == "alice:adequacy" and r["level"] == "segment" and r["method"] == "pearson"
        w = got[r["metric"]]["williams_p"]
        assert (r["williams_p_vs_best"] == "") if math.isnan(w) else (float(r["williams_p_vs_best"]) == w)
    assert sum(r["williams_p_vs_best"] == "" for r in rows) == 1  # the best metric itself

    curves = tmp_path / "curves.csv"
    ws.export_reliability_csv(curves)
    lines = list(csv.DictReader(curves.open(encoding="utf-8")))
    assert {r["label"] for r in lines} == {*SPECS}  # one judge only: no judge-vs-judge curve
    assert ws.export_widget() is ws.results


def test_export_buttons_use_the_file_dialog(qtbot, workspace, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    ws = workspace
    run_compute(qtbot, ws)
    target = tmp_path / "via-dialog.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    qtbot.mouseClick(ws.export_table_button, Qt.MouseButton.LeftButton)
    assert target.read_text(encoding="utf-8").startswith("metric,human,level")
    image = tmp_path / "via-dialog.svg"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(image), ""))
    qtbot.mouseClick(ws.export_scatter_button, Qt.MouseButton.LeftButton)
    assert image.stat().st_size > 1000


def test_cancel_stops_the_worker_and_keeps_gui_responsive(qtbot, workspace, monkeypatch):
    from mtworkbench.gui.analysis import workspace as workspace_module

    started = threading.Event()

    def slow_job(project, cache, human, request, progress=None, cancel=None):
        started.set()
        for i in range(2000):  # up to 20 s unless cancelled
            progress(i, 2000)
            check_cancel(cancel)
            time.sleep(0.01)
        raise AssertionError("the job was never cancelled")

    monkeypatch.setattr(workspace_module, "run_analysis", slow_job)
    ws = workspace
    qtbot.mouseClick(ws.compute_button, Qt.MouseButton.LeftButton)
    assert ws.is_computing() and not ws.compute_button.isEnabled() and ws.cancel_button.isEnabled()
    assert started.wait(5)
    qtbot.waitUntil(lambda: ws.progress.value() > 0, timeout=3000)  # progress arrives while it runs
    worker = ws.worker
    with qtbot.waitSignal(worker.cancelled, timeout=5000):
        qtbot.mouseClick(ws.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ws.worker is None, timeout=5000)
    assert ws.compute_button.isEnabled() and not ws.progress.isVisible()
    assert "Cancelled" in ws.status.text()


def test_closing_the_workspace_mid_computation_stops_the_worker(qtbot, monkeypatch):
    from mtworkbench.gui.analysis import workspace as workspace_module

    started = threading.Event()
    stopped = threading.Event()

    def slow_job(project, cache, human, request, progress=None, cancel=None):
        started.set()
        try:
            for _ in range(2000):
                check_cancel(cancel)
                time.sleep(0.01)
        finally:
            stopped.set()

    monkeypatch.setattr(workspace_module, "run_analysis", slow_job)
    session = ProjectSession()
    ws = AnalysisWorkspace(session)
    session.replace_project(judged_project(n_segments=5, n_systems=2), None)
    assert ws.compute()
    assert started.wait(5)
    ws.deleteLater()
    qtbot.waitUntil(stopped.is_set, timeout=5000)  # cancelled, not left running (or aborting the process)
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5000)


def test_invalid_metric_spec_is_reported_not_run(qtbot, workspace, monkeypatch):
    from mtworkbench.gui import dialogs

    shown = []
    monkeypatch.setattr(dialogs, "error", lambda parent, title, message: shown.append((title, message)))
    ws = workspace
    ws.add_metric("nosuchmetric")
    assert ws.compute() is False
    assert ws.worker is None
    assert shown and "nosuchmetric" in shown[0][1]


def test_project_changes_mark_results_stale(qtbot, workspace):
    ws = workspace
    run_compute(qtbot, ws)
    project = ws.project
    j = project.judgments[0]
    from dataclasses import replace

    project.replace_judgment(replace(j, adequacy=1 if j.adequacy != 1 else 2))
    assert "out of date" in ws.status.text()


def test_judge_queue_moves_leave_results_current(qtbot, workspace):
    from mtworkbench.core.judging import JudgeSession, QueueConfig

    ws = workspace
    run_compute(qtbot, ws)
    shown = ws.status.text()
    project = ws.project
    session = JudgeSession.start(project, project.judges[0], QueueConfig(repeat_share=0))
    session.forward()
    session.set_option("show_source", True)
    assert ws.status.text() == shown  # a queue is not an input of any analysis


def test_empty_state_screenshot(qtbot, legacy_demo_copy, screenshot_dir):
    demo_copy = legacy_demo_copy  # the demo without its judgments
    from mtworkbench.gui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(QSize(1280, 800))
    assert window.open_path(demo_copy)
    ws = window.workspaces["Analysis"]
    window.tabs.setCurrentWidget(ws)
    window.show()
    qtbot.waitExposed(window)
    assert ws.empty_message.isVisible() and ws.empty_import_button.isVisible()
    assert not ws.scatter.isVisible()
    window.grab().save(str(screenshot_dir / "analysis-empty.png"))


def test_screenshot_in_main_window(qtbot, screenshot_dir):
    from mtworkbench.gui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(QSize(1280, 800))
    window.set_project(judged_project(), None)
    ws = window.workspaces["Analysis"]
    window.tabs.setCurrentWidget(ws)
    window.show()
    qtbot.waitExposed(window)
    ws.docs_spin.setValue(200)
    ws.select_human("all:adequacy")
    run_compute(qtbot, ws)
    assert ws.scatter.isVisible() and ws.reliability_view.isVisible() and ws.table.isVisible()
    qtbot.wait(50)
    path = screenshot_dir / "analysis-workspace.png"
    assert window.grab().save(str(path))
    ws.grab().save(str(screenshot_dir / "analysis-workspace-only.png"))
    for name in ("analysis-export-scatter.png", "analysis-export-scatter.svg"):
        ws.export_scatter(screenshot_dir / name)
    for name in ("analysis-export-reliability.png", "analysis-export-reliability.svg"):
        ws.export_reliability(screenshot_dir / name)
    assert all(math.isfinite(v["r"]) for v in table_values(ws).values())


def synthetic_score_file(tmp_path, n: int, seed: int = 3):
    rng = random.Random(seed)
    path = tmp_path / "scores.txt"
    path.write_text("".join(f"{rng.gauss(0, 1):.6f}\n" for _ in range(n)), encoding="utf-8")
    return path


def test_import_scores_dialog_then_compute_on_the_demo(qtbot, legacy_demo_copy, tmp_path, monkeypatch):
    """The demo has no judgments: import one score per segment as a pseudo-judge, undoably, and correlate."""
    demo_copy = legacy_demo_copy  # the demo without its judgments
    from mtworkbench.gui.analysis import import_scores
    from mtworkbench.gui.analysis.import_scores import ImportScoresDialog
    from mtworkbench.io.bundle.bundle import load_bundle

    session = ProjectSession()
    ws = AnalysisWorkspace(session)
    qtbot.addWidget(ws)
    ws.resize(1100, 700)
    session.replace_project(load_bundle(demo_copy), None)
    ws.show()
    project = session.project
    scores = synthetic_score_file(tmp_path, len(project.segments))

    dialog = ImportScoresDialog(project, ws)
    qtbot.addWidget(dialog)
    dialog.path.setText(str(scores))
    dialog.judge.setText("da")
    dialog.scale.setCurrentText("da-z")
    dialog.accept()
    assert dialog.result() == dialog.DialogCode.Accepted
    plan = dialog.plan
    assert len(plan.judgments) == len(project.segments) and plan.judges == ["da"]
    assert not project.judgments  # planning changes nothing

    monkeypatch.setattr(import_scores, "ask_import_plan", lambda parent, proj: (plan, str(scores)))
    qtbot.mouseClick(ws.empty_import_button, Qt.MouseButton.LeftButton)
    assert len(project.judgments) == len(project.segments)
    qtbot.waitUntil(lambda: ws.pages.currentWidget() is ws.results, timeout=1000)
    assert ws.human_combo.currentData() == "da:score"

    ws.set_metric_specs(["chrf", "wer"])
    ws.docs_spin.setValue(RELIABILITY_DOCS)
    run_compute(qtbot, ws)
    pairs = core_pairs(project, "da:score", False, ["chrf", "wer"], "segment")
    got = table_values(ws)
    for spec, (m, h) in pairs.items():
        assert got[spec]["r"] == correlate(m, h).r
        assert got[spec]["n"] == len(project.segments)
    # One system: the reliability curves correlate across pseudo-documents; one judge: no judge line.
    assert ws.outcome.reliability.mode == "documents"
    assert list(ws.reliability_view.curves) == ["chrf", "wer"]
    assert "no inter-judge curve" in ws.reliability_note.text()
    # The scores are in the project's cache now: the Metrics workspace will not score them again.
    from mtworkbench.scoring.cache import cache_for

    assert not cache_for(project).missing([s.id for s in project.systems], ["chrf", "wer"])

    session.undo_stack.undo()  # one undo takes the whole import back
    assert not project.judgments and "da" not in project.judges
    qtbot.waitUntil(lambda: ws.pages.currentWidget() is ws.empty_page, timeout=1000)


def test_import_dialog_reports_a_wrong_line_count(qtbot, demo_copy, tmp_path, monkeypatch):
    from mtworkbench.gui import dialogs
    from mtworkbench.gui.analysis.import_scores import ImportScoresDialog
    from mtworkbench.io.bundle.bundle import load_bundle

    shown = []
    monkeypatch.setattr(dialogs, "error", lambda parent, title, message: shown.append(message))
    project = load_bundle(demo_copy)
    dialog = ImportScoresDialog(project)
    qtbot.addWidget(dialog)
    dialog.path.setText(str(synthetic_score_file(tmp_path, 7)))
    dialog.accept()
    assert dialog.plan is None and shown and "7 lines" in shown[0]


def test_bad_metric_option_is_reported_per_metric(qtbot, workspace):
    ws = workspace
    ws.set_metric_specs(["wer", "chrf:nosuchoption=1"])
    run_compute(qtbot, ws)
    assert list(table_values(ws)) == ["wer"]
    assert "chrf:nosuchoption=1" in ws.status.text()


def test_gui_stays_responsive_while_computing(qtbot, monkeypatch):
    """Scoring and statistics run off the GUI thread: compute() returns before the job has
    produced anything, and the job itself runs in another thread. (How long the event loop
    may stall is a benchmark's business, not a timed test's.)"""
    import threading

    import mtworkbench.gui.analysis.workspace as analysis_module

    job_threads: list[int] = []
    real_run = analysis_module.run_analysis

    def recording_run(*args, **kwargs):
        job_threads.append(threading.get_ident())
        return real_run(*args, **kwargs)

    monkeypatch.setattr(analysis_module, "run_analysis", recording_run)
    session = ProjectSession()
    ws = AnalysisWorkspace(session)
    qtbot.addWidget(ws)
    session.replace_project(judged_project(n_segments=300, n_systems=4), None)
    ws.show()
    assert ws.compute()
    assert ws.worker is not None and not ws.table_model.results  # returned before any result
    with qtbot.waitSignal(ws.worker.finished, timeout=60000):
        pass
    assert job_threads and all(t != threading.main_thread().ident for t in job_threads)
    assert len(ws.table_model.results) == len(SPECS)
