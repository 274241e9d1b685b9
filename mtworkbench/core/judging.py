"""The judge's screen without Qt: the LDC scales and questions, the keyboard protocol
(``RatingEntry``) and the time spent on an item (``ItemClock``).

A judge's queue is drawn by ``core.queue_drawing`` (``build_queue``) and worked
through with ``core.judge_session`` (``JudgeSession``); the names most callers need
are importable from here too.

A DA or ESA queue may hide quality-control items among the others
(``bad_rate``): degraded copies of items ("BAD references", WMT) that a rater
paying attention scores lower. The queue entry records that it is one and the
text it shows; the rater sees it like any other item; its judgment carries
``qc="bad"`` and that text, so it feeds ``analysis.quality_control`` and never
the human scores.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from mtworkbench.core.judge_session import (
    RATINGS,
    JudgeSession,
    Progress,
    QueueItem,
    RatingEdit,
    apply_judgment,
    check_rating,
    check_seconds,
    revert_judgment,
)
from mtworkbench.core.model import Judgment
from mtworkbench.core.queue_drawing import QueueConfig, build_queue, config_of, with_bad_items

# LDC (TIDES) 5-point scales, best first, as the judge sees them.
ADEQUACY_LABELS: dict[int, str] = {
    5: "All of the meaning",
    4: "Most of the meaning",
    3: "Much of the meaning",
    2: "Little of the meaning",
    1: "None of the meaning",
}
FLUENCY_LABELS: dict[int, str] = {
    5: "Flawless English",
    4: "Good English",
    3: "Non-native English",
    2: "Disfluent English",
    1: "Incomprehensible English",
}
_FLUENCY_GRADES: dict[int, str] = {
    5: "Flawless",
    4: "Good",
    3: "Non-native",
    2: "Disfluent",
    1: "Incomprehensible",
}


def fluency_labels(language: str | None) -> dict[int, str]:
    """The LDC fluency scale for the project's target language: "Flawless German",
    "Flawless Chinese"; "Flawless in the target language" when it is unknown."""
    from mtworkbench.core.language import display_name

    name = display_name(language)
    if name is None:
        return {k: f"{grade} in the target language" for k, grade in _FLUENCY_GRADES.items()}
    return {k: f"{grade} {name}" for k, grade in _FLUENCY_GRADES.items()}


ADEQUACY_QUESTION = "How much of the meaning of the reference is expressed in the translation?"
FLUENCY_QUESTION = "How fluent is the translation?"


@dataclass
class RatingEntry:
    """The keyboard protocol of the workspace, without Qt: digits 1-5 rate
    adequacy, then fluency; Enter submits once both are set. A digit after
    both are set starts again with adequacy, so a slip is fixed by typing on.
    """

    adequacy: int | None = None
    fluency: int | None = None

    @classmethod
    def from_judgment(cls, judgment: Judgment | None) -> RatingEntry:
        """Pre-filled with a stored judgment (after going back), or empty."""
        if judgment is None:
            return cls()
        return cls(judgment.adequacy, judgment.fluency)

    def press(self, digit: int) -> None:
        check_rating("rating key", digit)
        if self.adequacy is None or self.fluency is not None:
            self.adequacy, self.fluency = digit, None
        else:
            self.fluency = digit

    def clear(self) -> None:
        self.adequacy = self.fluency = None

    @property
    def complete(self) -> bool:
        return self.adequacy is not None and self.fluency is not None

    @property
    def expecting(self) -> str | None:
        """Which scale the next digit rates: 'adequacy', 'fluency', or None when complete."""
        if self.adequacy is None:
            return "adequacy"
        return "fluency" if self.fluency is None else None


class ItemClock:
    """Time spent on the current item; paused while the window is inactive.

    ``now`` is injectable for tests (default ``time.monotonic``).
    """

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        self._spent = 0.0
        self._since: float | None = None

    def start(self) -> None:
        """Begin timing a new item from zero."""
        self._spent = 0.0
        self._since = self._now()

    def pause(self) -> None:
        if self._since is not None:
            self._spent += self._now() - self._since
            self._since = None

    def resume(self) -> None:
        if self._since is None:
            self._since = self._now()

    @property
    def seconds(self) -> float:
        running = self._now() - self._since if self._since is not None else 0.0
        return self._spent + running


__all__ = [
    "ADEQUACY_LABELS",
    "ADEQUACY_QUESTION",
    "FLUENCY_LABELS",
    "FLUENCY_QUESTION",
    "RATINGS",
    "ItemClock",
    "JudgeSession",
    "Progress",
    "QueueConfig",
    "QueueItem",
    "RatingEdit",
    "RatingEntry",
    "apply_judgment",
    "build_queue",
    "check_rating",
    "check_seconds",
    "config_of",
    "fluency_labels",
    "revert_judgment",
    "with_bad_items",
]
