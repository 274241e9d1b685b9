"""What keeps the Judge workspace responsive with thousands of error spans (issue 15,
item 9; timed by benchmarks/bench_judge_spans.py, never here): span agreement runs on
the worker from a snapshot, the fluency scale's language name is looked up off the
GUI thread and once per language, and the hidden Metrics workspace does not re-index
error spans at every rating."""

from __future__ import annotations

import sys
import threading

from mtworkbench.core.model import ErrorSpan, Judgment
from mtworkbench.gui.judge import agreement_job, span_agreement_columns
from mtworkbench.gui.judge import rating as rating_module
from mtworkbench.gui.judge.workspace import JudgeWorkspace
from mtworkbench.gui.session import ProjectSession
from tests.gui.span_project import span_project


def judge_workspace(qtbot, project=None):
    session = ProjectSession()
    ws = JudgeWorkspace(session)
    qtbot.addWidget(ws)
    ws.resize(1280, 800)
    if project is not None:
        session.replace_project(project, None)
    ws.show()
    qtbot.waitExposed(ws)
    return ws


def test_a_large_projects_agreement_runs_on_the_worker_and_a_stale_result_is_dropped(qtbot, monkeypatch):
    real_spans, real_agreement = span_agreement_columns.span_agreement, agreement_job.agreement
    threads, release = {"agreement": [], "spans": []}, threading.Event()

    def held_spans(judgments, **kwargs):
        threads["spans"].append(threading.current_thread())
        if len(threads["spans"]) == 1:
            release.wait(10)  # the first job waits while the user goes on rating
        return real_spans(judgments, **kwargs)

    def recorded_agreement(judgments):
        threads["agreement"].append(threading.current_thread())
        return real_agreement(judgments)

    monkeypatch.setattr(agreement_job, "INLINE_JUDGMENTS", 0)  # the small project counts as large
    monkeypatch.setattr(span_agreement_columns, "span_agreement", held_spans)
    monkeypatch.setattr(agreement_job, "agreement", recorded_agreement)
    project = span_project()
    project.add_judge("r3")
    ws = judge_workspace(qtbot, project)
    panel = ws.agreement
    try:
        ws.tabs.setCurrentWidget(panel)
        qtbot.waitUntil(lambda: len(threads["spans"]) == 1)
        first = panel.worker
        # The judges' tables came first; the span table waits, and the GUI thread is free meanwhile.
        qtbot.waitUntil(lambda: panel.report is not None)
        assert panel.summary.text().startswith("8 judgments by 2 judges")
        assert first is not None and panel.span_model.rows == []
        project.add_judgment(Judgment("late", "r3", "sysA", "1", None, protocol="mqm",
                                      errors=(ErrorSpan(0, 2, "Major", "Accuracy/Omission"),)))
        qtbot.waitUntil(lambda: len(threads["spans"]) == 2)
        qtbot.waitUntil(lambda: panel.worker is None)
    finally:
        release.set()  # the first, stale job finishes now: its rows must not replace the new ones
    assert all(t is not threading.main_thread() for t in threads["agreement"] + threads["spans"])
    assert len(threads["agreement"]) == 2
    rows = panel.span_model.rows
    assert [r.judges for r in rows] == [("r1", "r2"), ("r1", "r3"), ("r2", "r3")]  # the late rater counts
    assert panel.summary.text().startswith("9 judgments by 3 judges")
    qtbot.wait(300)
    assert panel.span_model.rows is rows
    assert panel.span_caption.text().startswith("Error spans (MQM, ESA)") and "computing" not in panel.span_caption.text()


def test_a_small_projects_agreement_is_shown_at_once(qtbot):
    ws = judge_workspace(qtbot, span_project())
    ws.tabs.setCurrentWidget(ws.agreement)
    assert ws.agreement.worker is None and ws.agreement.report is not None  # no waiting for a thread
    # MQM raters: their segment scores are compared in the MQM section, their spans below.
    assert [p.judges for p in ws.agreement.report.score_pairs("mqm")] == [("r1", "r2")]
    assert ws.agreement.current_protocol() == "mqm" and ws.agreement.pairs_model.rowCount() == 1
    qtbot.waitUntil(lambda: bool(ws.agreement.span_model.rows))  # the span table on the next pass


