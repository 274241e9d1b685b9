"""Alpha and AC1/AC2 over all the judges of a protocol, against the krippendorff package."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from mtworkbench.analysis.judge_reliability import judge_reliability
from mtworkbench.analysis.multi_rater import agreement_stat, ratings_table
from mtworkbench.core.model import Judgment

krippendorff = pytest.importorskip("krippendorff")

# Three judges, five items, one judge missing one item; adequacy and fluency 1-5.
LDC = {
    "ann": {("A", "s1"): (5, 4), ("A", "s2"): (3, 3), ("B", "s1"): (2, 2), ("B", "s2"): (4, 5), ("C", "s1"): (1, 1)},
    "李雷": {("A", "s1"): (4, 4), ("A", "s2"): (3, 2), ("B", "s1"): (2, 3), ("B", "s2"): (5, 5)},
    "Юля": {("A", "s1"): (5, 5), ("A", "s2"): (2, 3), ("B", "s1"): (1, 2), ("B", "s2"): (4, 4), ("C", "s1"): (2, 1)},
}
ITEMS = [("A", "s1"), ("A", "s2"), ("B", "s1"), ("B", "s2"), ("C", "s1")]


def ldc_judgments() -> list[Judgment]:
    out = []
    for judge, items in LDC.items():
        for (system, seg), (a, f) in items.items():
            out.append(Judgment(f"{judge}{system}{seg}", judge, system, seg, adequacy=a, fluency=f))
    # a repeat with another rating: only the first counts
    out.append(Judgment("rep", "ann", "A", "s1", adequacy=1, fluency=1))
    return out


def matrix(index: int) -> np.ndarray:
    return np.array([[items[it][index] if it in items else np.nan for it in ITEMS] for items in LDC.values()],
                    dtype=float)


@pytest.mark.parametrize("quantity, index", [("adequacy", 0), ("fluency", 1)])
def test_ldc_alpha_equals_the_package(quantity, index):
    result = {(r.protocol, r.quantity): r for r in judge_reliability(ldc_judgments(), bootstrap=0)}
    rel = result[("ldc", quantity)]
    assert set(rel.judges) == set(LDC)
    for level in ("ordinal", "interval"):
        expected = krippendorff.alpha(reliability_data=matrix(index), level_of_measurement=level)
        assert rel.stat(f"alpha:{level}").value == pytest.approx(expected, abs=1e-12)
    assert rel.stat("ac1") is not None and rel.stat("ac2:quadratic") is not None
    assert rel.stat("alpha:ordinal").n_items == 5


def test_scores_interval_alpha_per_protocol_and_scales_kept_apart():
    rng = np.random.default_rng(7)
    judgments = []
    data = np.full((4, 12), np.nan)
    for r in range(4):
        for i in range(12):
            if (r + i) % 5 == 0:
                continue  # missing
            value = float(np.round(rng.uniform(0, 100), 1))
            data[r, i] = value
            judgments.append(Judgment(f"d{r}{i}", f"rater{r}", "sys", f"s{i}", score=value, scale="da",
                                      protocol="da"))
    # ESA by two judges on different scales: no coefficient, a note instead
    judgments.append(Judgment("e1", "x", "sys", "s1", score=50.0, scale="esa", protocol="esa"))
    judgments.append(Judgment("e2", "y", "sys", "s1", score=0.3, scale="esa-z", protocol="esa"))
    result = {r.protocol: r for r in judge_reliability(judgments, bootstrap=200)}
    da = result["da"]
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="interval")
    alpha = da.stat("alpha:interval")
    assert alpha.value == pytest.approx(expected, abs=1e-12)
    assert alpha.low is not None and alpha.low <= alpha.high
    assert da.stat("ac1") is None  # not meaningful on a 0-100 slider
    assert result["esa"].stats == () and "different scales" in result["esa"].notes[0]


def test_mqm_segment_scores_from_weighted_errors():
    from mtworkbench.core.model import ErrorSpan

    def mqm(jid, judge, seg, severities):
        errors = [ErrorSpan(category="Accuracy/Mistranslation", severity=s, start=0, end=1) for s in severities]
        return Judgment(jid, judge, "sys", seg, protocol="mqm", errors=errors)

    judgments = [mqm("1", "a", "s1", ["major"]), mqm("2", "b", "s1", ["major", "minor"]),
                 mqm("3", "a", "s2", []), mqm("4", "b", "s2", []), mqm("5", "c", "s2", ["minor"]),
                 mqm("6", "a", "s3", ["minor"]), mqm("7", "c", "s3", ["major"])]
    rel = {r.protocol: r for r in judge_reliability(judgments, bootstrap=0)}["mqm"]
    # Google's weights: major 5, minor 1; scores are minus the weighted errors
    data = np.array([[-5, 0, -1], [-6, 0, np.nan], [np.nan, -1, -5]], dtype=float)
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="interval")
    assert rel.stat("alpha:interval").value == pytest.approx(expected, abs=1e-12)


def test_ac2_equals_the_ratings_table_route():
    rows = [(j, f"{s}\t{g}", float(v[0])) for j, items in LDC.items() for (s, g), v in items.items()]
    direct = agreement_stat(ratings_table(rows), "ac2:quadratic", bootstrap=0).value
    rel = {(r.protocol, r.quantity): r for r in judge_reliability(ldc_judgments(), bootstrap=0)}
    assert rel[("ldc", "adequacy")].stat("ac2:quadratic").value == pytest.approx(direct)
    assert not math.isnan(direct)


def test_cli_bundle_reports_all_judges(tmp_path, capsys):
    from mtworkbench.cli import main

    path = tmp_path / "j.csv"
    lines = ["judge,system,segment,reference,adequacy,fluency,seconds,comment"]
    lines += [f"{j.judge},{j.system},{j.segment},r,{j.adequacy},{j.fluency},1," for j in ldc_judgments()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["agreement", "--judgments", str(path), "--bootstrap", "100"]) == 0
    text = capsys.readouterr().out
    assert "All judges at once" in text and "alpha:ordinal" in text
    assert main(["agreement", "--judgments", str(path), "--bootstrap", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    adequacy = next(r for r in out["all_judges"] if r["quantity"] == "adequacy")
    alpha = next(s for s in adequacy["stats"] if s["stat"] == "alpha:interval")
    expected = krippendorff.alpha(reliability_data=matrix(0), level_of_measurement="interval")
    assert alpha["value"] == pytest.approx(expected, abs=1e-9)
