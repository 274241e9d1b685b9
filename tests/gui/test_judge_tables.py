"""Judgments table (filter by judge and system), agreement panel and scatter,
the queue setup dialog, export and the screenshots of the Judge workspace."""

from __future__ import annotations

import random

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QDialogButtonBox
from scipy import stats
from sklearn.metrics import cohen_kappa_score

from mtworkbench.core.judging import QueueConfig
from mtworkbench.core.model import Judgment, System
from mtworkbench.gui.export import export_widget
from mtworkbench.gui.judge import queue_dialog
from mtworkbench.gui.judge import workspace as judge_module
from mtworkbench.gui.judge.judgments_table import JudgmentsModel
from mtworkbench.gui.judge.pair_scatter import JITTER
from mtworkbench.gui.main_window import MainWindow
from mtworkbench.io.bundle.bundle import load_bundle


def panel_project(path):
    """The demo with a second system and three judges: ann and bob rate every
    item (bob agrees with ann only roughly), ann rates 10 items twice, cyd rates 20."""
    project = load_bundle(path)
    project.add_system(System("mt2", texts={s: project.reference_text("ref-2", s) or "?" for s in project.segment_ids}))
    rng = random.Random(5)
    items = [(system.id, segment) for system in project.systems for segment in project.segment_ids]
    for judge in ("ann", "bob", "cyd"):
        project.add_judge(judge)
    n = 0

    def add(judge, system, segment, adequacy, fluency, seconds=3.0):
        nonlocal n
        n += 1
        project.add_judgment(Judgment(f"j{n}", judge, system, segment, "ref-1", adequacy, fluency,
                                      timestamp="2026-01-01T00:00:00Z", seconds=seconds))

    def clamp(v):
        return max(1, min(5, v))

    ann = {}
    for system, segment in items:
        a, f = rng.randint(1, 5), rng.randint(2, 5)
        ann[(system, segment)] = (a, f)
        add("ann", system, segment, a, f)
        add("bob", system, segment, clamp(a + rng.choice([-1, 0, 0, 1, 2])), clamp(f + rng.choice([-2, -1, 0, 1])))
    for system, segment in items[:20]:
        add("cyd", system, segment, rng.randint(1, 5), rng.randint(1, 5))
    for system, segment in items[30:40]:  # repeats: the first 5 exactly as before, the rest one lower
        a, f = ann[(system, segment)]
        k = items.index((system, segment))
        add("ann", system, segment, a if k < 35 else clamp(a - 1), f)
    return project


@pytest.fixture
def window(qtbot, legacy_demo_copy):
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    w.set_project(panel_project(legacy_demo_copy), legacy_demo_copy)
    w.tabs.setCurrentWidget(w.workspaces["Judge"])
    return w


@pytest.fixture
def workspace(window):
    return window.workspaces["Judge"]


def column(header):
    from mtworkbench.gui.judge.judgments_table import COLUMNS

    return [h for h, _ in COLUMNS].index(header)


def test_judgments_table_filters_by_judge_and_system(qtbot, window, workspace):
    project = window.session.project
    panel = workspace.judgments
    workspace.tabs.setCurrentWidget(panel)
    assert panel.proxy.rowCount() == len(project.judgments) == 100 + 100 + 20 + 10
    panel.judge_filter.setCurrentIndex(panel.judge_filter.findData("bob"))
    assert panel.proxy.rowCount() == 100
    panel.system_filter.setCurrentIndex(panel.system_filter.findData("mt2"))
    assert panel.proxy.rowCount() == 50
    shown = {panel.proxy.index(r, column("Judge")).data() for r in range(panel.proxy.rowCount())}
    assert shown == {"bob"}
    assert {panel.proxy.index(r, column("System")).data() for r in range(panel.proxy.rowCount())} == {"mt2"}
    assert panel.count.text() == "50 of 230 judgments"
    panel.judge_filter.setCurrentIndex(panel.judge_filter.findData("ann"))
    assert panel.proxy.rowCount() == 50  # ann repeated only items of mt (items 30-39)
    panel.system_filter.setCurrentIndex(panel.system_filter.findData("mt"))
    assert panel.proxy.rowCount() == 60
    panel.set_filter()
    assert panel.proxy.rowCount() == 230

    # Sorting by adequacy sorts numbers; the table follows new judgments at once.
    panel.table.sortByColumn(column("Adequacy"), Qt.SortOrder.DescendingOrder)
    assert panel.proxy.index(0, column("Adequacy")).data() == "5"
    project.add_judge("dee")
    project.add_judgment(Judgment("jx", "dee", "mt", "1", None, 2, 2, seconds=1.25))
    assert panel.proxy.rowCount() == 231
    assert panel.judge_filter.findData("dee") > 0
    panel.judge_filter.setCurrentIndex(panel.judge_filter.findData("dee"))
    row = [panel.proxy.index(0, c).data() for c in range(panel.proxy.columnCount())]
    assert row[column("Seconds")] == "1.2" or row[column("Seconds")] == "1.3"
    assert panel.proxy.index(0, 0).data(JudgmentsModel.JudgmentRole).id == "jx"
    assert row[column("Adequacy z")] == "+0.00"  # one rating: no spread, z = 0


