"""Krippendorff's alpha for unitizing (uα): two observers' units on one continuum.

Each observer cuts a continuum ``[begin, begin + length)`` into units of categories; for
one category c, an observer's continuum is a sequence of c's units and the gaps between
them (everything not inside a unit of c). This is the coefficient as Krippendorff defines
it in "Content Analysis: An Introduction to Its Methodology" (2nd ed., 2004)
after "On the reliability of unitizing continuous data" (1995):

The distance of a segment g of observer i and a segment h of observer j (b: begin, l: length):

* both units of c that intersect: (b_g − b_h)² + (b_g + l_g − b_h − l_h)²;
* a unit lying inside a gap of the other observer: the unit's length squared;
* otherwise 0 (two gaps, or a unit only partly inside a gap).

Observed disagreement, over ordered pairs of observers:
    D_o,c = Σ_i Σ_j≠i Σ_g Σ_h δ²(g, h) / (m (m − 1) L²)
Expected disagreement, over all the units of c (N_c of them) and gaps of c of all observers:
    D_e,c = (2/L) Σ_u [ (N_c − 1)/3 · (2l_u³ − 3l_u² + l_u) + l_u² Σ_{gaps γ, l_γ ≥ l_u} (l_γ − l_u + 1) ]
            / ( mL(mL − 1) − Σ_u l_u(l_u − 1) )
    α_c = 1 − D_o,c / D_e,c,   uα = 1 − Σ_c D_o,c / Σ_c D_e,c

It reproduces Krippendorff's worked example (2004, p. 254: α_c = 0.7286, α_k = 1, uα = 0.859)
and the observed disagreements of his 1995 example. Krippendorff, Mathet, Bouvry and
Widlöcher ("On the reliability of unitizing textual continua: further developments", 2016)
found that this definition does not behave as expected with more than two observers and
replaced it with a family of coefficients; without their full definitions at hand this
module computes uα for exactly two observers and refuses more (compare two at a time).
Units of one category by one observer may not overlap (the definition cuts each observer's
continuum into units and gaps); units of different categories may.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

Unit = tuple[int, int, str]  # (begin, end, category): [begin, end) on the continuum


@dataclass(frozen=True)
class CategoryUnitizing:
    category: str
    units: int
    observed: float
    expected: float

    @property
    def alpha(self) -> float:
        return 1.0 - self.observed / self.expected if self.expected else math.nan


@dataclass(frozen=True)
class UnitizingAlpha:
    """uα of two observers on a continuum of ``length``; NaN where no category has units."""

    observers: tuple[str, ...]
    length: int
    observed: float
    expected: float
    by_category: dict[str, CategoryUnitizing] = field(default_factory=dict)

    @property
    def alpha(self) -> float:
        return 1.0 - self.observed / self.expected if self.expected else math.nan

    def to_json(self) -> dict:
        num = lambda x: None if math.isnan(x) else x  # noqa: E731
        return {"stat": "unitizing alpha", "observers": list(self.observers), "continuum": self.length,
                "value": num(self.alpha), "observed": self.observed, "expected": self.expected,
                "by_type": {c: {"value": num(r.alpha), "units": r.units, "observed": r.observed,
                                "expected": r.expected} for c, r in self.by_category.items()}}


def _segments(units: Sequence[tuple[int, int]], begin: int, end: int) -> list[tuple[int, int, bool]]:
    """An observer's continuum for one category: (begin, end, is a unit) in order, gaps between."""
    out: list[tuple[int, int, bool]] = []
    at = begin
    for a, b in units:
        if a > at:
            out.append((at, a, False))
        out.append((a, b, True))
        at = b
    if at < end:
        out.append((at, end, False))
    return out


def _distance(g: tuple[int, int, bool], h: tuple[int, int, bool]) -> int:
    (bg, eg, ug), (bh, eh, uh) = g, h
    if ug and uh:
        return (bg - bh) ** 2 + (eg - eh) ** 2 if bg < eh and bh < eg else 0
    if ug and not uh:
        return (eg - bg) ** 2 if bh <= bg and eg <= eh else 0
    if uh and not ug:
        return (eh - bh) ** 2 if bg <= bh and eh <= eg else 0
    return 0


def _pair_sum(a: list[tuple[int, int, bool]], b: list[tuple[int, int, bool]]) -> int:
    """Σ δ² over the intersecting segments of two partitions of the continuum (a merge walk:
    only intersecting segments can be at a distance)."""
    total, i, j = 0, 0, 0
    while i < len(a) and j < len(b):
        total += _distance(a[i], b[j])
        if a[i][1] <= b[j][1]:
            i += 1
        else:
            j += 1
    return total


def unitizing_alpha(units: Mapping[str, Sequence[Unit]], begin: int, length: int) -> UnitizingAlpha:
    """uα of two observers' units (observer -> (begin, end, category) list) on ``[begin, begin + length)``.

    Raises ValueError for other than two observers, a unit outside the continuum or empty,
    and two units of one category by one observer that overlap.
    """
    observers = tuple(units)
    if len(observers) != 2:
        raise ValueError(f"unitizing alpha is computed for exactly two observers, not {len(observers)} "
                         "(Krippendorff's 2004 definition misbehaves with more; compare two at a time)")
    if length <= 0:
        raise ValueError("unitizing alpha needs a continuum of positive length")
    end = begin + length
    categories = sorted({c for who in observers for _, _, c in units[who]})
    per: dict[str, dict[str, list[tuple[int, int]]]] = {c: {who: [] for who in observers} for c in categories}
    for who in observers:
        for a, b, c in units[who]:
            if not begin <= a < b <= end:
                raise ValueError(f"{who}: unit {c} {a}-{b} is empty or outside the continuum {begin}-{end}")
            per[c][who].append((a, b))
    m, big_l = len(observers), length
    by_category: dict[str, CategoryUnitizing] = {}
    sum_o, sum_e = Fraction(0), Fraction(0)
    for c in categories:
        parts = {}
        for who in observers:
            spans = sorted(per[c][who])
            for (a1, b1), (a2, b2) in zip(spans, spans[1:]):
                if a2 < b1:
                    raise ValueError(f"{who}: units {c} {a1}-{b1} and {a2}-{b2} overlap; unitizing alpha "
                                     "needs one observer's units of a category to be apart")
            parts[who] = _segments(spans, begin, end)
        observed_sum = 2 * _pair_sum(parts[observers[0]], parts[observers[1]])  # both orders: δ is symmetric
        d_o = Fraction(observed_sum, m * (m - 1) * big_l * big_l)
        lengths = [b - a for who in observers for a, b in per[c][who]]
        gaps = [b - a for who in observers for a, b, unit in parts[who] if not unit]
        n_c = len(lengths)
        numerator = 0
        for lu in lengths:
            within = (n_c - 1) * (2 * lu ** 3 - 3 * lu ** 2 + lu) // 3  # l(l−1)(2l−1) is a multiple of 6
            numerator += within + lu * lu * sum(g - lu + 1 for g in gaps if g >= lu)
        denominator = m * big_l * (m * big_l - 1) - sum(lu * (lu - 1) for lu in lengths)
        d_e = Fraction(2 * numerator, big_l * denominator) if denominator else Fraction(0)
        by_category[c] = CategoryUnitizing(c, n_c, float(d_o), float(d_e))
        sum_o += d_o
        sum_e += d_e
    return UnitizingAlpha(observers, length, float(sum_o), float(sum_e), by_category)
