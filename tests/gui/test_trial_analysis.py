"""The Analysis workspace at 1280x800 on WMT21 en-de with MQM: meta-evaluation
statistics, headers and labels readable, what Compare two systems wrote, the
error-count legend, no all-NaN warnings; importing the MQM table and naming
references. Driven with real clicks and keys; screenshots in build/screenshots."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox, QLineEdit

from mtworkbench.analysis.meta_eval import MetaEvalData, compute_stat, oriented
from mtworkbench.analysis.reliability import INTER_JUDGE, ReliabilityCurve, ReliabilityResult
from mtworkbench.gui.analysis import compare_report
from mtworkbench.gui.analysis.error_counts_view import ErrorBarsView
from mtworkbench.gui.analysis.import_scores import ImportScoresDialog
from mtworkbench.gui.analysis.reliability_view import ReliabilityView
from mtworkbench.gui.dialogs import NewProjectDialog
from mtworkbench.io.bundle.bundle import save_bundle
from tests.gui.test_trial_layout import click_tab, header_fits, make_window
from tests.gui.wmt21_project import SYSTEMS, wmt21_project


@pytest.fixture
def analysis(qtbot, shared_dir, tmp_path):
    path = tmp_path / "wmt21-ende.mtwb.json"
    save_bundle(wmt21_project(shared_dir, tmp_path / "texts", n=12, metrics=("bleu", "chrf", "ter")), path)
    window = make_window(qtbot, path)
    workspace = window.workspaces["Analysis"]
    click_tab(qtbot, window.tabs, workspace)
    return window, workspace


def compute(qtbot, workspace, level="system"):
    workspace.level_combo.setCurrentText(level)
    qtbot.mouseClick(workspace.compute_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: workspace.outcome is not None and not workspace.is_computing(), timeout=180_000)
    QApplication.processEvents()


def test_meta_evaluation_and_readable_results(qtbot, analysis, screenshot_dir):
    window, workspace = analysis
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # "All-NaN slice" and kin would fail here
        compute(qtbot, workspace, "system")
    # Every header of the correlation table is readable, Williams' included.
    table = workspace.table
    for column in range(table.model().columnCount()):
        assert header_fits(table, column), table.model().headerData(column, Qt.Orientation.Horizontal)
    # The scatter's system labels stay inside the plot (the best system's name was cut at the edge).
    vb = workspace.scatter.getPlotItem().getViewBox().sceneBoundingRect()
    assert len(workspace.scatter.labels) == 8
    for label in workspace.scatter.labels:
        assert vb.contains(label.sceneBoundingRect()), label.toPlainText()
    window.grab().save(str(screenshot_dir / "layout-analysis.png"))
    # Meta-evaluation: what correlate --stat computes, per metric, in a tab of its own.
    click_tab(qtbot, workspace.result_tabs, workspace.meta_table)
    meta = workspace.meta_table
    assert meta.rowCount() == 3 and meta.text(0, 0) == "bleu"
    outcome = workspace.outcome
    human = workspace.outcome.meta[0]
    assert set(human.values) == {"pairwise-accuracy", "spa", "acc-eq", "item-grouped"}
    for column in range(meta.columnCount()):
        title = meta.horizontalHeaderItem(column).text()
        assert meta.horizontalHeader().sectionSize(column) >= meta.horizontalHeader().fontMetrics().horizontalAdvance(title) + 8
    # The pairwise accuracy shown is meta_eval's on the same scores.
    from mtworkbench.analysis.human_scores import collect_human_scores

    hs = collect_human_scores(workspace.project, workspace.human_combo.currentData())
    rows = [hs.systems.index(s) for s in outcome.systems]
    entry = {s: workspace.cache.current(s, "bleu") for s in outcome.systems}
    data = MetaEvalData(hs.matrix[rows], hs.system_scores()[rows],
                        np.array([entry[s].score.segments for s in outcome.systems], float),
                        np.array([entry[s].score.corpus for s in outcome.systems], float), True)
    expected = compute_stat("pairwise-accuracy", "system", *oriented(data, "pairwise-accuracy", "system"))
    assert meta.text(0, 1) == f"{expected.value:.4f}"
    assert all(meta.text(r, c) not in ("", "–") for r in range(3) for c in (1, 2, 3))
    window.grab().save(str(screenshot_dir / "layout-analysis-meta.png"))


def test_a_result_pops_out(qtbot, analysis):
    _window, workspace = analysis
    qtbot.mouseClick(workspace.scatter_pane.pop_button, Qt.MouseButton.LeftButton)
    assert workspace.scatter_pane.is_popped and workspace.scatter.window() is workspace.scatter_pane.window_
    workspace.scatter_pane.window_.close()
    QApplication.processEvents()
    assert not workspace.scatter_pane.is_popped and workspace.scatter_pane.isVisible()


def test_compare_report_says_where_it_went_and_that_no_browser_opened(qtbot, analysis, tmp_path, monkeypatch):
    _window, workspace = analysis
    target = tmp_path / "report.html"
    monkeypatch.setattr(compare_report.QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    opened = []
    monkeypatch.setattr(compare_report.QDesktopServices, "openUrl", lambda url: opened.append(url) or False)

    def press_ok():
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QDialog)
        dialog.metrics.setText("bleu")
        qtbot.keyClick(dialog, Qt.Key.Key_Return)

    QTimer.singleShot(200, press_ok)
    qtbot.mouseClick(workspace.compare_button, Qt.MouseButton.LeftButton)
    assert str(target) in workspace.status.text()
    qtbot.waitUntil(lambda: bool(opened), timeout=120_000)
    QApplication.processEvents()
    text = workspace.status.text()
    assert target.is_file() and str(target) in text and "No browser could be opened" in text
    assert workspace.status.textFormat() == Qt.TextFormat.PlainText


def test_error_count_legend_swatches_are_filled_and_beside_the_bars(qtbot):
    from mtworkbench.analysis.error_counts import error_counts
    from mtworkbench.core.model import ErrorSpan, Judgment

    judgments = [Judgment(f"j{i}", "r", s, "1", protocol="mqm",
                          errors=(ErrorSpan(0, 2, sev, "Accuracy"),) * n)
                 for i, (s, sev, n) in enumerate([("VolcTrans-GLAT", "major", 9), ("VolcTrans-GLAT", "minor", 30),
                                                  ("UEdin", "minor", 2), ("UEdin", "neutral", 1)])]
    view = ErrorBarsView()
    qtbot.addWidget(view)
    view.resize(560, 360)
    view.show()
    view.show_counts(error_counts(judgments, "mqm"))
    QApplication.processEvents()
    legend = view.legend
    names = [label.text for _sample, label in legend.items]
    assert any("minor" in n for n in names)
    bars = view.getPlotItem().getViewBox().sceneBoundingRect()
    for sample, _label in legend.items:
        brush = sample.item.opts["brush"]
        assert brush.style() == Qt.BrushStyle.SolidPattern and brush.color().alpha() == 255  # filled
        assert not sample.sceneBoundingRect().intersects(bars)  # the legend is beside the bars, not on them
    colours = {sample.item.opts["brush"].color().name() for sample, _ in legend.items}
    assert {b.opts["brush"].color().name() if hasattr(b.opts["brush"], "color") else None for b in view.bars} - {None} <= colours | {None}


def test_reliability_skips_an_all_nan_curve_without_warnings(qtbot):
    view = ReliabilityView()
    qtbot.addWidget(view)
    result = ReliabilityResult(
        human="mqm", mode="systems", n_docs=10, seed=1, systems=list(SYSTEMS),
        curves=[ReliabilityCurve("bleu", [1, 2, 4], [0.1, 0.3, 0.5]),
                ReliabilityCurve(INTER_JUDGE, [1, 2, 4], [math.nan, math.nan, math.nan])])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        view.show_result(result)
        view.resize(500, 400)
        view.show()
        view.grab()
    assert list(view.curves) == ["bleu"]


def test_import_mqm_table_sets_its_scale_and_says_what_was_skipped(qtbot, shared_dir, tmp_path):
    project = wmt21_project(shared_dir, tmp_path / "texts", n=1002, with_mqm=False)
    dialog = ImportScoresDialog(project)
    qtbot.addWidget(dialog)
    dialog.show()
    assert (dialog.judge.text(), dialog.scale.currentText()) == ("da", "da-z")
    dialog.format.setFocus()
    target = dialog.format.findData("mqm-tsv")
    while dialog.format.currentIndex() != target:  # the user picks "MQM table" with the arrow keys
        qtbot.keyClick(dialog.format, Qt.Key.Key_Down if dialog.format.currentIndex() < target else Qt.Key.Key_Up)
    assert (dialog.judge.text(), dialog.scale.currentText()) == ("mqm", "mqm")
    qtbot.keyClicks(dialog.path, str(shared_dir / "data" / "wmt21-en-de-mqm" / "mqm.tsv"))
    qtbot.keyClick(dialog.path, Qt.Key.Key_Return)
    assert dialog.plan is not None and len(dialog.plan.judgments) == 4216
    assert dialog.summary() == "skipped 1,581 rows of systems not in the project: ref-A, ref-C, ref-D"
    assert {j.scale for j in dialog.plan.judgments} == {"mqm"} and {j.judge for j in dialog.plan.judgments} == {"mqm"}
    # A name the user typed is kept when the format changes.
    dialog.judge.setText("experts")
    dialog.format.setCurrentIndex(dialog.format.findData("lines") if dialog.format.findData("lines") >= 0 else 0)
    assert dialog.judge.text() == "experts"


def test_new_project_from_files_names_references(qtbot, shared_dir, tmp_path):
    data = shared_dir / "data" / "wmt21-en-zh"
    dialog = NewProjectDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.source, str(data / "source.en"))
    dialog.references.addItems([str(data / "ref-A.zh"), str(data / "ref-B.zh")])
    assert dialog.references.names() == ["ref-A", "ref-B"]  # the files' names to start with
    # The user renames the second reference: click its name, F2, type (a Chinese name too).
    table = dialog.references
    dialog.activateWindow()
    rect = table.visualRect(table.model().index(1, 0))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.keyClick(table, Qt.Key.Key_F2)
    editor = table.findChild(QLineEdit)
    assert editor is not None and editor.isVisible()
    editor.selectAll()
    editor.insert("译者B")  # as an input method commits it (key events carry Latin letters only)
    systems = sorted((data / "systems").iterdir())[:2]
    dialog.systems.addItems([str(p) for p in systems])
    dialog.tgt_lang.setText("zh")
    # OK while the name is still being edited: the dialog takes the typed name.
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    assert dialog.project is not None
    assert [r.id for r in dialog.project.references] == ["ref-A", "译者B"]
    assert dialog.project.reference("译者B").texts == {
        str(i + 1): line for i, line in enumerate((data / "ref-B.zh").read_text(encoding="utf-8").splitlines())}


def test_import_status_names_what_was_skipped(qtbot, shared_dir, tmp_path, monkeypatch):
    from mtworkbench.gui.analysis import import_scores
    from mtworkbench.io.scores.score_table import plan_all_systems

    path = tmp_path / "plain.mtwb.json"
    project = wmt21_project(shared_dir, tmp_path / "texts", n=1002, metrics=("bleu",), with_mqm=False)
    save_bundle(project, path)
    window = make_window(qtbot, path)
    workspace = window.workspaces["Analysis"]
    click_tab(qtbot, window.tabs, workspace)
    table = shared_dir / "data" / "wmt21-en-de-mqm" / "mqm.tsv"

    def ask(parent, proj):  # the dialog's answer for this file, as the user fills it in
        dialog = import_scores.ImportScoresDialog(proj)
        dialog.format.setCurrentIndex(dialog.format.findData("mqm-tsv"))
        dialog.path.setText(str(table))
        plan = dialog.build_plan()
        assert len(plan.judgments) == len(plan_all_systems(proj, "mqm", table, "mqm").plan.judgments)
        return plan, str(table), dialog.summary()

    monkeypatch.setattr(import_scores, "ask_import_plan", ask)
    qtbot.mouseClick(workspace.empty_import_button, Qt.MouseButton.LeftButton)
    assert workspace.status.text() == ("Imported 4,216 scores from mqm.tsv; skipped 1,581 rows of systems not in "
                                       "the project: ref-A, ref-C, ref-D. Press Compute.")
