"""Relative ranking (WMT 2013-2016, Appraise): several systems' translations of one
source segment side by side, each given a rank from 1 (best) to 5, ties allowed.

A ``Ranking`` is what the rater did on one screen: the segment, the systems in the
order shown, their ranks, the rater, the reference shown (if any), the time. It is
stored as one ``Judgment`` per system (protocol ``rank``, ``score`` = the rank,
``scale`` ``rank``) sharing ``Judgment.ranking`` = the ranking's id, so everything
that reads judgments (the judgments table, human scores, campaigns, the bundle)
handles rankings without knowing them; ``rankings_of`` groups them back.

The queue (``build_ranking_queue``) gives each segment's systems, in an order
drawn from the seed, to groups of at most ``max_systems`` (sizes as equal as
possible, so every system of a segment is ranked and no group has one system);
each group is one item, its display order recorded in ``QueueEntry.systems`` so
the same seed and judge always show the same screens. The queue is an ordinary
``JudgeQueue`` (protocol ``rank``): position, undo and saving work as for the
other protocols. ``RankingSession`` is ``JudgeSession`` for such a queue: an
item is done while the project holds the judgments of its ranking.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from mtworkbench.core.judge_session import JudgeSession, QueueEdit, QueueStep, check_seconds, utc_now
from mtworkbench.core.model import RANK_RANGE, Judgment, ModelError, Project
from mtworkbench.core.queue_drawing import QueueConfig, build_ranking_queue, split_evenly
from mtworkbench.core.queue_state import QueueEntry

RANK_SCALE = "rank"
RANKS: tuple[int, ...] = tuple(range(RANK_RANGE[0], RANK_RANGE[1] + 1))


@dataclass(frozen=True)
class Ranking:
    """One screen of relative ranking: ``systems`` in the order shown, ``ranks[k]`` of ``systems[k]``.

    ``judgment_ids[k]`` is the id of the judgment that stores ``systems[k]``'s rank.
    """

    id: str
    judge: str
    segment: str
    reference: str | None
    systems: tuple[str, ...]
    ranks: tuple[int, ...]
    judgment_ids: tuple[str, ...]
    timestamp: str = ""
    seconds: float = 0.0
    comment: str = ""

    def rank_of(self, system: str) -> int:
        return self.ranks[self.systems.index(system)]

    def judgments(self) -> list[Judgment]:
        """The judgments that store this ranking, one per system (time and comment on each)."""
        return [
            Judgment(
                id=jid, judge=self.judge, system=system, segment=self.segment, reference=self.reference,
                score=float(rank), scale=RANK_SCALE, timestamp=self.timestamp, seconds=self.seconds,
                comment=self.comment, protocol="rank", ranking=self.id,
            )
            for jid, system, rank in zip(self.judgment_ids, self.systems, self.ranks)
        ]


def check_ranks(ranks: Sequence[object], n_systems: int) -> tuple[int, ...]:
    """The ranks as a tuple of ints, one per system shown; ModelError naming what is wrong."""
    if len(ranks) != n_systems:
        raise ModelError(f"a ranking of {n_systems} systems needs {n_systems} ranks, not {len(ranks)}")
    lo, hi = RANK_RANGE
    out: list[int] = []
    for k, rank in enumerate(ranks):
        if isinstance(rank, bool) or not isinstance(rank, int) or not lo <= rank <= hi:
            raise ModelError(f"rank of system {k + 1} must be an integer from {lo} to {hi}, not {rank!r}")
        out.append(rank)
    return tuple(out)


def ranking_from_judgments(judgments: Sequence[Judgment]) -> Ranking:
    """The ranking stored by ``judgments`` (all with one ``ranking`` id), systems in the given order.

    The judgments of one ranking must agree on judge, segment and reference and name
    each system once; ModelError says which does not.
    """
    first = judgments[0]
    for j in judgments[1:]:
        for name in ("judge", "segment", "reference"):
            if getattr(j, name) != getattr(first, name):
                raise ModelError(
                    f"judgments {first.id!r} and {j.id!r} of ranking {first.ranking!r} differ in their {name}"
                )
    systems = tuple(j.system for j in judgments)
    if len(set(systems)) < len(systems):
        twice = next(s for s in systems if systems.count(s) > 1)
        raise ModelError(f"ranking {first.ranking!r} ranks system {twice!r} twice")
    return Ranking(
        id=first.ranking, judge=first.judge, segment=first.segment, reference=first.reference,
        systems=systems, ranks=tuple(int(j.score or 0) for j in judgments),
        judgment_ids=tuple(j.id for j in judgments), timestamp=first.timestamp, seconds=first.seconds,
        comment=first.comment,
    )


def group_ranked(judgments: Iterable[Judgment]) -> dict[str, list[Judgment]]:
    """Ranking id -> its judgments, in the order given (quality-control copies left out)."""
    groups: dict[str, list[Judgment]] = defaultdict(list)
    for j in judgments:
        if j.ranking and not j.qc:
            groups[j.ranking].append(j)
    return dict(groups)


def rankings_of(project: Project, order: Mapping[str, Sequence[str]] | None = None) -> list[Ranking]:
    """Every ranking in the project (a ranking of one system is kept: it has no pairs).

    ``order`` maps a ranking id to its systems in the order shown (a queue's
    ``QueueEntry.systems``); otherwise the project's judgment order is used.
    """
    out = []
    for ranking_id, group in group_ranked(project.judgments).items():
        shown = (order or {}).get(ranking_id)
        if shown is not None and set(shown) == {j.system for j in group}:
            by_system = {j.system: j for j in group}
            group = [by_system[s] for s in shown]
        out.append(ranking_from_judgments(group))
    return out


def check_rankings(project: Project) -> None:
    """Raise ModelError if the judgments of some ranking disagree (judge, segment, reference, a system twice)."""
    for group in group_ranked(project.judgments).values():
        ranking_from_judgments(group)


def new_ranking_id(project: Project) -> str:
    """An id used by no ranking, judgment or span of the project."""
    taken = {j.ranking for j in project.judgments if j.ranking}
    while True:
        candidate = project.new_id("r")
        if candidate not in taken:
            return candidate


# --- rating -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class RankingItem:
    """One ranking item as the view shows it; ``systems`` only for bookkeeping, never displayed."""

    index: int
    segment: str
    document: str
    reference: str | None
    repeat: bool
    systems: tuple[str, ...]
    candidates: tuple[str, ...]
    reference_text: str | None
    source: str
    ranking: Ranking | None  # the stored ranking when the item was ranked already


class RankingSession(JudgeSession):
    """A judge working through a relative-ranking queue (``project.judge_queues[judge]``)."""

    def __init__(self, project: Project, judge: str, clock: Callable[[], str] = utc_now) -> None:
        super().__init__(project, judge, clock)
        state = project.judge_queues[judge]
        if state.protocol != "rank":
            raise ModelError(f"the queue of judge {judge!r} is a {state.protocol} queue, not a ranking queue")
        for i, raw in enumerate(state.items):
            if any(not self.project.has_system(s) for s in raw.systems or ()):
                raise ModelError(
                    f"the queue of judge {judge!r} refers (item {i + 1}) to a system no longer in the project; "
                    "start a new queue"
                )

    @classmethod
    def start(cls, project: Project, judge: str, config: QueueConfig = QueueConfig(protocol="rank"),
              clock: Callable[[], str] = utc_now) -> RankingSession:
        if judge not in project.judges:
            raise ModelError(f"unknown judge {judge!r}")
        project.set_judge_queue(judge, build_ranking_queue(project, judge, replace(config, protocol="rank")))
        return cls(project, judge, clock)

    def stored_ranking(self, index: int) -> Ranking | None:
        """The ranking item ``index`` produced, while the project holds all its judgments."""
        raw = self.state.items[index]
        if raw.judgment is None:
            return None
        group = [j for j in self.project.judgments if j.ranking == raw.judgment]
        return self._complete(raw, group)

    def _complete(self, raw: QueueEntry, group: list[Judgment]) -> Ranking | None:
        shown = raw.systems or []
        by_system = {j.system: j for j in group if j.judge == self.judge and j.segment == raw.segment}
        if set(by_system) != set(shown) or len(group) != len(shown):
            return None  # undone, or removed in part
        return ranking_from_judgments([by_system[s] for s in shown])

    def stored_judgment(self, index: int) -> Judgment | None:
        """The judgment of the item's first system, while its whole ranking is stored."""
        ranking = self.stored_ranking(index)
        if ranking is None:
            return None
        return self.project.judgment(ranking.judgment_ids[0])

    def done_flags(self) -> list[bool]:
        """Whether each item is done, from one pass over the judgments (not one per item)."""
        groups = group_ranked(self.project.judgments)
        return [
            raw.judgment is not None and self._complete(raw, groups.get(raw.judgment, [])) is not None
            for raw in self.state.items
        ]

    @property
    def done(self) -> int:
        return sum(self.done_flags())

    def first_pending(self, excluding: int | None = None) -> int | None:
        flags = self.done_flags()
        return next((i for i, done in enumerate(flags) if i != excluding and not done), None)

    def _next_position(self, index: int) -> int:
        # As JudgeSession's, with the done flags computed once.
        flags = self.done_flags()
        if not all(flags[index + 1:]):
            return index + 1
        return next((i for i in [*range(index + 1, self.total), *range(index)] if not flags[i]), self.total)

    def ranking_item(self, index: int) -> RankingItem:
        raw = self.state.items[index]
        systems = tuple(raw.systems or ())
        return RankingItem(
            index=index,
            segment=raw.segment,
            document=self.project.document_of(raw.segment),
            reference=raw.reference,
            repeat=raw.repeat,
            systems=systems,
            candidates=tuple(self.project.system_text(s, raw.segment) for s in systems),
            reference_text=None if raw.reference is None else self.project.reference_text(raw.reference, raw.segment),
            source=self.project.segment(raw.segment).source,
            ranking=self.stored_ranking(index),
        )

    @property
    def current_ranking(self) -> RankingItem | None:
        return None if self.finished else self.ranking_item(self.position)

    def index_of_judgment(self, judgment_id: str) -> int | None:
        try:
            ranking_id = self.project.judgment(judgment_id).ranking
        except ModelError:
            return None
        for i, raw in enumerate(self.state.items):
            if ranking_id and raw.judgment == ranking_id:
                return i
        return None

    def rank(self, ranks: Sequence[int], comment: str = "", seconds: float = 0.0) -> RankingEdit:
        """The ranking of the current item's systems (``ranks`` in the order shown) as one
        edit, not yet applied: new, or for an item ranked before, the replacement with
        the same ids and its time added to the time spent before. Its ``redo`` notes the
        ranking id in the queue, moves on and stores the judgments; ``undo`` reverses it."""
        if self.finished:
            raise ModelError("the queue is finished; there is no item to rank")
        check_seconds(seconds)
        index = self.position
        raw = self.state.items[index]
        systems = tuple(raw.systems or ())
        ranks = check_ranks(list(ranks), len(systems))
        previous = self.stored_ranking(index)
        if previous is not None:
            ranking_id, ids = previous.id, previous.judgment_ids
        else:
            ranking_id = new_ranking_id(self.project)
            ids = tuple(self.project.new_id("j") for _ in systems)
        ranking = Ranking(
            id=ranking_id, judge=self.judge, segment=raw.segment, reference=raw.reference, systems=systems,
            ranks=ranks, judgment_ids=ids, timestamp=self._clock(),
            seconds=float(seconds) + (previous.seconds if previous is not None else 0.0), comment=comment,
        )
        for j in ranking.judgments():
            self.project.check_judgment(j, replacing=j.id if previous is not None else None)
        step = QueueStep(self.judge, index, ranking.id, index, self._next_position(index))
        return RankingEdit(self.project, step, ranking, replacing=previous is not None)

    def submit_ranking(self, ranks: Sequence[int], comment: str = "", seconds: float = 0.0) -> Ranking:
        """Rank the current item's systems and move on, as ``rank``; the queue records the
        ranking id and moves on now. Returns the ranking to apply (``apply_ranking``)."""
        edit = self.rank(ranks, comment, seconds)
        edit.step.take(self.project)
        return edit.ranking


