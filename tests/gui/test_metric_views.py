"""METEOR alignment, BLEU n-gram and NEE views on the demo project; export of every view."""

from __future__ import annotations

import re

import pytest
import sacrebleu
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from mtworkbench.core.project_input import scoring_input
from mtworkbench.core.scoring_input import ScoringInput
from mtworkbench.gui.export import export_widget
from mtworkbench.gui.metrics.views import detail_views
from mtworkbench.gui.metrics.views.bleu_ngrams import BLEUNgramView
from mtworkbench.gui.metrics.views.colours import BLUE, GREEN, VERMILLION, tint
from mtworkbench.gui.metrics.views.meteor_alignment import MeteorAlignmentView
from mtworkbench.gui.metrics.views.nee_view import NEEView
from mtworkbench.io.bundle.bundle import load_bundle
from mtworkbench.metrics.meteor import Meteor
from mtworkbench.metrics.nee import NEE
from tests.gui.metric_view_helpers import DEMO_NEE_BY_TYPE, annotate_demo

DETAIL_VIEWS = detail_views()
# Views drawn from cached scores (xCOMET's spans) need a scored neural metric: tested in test_metric_spans_view.
DEMO_VIEWS = {name: cls for name, cls in DETAIL_VIEWS.items() if not getattr(cls, "reads_scores", False)}


def shown(view, name: str) -> float:
    text = re.sub(r"<[^>]+>", " ", view.scores_label.text())
    return float(re.search(rf"\b{name} = ([0-9.]+)", text).group(1))


@pytest.fixture
def make_view(qtbot):
    def make(cls, width=1280, height=800):
        view = cls()
        qtbot.addWidget(view)
        view.resize(width, height)
        view.show()
        qtbot.waitExposed(view)
        return view

    return make


@pytest.fixture
def demo(legacy_demo_copy):
    return load_bundle(legacy_demo_copy)


# --- METEOR -------------------------------------------------------------------------
def test_meteor_numbers_match_the_metric_and_the_formula(make_view, demo):
    view = make_view(MeteorAlignmentView)
    view.set_segment(demo, "mt", "2")
    assert not view.showing_message
    hyp = demo.system("mt").texts["2"]
    refs = [demo.reference(r).texts["2"] for r in ("ref-1", "ref-2")]
    metric = Meteor()
    stats = metric.segment_statistics(ScoringInput([hyp], [[r] for r in refs]))
    assert shown(view, "Score") == round(float(metric.aggregate(stats[0])), 4)
    ref = view.shown
    assert ref.reference_index == 0  # the winner is shown first, and marked
    assert "★" in view.reference_box.currentText()
    # Meteor 1.x (SPECS.md): frag = chunks / matches, penalty = gamma * frag ** beta,
    # score = Fmean * (1 - penalty), with gamma 0.6, beta 0.2 for English.
    assert len(ref.chunks) == 5 and len(ref.links) == 6
    assert shown(view, "frag") == round(5 / 6, 4)
    assert shown(view, "penalty") == round(0.6 * (5 / 6) ** 0.2, 4)
    assert shown(view, "Score") == round(ref.fmean * (1 - 0.6 * (5 / 6) ** 0.2), 4)
    for key in ("P", "R", "Fmean"):
        assert shown(view, key) >= 0
    # One line per link, coloured by module; the synonym take ~ carried is not blue.
    lines = [items[0] for items in view._alignment_items.values()]
    assert len(lines) == 6
    modules = {l.module for l in ref.links}
    assert modules == {"exact", "synonym"}
    colours = {view.shown.links[n].module: items[0].pen().color().name() for n, items in view._alignment_items.items()}
    assert colours["exact"] != colours["synonym"]
    assert "exact" in view.legend.text() and "synonym" in view.legend.text() and "stem" in view.legend.text()


