"""The Metrics workspace driven like a user: it scores on opening, sorts,
filters, selects, copies TSV and LaTeX, changes metrics and baseline through
the dialog and undo, and opens a judged segment in the Judge workspace."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sacrebleu
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog

from mtworkbench.core.model import Judgment, System
from mtworkbench.gui.commands import SetTextCommand
from mtworkbench.gui.metrics import scoring_controls
from mtworkbench.gui.metrics.sentence_browser import SentenceTableModel
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle

SPECS = ["bleu", "chrf", "ter"]


def drop_every_third_word(text: str) -> str:
    return " ".join(w for i, w in enumerate(text.split()) if i % 3 != 2)


@pytest.fixture
def three_systems(legacy_demo_copy):
    """The demo plus a human system (reference 2's texts) and a damaged copy of mt."""
    project = load_bundle(legacy_demo_copy)
    ids = project.segment_ids
    project.add_system(System("human_2", "human", {s: project.reference_text("ref-2", s) for s in ids}))
    project.add_system(System("mt_cut", "machine", {s: drop_every_third_word(project.system_text("mt", s)) for s in ids}))
    project.add_judge("ann")
    for k, sid in enumerate(ids[:6]):
        project.add_judgment(Judgment(f"j{k}", "ann", "mt", sid, "ref-1", adequacy=1 + k % 5, fluency=3))
    project.settings.metrics = list(SPECS)
    project.settings.baseline = "mt"
    save_bundle(project, legacy_demo_copy)
    return legacy_demo_copy


def open_metrics(qtbot, window, path):
    assert window.open_path(path)
    workspace = window.workspaces["Metrics"]
    tab_bar = window.tabs.tabBar()
    index = window.tabs.indexOf(workspace)
    qtbot.mouseClick(tab_bar, Qt.MouseButton.LeftButton, pos=tab_bar.tabRect(index).center())
    assert window.tabs.currentWidget() is workspace
    wait_scored(qtbot, workspace)
    return workspace


def wait_scored(qtbot, workspace, timeout=60_000):
    qtbot.waitUntil(lambda: not workspace.is_scoring() and not workspace.needs_scoring(), timeout=timeout)
    workspace.refresh()


def corpus_value(workspace, system, spec):
    for row in workspace.corpus_table.model.rows:
        if row.system == system:
            return row.cells[spec]
    raise KeyError(system)


def click_header(qtbot, view, column):
    header = view.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))


def click_cell(qtbot, view, row, column):
    index = view.model().index(row, column)
    view.scrollTo(index)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center())


def test_opens_scores_and_shows_intervals_and_significance(qtbot, window, three_systems, screenshot_dir):
    workspace = open_metrics(qtbot, window, three_systems)
    project = window.session.project
    ids = project.segment_ids
    for system in ("mt", "human_2", "mt_cut"):
        # human_2 is reference 2's text: it is scored against the other reference only
        refs = [[project.reference_text(r.id, s) for s in ids] for r in project.references
                if not (system == "human_2" and r.id == "ref-2")]
        hyps = [project.system_text(system, s) for s in ids]
        cell = corpus_value(workspace, system, "bleu")
        assert cell.score == pytest.approx(sacrebleu.corpus_bleu(hyps, refs).score, abs=1e-9)
        assert corpus_value(workspace, system, "chrf").score == pytest.approx(
            sacrebleu.corpus_chrf(hyps, refs).score, abs=1e-9)
        assert cell.ci_lower <= cell.score <= cell.ci_upper
        assert cell.ci_half == pytest.approx((cell.ci_upper - cell.ci_lower) / 2)
    model = workspace.corpus_table.model
    # The cut copy is far worse than mt on every metric (TER: lower is better, so the arrows follow
    # the metric's direction, not the number); reference 2 as a system, against reference 1 only,
    # is tested like any system but is no longer a sure winner.
    for spec in SPECS:
        assert corpus_value(workspace, "human_2", spec).p_value is not None
        assert corpus_value(workspace, "mt_cut", spec).p_value < 0.05
    texts = {row.system: [model.cell_text(row, s, row.cells[s]) for s in SPECS] for row in model.rows}
    assert all(t.endswith("▼*") for t in texts["mt_cut"])
    assert not any("*" in t for t in texts["mt"])
    assert corpus_value(workspace, "mt", "bleu").p_value is None
    # The sentence browser has one row per (segment, system), with every metric and the human score.
    browser = workspace.browser.model
    assert browser.rowCount() == 3 * len(ids)
    assert [c.title for c in browser.columns][:4] == [*SPECS, "Human (adequacy)"]
    window.grab().save(str(screenshot_dir / "metrics_workspace.png"))


