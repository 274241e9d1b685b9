"""The Judge workspace's judgments table follows the project one judgment at a time.

Structural checks behind benchmarks/bench_judge_spans.py (no timings here): a new,
changed or removed judgment moves one row and never re-reads the table; after any
sequence of edits, filters and sorts the rows are exactly what a fresh model built
from the project shows; sorting keeps the selected judgment selected.
"""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import Qt
from scipy import stats

from mtworkbench.core.model import ErrorSpan, Judgment
from mtworkbench.gui.judge.judgments_table import ALL, COLUMNS, JudgmentsModel, JudgmentsPanel
from mtworkbench.gui.session import ProjectSession
from tests.gui.span_project import span_project


def column(header: str) -> int:
    return [h for h, _ in COLUMNS].index(header)


def shown_ids(model: JudgmentsModel) -> list[str]:
    return [model.index(r, 0).data(JudgmentsModel.JudgmentRole).id for r in range(model.rowCount())]


def fresh(model: JudgmentsModel) -> list[str]:
    """What a model built from scratch on the same project, filter and sort shows."""
    other = JudgmentsModel(model.project)
    other.set_filter(model.judge, model.system)
    other.sort(model.sort_column, model.sort_order)
    return shown_ids(other)


class Signals:
    """Counts the model's resets and single-row changes."""

    def __init__(self, model: JudgmentsModel) -> None:
        self.resets = self.inserted = self.removed = self.layouts = 0
        model.modelAboutToBeReset.connect(lambda: self._add("resets"))
        model.rowsInserted.connect(lambda *a: self._add("inserted"))
        model.rowsRemoved.connect(lambda *a: self._add("removed"))
        model.layoutChanged.connect(lambda *a: self._add("layouts"))

    def _add(self, name: str) -> None:
        setattr(self, name, getattr(self, name) + 1)


def ldc_project(n_judges: int = 3, seed: int = 1):
    """span_project's texts with every judge rating every item on the 1-5 scales."""
    project = span_project(with_spans=False)
    rng = random.Random(seed)
    for judge in [f"j{k}" for k in range(n_judges)]:
        project.add_judge(judge)
        for system in project.systems:
            for segment in project.segment_ids:
                project.add_judgment(Judgment(f"{judge}-{system.id}-{segment}", judge, system.id, segment, "ref",
                                              rng.randint(1, 5), rng.randint(1, 5), seconds=rng.random() * 9))
    return project


@pytest.fixture
def panel(qtbot):
    session = ProjectSession()
    session.replace_project(ldc_project(), None)
    panel = JudgmentsPanel(session)
    qtbot.addWidget(panel)
    panel.resize(1000, 500)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def test_a_new_judgment_is_one_inserted_row_not_a_reset(panel):
    project, model = panel.session.project, panel.model
    panel.table.sortByColumn(column("Adequacy"), Qt.SortOrder.DescendingOrder)
    heard = Signals(model)
    project.add_judgment(Judgment("new", "j1", "sysA", "2", "ref", 3, 1))
    assert (heard.resets, heard.inserted, heard.removed) == (0, 1, 0)
    assert shown_ids(model) == fresh(model)
    assert panel.count.text() == f"{len(project.judgments)} judgments"
    project.remove_judgment("new")  # an undo
    assert (heard.resets, heard.removed) == (0, 1)
    assert shown_ids(model) == fresh(model)


def test_a_changed_rating_moves_its_row_to_its_sorted_place(panel):
    project, model = panel.session.project, panel.model
    panel.table.sortByColumn(column("Fluency"), Qt.SortOrder.AscendingOrder)
    heard = Signals(model)
    first = model.index(0, 0).data(JudgmentsModel.JudgmentRole)
    project.replace_judgment(Judgment(first.id, first.judge, first.system, first.segment, "ref", 2, 5))
    assert heard.resets == 0
    assert shown_ids(model) == fresh(model)
    fluency = [model.index(r, column("Fluency")).data() for r in range(model.rowCount())]
    row = shown_ids(model).index(first.id)
    assert fluency[row] == "5" and "4" not in fluency[row:]  # among the fives, at the end of the table


