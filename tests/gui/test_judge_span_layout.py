"""ESA and MQM rating at 1280x800: the item starts at the top, the translation right under the
reference, with no empty band between them (the spare height goes below the span list)."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import QPoint

from mtworkbench.core.judging import QueueConfig
from tests.gui.test_judge_protocols import rate  # noqa: F401 - fixture
from tests.gui.test_judge_rating import fake_time, window, workspace  # noqa: F401 - fixtures

SHOTS = os.environ.get("MTWB_SHOTS", "/tmp")


def _top(widget, view) -> int:
    return widget.mapTo(view, QPoint(0, 0)).y()


@pytest.mark.parametrize("protocol", ["mqm", "esa"])
def test_the_translation_follows_the_reference_without_a_gap(qtbot, window, rate, protocol):  # noqa: F811
    assert (window.width(), window.height()) == (1280, 800)
    view = rate(QueueConfig(seed=7, repeat_share=0.0, protocol=protocol, max_errors=3))
    qtbot.wait(50)
    panel = view.protocol_panel
    reference = view.reference.text
    below_reference = _top(reference, view) + reference.height()
    first_of_panel = next(w for w in (panel.context_before, panel.translation) if w.isVisible())
    # Between the reference's last line and the panel: the layout's spacing, not a band of grey.
    assert 0 <= _top(first_of_panel, view) - below_reference < 40
    assert _top(panel.translation, view) < view.height() // 2
    # The controls stay down by the submit row.
    assert _top(view.submit_button, view) - (_top(panel.hints, view) + panel.hints.height()) < 40
    window.grab().save(f"{SHOTS}/judge-{protocol}-top.png")


def test_a_narrow_window_keeps_the_reference_whole(qtbot, window, rate):  # noqa: F811
    window.resize(1280, 800)
    view = rate(QueueConfig(seed=7, repeat_share=0.0, protocol="mqm"))
    window.resize(700, 800)
    qtbot.wait(50)
    body = view.texts_scroll.widget()
    assert view.texts_scroll.viewport().height() >= body.heightForWidth(view.texts_scroll.viewport().width()) - 2