def test_sort_filter_select_and_copy(qtbot, window, three_systems):
    workspace = open_metrics(qtbot, window, three_systems)
    table = workspace.corpus_table
    bleu_col = 1 + SPECS.index("bleu")
    click_header(qtbot, table.view, bleu_col)
    order_a = [row.system for row in table.model.rows]
    click_header(qtbot, table.view, bleu_col)
    order_b = [row.system for row in table.model.rows]
    # human_2 (reference 2, scored against reference 1 only) scores below mt scored against both
    assert order_a == ["mt_cut", "human_2", "mt"] and order_b == order_a[::-1]

    # Copy as TSV: one line per system with the numbers the table holds.
    qtbot.mouseClick(workspace.copy_tsv_button, Qt.MouseButton.LeftButton)
    tsv = QApplication.clipboard().text().splitlines()
    header = tsv[0].split("\t")
    assert header[:5] == ["system", "bleu", "bleu 95% CI low", "bleu 95% CI high", "bleu p"]
    rows = {line.split("\t")[0]: line.split("\t") for line in tsv[1:]}
    assert set(rows) == {"mt", "human_2", "mt_cut"}
    assert float(rows["mt"][1]) == pytest.approx(corpus_value(workspace, "mt", "bleu").score, abs=0.005)
    assert rows["mt"][4] == "" and float(rows["mt_cut"][4]) < 0.05
    qtbot.mouseClick(workspace.copy_latex_button, Qt.MouseButton.LeftButton)
    latex = QApplication.clipboard().text()
    assert latex.startswith(r"\begin{tabular}{lrrr}")
    assert r"mt\_cut" in latex and r"human\_2" in latex and "mt (baseline)" in latex
    assert latex.count(r"\\") == 4 and r"$^{*}$" in latex

    # The sentence browser: sort by a metric, filter by text, by score range and by system.
    browser = workspace.browser
    model = browser.model
    chrf_col = model.column_of("chrf")
    click_header(qtbot, browser.view, chrf_col)
    values = [model.value(r, chrf_col) for r in range(model.rowCount())]
    assert values == sorted(values)
    click_header(qtbot, browser.view, chrf_col)
    values = [model.value(r, chrf_col) for r in range(model.rowCount())]
    assert values == sorted(values, reverse=True)

    browser.text_filter.setFocus()
    qtbot.keyClicks(browser.text_filter, "Estonia")
    qtbot.waitUntil(lambda: model.rowCount() < model.n_rows)
    project = window.session.project
    for r in range(model.rowCount()):
        system, segment = model.row_key(r)
        haystack = " ".join([project.system_text(system, segment), project.segment(segment).source,
                             *(t for _ref, t in project.iter_reference_texts(segment))])
        assert "estonia" in haystack.lower()
    expected = sum(
        "estonia" in " ".join([project.system_text(s.id, seg), project.segment(seg).source,
                               *(t for _r, t in project.iter_reference_texts(seg))]).lower()
        for seg in project.segment_ids for s in project.systems)
    assert model.rowCount() == expected > 0
    browser.text_filter.clear()
    qtbot.waitUntil(lambda: model.rowCount() == model.n_rows)

    browser.range_column.setCurrentText("bleu")
    qtbot.keyClicks(browser.range_low, "40")
    qtbot.keyClicks(browser.range_high, "60")
    qtbot.waitUntil(lambda: model.rowCount() < model.n_rows)
    bleu = model.column_of("bleu")
    shown = [model.value(r, bleu) for r in range(model.rowCount())]
    assert shown and all(40 <= v <= 60 for v in shown)
    all_bleu = browser.model.columns[bleu - SentenceTableModel.N_FIXED].values
    assert len(shown) == int(np.sum((all_bleu >= 40) & (all_bleu <= 60)))
    browser.range_low.clear()
    browser.range_high.clear()
    browser.system_filter.setCurrentText("mt_cut")
    assert model.rowCount() == len(project.segments)
    assert {model.row_key(r)[0] for r in range(model.rowCount())} == {"mt_cut"}

    # Selecting a row follows the segment everywhere and drives the detail views.
    target = next(r for r in range(model.rowCount()) if model.row_key(r)[1] == "7")
    click_cell(qtbot, browser.view, target, SentenceTableModel.OUTPUT)
    assert window.session.current_segment == "7"
    view = workspace.detail_tabs.currentWidget()
    if hasattr(view, "set_segment"):
        assert (view.system_id, view.segment_id) == ("mt_cut", "7")
        workspace.detail_tabs.setCurrentIndex(workspace.detail_tabs.count() - 1)
        other = workspace.detail_tabs.currentWidget()
        assert (other.system_id, other.segment_id) == ("mt_cut", "7")
    # The navigator moving to another segment moves the browser's selection too.
    window.session.set_current_segment("9")
    assert browser.selected() == ("mt_cut", "9")

    # Δ column: chrf of human_2 minus mt, per segment.
    browser.delta_metric.setCurrentText("chrf")
    browser.delta_a.setCurrentText("human_2")
    browser.delta_b.setCurrentText("mt")
    delta_col = model.column_of("Δ chrf human_2−mt")
    assert delta_col > 0
    chrf = {s: workspace.cache.current(s, "chrf").score.segments for s in ("human_2", "mt")}
    seg_pos = project.segment_position("9")
    row = model.row_of("mt_cut", "9")
    assert model.value(row, delta_col) == pytest.approx(chrf["human_2"][seg_pos] - chrf["mt"][seg_pos])


