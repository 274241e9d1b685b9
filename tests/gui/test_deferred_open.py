"""Opening a project leaves hidden workspaces idle (issue 15, item 9; timed by
benchmarks/bench_judge_spans.py, never here): the Metrics workspace reads the
texts and human scores, indexes the error spans and draws the first row when it
is first shown (the rows before the first paint, the rest in the next event-loop
turns), the Analysis workspace lists its human-score choices when shown and
counts error spans when its Error counts tab is shown. Shown, each holds exactly
what it would have held had it been in front when the project opened."""

from __future__ import annotations

import pytest

from mtworkbench.analysis import human_scores
from mtworkbench.core.model import ErrorSpan, Judgment
from mtworkbench.gui.analysis import workspace as analysis_module
from mtworkbench.gui.analysis.workspace import AnalysisWorkspace
from mtworkbench.gui.metrics.error_strip import ErrorSpanStrip
from mtworkbench.gui.metrics.sentence_browser import SentenceBrowser
from mtworkbench.gui.metrics.workspace import MetricsWorkspace
from mtworkbench.gui.session import ProjectSession
from tests.gui.span_project import span_project


@pytest.fixture
def calls(monkeypatch):
    """How often each piece of a workspace's project-open work ran."""
    counts: dict[str, int] = {}

    def counting(owner, name, label):
        real = getattr(owner, name)

        def wrapper(*args, **kwargs):
            counts[label] = counts.get(label, 0) + 1
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, wrapper)

    counting(human_scores, "collect_human_scores", "human scores")  # Metrics imports it when called
    counting(SentenceBrowser, "set_texts", "browser texts")
    counting(ErrorSpanStrip, "follow_project", "error index")
    counting(MetricsWorkspace, "_update_detail_view", "detail view")
    counting(AnalysisWorkspace, "fill_human_choices", "choices")
    counting(analysis_module.ErrorCountsPanel, "set_judgments", "error counts")
    counts.clear()  # counting starts now
    return counts


def light_span_project():
    project = span_project()
    project.settings.metrics = ["bleu"]  # what is shown matters here, not the scoring
    return project


def show(qtbot, workspace) -> None:
    workspace.resize(1280, 800)
    workspace.show()
    qtbot.waitExposed(workspace)


def settle(qtbot, workspace) -> None:
    """Let its zero-delay timers run and its scoring finish (no worker outlives the test)."""
    qtbot.wait(20)
    if isinstance(workspace, MetricsWorkspace):
        qtbot.waitUntil(lambda: not workspace.is_scoring() and not workspace.rescore_timer.isActive(), timeout=60_000)


def human_column(metrics: MetricsWorkspace) -> list:
    return [None if m != m else m for m in metrics.human_matrix.ravel().tolist()]


def test_hidden_metrics_workspace_does_nothing_on_open_and_fills_itself_when_shown(qtbot, calls):
    session = ProjectSession()
    metrics = MetricsWorkspace(session)
    qtbot.addWidget(metrics)
    calls.clear()
    project = light_span_project()
    session.replace_project(project, None)
    session.set_current_segment("2")
    project.add_judgment(Judgment("late", "r1", "sysA", "3", None, protocol="mqm",
                                  errors=(ErrorSpan(0, 2, "Minor", "Fluency/Grammar"),)))
    qtbot.wait(20)
    assert calls == {}  # no text, human score, span index or detail view read while hidden
    assert not metrics.refresh_timer.isActive() and not metrics.errors_timer.isActive()

    metrics.resize(1280, 800)
    metrics.show()
    # Before the first paint: the rows, the selected row, the room for the error spans.
    assert calls == {"browser texts": 1, "error index": 1}
    assert metrics.browser.model.rowCount() == len(project.systems) * len(project.segments)
    assert metrics.browser.selected() == ("sysA", "2")  # the segment the user moved to meanwhile
    assert metrics.error_strip.isVisibleTo(metrics)
    # Then, a turn each: the human scores (the late judgment too), the row's spans and detail view.
    qtbot.waitUntil(lambda: "detail view" in calls)
    assert metrics.human_label == "Human (score)" and human_column(metrics)[2] == -1.0  # sysA, segment 3
    assert [b.label for b in metrics.error_strip.blocks] == ["r1", "r2"]  # sysA, segment 2
    assert metrics._detail_shown  # the current detail view drew the selected row
    settle(qtbot, metrics)
    assert calls["human scores"] == 1 and calls["browser texts"] == 1  # once, not again after showing


