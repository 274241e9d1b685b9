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
from mtworkbench.core.model import ErrorSpan
from mtworkbench.core.queue_drawing import with_suggestions
from mtworkbench.core.ranking import RankingEdit, RankingSession
from mtworkbench.core.span_draft import SpanDraft
from mtworkbench.core.suggested_spans import SuggestedSpan
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


def rate_suggested(session: JudgeSession, a: int, b: int, comment: str) -> QueueEdit:
    """An ESA item started from a model's spans: the judge keeps, changes or deletes some."""
    draft = SpanDraft.start("esa", session.current.suggested)
    if draft.spans and a % 3 == 1:
        draft.remove(0)
    elif draft.spans and a % 3 == 2:
        draft.change(0, ErrorSpan(draft.spans[0].start, draft.spans[0].end, "minor"))
    if b > 3:
        draft.add(ErrorSpan(0, 1, "major"))
    return session.rate_scored(20.0 * a, draft.spans, comment, seconds=1.5, suggestions=draft.outcomes())


def with_model_spans(project, session: JudgeSession) -> JudgeSession:
    """The session's queue with two model spans on each item ("A says d1s1": "A", "says")."""
    spans = {(s.id, seg.id): [SuggestedSpan(0, 1, "major", model="xc", fingerprint="ab"),
                              SuggestedSpan(2, 6, "critical", confidence=0.5, model="xc", fingerprint="ab")]
             for s in project.systems for seg in project.segments}
    project.set_judge_queue("ann", with_suggestions(project, session.state, spans, "comet:model=xc"))
    return JudgeSession(project, "ann")


def again(edit: QueueEdit, project) -> QueueEdit:
    """The same edit, on another project."""
    if isinstance(edit, RatingEdit):
        return RatingEdit(project, edit.step, edit.judgment, edit.replacing)
    assert isinstance(edit, RankingEdit)
    return RankingEdit(project, edit.step, edit.ranking, edit.replacing)


@settings(max_examples=60, deadline=None)
@given(steps=STEPS, mode=st.sampled_from(["ldc", "rank", "esa-ai"]))
def test_random_submit_undo_redo_equals_a_fresh_replay_of_the_history(steps, mode) -> None:
    def start():
        project = make_project(n_docs=2, per_doc=2, n_refs=2, systems=("A", "B", "C"))
        if mode == "rank":
            session = RankingSession.start(project, "ann", QueueConfig(seed=3, protocol="rank", repeat_share=0.3))
        elif mode == "esa-ai":
            session = with_model_spans(project, JudgeSession.start(
                project, "ann", QueueConfig(seed=3, protocol="esa", repeat_share=0.3)))
        else:
            session = JudgeSession.start(project, "ann", QueueConfig(seed=3, repeat_share=0.3))
        return project, session

    project, session = start()
    before = snapshot(project)
    stack, applied = run(steps, session, {"rank": rank, "esa-ai": rate_suggested, "ldc": rate}[mode])
    if mode == "esa-ai" and applied:  # the judgments say what became of each suggestion
        assert all(len(j.suggestions) == 2 for j in project.judgments)

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
