"""The GTM grid view, driven like a user: exponent, exact toggle, hover, click, zoom."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt

from mtworkbench.core.scoring_input import ScoringInput
from mtworkbench.gui.metrics import views as view_registry
from mtworkbench.gui.metrics.views import detail_views
from mtworkbench.gui.metrics.views.gtm_grid import GTMGridView
from mtworkbench.io.bundle.bundle import load_bundle
from mtworkbench.metrics.gtm import GTM
from tests.gui.metric_view_helpers import big_grid_tokens, one_segment_project


@pytest.fixture
def grid(qtbot):
    view = GTMGridView()
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    qtbot.waitExposed(view)
    return view


def scores_shown(view: GTMGridView) -> tuple[float, float, float]:
    text = re.sub(r"<[^>]+>", " ", view.scores_label.text())
    values = [float(re.search(rf"\b{k} = ([0-9.]+)", text).group(1)) for k in ("P", "R", "F")]
    return values[0], values[1], values[2]


def metric_prf(hyp: str, refs: list[str], **options) -> tuple[float, float, float]:
    """P, R, F from the metric's scoring path (segment statistics, not explain)."""
    metric = GTM(**options)
    stats = metric.segment_statistics(ScoringInput([hyp], [[r] for r in refs]))
    mms, hyp_len, ref_len = stats[0]
    p, r = mms / hyp_len, mms / ref_len
    return p, r, 2 * p * r / (p + r)


def settle(qtbot, view: GTMGridView) -> None:
    """Wait until the axes have grown to their new labels (pyqtgraph widens an axis
    after drawing it), so cells map to the pixels they will stay at."""
    last = None
    for _ in range(20):
        qtbot.wait(15)
        now = (view.y_axis.width(), view.x_axis.height(), view.plot.getViewBox().sceneBoundingRect())
        if now == last:
            return
        last = now


def viewport_pos(view: GTMGridView, i: int, j: int) -> QPoint:
    return view.plot.mapFromScene(view.scene_pos_of_cell(i, j))


def test_registry_lists_the_four_views():
    views = detail_views()
    assert set(views) == {"gtm-grid", "meteor-alignment", "bleu-ngrams", "nee", "metric-spans"}
    assert views["gtm-grid"] is GTMGridView
    for name, cls in views.items():
        # The name lives once, in gui.metrics.views; the tab label there is the class's title.
        assert view_registry.view(name).label == cls.title and cls.default_metric


def test_demo_segment_counts_match_a_hand_count(grid, legacy_demo_copy):
    # Segment 2: "It is proposed to Kuslap that the delivery of the 'guest' be carried
    # out for some time." against two references. By hand: Kuslap, that, the (x2),
    # of, for hit 6 cells in each reference = 12 hits; GTM 1.4 takes the run
    # "Kuslap that" (2 cells) and then one single per remaining row 14, 9, 8, 6:
    # 5 blocks, MMS = sqrt(2^2 + 4) = sqrt(8); |hyp| = 17, mean |ref| = (14 + 13) / 2.
    project = load_bundle(legacy_demo_copy)  # both references, as the demo once had
    grid.set_segment(project, "mt", "2")
    r = grid.result
    assert not grid.showing_message
    assert len(grid.hits_item.data) == 12 == len(grid.cells.hits)
    assert [(b.hyp_start, b.cells) for b in r.chosen] == [(4, 2), (14, 1), (9, 1), (8, 1), (6, 1)]
    p, rec = math.sqrt(8) / 17, math.sqrt(8) / 13.5
    assert scores_shown(grid) == pytest.approx(
        (round(p, 4), round(rec, 4), round(2 * p * rec / (p + rec), 4)), abs=1e-12
    )
    assert "5 blocks, 12 hits" in grid.scores_label.text()
    assert "Cap = min(|candidate| = 17, mean |reference| = 13.5) = 13.5" in grid.cap_label.text()
    assert "not reached" in grid.cap_label.text()
    assert grid.x_axis.tokens[14] == "" and grid.x_axis.labels[14] == "‖"  # the barrier
    assert grid.barrier_item.path().elementCount() > 0


def test_exponent_box_recomputes_live(grid, qtbot, legacy_demo_copy):
    project = load_bundle(legacy_demo_copy)
    grid.set_segment(project, "mt", "2")
    hyp = project.system("mt").texts["2"]
    refs = [project.reference(r).texts["2"] for r in ("ref-1", "ref-2")]
    before = scores_shown(grid)
    box = grid.exponent_box
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(box, "1")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert grid.result.exponent == 1.0
    after = scores_shown(grid)
    assert after != before
    assert after == pytest.approx([round(v, 4) for v in metric_prf(hyp, refs, e=1.0)], abs=1e-12)
    # By hand at e = 1: MMS = 6 aligned cells.
    assert after[0] == round(6 / 17, 4)
    qtbot.keyClick(box, Qt.Key.Key_Up)  # one step of 0.5
    assert grid.result.exponent == 1.5
    assert scores_shown(grid) == pytest.approx(
        [round(v, 4) for v in metric_prf(hyp, refs, e=1.5)], abs=1e-12
    )
    assert box.minimum() == 1.0  # e >= 1 is all the box accepts