def test_metric_settings_dialog_baseline_and_undo(qtbot, window, three_systems, monkeypatch):
    workspace = open_metrics(qtbot, window, three_systems)
    stack = window.session.undo_stack

    def fill_dialog(lines: str, samples: int):
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QDialog)
        dialog.specs_edit.setPlainText("nosuchmetric")
        dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()
        assert "nosuchmetric" in dialog.message.text() and dialog.isVisible()  # stays open
        dialog.specs_edit.setPlainText(lines)
        dialog.ci_samples.setValue(samples)
        dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()

    QTimer.singleShot(0, lambda: fill_dialog("bleu\nwer\ngtm:e=2", 200))
    qtbot.mouseClick(workspace.settings_button, Qt.MouseButton.LeftButton)
    assert window.session.project.settings.metrics == ["bleu", "wer", "gtm:e=2"]
    assert workspace.ci_samples == 200
    assert stack.count() == 1
    wait_scored(qtbot, workspace)
    assert [c.title for c in workspace.browser.model.columns][:3] == ["bleu", "wer", "gtm:e=2"]
    wer = corpus_value(workspace, "mt", "wer")
    assert 0 < wer.score < 1 and wer.ci_lower <= wer.score <= wer.ci_upper

    # Baseline from the toolbar: an undoable setting; the markers follow it.
    combo = workspace.baseline_combo
    combo.setCurrentIndex(combo.findData("mt_cut"))
    combo.activated.emit(combo.currentIndex())
    assert window.session.project.settings.baseline == "mt_cut"
    wait_scored(qtbot, workspace)
    qtbot.waitUntil(lambda: corpus_value(workspace, "mt", "bleu").p_value is not None, timeout=30_000)
    assert corpus_value(workspace, "mt_cut", "bleu").p_value is None

    stack.undo()
    assert window.session.project.settings.baseline == "mt"
    stack.undo()
    assert window.session.project.settings.metrics == SPECS
    workspace.refresh()
    assert workspace.corpus_table.model.specs == SPECS


