"""Does the GUI stay responsive with 10,000 error spans in a project (issue 15, item 9)?

    PYTHONPATH=$PWD QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_judge_spans.py [SPANS]

Builds a synthetic MQM project (two raters, three systems, ~2.5 spans per rated
segment) and measures the longest event-loop stall of each step a user takes:
opening the project in the Judge workspace, switching to its Judgments and
Agreement tabs, opening the Analysis workspace's error counts, and stepping
through 100 rows of the Metrics workspace's sentence browser with the GTM view
and error-span highlighting on. Every step runs on the GUI thread, so its
duration plus the events it queues is the stall a user feels. Goal: < 100 ms.
Prints figures; asserts nothing (speed goals are not tests).
"""

from __future__ import annotations

import random
import sys
import time


def span_project(n_spans: int, seed: int = 3):
    from mtworkbench.core.model import (
        Document, ErrorSpan, Judgment, Paragraph, Project, Reference, Segment, System,
    )

    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(3000)]
    raters, n_systems, per_item = ("r1", "r2"), 3, 2.5
    n_segments = max(1, int(n_spans / (per_item * len(raters) * n_systems)))
    segments = [Segment(str(i + 1), " ".join(rng.choices(vocab, k=14))) for i in range(n_segments)]
    documents = [Document(f"d{d}", [Paragraph(f"d{d}p1", segments[d * 50:(d + 1) * 50])])
                 for d in range((n_segments + 49) // 50)]
    refs = {s.id: " ".join(rng.choices(vocab, k=14)) for s in segments}
    project = Project(documents, [Reference("ref", texts=refs)], [], "de", "en", name="spans")
    project.settings.metrics = ["gtm"]
    for k in range(n_systems):
        project.add_system(System(f"sys{k}", texts={
            sid: " ".join(t if rng.random() < 0.7 else rng.choice(vocab) for t in ref.split())
            for sid, ref in refs.items()}))
    for r in raters:
        project.add_judge(r)
    made = n = 0
    for system in project.systems:
        for seg in segments:
            for rater in raters:
                text = system.texts[seg.id]
                errors = []
                for _ in range(rng.choice((1, 2, 3, 4))):
                    if made >= n_spans:
                        break
                    start = rng.randrange(0, max(len(text) - 5, 1))
                    errors.append(ErrorSpan(start, min(len(text), start + rng.randint(2, 12)),
                                            rng.choice(("Major", "Minor", "Neutral")),
                                            rng.choice(("Accuracy/Mistranslation", "Fluency/Grammar", "Style/Awkward"))))
                    made += 1
                n += 1
                project.add_judgment(Judgment(f"j{n}", rater, system.id, seg.id, None, protocol="mqm",
                                              errors=tuple(errors)))
    return project, made


def main() -> None:
    n_spans = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    from PySide6.QtWidgets import QApplication

    from mtworkbench.gui.session import ProjectSession
    from mtworkbench.gui.workspaces.analysis import AnalysisWorkspace
    from mtworkbench.gui.workspaces.judge import JudgeWorkspace
    from mtworkbench.gui.workspaces.metrics import MetricsWorkspace

    app = QApplication.instance() or QApplication([])
    project, made = span_project(n_spans)
    print(f"project: {len(project.judgments)} judgments, {made} error spans, "
          f"{len(project.systems)} systems x {len(project.systems[0].texts)} segments")

    def step(label: str, action) -> float:
        t0 = time.perf_counter()
        action()
        app.processEvents()  # the events the step queued run before the user's next input
        ms = 1000 * (time.perf_counter() - t0)
        print(f"  {label:<52} {ms:8.1f} ms")
        return ms

    session = ProjectSession()
    judge = JudgeWorkspace(session)
    judge.resize(1280, 800)
    judge.show()
    analysis = AnalysisWorkspace(session)
    analysis.resize(1280, 800)
    metrics = MetricsWorkspace(session)
    metrics.resize(1280, 800)
    app.processEvents()
    stalls = {}
    stalls["open"] = step("open the project (all three workspaces follow)",
                          lambda: session.replace_project(project, None))
    stalls["judgments"] = step("Judge: Judgments tab", lambda: judge.tabs.setCurrentWidget(judge.judgments))
    def agreement_tab() -> None:
        judge.tabs.setCurrentWidget(judge.agreement)
        judge.agreement.span_timer.stop()  # timed as its own step: it runs in a later event-loop pass

    stalls["agreement"] = step("Judge: Agreement tab (pairs, intra, scales)", agreement_tab)
    stalls["span agreement"] = step("Judge: Agreement tab, span agreement table",
                                    lambda: judge.agreement._refresh_spans())
    stalls["rate"] = step("Judge: back to Rate", lambda: judge.tabs.setCurrentWidget(judge.rating))
    judge.hide()
    analysis.show()
    stalls["errors"] = step("Analysis: Error counts tab",
                            lambda: analysis.result_tabs.setCurrentWidget(analysis.error_panel))
    stalls["top"] = step("Analysis: top-level categories",
                         lambda: analysis.error_panel.top_level_check.setChecked(True))
    analysis.hide()
    metrics.show()
    app.processEvents()
    gtm = next(v for n, v in metrics.detail_views.items() if "gtm" in n.lower())
    metrics.detail_tabs.setCurrentWidget(gtm)
    rows = []
    model = metrics.browser.model
    for r in range(min(100, model.rowCount())):
        system, segment = model.row_key(r)
        rows.append(step(f"Metrics: select row {r + 1} ({system}, {segment})" if r < 3 else "",
                         lambda s=system, g=segment: metrics.browser.select(s, g)) if r < 3 else
                    _quiet(app, lambda s=system, g=segment: metrics.browser.select(s, g)))
    stalls["rows"] = max(rows)
    print(f"  Metrics: 100 rows, longest {max(rows):.1f} ms, median {sorted(rows)[len(rows) // 2]:.1f} ms")
    stalls["toggle"] = step("Metrics: hide error spans", lambda: metrics.error_strip.toggle.setChecked(False))
    worst = max(stalls, key=stalls.get)
    print(f"longest stall: {stalls[worst]:.1f} ms ({worst}); goal < 100 ms")


def _quiet(app, action) -> float:
    t0 = time.perf_counter()
    action()
    app.processEvents()
    return 1000 * (time.perf_counter() - t0)


if __name__ == "__main__":
    main()