def apply_ranking(project: Project, ranking: Ranking) -> list[Judgment]:
    """Store the ranking's judgments (adding them, or replacing those with their ids);
    returns the judgments replaced (empty for a new ranking)."""
    replaced = []
    for j in ranking.judgments():
        try:
            project.judgment(j.id)
        except ModelError:
            project.add_judgment(j)
            continue
        replaced.append(project.replace_judgment(j))
    return replaced


def revert_ranking(project: Project, ranking: Ranking, replaced: Sequence[Judgment]) -> None:
    """The inverse of ``apply_ranking(project, ranking)`` that returned ``replaced``."""
    old = {j.id: j for j in replaced}
    for j in ranking.judgments():
        if j.id in old:
            project.replace_judgment(old[j.id])
        else:
            project.remove_judgment(j.id)


class RankingEdit(QueueEdit):
    """Submit a ranking: store its judgments (adding them, or ``replacing`` those with their ids)."""

    def __init__(self, project: Project, step: QueueStep, ranking: Ranking, replacing: bool) -> None:
        super().__init__(project, step)
        self.ranking = ranking
        self.replacing = replacing
        self._replaced: list[Judgment] = []

    def _apply(self) -> None:
        self._replaced = apply_ranking(self.project, self.ranking)

    def _revert(self) -> None:
        revert_ranking(self.project, self.ranking, self._replaced)


