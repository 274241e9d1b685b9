"""Raters' error spans over the candidate in the GTM, METEOR and BLEU views."""

from __future__ import annotations

import pytest

from mtworkbench.gui.metrics.views.bleu_ngrams import BLEUNgramView
from mtworkbench.gui.metrics.views.gtm_grid import GTMGridView
from mtworkbench.gui.metrics.views.meteor_alignment import MeteorAlignmentView
from tests.gui.span_project import span_project


def open_view(qtbot, cls, system, segment):
    view = cls()
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    qtbot.waitExposed(view)
    view.set_segment(span_project(), system, segment)
    assert not view.showing_message, view.error_text
    return view


@pytest.mark.parametrize("cls", [GTMGridView, MeteorAlignmentView])
def test_candidate_tokens_in_error_are_underlined_with_a_plain_tooltip(qtbot, cls):
    # sysB segment 1 "House small is.": r1 Major over "House small is", Minor over "small".
    view = open_view(qtbot, cls, "sysB", "1")
    pane = view.hyp_pane
    assert [w.lower().strip(".") for w in pane.error_words()] == ["house", "small", "is"]
    assert pane.error_words() == [pane.tokens[i] for i in sorted(pane.error_marks)]
    colour, tip = pane.error_marks[1]  # "small": both spans, the worst (major) colours it
    assert "Fluency/Grammar, Major (MQM, rater r1)" in tip and "Accuracy/Mistranslation, Minor" in tip
    assert pane.error_marks[0][0] == colour  # same severity, same colour


def test_toggle_hides_and_shows_error_spans(qtbot):
    view = open_view(qtbot, GTMGridView, "sysB", "1")
    marks = list(view.hyp_pane.marks)
    view.set_errors_visible(False)
    assert view.hyp_pane.error_words() == []
    assert view.hyp_pane.marks == marks  # the metric's own marks stay
    view.set_errors_visible(True)
    assert len(view.hyp_pane.error_words()) == 3


def test_markup_in_output_is_escaped_and_spans_still_placed(qtbot):
    # sysA segment 2 "The dog barks <b>loud</b>.": r1 marked "<b>loud</b>", r2 "loud".
    view = open_view(qtbot, MeteorAlignmentView, "sysA", "2")
    pane = view.hyp_pane
    words = pane.error_words()
    assert words == [pane.tokens[i] for i in sorted(pane.error_marks)]
    assert any("loud" in w.lower() for w in words)
    assert "<b>" in pane.plain_text()  # drawn as text, not as bold markup


def test_bleu_order_panes_carry_the_errors(qtbot):
    view = open_view(qtbot, BLEUNgramView, "sysA", "1")
    assert [w.lower() for w in view.order_panes[0].error_words()] in (["tiny"], ["tiny."])


def test_segment_without_errors_has_no_marks(qtbot):
    view = open_view(qtbot, GTMGridView, "sysB", "3")
    assert view.hyp_pane.error_words() == []
