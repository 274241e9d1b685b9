"""The metric views on a Chinese project show the tokens the metrics score:
characters (sacrebleu's zh tokenizer), not one whitespace "word" a sentence."""

from __future__ import annotations

import pytest

from mtworkbench.gui.metrics.views.bleu_ngrams import BLEUNgramView
from mtworkbench.gui.metrics.views.gtm_grid import GTMGridView
from mtworkbench.gui.metrics.views.meteor_alignment import MeteorAlignmentView
from tests.gui.metric_view_helpers import one_segment_project

HYP = "习近平访问了美国。"
REF = "习近平对美国进行了访问。"


@pytest.fixture
def zh_project():
    project = one_segment_project(HYP, [REF])
    project.target_language = "zh"
    return project


@pytest.mark.parametrize("cls", [GTMGridView, MeteorAlignmentView, BLEUNgramView])
def test_views_show_the_metrics_zh_tokens(qtbot, zh_project, cls, tmp_path):
    view = cls()
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    qtbot.waitExposed(view)
    view.set_segment(zh_project, "sys", "s1")
    assert not view.showing_message, view.error_text
    result = view.result
    hyp_tokens = getattr(result, "hyp_tokens", None) or result.hypothesis_tokens
    assert hyp_tokens == list(HYP)
    assert "lang:zh" in view.current_metric.signature(1)
    view.grab().save(str(tmp_path / f"{cls.__name__}.png"))


def test_views_without_a_language_keep_whitespace_words(qtbot):
    project = one_segment_project(HYP, [REF])
    view = GTMGridView()
    qtbot.addWidget(view)
    view.set_segment(project, "sys", "s1")
    assert view.result.hyp_tokens == [HYP]