def test_exact_toggle_finds_the_better_matching(grid, qtbot):
    # "a c a a" x "a a a c b" at e = 2: GTM 1.4's greedy takes the run "a a" at
    # (2, 1) first (larger key), which blocks both other runs of 2; then two
    # singles: 2^2 + 1 + 1 = 6. The true maximum takes "a c" at (0, 2) and
    # "a a" at (2, 0): 2^2 + 2^2 = 8.
    hyp, ref = "a c a a", "a a a c b"
    grid.set_segment(one_segment_project(hyp, [ref]), "sys", "s1", "gtm:e=2")
    assert grid.result.mms == pytest.approx(math.sqrt(6))
    assert scores_shown(grid)[0] == round(math.sqrt(6) / 4, 4)
    qtbot.mouseClick(grid.exact_box, Qt.MouseButton.LeftButton, pos=QPoint(8, grid.exact_box.height() // 2))
    assert grid.exact_box.isChecked() and grid.result.mode == "exact"
    assert grid.result.mms == pytest.approx(math.sqrt(8))
    assert scores_shown(grid) == pytest.approx(
        [round(v, 4) for v in metric_prf(hyp, [ref], e=2.0, mode="exact")], abs=1e-12
    )
    assert sorted((b.hyp_start, b.ref_start, b.cells) for b in grid.result.chosen) == [(0, 2, 2), (2, 0, 2)]
    assert "exact maximum" in grid.scores_label.text()


def test_spec_sets_the_controls(grid, legacy_demo_copy):
    grid.set_segment(load_bundle(legacy_demo_copy), "mt", "1", "gtm:e=3,mode=exact")
    assert grid.exponent_box.value() == 3.0 and grid.exact_box.isChecked()
    assert grid.result.exponent == 3.0


def test_click_a_hit_highlights_both_words(grid, qtbot, legacy_demo_copy):
    project = load_bundle(legacy_demo_copy)
    grid.set_segment(project, "mt", "2")
    settle(qtbot, grid)
    clicked = []
    grid.link_clicked.connect(lambda i, j: clicked.append((i, j)))
    # Empty cell: nothing is selected.
    qtbot.mouseClick(grid.plot.viewport(), Qt.MouseButton.LeftButton, pos=viewport_pos(grid, 0, 0))
    assert grid.selected_cell is None and clicked == []
    # "that" (candidate 6) x "that" in reference 2 (its token 3, column 15 + 2).
    qtbot.mouseClick(grid.plot.viewport(), Qt.MouseButton.LeftButton, pos=viewport_pos(grid, 5, 17))
    assert clicked == [(5, 17)] and grid.selected_cell == (5, 17)
    assert grid.hyp_pane.highlighted == (5,)
    assert grid.ref_panes[0].highlighted == ()
    assert grid.ref_panes[1].highlighted == (2,)
    assert grid.ref_panes[1].tokens[2] == "that"
    assert grid.ref_panes[1].highlighted_words() == ["that"]
    assert grid.hyp_pane.highlighted_words() == ["that"]
    assert "not aligned" in grid.hover_label.text()  # row 5 went to the block in reference 1


def test_hover_names_both_tokens_and_the_run(grid, qtbot, legacy_demo_copy):
    grid.set_segment(load_bundle(legacy_demo_copy), "mt", "2")
    settle(qtbot, grid)
    qtbot.mouseMove(grid.plot.viewport(), viewport_pos(grid, 4, 2))
    qtbot.waitUntil(lambda: "Kuslap" in grid.hover_label.text(), timeout=2000)
    text = grid.hover_label.text()
    assert "candidate 5 “Kuslap” × reference 1 token 3 “Kuslap”" in text
    assert "run of 2" in text and "block 1 of 2 cells" in text
    assert grid.describe_cell(0, 14).endswith("barrier after reference 1 (never matches)")


def test_big_grid_is_readable(qtbot, screenshot_dir):
    hyp, r1, r2 = big_grid_tokens()
    view = GTMGridView()
    qtbot.addWidget(view)
    view.resize(1400, 1000)
    view.show()
    qtbot.waitExposed(view)
    view.set_segment(one_segment_project(" ".join(hyp), [" ".join(r1), " ".join(r2)]), "sys", "s1")
    qtbot.wait(10)
    assert len(view.y_axis.tokens) == 120 and len(view.x_axis.tokens) == 402
    # Every hit drawn: count equal token pairs independently.
    axis = r1 + [None] + r2 + [None]
    expected = sum(1 for h in hyp for t in axis if t == h)
    assert len(view.hits_item.data) == expected
    chosen_cells = sum(b.cells for b in view.result.chosen)
    assert view.block_cell_item.path().elementCount() == 5 * chosen_cells  # one closed rect per cell
    view.grab().save(str(screenshot_dir / "metric_view_gtm_grid_120x400.png"))

    def labels_fit(axis_item) -> None:
        ticks = axis_item.visible_ticks()
        assert len(ticks) >= 5
        gap = (ticks[1] - ticks[0]) * axis_item.pixels_per_token()
        assert gap >= axis_item.label_extent  # neighbouring labels never overlap

    labels_fit(view.x_axis)
    labels_fit(view.y_axis)
    assert view.x_axis.visible_ticks()[1] - view.x_axis.visible_ticks()[0] > 1  # thinned out
    # Zoom in: every token gets its label, and they still fit.
    view.plot.setXRange(100, 130, padding=0)
    view.plot.setYRange(10, 30, padding=0)
    qtbot.wait(10)
    assert view.x_axis.visible_ticks() == list(range(100, 131))
    assert view.y_axis.visible_ticks() == list(range(10, 31))
    labels_fit(view.x_axis)
    view.grab().save(str(screenshot_dir / "metric_view_gtm_grid_120x400_zoomed.png"))
    # Wheel zoom from the user also works (the view box handles it).
    x0 = view.plot.getViewBox().viewRange()[0]
    view.fit()
    assert view.plot.getViewBox().viewRange()[0] != x0


def test_bad_spec_is_shown_not_raised(grid, legacy_demo_copy):
    grid.set_segment(load_bundle(legacy_demo_copy), "mt", "1", "gtm:e=0.5")
    assert grid.showing_message and "e" in grid.error_text
    grid.set_segment(load_bundle(legacy_demo_copy), "mt", "1", "bleu")
    assert grid.showing_message and "gtm metric only" in grid.error_text
    grid.set_segment(load_bundle(legacy_demo_copy), "mt", "1")
    assert not grid.showing_message


def test_hit_matrix_and_dots_agree_on_a_sparse_grid(qtbot):
    # Above the dense limit the metric returns a sparse matrix; the view must draw the same hits.
    hyp, r1, r2 = big_grid_tokens(seed=3)
    hyp = hyp * 6  # 720 x 402 cells > 250,000
    view = GTMGridView()
    qtbot.addWidget(view)
    view.set_segment(one_segment_project(" ".join(hyp), [" ".join(r1), " ".join(r2)]), "sys", "s1", "gtm:e=1")
    assert not isinstance(view.result.hits, np.ndarray)
    assert len(view.hits_item.data) == view.result.hits.nnz


def test_wheel_zooms_and_drag_pans(grid, qtbot, legacy_demo_copy):
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    grid.set_segment(load_bundle(legacy_demo_copy), "mt", "7")
    settle(qtbot, grid)
    vb = grid.plot.getViewBox()
    (x0, x1), _ = vb.viewRange()
    step_before = grid.x_axis.visible_ticks()[1] - grid.x_axis.visible_ticks()[0]
    centre = viewport_pos(grid, 10, 20)
    for _ in range(4):
        event = QWheelEvent(
            QPointF(centre), QPointF(grid.plot.viewport().mapToGlobal(centre)), QPoint(0, 0), QPoint(0, 120),
            Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False,
        )
        QApplication.sendEvent(grid.plot.viewport(), event)
    qtbot.wait(20)
    (z0, z1), _ = vb.viewRange()
    assert z1 - z0 < 0.8 * (x1 - x0)  # zoomed in
    ticks = grid.x_axis.visible_ticks()
    assert step_before == 1 and ticks[1] - ticks[0] == 1  # every token labelled, fitted or zoomed
    # Drag with the left button: the view pans.
    start = viewport_pos(grid, 10, 20)
    qtbot.mousePress(grid.plot.viewport(), Qt.MouseButton.LeftButton, pos=start)
    for dx in (10, 40, 80, 120):
        qtbot.mouseMove(grid.plot.viewport(), start + QPoint(dx, 0))
    qtbot.mouseRelease(grid.plot.viewport(), Qt.MouseButton.LeftButton, pos=start + QPoint(120, 0))
    (p0, p1), _ = vb.viewRange()
    assert p0 < z0 and p1 - p0 == pytest.approx(z1 - z0)
