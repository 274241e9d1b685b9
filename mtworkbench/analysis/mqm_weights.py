"""MQM error weights and a rater's segment score (Freitag et al. 2021).

Google's weights (Freitag et al. 2021): Major 5, Minor 1, Neutral 0, except a
Minor ``Fluency/Punctuation`` error 0.1 and any Non-translation error 25. A
rater's segment score is minus the sum of the weights of the errors that rater
marked (0 for "rated, no errors"). A severity with no weight (none given, or
one the weights do not name, e.g. ``Critical``) weighs 0, as in Google's
scorer (mt-metrics-eval ``score_mqm``); ``unweighted_severities`` lists them so
that a command can say so. Severities and categories are matched
without regard to case (the releases spell them ``Major``, ``minor``...), and
the Non-translation category whatever its punctuation (``Non-translation!``).
``No-error`` rows kept beside other rows and Anthea's ``HOTW-test`` quality-control
rows weigh 0 and need no weight.

Weights may also name a severity and category path, as mt-metrics-eval writes them
(``major/non-translation!``, ``*/source issue``): the most specific matching path
decides, before the rules above. This reproduces the conventions releases differ in
(a Minor Non-translation at 1, a category that weighs nothing) without new code.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import ErrorSpan

MINOR_PUNCTUATION = "minor-punctuation"
NON_TRANSLATION = "non-translation"
_NON_TRANSLATION = re.compile(r"^\s*non[-_ ]?translation", re.IGNORECASE)
_PUNCTUATION = "fluency/punctuation"
# Rows that are no error: "No-error" kept beside other rows of one rating, and Anthea's
# hands-on-the-wheel quality-control rows (severity "HOTW-test", category Found/Missed:
# whether the rater found an error planted in a copy). They weigh 0 and need no weight.
_NOT_ERRORS = re.compile(r"^\s*(no[-_ ]?error|hotw)", re.IGNORECASE)


def is_not_an_error(error: ErrorSpan) -> bool:
    """A kept ``No-error`` row or a ``HOTW-test`` quality-control row: no error of the
    translation (an error count should leave it out; its weight is 0)."""
    return bool(_NOT_ERRORS.match(error.severity) or (not error.severity.strip() and _NOT_ERRORS.match(error.category)))


@dataclass(frozen=True)
class MqmWeights:
    """Weight per severity (lower-case name), and the two exceptions."""

    severities: dict[str, float] = field(default_factory=lambda: {"major": 5.0, "minor": 1.0, "neutral": 0.0})
    minor_punctuation: float = 0.1
    non_translation: float = 25.0
    # ("severity" or "*", "category", "subcategory"...) -> weight, lower-case: mt-metrics-eval's
    # "severity/category[/subcategory]" weight specs. The most specific match wins over
    # everything else (an exact severity before "*" at equal length).
    paths: dict[tuple[str, ...], float] = field(default_factory=dict)

    def _path_weight(self, error: ErrorSpan) -> float | None:
        if not self.paths:
            return None
        parts = [p.strip().lower() for p in error.category.split("/")]
        severity = error.severity.strip().lower()
        for length in range(len(parts), 0, -1):
            for head in (severity, "*"):
                found = self.paths.get((head, *parts[:length]))
                if found is not None:
                    return found
        return None

    def weight(self, error: ErrorSpan) -> float:
        if is_not_an_error(error):
            return 0.0
        by_path = self._path_weight(error)
        if by_path is not None:
            return by_path
        if _NON_TRANSLATION.match(error.category):
            return self.non_translation
        severity = error.severity.strip().lower()
        category = error.category.strip().lower()
        if severity == "minor" and (category == _PUNCTUATION or category.startswith(_PUNCTUATION + "/")):
            return self.minor_punctuation
        return self.severities.get(severity, 0.0)

    def unweighted_severities(self, errors: Iterable[ErrorSpan]) -> list[str]:
        """Severities among ``errors`` that these weights do not name (they weigh 0)."""
        missing = {e.severity.strip() for e in errors
                   if not _NON_TRANSLATION.match(e.category) and not is_not_an_error(e)
                   and self._path_weight(e) is None}
        return sorted(s for s in missing if s.lower() not in self.severities)

    def score(self, errors: Iterable[ErrorSpan]) -> float:
        """A rater's segment score: minus the summed weights (0.0 for no errors)."""
        return -math.fsum(self.weight(e) for e in errors) + 0.0

    def to_json(self) -> dict[str, float]:
        return {**self.severities, MINOR_PUNCTUATION: self.minor_punctuation, NON_TRANSLATION: self.non_translation,
                **{"/".join(path): w for path, w in self.paths.items()}}


GOOGLE_WEIGHTS = MqmWeights()


def parse_weights(text: str) -> MqmWeights:
    """``major=5,minor=1,neutral=0,minor-punctuation=0.1,non-translation=25``: Google's
    weights with the named ones changed; any other name is a further severity. A name
    with ``/`` is ``SEVERITY/CATEGORY[/SUBCATEGORY]`` (SEVERITY may be ``*``, any), as
    mt-metrics-eval writes weights: ``*/source issue=0``, ``minor/non-translation!=1``."""
    paths: dict[tuple[str, ...], float] = {}
    severities = dict(GOOGLE_WEIGHTS.severities)
    minor_punctuation = GOOGLE_WEIGHTS.minor_punctuation
    non_translation = GOOGLE_WEIGHTS.non_translation
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, eq, value = item.partition("=")
        name = name.strip().lower()
        if not eq or not name:
            raise DataError(f"MQM weights {text!r}: expected NAME=NUMBER items, found {item!r}")
        try:
            number = float(value)
        except ValueError:
            raise DataError(f"MQM weights {text!r}: {name} must be a number, found {value.strip()!r}") from None
        if not math.isfinite(number):
            raise DataError(f"MQM weights {text!r}: {name} must be a finite number, found {value.strip()!r}")
        if "/" in name:
            path = tuple(part.strip() for part in name.split("/"))
            if not all(path):
                raise DataError(f"MQM weights {text!r}: {name!r} has an empty part; expected SEVERITY/CATEGORY=NUMBER")
            paths[path] = number
        elif name == MINOR_PUNCTUATION:
            minor_punctuation = number
        elif name == NON_TRANSLATION:
            non_translation = number
        else:
            severities[name] = number
    return MqmWeights(severities, minor_punctuation, non_translation, paths)