def test_a_shown_metrics_workspace_fills_itself_on_open_at_once(qtbot, calls):
    session = ProjectSession()
    metrics = MetricsWorkspace(session)
    qtbot.addWidget(metrics)
    show(qtbot, metrics)
    calls.clear()
    project = light_span_project()
    session.replace_project(project, None)
    assert calls == {"browser texts": 1, "error index": 1}
    assert metrics.browser.model.rowCount() == 6 and metrics.browser.selected() == ("sysA", "1")
    qtbot.waitUntil(lambda: "detail view" in calls)
    assert calls["human scores"] == 1 and metrics.human_matrix.shape == (2, 3)
    assert metrics.error_strip.blocks[0].label == "r1"
    settle(qtbot, metrics)


def test_showing_metrics_after_a_second_hidden_open_shows_the_second_project(qtbot, calls):
    session = ProjectSession()
    metrics = MetricsWorkspace(session)
    qtbot.addWidget(metrics)
    show(qtbot, metrics)
    session.replace_project(light_span_project(), None)
    settle(qtbot, metrics)
    metrics.hide()
    second = light_span_project()
    second.remove_system("sysB")
    calls.clear()
    session.replace_project(second, None)
    assert calls == {}
    assert metrics.browser.model.rowCount() == 6  # the first project's rows, still (nobody sees them)
    show(qtbot, metrics)
    assert metrics.browser.model.rowCount() == 3 and metrics.system_ids == ["sysA"]
    assert [metrics.baseline_combo.itemText(i) for i in range(metrics.baseline_combo.count())] == ["(none)", "sysA"]
    settle(qtbot, metrics)


def test_hidden_analysis_workspace_lists_choices_when_shown_and_counts_errors_on_their_tab(qtbot, calls):
    session = ProjectSession()
    analysis = AnalysisWorkspace(session)
    qtbot.addWidget(analysis)
    calls.clear()
    session.replace_project(light_span_project(), None)
    qtbot.wait(20)
    assert calls == {}
    assert analysis.metric_list.count() == 1  # the new project's metrics at once (cheap)

    show(qtbot, analysis)
    assert calls == {"choices": 1}  # before the first paint: never the old project's choices
    assert analysis.human_combo.count() > 0 and analysis.pages.currentWidget() is analysis.results
    assert analysis.status.text() == "Pick a human score and metrics, then press Compute."
    settle(qtbot, analysis)
    assert "error counts" not in calls  # the Correlation tab is in front
    analysis.result_tabs.setCurrentWidget(analysis.error_panel)
    assert calls["error counts"] == 1
    assert analysis.error_panel.pages.currentIndex() == 1  # counts, not the empty message
    analysis.result_tabs.setCurrentIndex(0)
    analysis.result_tabs.setCurrentWidget(analysis.error_panel)
    assert calls["error counts"] == 1  # nothing changed: not counted again


def test_compute_in_a_hidden_analysis_workspace_uses_the_new_projects_choices(qtbot, calls, monkeypatch):
    from mtworkbench.core.errors import DataError
    from mtworkbench.gui import dialogs

    asked = []

    def refuse(project, spec, z=False):
        asked.append((project, spec))
        raise DataError("stop here")

    monkeypatch.setattr(analysis_module, "collect_human_scores", refuse)
    monkeypatch.setattr(dialogs, "error", lambda *args: None)
    session = ProjectSession()
    analysis = AnalysisWorkspace(session)
    qtbot.addWidget(analysis)
    session.replace_project(span_project(with_spans=False), None)  # choices: ann's adequacy, ...
    second = light_span_project()  # choices: MQM scores of r1, r2, ...
    session.replace_project(second, None)
    assert not analysis.compute()
    assert asked and asked[0][0] is second
    assert asked[0][1] in {analysis.human_combo.itemData(i) for i in range(analysis.human_combo.count())}
    assert "adequacy" not in asked[0][1]


def test_main_window_opens_with_metrics_and_analysis_idle_and_fills_each_when_shown(qtbot, calls):
    from mtworkbench.gui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    assert window.tabs.currentWidget() is window.workspaces["Annotate"]
    calls.clear()
    project = light_span_project()
    window.set_project(project, None)
    qtbot.wait(20)
    assert calls == {}
    metrics, analysis = window.workspaces["Metrics"], window.workspaces["Analysis"]

    window.tabs.setCurrentWidget(metrics)
    assert metrics.browser.model.rowCount() == 6
    qtbot.waitUntil(lambda: "detail view" in calls)
    assert calls["human scores"] == 1 and "choices" not in calls
    settle(qtbot, metrics)
    window.tabs.setCurrentWidget(analysis)
    assert calls["choices"] == 1 and analysis.human_combo.count() > 0
    settle(qtbot, analysis)

    # Opened again while Analysis is in front: Analysis fills at once, Metrics waits.
    calls.clear()
    window.set_project(light_span_project(), None)
    assert calls == {"choices": 1}
    window.session.undo_stack.setClean()