def test_language_name_is_looked_up_off_the_gui_thread_once(qtbot, monkeypatch):
    real = rating_module.fluency_labels
    looked_up = []

    def recording(language):
        if language:  # a code to name ("" and None name no language: nothing to look up)
            looked_up.append((language, threading.current_thread()))
        return real(language)

    monkeypatch.setattr(rating_module, "fluency_labels", recording)
    monkeypatch.setattr(rating_module, "_FLUENCY_LABELS", {})
    project = span_project()
    project.target_language = "de"
    ws = judge_workspace(qtbot, project)  # no judge chosen: no 1-5 item on screen
    view = ws.rating
    qtbot.waitUntil(lambda: "Flawless German" in view.fluency.buttons[5].text())
    assert [lang for lang, _ in looked_up] == ["de"]
    assert looked_up[0][1] is not threading.main_thread()
    # Another project in German: the cached labels, no second lookup.
    again = span_project()
    again.target_language = "de"
    ws.session.replace_project(again, None)
    assert "Flawless German" in view.fluency.buttons[5].text()
    assert len(looked_up) == 1


def test_while_the_name_is_looked_up_the_scale_names_no_language(qtbot, monkeypatch):
    release = threading.Event()
    real = rating_module.fluency_labels

    def slow(language):
        if language:
            release.wait(10)
        return real(language)

    monkeypatch.setattr(rating_module, "fluency_labels", slow)
    monkeypatch.setattr(rating_module, "_FLUENCY_LABELS", {})
    project = span_project()
    project.target_language = "zh"
    ws = judge_workspace(qtbot, project)
    texts = [b.text() for b in ws.rating.fluency.buttons.values()]
    assert not any("English" in t for t in texts) and "Flawless in the target language" in texts[-1]
    release.set()
    qtbot.waitUntil(lambda: "Flawless Chinese" in ws.rating.fluency.buttons[5].text())


def test_hidden_metrics_workspace_reindexes_error_spans_only_when_shown(qtbot):
    from mtworkbench.gui.metrics.workspace import MetricsWorkspace

    session = ProjectSession()
    metrics = MetricsWorkspace(session)
    qtbot.addWidget(metrics)
    session.replace_project(span_project(), None)
    assert not metrics.isVisible()
    session.project.add_judgment(Judgment("x", "r1", "sysA", "3", None, protocol="mqm",
                                          errors=(ErrorSpan(0, 2, "Minor", "Fluency/Grammar"),)))
    # Nothing re-indexed or re-read while the user rates elsewhere.
    assert not metrics.errors_timer.isActive() and not metrics.refresh_timer.isActive()
    metrics.resize(1280, 800)
    metrics.show()
    qtbot.waitExposed(metrics)
    assert metrics.browser.select("sysA", "3")
    qtbot.waitUntil(lambda: bool(metrics.error_strip.blocks) and metrics.error_strip.blocks[0].label == "r1")


def test_the_app_settles_its_heap_before_opening_a_project(qtbot, monkeypatch):
    """Modules and Qt wrappers leave the collector's full passes (a 100-300 ms stall each);
    the project opened afterwards stays collectable."""
    import gc

    from mtworkbench.gui import app as app_module
    from mtworkbench.gui.main_window import MainWindow

    order = []
    frozen = []
    real_settle = app_module.settle_heap

    def settle():
        real_settle()
        frozen.append(gc.get_freeze_count())
        gc.unfreeze()  # other tests in this process keep a normal heap
        order.append("settle")

    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # run_app installs its own
    monkeypatch.setattr(app_module, "settle_heap", settle)
    monkeypatch.setattr(MainWindow, "open_path", lambda self, target, *a, **k: order.append("open") or True)
    monkeypatch.setattr(app_module.QApplication, "exec", lambda self: 0)
    windows = []
    monkeypatch.setattr(MainWindow, "show", lambda self: windows.append(self))
    assert app_module.run_app(demo=True) == 0
    for window in windows:
        window.session.undo_stack.setClean()
        window.close()
        window.deleteLater()
    assert order == ["settle", "open"]
    assert frozen[0] > 10_000