def test_filter_and_sort_follow_random_edits_like_a_fresh_model(panel):
    """Adds, removes and replacements under every filter and sort column."""
    project, model = panel.session.project, panel.model
    rng = random.Random(7)
    judges, systems = project.judges, [s.id for s in project.systems]
    heard = Signals(model)
    n = 0
    for step in range(120):
        if step % 10 == 0:
            panel.set_filter(rng.choice([ALL, *judges]), rng.choice([ALL, *systems]))
            panel.table.sortByColumn(rng.randrange(len(COLUMNS)),
                                     rng.choice([Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder]))
        resets = heard.resets
        action = rng.random()
        judgments = project.judgments
        if action < 0.45 or not judgments:
            n += 1
            judge = rng.choice(judges[1:])  # not "ann": span_project's judge without LDC items
            score = {"score": round(rng.uniform(-25, 0), 1), "scale": "mqm"} if rng.random() < 0.3 else {}
            project.add_judgment(Judgment(f"n{n}", judge, rng.choice(systems), rng.choice(project.segment_ids),
                                          "ref", rng.randint(1, 5), rng.randint(1, 5),
                                          comment=rng.choice(["", "ok", "Zebra"]), **score))
        elif action < 0.7:
            project.remove_judgment(rng.choice(judgments).id)
        else:
            old = rng.choice(judgments)
            project.replace_judgment(Judgment(old.id, old.judge, old.system, old.segment, old.reference,
                                              rng.randint(1, 5), old.fluency, seconds=rng.random()))
        assert heard.resets == resets, "an edit re-read the whole table"
        assert shown_ids(model) == fresh(model), f"step {step}: rows differ from a fresh model"
        assert panel.count.text().startswith(f"{model.rowCount()}")


def test_z_scores_follow_a_new_rating_of_the_judge(panel):
    project, model = panel.session.project, panel.model
    panel.set_filter(judge="j2")
    project.add_judgment(Judgment("late", "j2", "sysB", "3", "ref", 1, 1))
    own = [j for j in project.judgments if j.judge == "j2"]
    expected = dict(zip([j.id for j in own], stats.zscore([j.adequacy for j in own], ddof=0)))
    shown = {model.index(r, 0).data(JudgmentsModel.JudgmentRole).id: model.index(r, column("Adequacy z")).data()
             for r in range(model.rowCount())}
    assert shown == {jid: f"{z:+.2f}" for jid, z in expected.items()}
    # Sorted by z: the new rating moved every z of that judge, and the order follows.
    panel.set_filter()
    panel.table.sortByColumn(column("Adequacy z"), Qt.SortOrder.DescendingOrder)
    project.add_judgment(Judgment("later", "j2", "sysB", "2", "ref", 5, 5))
    assert shown_ids(model) == fresh(model)


def test_sorting_keeps_the_selected_judgment_selected(panel):
    table = panel.table
    table.selectRow(4)
    chosen = table.currentIndex().data(JudgmentsModel.JudgmentRole)
    table.sortByColumn(column("Seconds"), Qt.SortOrder.DescendingOrder)
    assert table.currentIndex().data(JudgmentsModel.JudgmentRole).id == chosen.id
    assert [i.row() for i in table.selectionModel().selectedRows()] == [table.currentIndex().row()]


def test_span_judgments_and_a_new_project(qtbot, panel):
    """MQM judgments (no adequacy: no z-scores to recompute) and replacing the project."""
    session = panel.session
    heard = Signals(panel.model)
    session.replace_project(span_project(), None)
    assert heard.resets == 1 and panel.model.rowCount() == 8
    session.project.add_judgment(Judgment("x", "r1", "sysA", "3", None, protocol="mqm",
                                          errors=(ErrorSpan(0, 2, "Minor", "Fluency/Grammar"),)))
    assert heard.resets == 1 and panel.model.rowCount() == 9
    assert shown_ids(panel.model)[-1] == "x"  # unsorted: the order judgments were made


def test_columns_are_sized_once_not_from_every_cell(panel):
    """ResizeToContents asked every cell again after each change (a stall with thousands)."""
    from PySide6.QtWidgets import QHeaderView

    header = panel.table.horizontalHeader()
    modes = {header.sectionResizeMode(c) for c in range(len(COLUMNS))}
    assert QHeaderView.ResizeMode.ResizeToContents not in modes
    judge_width = header.sectionSize(column("Judge"))
    assert judge_width >= panel.table.fontMetrics().horizontalAdvance("Judge")
    comment = column("Comment")
    assert all(header.sectionSize(c) > 0 for c in range(comment))


def test_a_new_projects_columns_are_sized_when_the_table_is_shown(qtbot, panel):
    project = ldc_project(n_judges=1)
    long_name = "a judge with a rather long name"
    project.add_judge(long_name)
    project.add_judgment(Judgment("long", long_name, "sysA", "1", "ref", 3, 3))
    panel.hide()
    panel.session.replace_project(project, None)
    panel.show()
    qtbot.waitExposed(panel)
    header = panel.table.horizontalHeader()
    assert header.sectionSize(column("Judge")) > panel.table.fontMetrics().horizontalAdvance(long_name)