def test_meteor_click_link_highlights_words_and_other_reference(make_view, qtbot, demo):
    view = make_view(MeteorAlignmentView)
    view.set_segment(demo, "mt", "2")
    qtbot.wait(20)
    picked = []
    view.link_clicked.connect(lambda h, r: picked.append((h, r)))
    n = next(k for k, l in enumerate(view.shown.links) if l.module == "synonym")
    qtbot.mouseClick(view.alignment_view.viewport(), Qt.MouseButton.LeftButton, pos=view.link_view_pos(n).toPoint())
    link = view.shown.links[n]
    assert picked == [(link.hyp, link.ref)]
    assert view.hyp_pane.highlighted_words() == ["carried"]
    assert view.ref_pane.highlighted_words() == ["take"]
    assert "synonym" in view.selection_label.text()

    # The matrix tab: click another link's cell.
    bar = view.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    assert view.tabs.currentWidget() is view.matrix_view
    qtbot.wait(20)
    m = next(k for k, l in enumerate(view.shown.links) if view.shown.hypothesis_tokens[l.hyp] == "Kuslap")
    qtbot.mouseClick(view.matrix_view.viewport(), Qt.MouseButton.LeftButton, pos=view.link_view_pos(m, matrix=True).toPoint())
    assert view.selected_link == m
    assert view.hyp_pane.highlighted_words() == ["Kuslap"] == view.ref_pane.highlighted_words()

    # The other reference, chosen with the keyboard in the combo.
    view.reference_box.setFocus()
    qtbot.keyClick(view.reference_box, Qt.Key.Key_Down)
    assert view.shown.reference_index == 1
    assert view.ref_pane.tokens == demo.reference("ref-2").texts["2"].split()
    assert "★" not in view.reference_box.currentText()
    ref2 = view.result.per_reference[1]
    assert shown(view, "Score") == round(ref2.score, 4) and shown(view, "frag") == round(6 / 6, 4)
    assert len(view._matrix_items) == len(ref2.links) == 6
    view.choose_reference(0)
    assert view.shown.reference_index == 0


def test_meteor_view_refuses_other_metrics(make_view, demo):
    view = make_view(MeteorAlignmentView)
    view.set_segment(demo, "mt", "2", "gtm")
    assert view.showing_message and "meteor metric only" in view.error_text


# --- BLEU ---------------------------------------------------------------------------
def test_bleu_ngrams_and_clip_counts(make_view, qtbot, demo):
    view = make_view(BLEUNgramView)
    view.set_segment(demo, "mt", "3")
    assert not view.showing_message
    hyp = demo.system("mt").texts["3"]
    refs = [demo.reference(r).texts["3"] for r in ("ref-1", "ref-2")]
    expected = sacrebleu.sentence_bleu(hyp, refs)
    assert shown(view, "BLEU") == round(expected.score, 2)
    text = re.sub(r"<[^>]+>", " ", view.scores_label.text())
    for n in range(4):
        assert f"p{n + 1} = {expected.counts[n]}/{expected.totals[n]}" in text
        assert view.order_panes[n].title_label.text().startswith(f"{n + 1}-grams: {expected.counts[n]} of")
    # Lengths 18 vs 19 and 16: reference 1 is closest and gives the effective length.
    assert "effective reference length 19 (from reference 1" in text
    assert "effective length" in view.ref_panes[0].title_label.text()
    assert "effective length" not in view.ref_panes[1].title_label.text()
    # "the" is 3x in the candidate but at most 2x in one reference: clip 2, credit 2.
    rows = {(n, " ".join(g)): (c, clip, cr) for n, g, c, clip, cr in view._rows}
    assert rows[(1, "the")] == (3, 2, 2)
    assert rows[(1, "pro-Russian")] == (2, 2, 2)
    # The last "the" of the candidate is clipped away: drawn as clipped, not matched.
    pane = view.order_panes[0]
    assert pane.runs_with_background(tint(VERMILLION)) == ["the"]
    assert len(pane.runs_with_background(tint(BLUE))) == expected.counts[0]

    # Order 2 only, then click a row: its occurrences light up.
    view.order_combo.setCurrentIndex(2)
    assert {n for n, *_ in view._rows} == {2}
    row = next(k for k, r in enumerate(view._rows) if r[1] == ("the", "army"))
    rect = view.table.visualRect(view.table.model().index(row, 1))
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert view.order_panes[1].highlighted_words() == ["the", "army"]
    assert view.order_panes[0].highlighted_words() == []
    assert view.ref_panes[0].highlighted_words() == ["the", "army"]
    assert view.ref_panes[1].highlighted_words() == ["the", "army"]


