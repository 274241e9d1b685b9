"""Neural metrics in the app, driven like a user at 1280x800 with the small fixture checkpoints
registered in a temporary registry: Metrics > Models…, the missing-model notice, the metric
settings' neural options, scoring xCOMET and MetricX in the Metrics workspace, xCOMET's spans
beside the raters' on a zh-en segment, and the span agreement in the Analysis workspace."""

from __future__ import annotations

import importlib.util
import pickle

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPushButton, QWidget

from mtworkbench.gui.metrics.models_dialog import ModelsDialog
from mtworkbench.gui.metrics.neural_options import available_devices
from mtworkbench.gui.metrics.settings_dialog import MetricSettingsDialog
from mtworkbench.gui.metrics.views.metric_spans import OVERLAP_TINT, MetricSpansView
from mtworkbench.io.bundle.bundle import save_bundle
from mtworkbench.metrics.neural.models import add_model, load_registry
from mtworkbench.scoring.cache import cache_for
from mtworkbench.scoring.metric_spans import metric_span_report
from tests.metrics.neural.fixtures import copy_model, expected, metricx_folder
from tests.metrics.neural.span_project import register_xcomet, span_project

XCOMET = "comet:model=tiny-xcomet,device=cpu"


@pytest.fixture(autouse=True)
def own_registry(tmp_path, monkeypatch):
    monkeypatch.setenv("MTWB_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("MTWB_CACHE_DIR", str(tmp_path / "cache"))


def click_tab(qtbot, tabs, title):
    bar = tabs.tabBar()
    index = next(i for i in range(tabs.count()) if tabs.tabText(i) == title)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    assert tabs.currentIndex() == index


def click_item(qtbot, view, row, column=0):
    index = view.model().index(row, column)
    view.scrollTo(index)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center())


def open_models_dialog(qtbot, window) -> ModelsDialog:
    window.action_models.trigger()
    dialog = window.findChild(ModelsDialog)
    assert dialog is not None
    qtbot.waitExposed(dialog)
    return dialog


def test_models_dialog_adds_lists_refuses_and_removes(qtbot, window, tmp_path, monkeypatch, screenshot_dir):
    good = copy_model("comet-xcomet", tmp_path, "XCOMET-XL")
    evil = copy_model("comet-regression", tmp_path, "evil")

    class Boom:
        def __reduce__(self):
            return (print, ("ran",))

    with open(evil / "checkpoints" / "model.ckpt", "wb") as f:
        pickle.dump({"state_dict": {}, "x": Boom()}, f)
    dialog = open_models_dialog(qtbot, window)
    assert dialog.table.rowCount() == 0 and not dialog.notice.isVisible()  # torch is installed here
    chosen = iter([str(good), str(evil)])
    monkeypatch.setattr(dialog, "ask_folder", lambda: next(chosen))  # the folder chooser is the platform's

    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)  # name left empty: the folder's
    qtbot.waitUntil(lambda: dialog.worker is None and dialog.table.rowCount() == 1, timeout=30_000)
    assert dialog.names() == ["XCOMET-XL"]
    assert dialog.cell("XCOMET-XL", "Kind").startswith("xCOMET")
    assert dialog.cell("XCOMET-XL", "Fingerprint") == f"sha256:{load_registry()['XCOMET-XL'].sha256[:16]}"
    assert dialog.cell("XCOMET-XL", "Folder") == str(good.resolve())
    assert "non-commercial" in dialog.cell("XCOMET-XL", "Licence")
    assert "comet:model=XCOMET-XL" in dialog.message.text()

    qtbot.keyClicks(dialog.name_edit, "evil")
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.worker is None and "refused" in dialog.message.text(), timeout=30_000)
    assert "holds Python objects" in dialog.message.text() and "evil" not in load_registry()
    assert dialog.names() == ["XCOMET-XL"]
    dialog.grab().save(str(screenshot_dir / "neural_models_dialog.png"))

    click_item(qtbot, dialog.table, 0)
    qtbot.mouseClick(dialog.remove_button, Qt.MouseButton.LeftButton)
    assert dialog.names() == [] and load_registry() == {}
    assert (good / "hparams.yaml").exists()  # the files stay


def test_models_dialog_says_what_to_install_without_torch(qtbot, window, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in ("torch", "transformers") else real(name, *a))
    dialog = open_models_dialog(qtbot, window)
    assert dialog.notice.isVisible()
    assert "pip install 'mtworkbench[neural]'" in dialog.notice.text()
    assert dialog.table.rowCount() == 0  # the list still works