def test_judgments_table_shows_per_judge_z_scores(qtbot, window, workspace):
    project = window.session.project
    panel = workspace.judgments
    panel.judge_filter.setCurrentIndex(panel.judge_filter.findData("cyd"))
    own = [j for j in project.judgments if j.judge == "cyd"]
    expected = stats.zscore([j.adequacy for j in own], ddof=0)
    shown = {}
    for r in range(panel.proxy.rowCount()):
        j = panel.proxy.index(r, 0).data(JudgmentsModel.JudgmentRole)
        shown[j.id] = panel.proxy.index(r, column("Adequacy z")).data()
    assert shown == {j.id: f"{z:+.2f}" for j, z in zip(own, expected)}


def first_values(project, judge, quantity):
    first = {}
    for j in project.judgments:
        if j.judge == judge:
            first.setdefault((j.system, j.segment), getattr(j, quantity))
    return first


def test_agreement_panel_numbers_and_scatter(qtbot, window, workspace):
    project = window.session.project
    panel = workspace.agreement
    workspace.tabs.setCurrentWidget(panel)
    assert panel.pairs_model.rowCount() == 3
    cells = {
        panel.pairs_model.index(r, 0).data(): [panel.pairs_model.index(r, c).data() for c in range(8)]
        for r in range(3)
    }
    row = cells["ann  ×  bob"]
    assert row[1] == "100"
    for offset, quantity in ((2, "adequacy"), (5, "fluency")):
        ann, bob = first_values(project, "ann", quantity), first_values(project, "bob", quantity)
        keys = sorted(ann)
        a = [ann[k] for k in keys]
        b = [bob[k] for k in keys]
        assert row[offset] == f"{stats.spearmanr(a, b).statistic:.3f}"
        assert row[offset + 1] == f"{stats.pearsonr(a, b).statistic:.3f}"
        kappa = cohen_kappa_score(a, b, labels=[1, 2, 3, 4, 5], weights="quadratic")
        assert row[offset + 2] == f"{kappa:.3f}"
    assert cells["ann  ×  cyd"][1] == "20"

    # ann repeated 10 items: 5 identical adequacy ratings, 5 one point lower.
    assert panel.intra_model.rowCount() == 1
    intra = [panel.intra_model.index(0, c).data() for c in range(8)]
    assert intra[:4] == ["ann", "10", "50%", "0.50"]
    assert intra[5:7] == ["100%", "0.00"]

    # Each judge's mean and spread (ddof=0), what the z-transform uses.
    summary = {panel.summary_model.index(r, 0).data(): [panel.summary_model.index(r, c).data() for c in range(7)]
               for r in range(panel.summary_model.rowCount())}
    cyd = [j.adequacy for j in project.judgments if j.judge == "cyd"]
    assert summary["cyd"][1:5] == ["20", "20", f"{np.mean(cyd):.2f}", f"{np.std(cyd):.2f}"]
    assert summary["ann"][1:3] == ["110", "100"]

    # The scatter shows ann against bob, each point within the jitter of its rating.
    panel.pairs.selectRow(0)
    scatter = panel.scatter
    ann, bob = first_values(project, "ann", "adequacy"), first_values(project, "bob", "adequacy")
    a = np.array([ann[k] for k in ann])
    b = np.array([bob[k] for k in ann])
    assert len(scatter.x) == 100
    assert np.all(np.abs(scatter.x - a) <= JITTER) and np.all(np.abs(scatter.y - b) <= JITTER)
    assert not np.allclose(scatter.x - a, scatter.y - b)  # independent noise per axis
    assert "Spearman ρ = " + row[2] in scatter.getPlotItem().titleLabel.text
    panel.quantity.setCurrentIndex(panel.quantity.findData("fluency"))
    f_ann = first_values(project, "ann", "fluency")
    assert np.all(np.abs(scatter.x - np.array([f_ann[k] for k in ann])) <= JITTER)
    panel.pairs.selectRow(1)
    assert len(scatter.x) == 20


