"""LDC adequacy/fluency items show the document around them, as DA, ESA and MQM items do."""

from __future__ import annotations

from mtworkbench.core.judging import QueueConfig
from mtworkbench.gui.judge.protocol_rating import neighbours
from tests.gui.test_judge_protocols import rate  # noqa: F401
from tests.gui.test_judge_rating import K, add_judge, fake_time, keys, start_queue, window, workspace  # noqa: F401


def test_ldc_item_shows_its_document_context(qtbot, window, rate, screenshot_dir):  # noqa: F811
    view = rate(QueueConfig(seed=7, repeat_share=0.0, protocol="ldc"))
    project = window.session.project
    for _ in range(2):
        item = view.current_item()
        before, after = neighbours(project, item.document, item.segment)
        assert view.context_before.isVisible() == bool(before)
        assert view.context_after.isVisible() == bool(after)
        for segment in before:
            assert segment.source in view.context_before.text()
            assert (project.system_text(item.system, segment.id) or "") in view.context_before.text()
        for segment in after:
            assert segment.source in view.context_after.text()
        assert before or after
        window.grab().save(str(screenshot_dir / "judge-ldc-context.png"))
        keys(qtbot, view, K.Key_4, K.Key_5, K.Key_Return)
    assert not view.protocol_panel.isVisible()
