"""What a new user's trial found (issue 16), each item driven with real keys and
clicks on the shipped demo or a project like the one the trial used, asserting
what the user sees. Screenshots go to build/screenshots/trial-*.png."""

from __future__ import annotations

import json
import math

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from mtworkbench.cli import main
from mtworkbench.core.model import Document, Paragraph, Project, Segment, System
from mtworkbench.gui.metrics.sentence_browser import SentenceTableModel
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
from mtworkbench.resources import demo_project_path
from tests.gui.annotate_helpers import select_with_keys, type_key


def click_tab(qtbot, tabs, widget) -> None:
    bar = tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(tabs.indexOf(widget)).center())
    assert tabs.currentWidget() is widget


def open_workspace(qtbot, window, name):
    workspace = window.workspaces[name]
    click_tab(qtbot, window.tabs, workspace)
    return workspace


def wait_scored(qtbot, workspace):
    qtbot.waitUntil(lambda: not workspace.is_scoring() and not workspace.needs_scoring(), timeout=120_000)
    workspace.refresh()


def shot(widget, screenshot_dir, name):
    QApplication.processEvents()
    image = widget.grab()
    assert image.save(str(screenshot_dir / f"trial-{name}.png"))
    return image


# --- 14: the demo shows content in every workspace -------------------------------------------
def test_demo_ships_entities_scores_ratings_and_two_systems():
    project = load_bundle(demo_project_path())
    assert [s.id for s in project.systems] == ["mt", "human-ref2"]
    assert project.system("human-ref2").kind == "human"
    layers = {name: [s for s in project.spans if s.annotator == name] for name in project.annotators}
    assert set(layers) == {"annotator-1", "annotator-2", "adjudicated"}
    assert all(len(spans) > 40 for spans in layers.values())
    # The second annotator disagrees somewhere, and the adjudicated layer is one of their decisions.
    key = lambda s: (s.segment, s.start, s.end, s.type)  # noqa: E731
    one, two, adj = ({key(s) for s in layers[n]} for n in ("annotator-1", "annotator-2", "adjudicated"))
    assert one != two and (one & two) <= adj <= (one | two)
    da = [j for j in project.judgments if j.judge == "da"]
    lines = demo_project_path().with_name("da-z.scores").read_text(encoding="utf-8").split()
    assert sorted(j.score for j in da) == sorted(float(x) for x in lines)
    ldc = {(j.system, j.segment): [] for j in project.judgments if j.adequacy is not None}
    for j in project.judgments:
        if j.adequacy is not None:
            ldc[(j.system, j.segment)].append(j.judge)
    assert {"demo-judge-1", "demo-judge-2"} <= set(project.judges)
    assert sum(len(judges) == 2 for judges in ldc.values()) >= 10  # overlapping items: agreement shows


def test_render_nee_draws_entities_on_the_demo(tmp_path, capsys):
    out = tmp_path / "nee.png"
    assert main(["render", str(demo_project_path()), "--view", "nee", "--out", str(out)]) == 0
    assert "no reference has any entity" not in capsys.readouterr().err
    assert out.stat().st_size > 10_000


