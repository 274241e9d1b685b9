"""Krippendorff's unitizing alpha: hand-derived values on tiny continua, Krippendorff's own
worked example (Content Analysis, 2nd ed., 2004, p. 254) and the observed disagreements of
his 1995 example ("On the reliability of unitizing continuous data")."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from mtworkbench.analysis.unitizing_alpha import unitizing_alpha


def test_a_unit_shorter_by_one_at_its_start_hand_derived():
    # L = 10. A: c at 2-5; B: c at 3-5. Only c2-5 against c3-5 is at a distance: (2-3)² + 0 = 1,
    # so D_o = 2·1 / (2·100). Units 3 and 2 (N_c = 2); gaps 2, 5 (A) and 3, 5 (B):
    # l=3: (1/3)(54-27+3) + 9·(3+1+3) = 10 + 63;  l=2: (1/3)(16-12+2) + 4·(1+4+2+4) = 2 + 44.
    # D_e = (2/10)·119 / (20·19 - (6+2)) = 119/1860, so α = 1 - (1/100)/(119/1860) = 502/595.
    result = unitizing_alpha({"a": [(2, 5, "c")], "b": [(3, 5, "c")]}, 0, 10)
    assert result.observed == pytest.approx(0.01, abs=1e-15)
    assert result.expected == pytest.approx(float(Fraction(119, 1860)), abs=1e-15)
    assert result.alpha == pytest.approx(float(Fraction(502, 595)), abs=1e-12)
    assert result.by_category["c"].alpha == pytest.approx(result.alpha, abs=1e-15)


def test_a_unit_the_other_observer_left_in_a_gap_hand_derived():
    # A: c at 2-4; B: nothing. The unit lies inside B's one gap: δ² = 2² = 4, D_o = 8/200.
    # N_c = 1; gaps 2, 6 (A) and 10 (B): l=2: 0 + 4·(1+5+9) = 60; D_e = (2/10)·60/(380-2) = 2/63.
    result = unitizing_alpha({"a": [(2, 4, "c")], "b": []}, 0, 10)
    assert result.observed == pytest.approx(0.04, abs=1e-15)
    assert result.expected == pytest.approx(2 / 63, abs=1e-15)
    assert result.alpha == pytest.approx(1 - 0.04 * 63 / 2, abs=1e-12)  # -0.26: worse than chance


def test_identical_units_agree_perfectly_and_nothing_at_all_is_undefined():
    same = [(1, 3, "x"), (5, 9, "y"), (5, 7, "x")]  # x and y overlap: different categories may
    assert unitizing_alpha({"a": same, "b": list(same)}, 0, 12).alpha == 1.0
    assert math.isnan(unitizing_alpha({"a": [], "b": []}, 0, 12).alpha)


def test_krippendorffs_2004_worked_example():
    # Two observers on the continuum 150-450 with categories c and k (Krippendorff 2004, p. 254).
    i = [(225, 295, "c"), (370, 400, "c"), (180, 240, "k"), (300, 350, "k")]
    j = [(220, 300, "c"), (355, 375, "c"), (400, 420, "c"), (180, 240, "k"), (300, 350, "k")]
    result = unitizing_alpha({"i": i, "j": j}, 150, 300)
    c, k = result.by_category["c"], result.by_category["k"]
    # δ²: c225-295/c220-300 = 50, c370-400/c355-375 = 850, c400-420 in i's gap 400-450 = 400.
    assert c.observed == pytest.approx(1300 / 90000, abs=1e-15)
    assert (round(c.observed, 4), round(c.expected, 4), round(c.alpha, 4)) == (0.0144, 0.0532, 0.7286)
    assert (round(k.observed, 4), round(k.expected, 4), k.alpha) == (0.0, 0.0490, 1.0)
    # The book gives uα = 0.8591, from its rounded disagreements 1 - 0.0144/(0.0532 + 0.0490);
    # unrounded, uα = 1 - (1300/90000)/(D_e,c + D_e,k) = 0.85867.
    assert round(1 - round(result.observed, 4) / (round(c.expected, 4) + round(k.expected, 4)), 4) == 0.8591
    assert result.alpha == pytest.approx(0.85867, abs=5e-6)


def test_krippendorffs_1995_example_observed_disagreements():
    # Four pairs of observers on 24 units (Krippendorff 1995, p. 57), one category each.
    pairs = {
        "A": ([(2, 10), (14, 20)], [(4, 8), (15, 17)], 0.03125),
        "B": ([(0, 18)], [(0, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 9), (9, 10)], 2.26736),
        "C": ([(2, 8), (10, 12), (14, 18), (20, 22)], [(0, 2), (4, 8), (10, 14), (16, 18), (20, 22)], 0.02777),
        "D": ([(0, 2), (2, 10), (10, 14), (14, 20), (20, 24)], [(0, 4), (4, 8), (8, 15), (15, 17), (17, 24)], 0.38715),
    }
    for name, (first, second, observed) in pairs.items():
        result = unitizing_alpha({"1": [(a, b, name) for a, b in first], "2": [(a, b, name) for a, b in second]}, 0, 24)
        assert result.observed == pytest.approx(observed, abs=1e-5), name


def test_refusals_name_the_problem():
    with pytest.raises(ValueError, match="exactly two observers, not 3"):
        unitizing_alpha({"a": [], "b": [], "c": []}, 0, 5)
    with pytest.raises(ValueError, match="units c 0-3 and 2-4 overlap"):
        unitizing_alpha({"a": [(0, 3, "c"), (2, 4, "c")], "b": []}, 0, 5)
    with pytest.raises(ValueError, match="outside the continuum 0-5"):
        unitizing_alpha({"a": [(4, 7, "c")], "b": []}, 0, 5)
