"""Krippendorff's alpha and Gwet's AC1/AC2 for any number of raters, with missing ratings."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtworkbench.analysis.multi_rater import (
    agreement_stat,
    default_stats,
    gwet_ac,
    krippendorff_alpha,
    parse_stat,
    ratings_table,
)
from mtworkbench.core.errors import DataError

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: four observers, twelve
# units, values 1-5, missing data. Published: nominal 0.743, ordinal 0.815, interval 0.849, ratio 0.797.
WORKED = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]


def table_of(matrix):
    return ratings_table(
        (f"rater{r}", f"item{i}", None if v is None else str(v))
        for r, row in enumerate(matrix) for i, v in enumerate(row)
    )


@pytest.mark.parametrize("level, published", [
    ("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849), ("ratio", 0.797),
])
def test_krippendorffs_worked_example(level, published):
    assert round(krippendorff_alpha(table_of(WORKED), level), 3) == published


def test_krippendorffs_binary_example():
    # Same paper, section A: two observers, ten units, binary data; published alpha 0.095.
    a = [0, 1, 0, 0, 0, 0, 0, 0, 1, 0]
    b = [1, 1, 1, 0, 0, 1, 0, 0, 0, 0]
    assert round(krippendorff_alpha(table_of([a, b]), "nominal"), 3) == 0.095


def test_alpha_and_ac1_by_hand():
    # items (1,1) and (1,2): coincidences o11=2, o12=o21=1; n1=3, n2=1, n=4;
    # alpha = 1 - (n-1) * 2 / (2*3*1) = 0.
    # AC1: pa = (1 + 0) / 2; pi = (.75, .25); pe = q/(q(q-1)) * (.1875 + .1875) = .375; (.5 - .375) / .625 = .2
    table = table_of([[1, 1], [1, 2]])
    assert krippendorff_alpha(table, "nominal") == pytest.approx(0.0, abs=1e-15)
    assert gwet_ac(table) == pytest.approx(0.2, abs=1e-15)


# Gwet's coefficients on the worked example, from the irrCAC package 0.4.4 (``CAC(df, weights=...).gwet()``,
# run in a separate environment; it rounds to five digits).
@pytest.mark.parametrize("stat, expected", [
    ("ac1", 0.77544), ("ac2:quadratic", 0.914), ("ac2:linear", 0.85874), ("ac2:ordinal", 0.89894),
    ("ac2:ratio", 0.85737),
])
def test_gwet_matches_irrcac_on_the_worked_example(stat, expected):
    assert agreement_stat(table_of(WORKED), stat, bootstrap=0).value == pytest.approx(expected, abs=6e-6)


matrices = st.integers(2, 5).flatmap(lambda raters: st.integers(2, 14).flatmap(lambda items: st.lists(
    st.lists(st.one_of(st.none(), st.integers(0, 4)), min_size=items, max_size=items),
    min_size=raters, max_size=raters)))


@settings(max_examples=150, deadline=None)
@given(matrices)
def test_alpha_equals_the_krippendorff_package(matrix):
    krippendorff = pytest.importorskip("krippendorff")
    table = table_of(matrix)
    pairable = (table.counts().sum(axis=1) >= 2).any()
    if not pairable or len(table.categories) < 2:
        return
    data = np.array([[np.nan if v is None else float(v) for v in row] for row in matrix])
    for level in ("nominal", "ordinal", "interval", "ratio"):
        ours = krippendorff_alpha(table, level)
        with warnings.catch_warnings():  # the package divides 0 by 0 where alpha is undefined
            warnings.simplefilter("ignore", RuntimeWarning)
            theirs = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
        if math.isnan(theirs) or math.isinf(theirs):
            assert math.isnan(ours)
        else:
            assert ours == pytest.approx(theirs, abs=1e-9), level


def test_labels_nominal_in_any_script():
    rows = [("标注员甲", "句1", "人名"), ("標注者", "句1", "人名"), ("Аня", "句1", "地名"),
            ("标注员甲", "句2", "机构"), ("標注者", "句2", "机构"), ("Аня", "句3", "人名")]
    table = ratings_table(rows)
    assert not table.numeric
    assert default_stats(table) == ["alpha:nominal", "ac1"]
    result = agreement_stat(table, "alpha:nominal", bootstrap=200)
    assert result.n_items == 3 and result.n_pairable_items == 2 and result.n_raters == 3
    with pytest.raises(DataError, match="needs numeric values"):
        agreement_stat(table, "alpha:interval")


def test_bootstrap_interval_is_reproducible_and_brackets_the_value():
    rng = np.random.default_rng(7)
    truth = rng.integers(1, 6, size=60)
    matrix = [[int(np.clip(t + rng.integers(-1, 2), 1, 5)) if rng.random() > 0.2 else None for t in truth]
              for _ in range(4)]
    table = table_of(matrix)
    first = agreement_stat(table, "alpha:interval", bootstrap=500, seed=3)
    again = agreement_stat(table, "alpha:interval", bootstrap=500, seed=3)
    other = agreement_stat(table, "alpha:interval", bootstrap=500, seed=4)
    assert (first.low, first.high) == (again.low, again.high)
    assert (first.low, first.high) != (other.low, other.high)
    assert first.low < first.value < first.high
    assert 0.0 < first.high - first.low < 0.5


def test_one_value_only_is_undefined_not_perfect():
    result = agreement_stat(table_of([[3, 3, 3], [3, 3, None]]), "alpha:nominal", bootstrap=50)
    assert math.isnan(result.value) and result.low is None
    assert any("undefined" in note for note in result.notes)


def test_stat_names():
    assert parse_stat("AC2") == "ac2:quadratic"
    assert parse_stat("alpha") == "alpha:nominal"
    with pytest.raises(ValueError, match="alpha:ordinal"):
        parse_stat("kappa")


# ------------------------------------------------------------------ the CLI


@pytest.fixture
def run_cli(capsys):
    from mtworkbench.cli import main

    def run(*args):
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def write(tmp_path, text, name="ratings.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_cli_ratings_table(tmp_path, run_cli):
    lines = ["rater,item,value"]
    for r, row in enumerate(WORKED):
        lines += [f"coder{r},unit{i},{'' if v is None else v}" for i, v in enumerate(row)]
    path = write(tmp_path, "\n".join(lines) + "\n")
    code, out, err = run_cli("agreement", "--ratings", str(path), "--stat", "alpha:ordinal,ac1",
                             "--stat", "alpha:ratio", "--json", "--bootstrap", "100")
    assert code == 0, err
    report = json.loads(out)
    assert [s["stat"] for s in report["stats"]] == ["alpha:ordinal", "ac1", "alpha:ratio"]
    assert round(report["stats"][0]["value"], 3) == 0.815
    assert round(report["stats"][2]["value"], 3) == 0.797
    assert report["raters"] == 4 and report["items"] == 12 and report["stats"][0]["pairable_items"] == 11
    code, out, err = run_cli("agreement", "--ratings", str(path), "--bootstrap", "0")
    assert code == 0 and "alpha:interval" in out and "0.849" in out


def test_cli_ratings_errors_name_the_line(tmp_path, run_cli):
    dup = write(tmp_path, "rater,item,value\na,x,1\nb,x,2\na,x,3\n")
    code, _, err = run_cli("agreement", "--ratings", str(dup))
    assert code != 0 and f"{dup}:4" in err and "line 2" in err
    cols = write(tmp_path, "coder,item,value\na,x,1\n", "cols.csv")
    code, _, err = run_cli("agreement", "--ratings", str(cols))
    assert code != 0 and "rater" in err and "cols.csv:1" in err
    code, _, err = run_cli("agreement", "--ratings", str(dup), "--stat", "kappa")
    assert code != 0 and "alpha:nominal" in err