def test_every_workspace_shows_demo_content_on_first_start(qtbot, window, demo_copy, screenshot_dir):
    assert window.open_path(demo_copy)
    # Metrics: two systems scored, human-ref2 significantly better than the baseline mt.
    metrics = open_workspace(qtbot, window, "Metrics")
    wait_scored(qtbot, metrics)
    model = metrics.corpus_table.model
    rows = {row.system: row for row in model.rows}
    assert set(rows) == {"mt", "human-ref2"}
    assert model.cell_text(rows["human-ref2"], "bleu", rows["human-ref2"].cells["bleu"]).endswith("▲*")
    assert math.isfinite(rows["mt"].cells["nee"].score)
    shot(window, screenshot_dir, "demo-metrics")
    # Annotate: the compare tab has two annotators and agreement figures.
    annotate = open_workspace(qtbot, window, "Annotate")
    click_tab(qtbot, annotate.tabs, annotate.comparison)
    compare = annotate.comparison
    qtbot.waitUntil(lambda: compare.comparison is not None)
    assert (compare.annotator_a.currentText(), compare.annotator_b.currentText()) == ("annotator-1", "annotator-2")
    assert compare.model.rowCount() > 0
    shot(window, screenshot_dir, "demo-annotate-compare")
    # Judge: the agreement tab pairs the two demo judges.
    judge = open_workspace(qtbot, window, "Judge")
    click_tab(qtbot, judge.tabs, judge.agreement)
    pair = judge.agreement.report.pair("demo-judge-1", "demo-judge-2")
    assert pair is not None and judge.agreement.pairs_model.rowCount() >= 1
    shot(window, screenshot_dir, "demo-judge-agreement")
    # Analysis: the DA scores are there; no empty page.
    analysis = open_workspace(qtbot, window, "Analysis")
    assert analysis.pages.currentWidget() is not analysis.empty_page
    assert analysis.human_combo.count() > 0
    shot(window, screenshot_dir, "demo-analysis")


# --- 4: NEE scores one layer and names it ---------------------------------------------------
def test_nee_scores_the_adjudicated_layer_and_names_it(capsys):
    bundle = str(demo_project_path())
    assert main(["score", bundle, "--system", "mt", "--metric", "nee", "--metric", "nee:layer=annotator-1",
                 "--json"]) == 0
    auto, first = json.loads(capsys.readouterr().out)["scores"]
    assert "|layer:adjudicated|" in auto["signature"]
    assert "|layer:annotator-1|" in first["signature"]
    project = load_bundle(demo_project_path())
    # Entities counted = the adjudicated layer's unique entities per paragraph, never a pooled count.
    total = sum(c["total"] for c in auto["by_type"].values())
    pooled = len(project.spans)
    assert total < len([s for s in project.spans if s.annotator == "adjudicated"]) + 1 < pooled
    assert main(["score", bundle, "--metric", "nee:layer=nobody"]) == 1
    assert "layers: adjudicated, annotator-1, annotator-2" in capsys.readouterr().err


def test_nee_view_names_the_layer(qtbot, window, demo_copy):
    assert window.open_path(demo_copy)
    metrics = open_workspace(qtbot, window, "Metrics")
    wait_scored(qtbot, metrics)
    view = metrics.detail_views["nee"]
    click_tab(qtbot, metrics.detail_tabs, view)
    metrics.browser.select("mt", "2")
    qtbot.waitUntil(lambda: "layer adjudicated" in view.scores_label.text())


# --- 5: identical scores get no p; an empty interval says why ------------------------------
def one_paragraph_project(tmp_path):
    demo = load_bundle(demo_project_path())
    project = Project(documents=[Document("all", [Paragraph("p1", [Segment(s.id, s.source) for s in demo.segments])])],
                      source_language="et", target_language="en")
    project.add_reference(demo.reference("ref-1"))
    for span in demo.spans:
        if span.annotator == "adjudicated":
            project.add_span(span)
    mt = demo.system("mt")
    project.add_system(System("mt", "machine", dict(mt.texts)))
    project.add_system(System("mt-copy", "machine", dict(mt.texts)))
    project.settings.metrics = ["bleu", "nee"]
    project.settings.baseline = "mt"
    path = tmp_path / "one-paragraph.mtwb.json"
    save_bundle(project, path)
    return path