def test_a_project_naming_an_absent_model_says_which(qtbot, window, tmp_path):
    project = span_project()
    project.settings.metrics = ["bleu", "comet:model=XCOMET-XL"]
    bundle = tmp_path / "p.mtwb.json"
    save_bundle(project, bundle)
    assert window.open_path(bundle)
    qtbot.waitUntil(lambda: window.models_notice.isVisible(), timeout=5_000)
    assert "comet:model=XCOMET-XL" in window.models_notice.text()
    assert "not registered" in window.models_notice.text()
    assert QApplication.activeModalWidget() is None  # a notice, no modal box
    add_model("XCOMET-XL", copy_model("comet-xcomet", tmp_path, "xc"))
    dialog = open_models_dialog(qtbot, window)
    dialog.close()
    qtbot.waitUntil(lambda: not window.models_notice.isVisible(), timeout=5_000)


def test_settings_offer_registered_models_and_only_usable_devices(qtbot, tmp_path, screenshot_dir):
    register_xcomet(tmp_path)
    dialog = MetricSettingsDialog(["bleu"], 0, "paired-bs")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    row = next(i for i in range(dialog.available.count()) if dialog.available.item(i).text() == "comet")
    click_item(qtbot, dialog.available, row)
    options = dialog.neural
    assert options.isVisible()
    assert [options.model.itemText(i) for i in range(options.model.count())] == ["tiny-xcomet"]
    devices = options.device.model()
    enabled = {options.device.itemText(i): devices.item(i).isEnabled() for i in range(options.device.count())}
    assert enabled["cpu"] and enabled == {d: d in available_devices() for d in ("cpu", "cuda", "mps")}
    options.device.setCurrentText("cpu")
    assert not options.precision.isEnabled() and options.precision.currentText() == "fp32"
    options.batch.selectAll()
    qtbot.keyClicks(options.batch, "4")
    qtbot.mouseClick(dialog.findChild(QPushButton, "add-metric"), Qt.MouseButton.LeftButton)
    assert dialog.specs_edit.toPlainText().splitlines() == ["bleu", "comet:model=tiny-xcomet,batch_size=4,device=cpu"]
    dialog.grab().save(str(screenshot_dir / "neural_metric_settings.png"))
    qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert dialog.result_specs == ["bleu", "comet:model=tiny-xcomet,batch_size=4,device=cpu"]
    # metricx with nothing registered says how to add one, and adds nothing
    row = next(i for i in range(dialog.available.count()) if dialog.available.item(i).text() == "metricx")
    click_item(qtbot, dialog.available, row)
    assert "No metricx checkpoint is registered" in options.note.text()
    dialog.add_selected()
    assert "choose a registered model" in dialog.message.text()


def test_workspace_scores_xcomet_and_metricx_and_shows_spans_beside_raters(qtbot, window, tmp_path,
                                                                           screenshot_dir):
    register_xcomet(tmp_path)
    add_model("tiny-mx", metricx_folder(tmp_path / "models" / "mx"))
    project = span_project()
    project.settings.metrics = ["chrf", XCOMET, "metricx:model=tiny-mx,device=cpu"]
    bundle = tmp_path / "zh-en.mtwb.json"
    save_bundle(project, bundle)
    assert window.open_path(bundle)
    assert not window.models_notice.isVisible()
    workspace = window.workspaces["Metrics"]
    click_tab(qtbot, window.tabs, "Metrics")
    qtbot.waitUntil(lambda: not workspace.is_scoring() and not workspace.needs_scoring(), timeout=120_000)
    workspace.refresh()
    assert not workspace.errors, workspace.errors
    case = next(c for c in expected("comet-xcomet")["cases"] if c["pair"] == "zh-en" and c["src"] and c["ref"])
    row = next(r for r in workspace.corpus_table.model.rows if r.system == "A")
    assert row.cells[XCOMET].score == pytest.approx(case["system_score"], abs=1e-5)
    mx = row.cells["metricx:model=tiny-mx,device=cpu"].score
    assert 0 <= mx <= 25
    table = workspace.corpus_table.model
    headers = [table.headerData(c, Qt.Orientation.Horizontal) for c in range(table.columnCount())]
    assert "metricx:model=tiny-mx,device=cpu ↓" in headers and XCOMET in headers
    browser = workspace.browser.model
    titles = [browser.headerData(c, Qt.Orientation.Horizontal) for c in range(browser.columnCount())]
    assert "metricx:model=tiny-mx,device=cpu ↓" in titles
    column = next(c for c in range(browser.columnCount()) if browser.headerData(c, Qt.Orientation.Horizontal) == XCOMET)
    shown = [browser.value(r, column) for r in range(browser.rowCount())
             if browser.index(r, 1).data() == "A"]
    assert shown == pytest.approx(case["scores"], abs=1e-5)

    # xCOMET's spans beside the raters' on segment s0 of system A
    click_tab(qtbot, workspace.detail_tabs, "xCOMET spans vs raters")
    assert workspace.browser.select("A", "s0")
    view = workspace.detail_views["metric-spans"]
    qtbot.waitUntil(lambda: view.spans is not None and view.segment_id == "s0", timeout=5_000)
    assert not view.showing_message, view.error_text
    spans = view.spans
    assert [(s.start, s.end, s.severity) for s in spans.metric] == \
        [(s["start"], s["end"], s["severity"]) for s in case["error_spans"][0]]
    assert set(spans.raters) == {"ana", "bo"}
    both = view.pane.runs_with_background(OVERLAP_TINT)
    assert both == [project.system_text("A", "s0")[4:11]]  # ana's 4-11 lies inside xCOMET's 0-11
    cells = [[view.table.item(r, c).text() for c in range(5)] for r in range(view.table.rowCount())]
    assert ["xCOMET", "critical", "0–11", project.system_text("A", "s0")[:11], "yes"] in cells
    assert ["bo", "minor", "40–58", project.system_text("A", "s0")[40:58], "no"] in cells
    window.grab().save(str(screenshot_dir / "neural_metrics_workspace_spans.png"))
    view.grab().save(str(screenshot_dir / "neural_spans_view.png"))