@dataclass
class RankEntry:
    """The keyboard protocol of the ranking view, without Qt: one candidate has the
    focus (Up/Down or Tab move it), a digit 1-5 gives it that rank and moves the focus
    to the next candidate without one; ties are allowed; complete once every
    candidate has a rank."""

    ranks: list[int | None]
    focus: int = 0

    @classmethod
    def for_item(cls, n: int, stored: Ranking | None = None) -> RankEntry:
        return cls(list(stored.ranks) if stored is not None else [None] * n)

    def move(self, step: int) -> None:
        if self.ranks:
            self.focus = (self.focus + step) % len(self.ranks)

    def press(self, rank: int) -> None:
        lo, hi = RANK_RANGE
        if not lo <= rank <= hi:
            raise ModelError(f"rank must be from {lo} to {hi}, not {rank!r}")
        self.ranks[self.focus] = rank
        n = len(self.ranks)
        for step in range(1, n + 1):  # on to the next candidate still without a rank
            k = (self.focus + step) % n
            if self.ranks[k] is None:
                self.focus = k
                return

    def clear(self) -> None:
        self.ranks[self.focus] = None

    @property
    def complete(self) -> bool:
        return all(r is not None for r in self.ranks)

    @property
    def missing(self) -> int:
        return sum(1 for r in self.ranks if r is None)


__all__ = [
    "RANKS",
    "RANK_SCALE",
    "RankEntry",
    "Ranking",
    "RankingEdit",
    "RankingItem",
    "RankingSession",
    "apply_ranking",
    "build_ranking_queue",
    "check_ranks",
    "check_rankings",
    "group_ranked",
    "new_ranking_id",
    "ranking_from_judgments",
    "rankings_of",
    "revert_ranking",
    "split_evenly",
]