def test_identical_scores_show_no_significance_and_empty_interval_says_why(qtbot, window, tmp_path, screenshot_dir):
    assert window.open_path(one_paragraph_project(tmp_path))
    metrics = open_workspace(qtbot, window, "Metrics")
    wait_scored(qtbot, metrics)
    model = metrics.corpus_table.model
    copy = next(row for row in model.rows if row.system == "mt-copy")
    for spec in ("bleu", "nee"):
        assert copy.cells[spec].p_value is None
        assert "same score as the baseline" in model.cell_tooltip(copy, spec, copy.cells[spec])
        assert "*" not in model.cell_text(copy, spec, copy.cells[spec])
    nee = copy.cells["nee"]
    assert "±" not in model.cell_text(copy, "nee", nee)
    assert "one paragraph spans the whole corpus" in model.cell_tooltip(copy, "nee", nee)
    tsv = model.to_tsv().splitlines()
    header = tsv[0].split("\t")
    copy_row = next(line.split("\t") for line in tsv if line.startswith("mt-copy\t"))
    assert copy_row[header.index("nee p")] == "" and copy_row[header.index("bleu p")] == ""
    shot(window, screenshot_dir, "identical-scores")


# --- 6: names fit their columns, full names on hover --------------------------------------
def test_sentence_browser_columns_fit_names_and_header(qtbot, window, demo_copy, screenshot_dir):
    project = load_bundle(demo_copy)
    for name in ("VolcTrans-GLAT-ensemble", "VolcTrans-AT-finetuned"):
        project.add_system(System(name, "machine", dict(project.system("mt").texts)))
    project.settings.metrics = ["bleu"]
    save_bundle(project, demo_copy)
    assert window.open_path(demo_copy)
    metrics = open_workspace(qtbot, window, "Metrics")
    wait_scored(qtbot, metrics)
    view = metrics.browser.view
    header = view.horizontalHeader()
    assert header.sectionSize(SentenceTableModel.SEGMENT) > header.fontMetrics().horizontalAdvance("Segment") + 8
    assert header.sectionSize(SentenceTableModel.SYSTEM) > view.fontMetrics().horizontalAdvance("VolcTrans-GLAT-ensemble")
    model = view.model()
    names = {model.index(r, SentenceTableModel.SYSTEM).data(Qt.ItemDataRole.ToolTipRole) for r in range(8)}
    assert {"VolcTrans-GLAT-ensemble", "VolcTrans-AT-finetuned"} <= names
    shot(window, screenshot_dir, "sentence-browser-names")


# --- 7: one system at the system level ------------------------------------------------------
def test_system_level_with_one_system_says_it_cannot_be_correlated(qtbot, window, legacy_demo_copy, screenshot_dir):
    project = load_bundle(legacy_demo_copy)
    from mtworkbench.io.judgments.judgments import apply_import, plan_score_lines

    apply_import(project, plan_score_lines(project, "da", "mt", demo_project_path().with_name("da-z.scores"), "da-z"))
    save_bundle(project, legacy_demo_copy)
    assert window.open_path(legacy_demo_copy)
    analysis = open_workspace(qtbot, window, "Analysis")
    combo = analysis.level_combo
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_End)  # "system" is the last level
    assert combo.currentText() == "system"
    qtbot.mouseClick(analysis.compute_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not analysis.is_computing() and analysis.outcome is not None
                    and "Scoring" not in analysis.status.text(), timeout=120_000)
    text = analysis.status.text()
    assert "one system cannot be correlated" in text and "Correlated" not in text
    axis = analysis.scatter.getPlotItem().getAxis("bottom")
    labels = axis.tickStrings([0.0106372289871955, 0.0106372389871955], 1.0, 1e-8)
    assert all(len(label) <= 8 for label in labels)
    shot(window, screenshot_dir, "analysis-one-system")


