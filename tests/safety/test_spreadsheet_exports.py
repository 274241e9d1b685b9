"""Spreadsheet-safe CSV/TSV exports; the project's own readers undo the guard exactly."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtworkbench.cli import main
from mtworkbench.core.model import Judgment
from mtworkbench.core.spreadsheet import is_number, neutralise, restore, table_text
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
from mtworkbench.io.corpora.corpus import export_corpus, import_corpus
from mtworkbench.io.judgments.judgments import read_judgment_rows
from mtworkbench.io.judgments.judgments_export import judgments_table, ordered_judgments

from .helpers import project

FORMULAS = ['=HYPERLINK("http://x","y")', "+1+1", "-2+3", "@SUM(A1)", "\tstart", "\rstart", "=1"]


def evaluates(cell: str) -> bool:
    """Would a spreadsheet treat the cell as a formula?"""
    return cell.startswith(("=", "+", "-", "@", "\t", "\r")) and not is_number(cell)


@pytest.mark.parametrize("cell", FORMULAS)
def test_formula_cells_get_a_leading_quote(cell):
    assert neutralise(cell) == "'" + cell
    assert not evaluates(neutralise(cell))
    assert restore(neutralise(cell)) == cell


@pytest.mark.parametrize("cell", ["-1.5", "+3", "1e-4", "-0", "42", ".5", "plain", "", "a=b"])
def test_numbers_and_plain_text_stay(cell):
    assert neutralise(cell) == cell


def test_a_leading_quote_is_doubled():
    assert neutralise("'tis") == "''tis"
    assert restore("''tis") == "'tis"


@given(st.text())
def test_neutralise_round_trips_and_never_evaluates(cell):
    out = neutralise(cell)
    assert restore(out) == cell
    assert not evaluates(out)


judge_names = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\r\n"), min_size=1).filter(
    lambda s: s.strip() == s)
comments = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(judge=judge_names, comment=comments, delimiter=st.sampled_from([",", "\t"]))
def test_judgments_export_import_is_exact(tmp_path, judge, comment, delimiter):
    p = project()
    p.add_judge(judge)
    p.add_judgment(Judgment("jx", judge, "sys1", "s2", "r1", adequacy=2, comment=comment, score=-0.5, scale="-z"))
    text = judgments_table(ordered_judgments(p), delimiter)
    for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
        assert not any(evaluates(c) for c in row), row
    path = tmp_path / ("j.tsv" if delimiter == "\t" else "j.csv")
    path.write_text(text, encoding="utf-8", newline="")
    rows = {r.judge: r for r in read_judgment_rows(path)}
    assert rows[judge].comment == comment and rows[judge].scale == "-z" and rows[judge].score == -0.5


tsv_texts = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\t\r\n"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(tsv_texts, min_size=3, max_size=3))
def test_corpus_tsv_export_import_is_exact(tmp_path, texts):
    p = project()
    for sid, text in zip(["s1", "s2", "s3"], texts):
        p.system("sys0").texts[sid] = text
    out = tmp_path / "c.tsv"
    export_corpus(p, "tsv", out)
    for line in out.read_text(encoding="utf-8").split("\n")[1:]:
        assert not any(evaluates(c) for c in line.split("\t")), line
    back = import_corpus("tsv", source=out)
    assert [back.system("sys0").texts[s] for s in ("s1", "s2", "s3")] == texts


def test_cli_exports_are_guarded_and_raw_is_not(tmp_path, capsys):
    p = project()
    p.add_judge("=cmd")
    p.add_judgment(Judgment("jf", "=cmd", "sys1", "s1", "r1", adequacy=3, comment="@SUM(A1)"))
    p.system("sys0").texts["s1"] = '=HYPERLINK("http://x","y")'
    bundle = tmp_path / "b.mtwb.json"
    save_bundle(p, bundle)
    capsys.readouterr()
    assert main(["judgments", "export", str(bundle), "-o", "-"]) == 0
    guarded = capsys.readouterr().out
    assert "'=cmd" in guarded and "'@SUM(A1)" in guarded
    assert main(["judgments", "export", str(bundle), "-o", "-", "--raw"]) == 0
    raw = capsys.readouterr().out
    assert "\n=cmd," in raw and ",@SUM(A1)" in raw
    out = tmp_path / "j.tsv"
    assert main(["judgments", "export", str(bundle), "-o", str(out)]) == 0
    assert "\t'=cmd" not in out.read_text() and "'=cmd\t" in out.read_text()
    # Round trip through the CLI: the guarded export imports back exactly.
    fresh = project()
    fresh_path = tmp_path / "fresh.mtwb.json"
    save_bundle(fresh, fresh_path)
    assert main(["judgments", "import", str(fresh_path), str(out)]) == 0
    assert {j.comment for j in load_bundle(fresh_path).judgments if j.judge == "=cmd"} == {"@SUM(A1)"}
    tsv = tmp_path / "c.tsv"
    assert main(["export", str(bundle), "--format", "tsv", "-o", str(tsv)]) == 0
    assert "'=HYPERLINK" in tsv.read_text()
    assert main(["export", str(bundle), "--format", "tsv", "-o", str(tsv), "--raw"]) == 0
    assert "\t=HYPERLINK" in tsv.read_text()


def test_table_text_for_the_gui():
    text = table_text([["system", "score"], ["=evil", 0.5], ["-3", -3]], delimiter="\t")
    assert text == "system\tscore\n'=evil\t0.5\n-3\t-3\n"
    assert table_text([["=evil"]], raw=True) == "=evil\n"


def test_reliability_csv_labels_are_guarded():
    from mtworkbench.analysis.reliability import ReliabilityCurve, ReliabilityResult

    result = ReliabilityResult("=judge", "systems", 2, 1, ["A"], [ReliabilityCurve("=HYPERLINK(1)", [2], [-0.5])])
    assert result.to_csv() == "label,n,mean_spearman\n'=HYPERLINK(1),2,-0.5\n"
    assert result.to_csv(raw=True).splitlines()[1] == "=HYPERLINK(1),2,-0.5"