def test_edit_rescoring_cancel_and_open_in_judge(qtbot, window, three_systems, monkeypatch):
    workspace = open_metrics(qtbot, window, three_systems)
    project = window.session.project
    before = corpus_value(workspace, "mt", "bleu").score
    other = workspace.cache.current("human_2", "bleu")
    window.session.push(SetTextCommand(project, "system", "mt", "1", "Completely different words here."))
    qtbot.wait(200)  # the refresh is deferred until the cache has heard the event
    assert workspace.cache.current("mt", "bleu") is None
    assert workspace.cache.current("human_2", "bleu") is other  # untouched systems stay cached
    assert math.isnan(corpus_value(workspace, "mt", "bleu").score)
    wait_scored(qtbot, workspace)  # rescored on its own shortly after the edit
    ids = project.segment_ids
    hyps = [project.system_text("mt", s) for s in ids]
    refs = [[project.reference_text(r.id, s) for s in ids] for r in project.references]
    edited = sacrebleu.corpus_bleu(hyps, refs).score
    assert corpus_value(workspace, "mt", "bleu").score == pytest.approx(edited, abs=1e-9) != before
    window.session.undo_stack.undo()
    qtbot.wait(200)
    qtbot.mouseClick(workspace.score_button, Qt.MouseButton.LeftButton)
    wait_scored(qtbot, workspace)
    assert corpus_value(workspace, "mt", "bleu").score == before  # found again by fingerprint

    # Cancel: a slower metric on every system, stopped at once.
    workspace.ci_samples = 0
    workspace.cache.invalidate_all()
    monkeypatch.setattr(scoring_controls, "PREPARE_SLICE_S", 0.0)
    qtbot.mouseClick(workspace.score_button, Qt.MouseButton.LeftButton)
    assert workspace.is_scoring() and workspace.cancel_button.isEnabled()
    qtbot.mouseClick(workspace.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not workspace.is_scoring(), timeout=30_000)
    assert "cancelled" in workspace.status.text().lower()
    assert not workspace.progress.isVisible() and not workspace.cancel_button.isEnabled()

    # One click on a human score opens that segment in the Judge workspace.
    workspace.refresh()
    browser = workspace.browser
    human_col = browser.model.column_of("Human (adequacy)")
    row = browser.model.row_of("mt", "3")
    with qtbot.waitSignal(window.session.open_in_judge_requested) as signal:
        click_cell(qtbot, browser.view, row, human_col)
    assert signal.args == ["mt", "3"]
    assert window.tabs.currentWidget() is window.workspaces["Judge"]
    assert window.session.current_segment == "3"


def test_export_view_picks_the_detail_view_or_the_corpus_table(qtbot, window, three_systems, tmp_path, monkeypatch):
    workspace = open_metrics(qtbot, window, three_systems)
    workspace.score_button.setFocus()
    assert workspace.export_widget() is workspace.corpus_table
    target = tmp_path / "corpus.png"
    monkeypatch.setattr("mtworkbench.gui.main_window.QFileDialog.getSaveFileName", lambda *a, **k: (str(target), ""))
    window.action_export_view.trigger()
    assert target.stat().st_size > 1000
    view = workspace.detail_tabs.currentWidget()
    if hasattr(view, "export_widget"):
        workspace.browser.view.setFocus()
        qtbot.waitUntil(workspace.browser.view.hasFocus)
        assert workspace.export_widget() is view.export_widget()


def test_a_metric_that_cannot_score_shows_its_reason(qtbot, window, legacy_demo_copy):
    project = load_bundle(legacy_demo_copy)
    project.settings.metrics = ["bleu", "nee"]  # the demo has no entity annotated
    save_bundle(project, legacy_demo_copy)
    workspace = open_metrics(qtbot, window, legacy_demo_copy)
    model = workspace.corpus_table.model
    nee = model.index(0, 2)
    assert model.data(nee) == "error"
    assert "no reference has any entity annotated" in model.data(nee, Qt.ItemDataRole.ToolTipRole)
    assert "nee" in workspace.status.text()
    assert model.data(model.index(0, 1)) != "error"
    assert not workspace.needs_scoring()  # no retry loop until the inputs change