# --- 9 and 10 and 11: Annotate ---------------------------------------------------------------
def test_compare_defaults_to_two_largest_layers_and_merges_identical_rows(qtbot, window, demo_copy):
    project = load_bundle(demo_copy)
    from mtworkbench.core.model import EntitySpan

    text = project.reference_text("ref-1", "40")
    # annotator-2 retypes both "Estonia"s in segment 40: two places, one visible disagreement.
    for span in [s for s in project.spans if s.segment == "40" and s.annotator == "annotator-2"
                 and text[s.start:s.end] == "Estonia"]:
        project.remove_span(span.id)
        project.add_span(EntitySpan(span.id, span.reference, span.segment, span.start, span.end, "ORGANIZATION",
                                    span.annotator))
    save_bundle(project, demo_copy)
    assert window.open_path(demo_copy)
    annotate = open_workspace(qtbot, window, "Annotate")
    click_tab(qtbot, annotate.tabs, annotate.comparison)
    compare = annotate.comparison
    qtbot.waitUntil(lambda: compare.comparison is not None)
    assert compare.annotator_a.currentText() != compare.annotator_b.currentText()
    rows = [tuple(compare.model.index(r, c).data() for c in range(3)) for r in range(compare.model.rowCount())]
    assert len(rows) == len(set(rows))
    estonia = [r for r in rows if r[0] == "40" and "Estonia" in r[1]]
    assert len(estonia) == 1
    # Accepting A on the merged row decides both places.
    index = [r for r in range(compare.model.rowCount()) if rows[r] == estonia[0]][0]
    compare.table.selectRow(index)
    qtbot.mouseClick(compare.accept_a, Qt.MouseButton.LeftButton)
    adjudicated = [s for s in window.session.project.spans_for("ref-1", "40", "adjudicated")
                   if text[s.start:s.end] == "Estonia"]
    assert [s.type for s in adjudicated] == ["LOCATION", "LOCATION"]