# --- NEE ----------------------------------------------------------------------------
def test_nee_found_green_missed_red_and_per_type(make_view, demo, screenshot_dir):
    annotate_demo(demo)
    view = make_view(NEEView)
    view.set_segment(demo, "mt", "7")
    assert not view.showing_message
    assert view.table_rows() == DEMO_NEE_BY_TYPE
    assert "7/9" in view.scores_label.text() and "d1p2" in view.scores_label.text()
    found_ref = view.ref_pane.runs_with_background(tint(GREEN))
    missed_ref = view.ref_pane.runs_with_background(tint(VERMILLION))
    assert sorted(missed_ref) == ["Kaja Sepp", "Nauru"]
    assert sorted(found_ref) == sorted(
        ["International Court", "Vello Teor", "Annika Aava", "Labour Party", "31%", "Jackson", "James Brown"]
    )
    found_out = view.out_pane.runs_with_background(tint(GREEN))
    assert sorted(found_out) == sorted(found_ref)  # each found once in the output
    # The output cannot show where a missed entity is; it lists them in red.
    assert view.out_pane.runs_with_background(tint(VERMILLION)) == ["Nauru", "Kaja Sepp"]
    assert "Missed, not in the output" in view.out_pane.plain_text()
    # Same counts as the metric scoring the whole system (the unit's row).
    stats = NEE().segment_statistics(scoring_input(demo, "mt"))
    assert tuple(stats[demo.segment_position("6")]) == (7, 9)
    export_widget(view.export_widget(), screenshot_dir / "metric_view_nee.png")


def test_nee_other_units_and_options(make_view, demo):
    annotate_demo(demo)
    view = make_view(NEEView)
    view.set_segment(demo, "mt", "1")  # paragraph d1p1: nothing annotated there
    assert not view.showing_message
    assert "no entity in this unit" in view.scores_label.text()
    assert view.table_rows() == [("all", 0, 0)]
    # Segment 7 alone: Kaja Sepp missed, Vello Teor and Annika Aava found.
    view.set_segment(demo, "mt", "7", "nee:unit=segment")
    assert view.table_rows() == [("PERSON", 2, 3), ("all", 2, 3)]
    assert view.ref_pane.runs_with_background(tint(VERMILLION)) == ["Kaja Sepp"]
    # The whole document d1 (paragraphs d1p1..): the same nine entities as d1p2 here.
    view.set_segment(demo, "mt", "7", "nee:unit=document")
    assert view.table_rows()[-1] == ("all", 7, 9)
    view.set_segment(demo, "mt", "7", "nee:reference=2")
    assert view.showing_message and "reference 2" in view.error_text


def test_nee_without_annotations_shows_a_message(make_view, demo):
    view = make_view(NEEView)
    view.set_segment(demo, "mt", "1")
    assert view.showing_message and "entity" in view.error_text


# --- every view: demo screenshots and export ------------------------------------------
@pytest.mark.parametrize("name", sorted(DEMO_VIEWS))
def test_every_view_renders_the_demo_and_exports_png(make_view, demo, name, screenshot_dir, tmp_path):
    if name == "nee":
        annotate_demo(demo)
    view = make_view(DETAIL_VIEWS[name])
    view.set_segment(demo, "mt", "7")
    assert not view.showing_message, view.error_text
    path = screenshot_dir / f"metric_view_{name}.png"
    export_widget(view.export_widget(), path)
    image = QImage(str(path))
    # The GTM grid grows taller when a label on every token needs it (its tab scrolls).
    assert image.width() == 1280 and (image.height() == 800 or name == "gtm-grid" and image.height() > 800)
    # Not blank: many distinct colours (text, marks, plot).
    colours = {image.pixel(x, y) for x in range(0, 1280, 7) for y in range(0, 800, 7)}
    assert len(colours) > 20


@pytest.mark.parametrize("name", sorted(DEMO_VIEWS))
def test_svg_export_holds_the_figure(make_view, demo, name, tmp_path):
    if name == "nee":
        annotate_demo(demo)
    view = make_view(DETAIL_VIEWS[name])
    view.set_segment(demo, "mt", "7")
    path = tmp_path / f"{name}.svg"
    export_widget(view.export_widget(), path)
    svg = path.read_text()
    assert svg.startswith("<?xml") and "<svg" in svg
    # The figure's own words (axis labels, token rows, text panes) are text in the file...
    # (Qt splits runs at kerning pairs such as "Ve", so whole words are checked sparingly.)
    assert "Annika" in svg and "Aava" in svg and svg.count("<text") > 50
    # ...and its marks are vector shapes, not one bitmap of the widget.
    assert svg.count("<path") + svg.count("<polyline") + svg.count("<rect") > 20