def test_agreement_follows_new_judgments(qtbot, window, workspace):
    panel = workspace.agreement
    workspace.tabs.setCurrentWidget(panel)
    project = window.session.project
    project.add_judge("eve")
    project.add_judgment(Judgment("je1", "eve", "mt", "1", None, 3, 3))
    project.add_judgment(Judgment("je2", "eve", "mt", "2", None, 4, 2))
    assert panel.pairs_model.rowCount() == 3 + 3  # eve shares items with ann, bob and cyd


def test_queue_setup_dialog_builds_the_config(qtbot, window):
    project = window.session.project
    dialog = queue_dialog.QueueSetupDialog(project, "ann")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.summary.text() == "100 items to rate, plus 10 repeated."
    dialog.seed.setValue(42)
    dialog.repeats.setValue(20)
    dialog.systems.item(1).setCheckState(Qt.CheckState.Unchecked)
    assert dialog.summary.text() == "50 items to rate, plus 10 repeated."
    dialog.reference_mode.setCurrentIndex(dialog.reference_mode.findData("fixed"))
    assert dialog.fixed_reference.isEnabled()
    dialog.fixed_reference.setCurrentIndex(dialog.fixed_reference.findData("ref-2"))
    # A form stretches the box across the row: click its indicator at the left.
    qtbot.mouseClick(dialog.show_source, Qt.MouseButton.LeftButton, pos=QPoint(8, dialog.show_source.height() // 2))
    config = dialog.config()
    assert config == QueueConfig(seed=42, repeat_share=0.2, reference_mode="fixed", reference="ref-2",
                                 systems=("mt",), show_source=True, highlight_overlap=False)
    dialog.systems.item(0).setCheckState(Qt.CheckState.Unchecked)
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()


def test_export_the_agreement_view(qtbot, workspace, tmp_path):
    workspace.tabs.setCurrentWidget(workspace.agreement)
    target = workspace.export_widget()
    assert target is workspace.agreement
    export_widget(target, tmp_path / "agreement.png")
    assert QImage(str(tmp_path / "agreement.png")).size() == target.size()


def test_export_the_agreement_view_as_svg(qtbot, workspace, tmp_path):
    workspace.tabs.setCurrentWidget(workspace.agreement)
    export_widget(workspace.export_widget(), tmp_path / "agreement.svg")
    assert "<svg" in (tmp_path / "agreement.svg").read_text(encoding="utf-8")[:2000]


def test_screenshots(qtbot, window, workspace, monkeypatch, screenshot_dir):
    monkeypatch.setattr(judge_module, "ask_judge_name", lambda parent: "dee")
    qtbot.mouseClick(workspace.new_judge_button, Qt.MouseButton.LeftButton)
    monkeypatch.setattr(queue_dialog, "ask_queue_config",
                        lambda *a: QueueConfig(seed=3, show_source=True, highlight_overlap=True))
    qtbot.mouseClick(workspace.start_button, Qt.MouseButton.LeftButton)
    view = workspace.rating
    for key in (Qt.Key.Key_4, Qt.Key.Key_3, Qt.Key.Key_Return, Qt.Key.Key_5):
        qtbot.keyClick(view, key)
    QApplication.processEvents()
    # Focus mode is on by default: the side panels (which name the systems) are hidden.
    assert workspace.focus_button.isChecked() and not window.docks[0].isVisible()
    image = window.grab()
    assert image.size() == QSize(1280, 800)
    assert image.save(str(screenshot_dir / "judge-rating.png"))
    qtbot.mouseClick(workspace.focus_button, Qt.MouseButton.LeftButton)
    assert window.docks[0].isVisible()
    QApplication.processEvents()
    assert window.grab().save(str(screenshot_dir / "judge-rating-with-panels.png"))
    qtbot.mouseClick(workspace.focus_button, Qt.MouseButton.LeftButton)
    workspace.tabs.setCurrentWidget(workspace.agreement)
    QApplication.processEvents()
    assert window.grab().save(str(screenshot_dir / "judge-agreement.png"))
    workspace.tabs.setCurrentWidget(workspace.judgments)
    QApplication.processEvents()
    assert window.grab().save(str(screenshot_dir / "judge-judgments.png"))
    window.tabs.setCurrentIndex(0)  # leaving the workspace gives the panels back
    assert window.docks[0].isVisible()