def test_find_field_shows_thirty_characters(qtbot, window, demo_copy, screenshot_dir):
    assert window.open_path(demo_copy)
    annotate = open_workspace(qtbot, window, "Annotate")
    annotate.view.setFocus()
    qtbot.keyClick(annotate.view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    needle = annotate.find_bar.needle
    qtbot.waitUntil(needle.hasFocus)
    qtbot.keyClicks(needle, "Los Angeles in the United States")
    assert needle.width() >= needle.fontMetrics().horizontalAdvance("Los Angeles in the United Stat")
    qtbot.keyClick(needle, Qt.Key.Key_Return)
    assert "match 1 of" in annotate.status.text()
    shot(window, screenshot_dir, "annotate-find")


def test_status_line_stays_true_and_empty_state(qtbot, window, legacy_demo_copy, screenshot_dir):
    annotate = open_workspace(qtbot, window, "Annotate")
    # No project: an explanation, and no "is not in reference ." nonsense.
    assert annotate.pages.currentWidget() is annotate.empty_message
    assert "No project is open" in annotate.empty_message.text()
    annotate.setFocus()
    qtbot.keyClick(annotate, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(annotate.find_bar.needle, "x")
    qtbot.keyClick(annotate.find_bar.needle, Qt.Key.Key_Return)
    assert "is not in reference ." not in annotate.status.text()
    shot(window, screenshot_dir, "annotate-empty")
    qtbot.keyClick(annotate.find_bar.needle, Qt.Key.Key_Escape)

    assert window.open_path(legacy_demo_copy)
    annotate = open_workspace(qtbot, window, "Annotate")
    assert annotate.pages.currentWidget() is annotate.tabs
    editor = annotate.annotator_box.lineEdit()
    qtbot.mouseClick(editor, Qt.MouseButton.LeftButton)
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(editor, "anna")
    view = annotate.view
    select_with_keys(qtbot, view, "2", 0, 5)  # "Evald"
    type_key(qtbot, view, "P")
    assert annotate.status.text().startswith("Tagged “Evald”")
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert annotate.status.text().startswith("Undone:")
    assert "Tagged" not in annotate.status.text()
    qtbot.keyClick(view, Qt.Key.Key_N, Qt.KeyboardModifier.AltModifier)
    current = window.session.current_segment
    assert annotate.status.text() == f"Segment {current}: no entities by anna yet."


# --- 8: one human-score file for all systems; named references -----------------------------
def wmt_like(tmp_path):
    """Three segments, references ref-A and ref-C named on the command line, two systems."""
    files = {
        "source.en": "One.\nTwo.\nThree.\n",
        "ref-A.de": "Eins.\nZwei.\nDrei.\n",
        "ref-C.de": "Eins!\nZwei!\nDrei!\n",
        "VolcTrans-AT.de": "Eins.\nZwo.\nDrei.\n",
        "VolcTrans-GLAT.de": "Ein.\nZwei.\nDrei.\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    rows = ["system\tseg_id\tmqm"]
    for system, values in (("VolcTrans-AT", "-1 0 -5"), ("VolcTrans-GLAT", "0 -2 NA"), ("ref-A", "0 0 0")):
        rows += [f"{system}\t{i}\t{v}" for i, v in enumerate(values.split(), 1)]
    (tmp_path / "mqm.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "wmt.mtwb.json"
    d = str(tmp_path)
    assert main(["import", "--source", f"{d}/source.en", "--ref", f"ref-A={d}/ref-A.de", "--ref", f"ref-C={d}/ref-C.de",
                 "--system", f"VolcTrans-AT={d}/VolcTrans-AT.de", "--system", f"VolcTrans-GLAT={d}/VolcTrans-GLAT.de",
                 "-o", str(out)]) == 0
    return out


def test_import_names_references(tmp_path, capsys):
    project = load_bundle(wmt_like(tmp_path))
    assert [r.id for r in project.references] == ["ref-A", "ref-C"]
    assert project.reference_text("ref-C", "2") == "Zwei!"
    capsys.readouterr()
    assert main(["import", "--source", str(tmp_path / "source.en"), "--ref", "x=", "-o",
                 str(tmp_path / "bad.mtwb.json")]) == 2
    assert "--ref expects FILE or NAME=FILE" in capsys.readouterr().err


def test_one_dialog_imports_scores_of_every_system(qtbot, window, tmp_path, screenshot_dir):
    from mtworkbench.gui.analysis.import_scores import ALL_SYSTEMS, ImportScoresDialog

    assert window.open_path(wmt_like(tmp_path))
    project = window.session.project
    dialog = ImportScoresDialog(project, window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.format.setFocus()
    qtbot.keyClick(dialog.format, Qt.Key.Key_End)  # the MQM table is the last format
    assert dialog.format.currentData() == "mqm-tsv"
    assert dialog.system.currentData() == ALL_SYSTEMS and dialog.system.currentText() == "All systems in the file"
    dialog.path.setFocus()
    qtbot.keyClicks(dialog.path, str(tmp_path / "mqm.tsv"))
    dialog.judge.selectAll()
    qtbot.keyClicks(dialog.judge, "mqm")
    dialog.scale.setCurrentText("mqm")
    shot(dialog, screenshot_dir, "import-all-systems")
    qtbot.keyClick(dialog.path, Qt.Key.Key_Return)
    assert dialog.result() == dialog.DialogCode.Accepted
    got = sorted((j.system, j.segment, j.score) for j in dialog.plan.judgments)
    assert got == [("VolcTrans-AT", "1", -1.0), ("VolcTrans-AT", "2", 0.0), ("VolcTrans-AT", "3", -5.0),
                   ("VolcTrans-GLAT", "1", 0.0), ("VolcTrans-GLAT", "2", -2.0)]
    assert dialog.skipped == ["ref-A"]


# --- 12: no false progress without a project or judge -------------------------------------
def test_judge_shows_no_progress_without_a_queue(qtbot, window, demo_copy, screenshot_dir):
    judge = open_workspace(qtbot, window, "Judge")
    assert not judge.rating.progress.isVisible()
    assert window.open_path(demo_copy)
    judge = open_workspace(qtbot, window, "Judge")
    assert not judge.rating.progress.isVisible()  # a project, but no judge chosen
    assert "Choose who you are" in judge.rating.message.text()
    shot(window, screenshot_dir, "judge-no-judge")


# --- 1: detail views never resize the docks ------------------------------------------------
def test_wide_detail_views_scroll_inside_and_leave_the_docks_alone(qtbot, window, tmp_path, screenshot_dir):
    project = load_bundle(demo_project_path())
    long_text = " ".join(f"Wort{i} und noch ein recht langes Wort" for i in range(40))
    project.add_system(System("long-output", "machine", {s: long_text for s in project.segment_ids}))
    project.settings.metrics = ["bleu", "meteor"]
    path = tmp_path / "long.mtwb.json"
    save_bundle(project, path)
    assert window.open_path(path)
    # The running app builds every workspace just after its first paint (the window fixture
    # does not run the app): build them before the user's dock size is set, as they would be.
    window.workspace_tabs.build_all()
    dock = window.navigator.parentWidget()
    while dock is not None and not dock.inherits("QDockWidget"):
        dock = dock.parentWidget()
    window.resizeDocks([dock], [380], Qt.Orientation.Horizontal)
    QApplication.processEvents()
    before = dock.width()
    metrics = open_workspace(qtbot, window, "Metrics")
    wait_scored(qtbot, metrics)
    for name in ("meteor-alignment", "gtm-grid", "bleu-ngrams", "nee"):
        click_tab(qtbot, metrics.detail_tabs, metrics.detail_views[name])
        metrics.browser.select("long-output", "1")
        QApplication.processEvents()
        assert dock.width() == before, name
    click_tab(qtbot, metrics.detail_tabs, metrics.detail_views["meteor-alignment"])
    QApplication.processEvents()
    shot(window, screenshot_dir, "meteor-long-docks")
    for name in ("Annotate", "Judge", "Analysis"):
        open_workspace(qtbot, window, name)
        QApplication.processEvents()
        assert dock.width() == before, name


# --- 3: Export view writes clean figures ------------------------------------------------------
@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_export_view_writes_a_clean_figure(qtbot, window, demo_copy, tmp_path, monkeypatch, suffix, screenshot_dir):
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QFileDialog

    assert window.open_path(demo_copy)
    metrics = open_workspace(qtbot, window, "Metrics")
    wait_scored(qtbot, metrics)
    view = metrics.detail_views["gtm-grid"]
    click_tab(qtbot, metrics.detail_tabs, view)
    metrics.browser.select("mt", "2")
    qtbot.mouseClick(view.exponent_box, Qt.MouseButton.LeftButton)  # the user works in the view
    out = tmp_path / f"figure{suffix}"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    painted: list[list[str]] = []
    from mtworkbench.gui import export

    original = export._write_with_title

    def spy(widget, path, title):
        painted.append([type(w).__name__ for w in widget.findChildren(QWidget)
                        if w.isVisibleTo(widget) and isinstance(w, (QAbstractSpinBox, QAbstractButton))
                        and not w.parentWidget().inherits("QTabBar")])
        painted.append([title])
        original(widget, path, title)

    from PySide6.QtWidgets import QWidget

    monkeypatch.setattr(export, "_write_with_title", spy)
    qtbot.keyClick(window, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert out.exists()
    controls, (title,) = painted
    assert controls == []  # no spin box, check box or button in the figure
    assert title == "GTM grid · system mt · segment 2 · gtm" or title.startswith("GTM")
    assert "segment 2" in title and "system mt" in title
    assert view.exponent_box.isVisible() and view.hover_label.isVisible()  # the screen is as before
    if suffix == ".png":
        image = QImage(str(out))
        assert image.height() > view.height()  # the title above the view
        image.save(str(screenshot_dir / "trial-export-gtm.png"))
    else:
        svg = out.read_text(encoding="utf-8")
        assert "<svg" in svg and "segment 2" in svg


# --- 2: GTM grid: every token labelled, three references fit, keyboard zoom and fit ----------
def test_gtm_grid_labels_every_token_with_three_references(qtbot, window, tmp_path, screenshot_dir):
    from mtworkbench.core.model import Reference

    project = load_bundle(demo_project_path())
    for k, name in enumerate(("ref-C", "ref-D"), 2):
        texts = {s: project.system_text("human-ref2", s) for s in project.segment_ids}
        if k == 3:
            texts = {s: project.system_text("mt", s) for s in project.segment_ids}
        project.add_reference(Reference(name, f"translator {k}", texts))
    project.settings.metrics = ["gtm"]
    path = tmp_path / "three-refs.mtwb.json"
    save_bundle(project, path)
    assert window.open_path(path)
    metrics = open_workspace(qtbot, window, "Metrics")
    wait_scored(qtbot, metrics)
    grid = metrics.detail_views["gtm-grid"]
    click_tab(qtbot, metrics.detail_tabs, grid)
    metrics.browser.select("mt", "7")
    qtbot.waitUntil(lambda: grid.result is not None)
    qtbot.wait(50)
    QApplication.processEvents()
    n_ref, n_hyp = len(grid.result.ref_tokens), len(grid.result.hyp_tokens)
    assert n_ref > 90  # three references joined
    assert grid.x_axis.visible_ticks() == list(range(n_ref))  # every reference token labelled
    assert grid.y_axis.visible_ticks() == list(range(n_hyp))
    # The x axis and its labels lie inside the plot widget; the hint sits below it.
    plot_bottom = grid.plot.mapTo(grid, grid.plot.rect().bottomLeft()).y()
    assert grid.hover_label.mapTo(grid, grid.hover_label.rect().topLeft()).y() >= plot_bottom
    axis_rect = grid.x_axis.mapRectToScene(grid.x_axis.boundingRect())
    assert axis_rect.bottom() <= grid.plot.sceneRect().bottom() + 1
    shot(window, screenshot_dir, "gtm-three-refs")
    # Keyboard: + zooms in, arrows pan, 0 fits again.
    grid.setFocus()
    vb = grid.plot.getViewBox()
    (x0, x1), _ = vb.viewRange()
    qtbot.keyClick(grid, Qt.Key.Key_Plus)
    (z0, z1), _ = vb.viewRange()
    assert z1 - z0 < x1 - x0
    qtbot.keyClick(grid, Qt.Key.Key_Right)
    (p0, _p1), _ = vb.viewRange()
    assert p0 > z0
    qtbot.keyClick(grid, Qt.Key.Key_0)
    (f0, f1), _ = vb.viewRange()
    assert (f0, f1) == pytest.approx((x0, x1))
    grid.grab().save(str(screenshot_dir / "trial-gtm-grid-only.png"))


# --- 13: keyboard everywhere ----------------------------------------------------------------
def tab_until(qtbot, window, predicate, backwards=False, limit=80):
    """Press Tab (or Shift+Tab) until ``predicate(focus widget)``; the widgets passed."""
    passed = []
    for _ in range(limit):
        focus = QApplication.focusWidget()
        qtbot.keyClick(focus or window, Qt.Key.Key_Backtab if backwards else Qt.Key.Key_Tab,
                       Qt.KeyboardModifier.ShiftModifier if backwards else Qt.KeyboardModifier.NoModifier)
        focus = QApplication.focusWidget()
        passed.append(focus)
        if predicate(focus):
            return passed
    raise AssertionError(f"Tab never reached the widget; passed {[type(w).__name__ for w in passed[-10:]]}")


def inside(widget):
    return lambda focus: focus is not None and (focus is widget or widget.isAncestorOf(focus))


def test_keyboard_walks_each_workspace_and_leaves_every_table(qtbot, window, demo_copy, screenshot_dir):
    assert window.open_path(demo_copy)
    # Ctrl+3 (View menu) switches to Metrics; Alt+S scores.
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    metrics = window.workspaces["Metrics"]
    assert window.tabs.currentWidget() is metrics
    wait_scored(qtbot, metrics)
    metrics.score_button.setFocus()
    for table in (metrics.corpus_table.view, metrics.browser.view):
        tab_until(qtbot, window, inside(table))
        tab_until(qtbot, window, lambda f, t=table: f is not None and not inside(t)(f))
        tab_until(qtbot, window, inside(table), backwards=True)
        tab_until(qtbot, window, lambda f, t=table: f is not None and not inside(t)(f), backwards=True)
    # Judge: Alt+N opens "New judge…"; the rating view lets Tab go on past the comment.
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    judge = window.workspaces["Judge"]
    assert judge.new_judge_button.text().startswith("&N") and judge.start_button.text().startswith("&S")
    rating = judge.rating
    rating.setFocus()
    tab_until(qtbot, window, lambda f: f is not None and not inside(rating)(f))
    # Annotate: the disagreement table lets Tab and Shift+Tab out.
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    annotate = window.workspaces["Annotate"]
    annotate.tabs.setCurrentWidget(annotate.comparison)
    compare = annotate.comparison
    qtbot.waitUntil(lambda: compare.comparison is not None)
    compare.annotator_a.setFocus()
    tab_until(qtbot, window, inside(compare.table))
    tab_until(qtbot, window, lambda f: f is not None and not inside(compare.table)(f))
    # The access keys of each workspace's visible buttons are never taken twice
    # (the offscreen test platform does not deliver Alt+letter to mnemonics, so the
    # keys are checked as Qt parses them).
    from PySide6.QtGui import QKeySequence
    from PySide6.QtWidgets import QAbstractButton, QCheckBox, QPushButton

    for number, name in enumerate(("Annotate", "Judge", "Metrics", "Analysis"), 1):
        qtbot.keyClick(window, getattr(Qt.Key, f"Key_{number}"), Qt.KeyboardModifier.ControlModifier)
        workspace = window.workspaces[name]
        keys = [QKeySequence.mnemonic(b.text()).toString() for b in workspace.findChildren(QAbstractButton)
                if b.isVisible() and isinstance(b, (QPushButton, QCheckBox)) and b.text() not in ("Edit", "")]
        named = [k for k in keys if k]
        assert len(named) == len(set(named)), (name, keys)
        # Every button and check box has one, but the rating buttons (their keys are the
        # digits 1-5) and the segment panel's Edit buttons; none takes a menu's letter.
        rating = [b for b in workspace.findChildren(QAbstractButton) if b.text()[:1].isdigit()]
        missing = [b.text() for b in workspace.findChildren(QAbstractButton)
                   if b.isVisible() and isinstance(b, (QPushButton, QCheckBox)) and b.text() not in ("Edit", "")
                   and b not in rating and not QKeySequence.mnemonic(b.text()).toString()]
        assert not missing, (name, missing)
        menu_keys = {QKeySequence.mnemonic(a.text()).toString() for a in window.menuBar().actions()}
        assert not menu_keys & set(named), (name, sorted(menu_keys & set(named)))
    assert QKeySequence.mnemonic(window.workspaces["Judge"].new_judge_button.text()).toString() == "Alt+N"
    assert QKeySequence.mnemonic(compare.accept_a.text()).toString() == "Alt+A"
    assert QKeySequence.mnemonic(window.workspaces["Metrics"].score_button.text()).toString() == "Alt+S"


def test_help_lists_the_shortcuts(qtbot, window, screenshot_dir):
    qtbot.keyClick(window, Qt.Key.Key_F1)
    dialog = window._shortcuts_dialog
    qtbot.waitExposed(dialog)
    cells = {dialog.table.item(r, 1).text() + " " + dialog.table.item(r, 2).text()
             for r in range(dialog.table.rowCount())}
    for expected in ("Ctrl+S Save", "Alt+N New judge", "Alt+S Start queue", "Alt+A Accept A’s", "Ctrl+F Find"):
        assert any(c.startswith(expected) for c in cells), expected
    shot(dialog, screenshot_dir, "help-shortcuts")
    dialog.close()