def test_hidden_analysis_workspace_recounts_when_shown(qtbot):
    from mtworkbench.gui.analysis.workspace import AnalysisWorkspace

    session = ProjectSession()
    analysis = AnalysisWorkspace(session)
    qtbot.addWidget(analysis)
    session.replace_project(span_project(with_spans=False), None)
    counted = []
    analysis.error_panel.set_judgments = lambda judgments: counted.append(len(judgments))
    session.project.add_judgment(Judgment("x", "r1", "sysA", "3", None, adequacy=2, fluency=4))
    assert not analysis.choices_timer.isActive() and not analysis.errors_timer.isActive() and counted == []
    analysis.select_human("r1:adequacy")  # asked for while hidden: the choices are listed first
    assert analysis.human_combo.currentData() == "r1:adequacy"
    analysis.resize(1280, 800)
    analysis.show()
    qtbot.waitExposed(analysis)
    qtbot.wait(20)
    assert counted == []  # the Correlation tab is in front: the error counts wait for their own tab
    analysis.result_tabs.setCurrentWidget(analysis.error_panel)
    qtbot.waitUntil(lambda: counted == [2])


def test_the_worker_job_computes_what_the_tab_computes_at_once():
    """Same report (BAD copies left out, all judgments counted), quality control and span rows."""
    from mtworkbench.analysis.agreement import agreement
    from mtworkbench.gui.judge.quality_control_columns import qc_rows

    project = span_project()
    n = 0
    for judge, offset in (("r1", 0), ("r2", 7)):
        for system in project.systems:
            for segment in project.segment_ids:
                n += 1
                project.add_judgment(Judgment(f"da{n}", judge, system.id, segment, "ref", score=60.0 + offset + n,
                                              scale="da", protocol="da"))
    for k, segment in enumerate(project.segment_ids[:2]):  # r1 saw two degraded copies and noticed
        project.add_judgment(Judgment(f"bad{k}", "r1", "sysA", segment, "ref", score=10.0 + k, scale="da",
                                      protocol="da", qc="bad", text="a degraded copy"))
    for k, segment in enumerate(project.segment_ids):  # and rankings of the two systems by both
        for judge in ("r1", "r2"):
            for system, rank in (("sysA", 1 + (k == 1 and judge == "r2")), ("sysB", 2)):
                project.add_judgment(Judgment(f"rk-{judge}{k}{system}", judge, system, segment, None, score=float(rank),
                                              scale="rank", protocol="rank", ranking=f"rk-{judge}{k}"))
    delivered = []
    outcome = agreement_job.agreement_job(project)(lambda done, total: None, lambda: False, delivered.append)
    report, count = delivered[0]
    assert count == len(project.judgments) and [p.judges for p in report.pairs] == [("r1", "r2")]
    assert report == agreement([j for j in project.judgments if not j.qc]) == agreement_job.tab_report(project.judgments)
    # Every protocol's section, BAD copies left out: DA (r1, r2 on 6 items), MQM scores, ranking kappa.
    assert report.protocols == ["da", "mqm", "rank"]
    assert [(p.protocol, p.n) for p in report.scores] == [("da", 6), ("mqm", 4)]
    assert report.ranking is not None and report.ranking.inter.n == 3 and report.ranking.inter.p_agree == 2 / 3
    assert outcome.quality_control == qc_rows(project) and [c.rater for c in outcome.quality_control] == ["r1"]
    assert outcome.span_pairs == span_agreement_columns.span_pairs(project)