def test_spans_view_on_chinese_output(qtbot, tmp_path, screenshot_dir):
    """en-zh: spans are character offsets into Chinese text; the pane shows exactly them."""
    register_xcomet(tmp_path)
    project = span_project("en-zh", systems=("A",))
    project.settings.metrics = [XCOMET]
    metric_span_report(project, XCOMET, cache=cache_for(project))  # scored as the workspace would
    view = MetricSpansView()
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    case = next(c for c in expected("comet-xcomet")["cases"] if c["pair"] == "en-zh" and c["src"] and c["ref"])
    k = next(i for i, s in enumerate(case["error_spans"]) if s)
    sid = project.segment_ids[k]
    view.set_segment(project, "A", sid, XCOMET)
    assert not view.showing_message, view.error_text
    text = project.system_text("A", sid)
    first = case["error_spans"][k][0]
    cells = [[view.table.item(r, c).text() for c in range(5)] for r in range(view.table.rowCount())]
    assert cells[0][:4] == ["xCOMET", first["severity"], f"{first['start']}–{first['end']}",
                            text[first["start"]:first["end"]]]
    assert text in view.pane.plain_text()
    view.grab().save(str(screenshot_dir / "neural_spans_view_zh.png"))


def test_analysis_tab_compares_xcomet_spans_with_raters(qtbot, window, tmp_path, screenshot_dir):
    register_xcomet(tmp_path)
    project = span_project()
    project.settings.metrics = ["chrf", XCOMET]
    bundle = tmp_path / "zh-en.mtwb.json"
    save_bundle(project, bundle)
    assert window.open_path(bundle)
    click_tab(qtbot, window.tabs, "Analysis")
    analysis = window.workspaces["Analysis"]
    click_tab(qtbot, analysis.result_tabs, "Metric span agreement")
    panel = analysis.findChild(QWidget, "metric-span-agreement")
    assert panel.spec_box.currentText() == XCOMET  # the project's COMET spec is offered
    qtbot.mouseClick(panel.compute_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.worker is None and panel.table.rowCount() == 2, timeout=60_000)
    want = metric_span_report(window.session.project, XCOMET).rows
    got = [[panel.table.item(r, c).text() for c in range(panel.table.columnCount())] for r in range(2)]
    assert [g[1] for g in got] == ["ana", "bo"]
    assert [g[5] for g in got] == [f"{w.overlap_f1:.3f}" for w in want]
    assert float(got[0][5]) > 0
    window.grab().save(str(screenshot_dir / "neural_span_agreement_tab.png"))
    # a model this machine lacks is said in the panel, not as a crash
    panel.spec_box.setCurrentText("comet:model=nope")
    qtbot.mouseClick(panel.compute_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.worker is None and "'nope'" in panel.message.text(), timeout=30_000)


def test_spans_view_in_front_draws_the_spans_once_scored(qtbot, window, tmp_path):
    """The view is drawn from scores: shown before they exist it says so, and draws them when
    the background scoring delivers them, without another click."""
    register_xcomet(tmp_path)
    project = span_project()
    project.settings.metrics = [XCOMET]
    bundle = tmp_path / "zh-en.mtwb.json"
    save_bundle(project, bundle)
    workspace = window.workspaces["Metrics"]
    click_tab(qtbot, window.tabs, "Metrics")
    click_tab(qtbot, workspace.detail_tabs, "xCOMET spans vs raters")
    view = workspace.detail_views["metric-spans"]
    seen: list[str] = []
    original = view.show_message
    view.show_message = lambda text: (seen.append(text), original(text))[1]
    assert window.open_path(bundle)
    qtbot.waitUntil(lambda: not workspace.is_scoring() and not workspace.needs_scoring(), timeout=60_000)
    qtbot.waitUntil(lambda: view.spans is not None and not view.showing_message, timeout=5_000)
    assert any("has not scored" in text for text in seen)  # drawn first without scores
    assert view.spans.raters and view.spans.metric
