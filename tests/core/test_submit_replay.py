"""A judge's submit is one undoable edit (``QueueEdit``): its redo notes the judgment in the
queue, moves the queue on and stores the work, its undo reverses all of it.

Random sequences of submit, undo and redo (as the GUI's undo stack runs them) must leave
the project exactly as a fresh replay of the history that survived them, and undoing that
history must give back the project as it was before the first submit.
"""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from mtworkbench.core.judge_session import QueueEdit, RatingEdit
from mtworkbench.core.judging import JudgeSession, QueueConfig
from mtworkbench.core.ranking import RankingEdit, RankingSession
from mtworkbench.io.bundle.bundle import project_to_dict
from tests.core.test_judging import make_project

SUBMIT = st.tuples(st.just("submit"), st.integers(1, 5), st.integers(1, 5), st.sampled_from(["", "gut", "很好"]))
STEPS = st.lists(st.one_of(SUBMIT, st.just(("undo",)), st.just(("redo",))), max_size=30)


def snapshot(project) -> dict:
    return copy.deepcopy(project_to_dict(project))


def run(steps, session, submit) -> tuple[list[QueueEdit], int]:
    """Play ``steps`` on an undo stack of edits; returns the stack and how many are applied."""
    stack: list[QueueEdit] = []
    applied = 0
    for step in steps:
        if step[0] == "submit":
            if session.finished:
                continue
            edit = submit(session, *step[1:])
            del stack[applied:]  # a new edit drops what could be redone, as QUndoStack does
            edit.redo()
            stack.append(edit)
            applied += 1
        elif step[0] == "undo" and applied:
            applied -= 1
            stack[applied].undo()
        elif step[0] == "redo" and applied < len(stack):
            stack[applied].redo()
            applied += 1
    return stack, applied


def rate(session: JudgeSession, a: int, b: int, comment: str) -> QueueEdit:
    return session.rate(a, b, comment, seconds=2.5)


def rank(session: RankingSession, a: int, b: int, comment: str) -> QueueEdit:
    return session.rank([a, b, (a + b) % 5 + 1][: len(session.current_ranking.systems)], comment, seconds=1.0)


def again(edit: QueueEdit, project) -> QueueEdit:
    """The same edit, on another project."""
    if isinstance(edit, RatingEdit):
        return RatingEdit(project, edit.step, edit.judgment, edit.replacing)
    assert isinstance(edit, RankingEdit)
    return RankingEdit(project, edit.step, edit.ranking, edit.replacing)


@settings(max_examples=60, deadline=None)
@given(steps=STEPS, ranking=st.booleans())
def test_random_submit_undo_redo_equals_a_fresh_replay_of_the_history(steps, ranking) -> None:
    def start():
        project = make_project(n_docs=2, per_doc=2, n_refs=2, systems=("A", "B", "C"))
        if ranking:
            session = RankingSession.start(project, "ann", QueueConfig(seed=3, protocol="rank", repeat_share=0.3))
        else:
            session = JudgeSession.start(project, "ann", QueueConfig(seed=3, repeat_share=0.3))
        return project, session

    project, session = start()
    before = snapshot(project)
    stack, applied = run(steps, session, rank if ranking else rate)

    fresh, _ = start()
    for edit in stack[:applied]:
        again(edit, fresh).redo()
    assert snapshot(project) == snapshot(fresh)

    for edit in reversed(stack[:applied]):
        edit.undo()
    assert snapshot(project) == before


def test_submit_changes_nothing_until_the_edit_is_applied() -> None:
    """``rate`` only computes: the queue moves and the judgment is stored by ``redo``."""
    project = make_project()
    session = JudgeSession.start(project, "ann", QueueConfig(seed=1, repeat_share=0))
    before = snapshot(project)
    edit = session.rate(4, 3, "Ça va", seconds=1.0)
    assert snapshot(project) == before
    edit.redo()
    assert session.position == 1 and session.state.items[0].judgment == edit.judgment.id
    assert project.judgment(edit.judgment.id).adequacy == 4
    edit.undo()
    assert snapshot(project) == before  # the queue no longer notes the judgment either
