"""Unbabel's variant of the MQM TSV (WMT22 en-ru) and Google's 2022 conventions, on rows
written here (none copied from the releases): a JSON ``misc`` column giving each rater's
``mqm`` score, csv quoting with tabs and line breaks inside fields, a last column the
header does not name; lower-case severities, ``Non-translation!``, ``.en`` system names
and the 2022 averages table."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from mtworkbench.analysis.human_scores import HumanSpec, collect_human_scores
from mtworkbench.analysis.mqm_weights import parse_weights
from mtworkbench.cli import main
from mtworkbench.core.errors import DataError
from mtworkbench.core.mqm_typology import UNBABEL_SCALE
from mtworkbench.io.bundle.bundle import dumps, load_bundle, loads
from mtworkbench.io.judgments.mqm import import_mqm, read_mqm_file
from mtworkbench.io.judgments.mqm_export import mqm_table

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "tools" / "check_mqm_reproduction.py"
GOOGLE = ["system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category", "severity"]


def misc(score, **more) -> str:
    return json.dumps({"mqm": score, **more}, ensure_ascii=False)


# Unbabel's layout: Google's columns and misc; texts in quotes, with a tab and a line break;
# doc_id counted from 0; severities in lower case, critical among them.
UNBABEL_ROWS = [
    ["sysA", "t1_a", "0", "1", "r1", 'She said "yes".', "Она <v>сказала</v> «да».", "mistranslation", "minor",
     misc(-1.0, annotator=3)],
    ["sysA", "t1_a", "0", "1", "r1", 'She said "yes".', "Она сказала «да<v>».</v>", "punctuation", "major",
     misc(-6.0)],
    ["sysA", "t1_a", "0", "1", "r2", 'She said "yes".', "Она сказала «да».", "No-error", "No-error", misc(0)],
    ["sysA", "t1_a", "1", "2", "r1", "Two\tcolumns.", "Две\tколонки<v>!</v>", "punctuation", "minor",
     misc(-0.5)],
    ["sysB", "t1_a", "0", "1", "r2", 'She said "yes".', "<v>Он</v> сказал «да».", "agreement", "critical",
     misc(-10)],
    ["sysB", "t1_a", "1", "2", "r2", "Two\tcolumns.", '"Две"\nколонки.', "No-error", "No-error", misc(0)],
]


def csv_text(rows: list[list[str]]) -> str:
    out = io.StringIO(newline="")
    csv.writer(out, delimiter="\t", lineterminator="\n").writerows(rows)
    return out.getvalue()


def write_unbabel(tmp_path: Path, rows=UNBABEL_ROWS, header=(*GOOGLE, "misc")) -> Path:
    path = tmp_path / "unbabel.tsv"
    path.write_text(csv_text([list(header), *rows]), encoding="utf-8")
    return path


def scores(project, **kwargs) -> dict[tuple[str, str], float]:
    human = collect_human_scores(project, HumanSpec("mqm", "score"), protocol="mqm", **kwargs)
    m, c = human.matrix, human.counts
    return {(s, g): float(m[i, k]) for i, s in enumerate(human.systems)
            for k, g in enumerate(human.segments) if c[i, k]}


def test_unbabel_scores_are_the_means_of_each_raters_misc_values(tmp_path):
    """mt-metrics-eval's converter: a rater's score is the MEAN of the mqm values of their
    rows of the item (r1's two rows of sysA/1, even though they show the text differently),
    the item's the mean over raters, not negated."""
    project = import_mqm(write_unbabel(tmp_path))
    assert project.segment_ids == ["1", "2"]
    assert project.segment("2").source == "Two\tcolumns."  # the tab inside quotes is text
    assert project.system_text("sysB", "2") == '"Две"\nколонки.'
    got = scores(project)
    assert got[("sysA", "1")] == pytest.approx(((-1.0 - 6.0) / 2 + 0.0) / 2)
    assert got[("sysA", "2")] == pytest.approx(-0.5)
    assert got[("sysB", "1")] == pytest.approx(-10.0)
    assert got[("sysB", "2")] == 0.0
    judgments = [j for j in project.judgments if (j.judge, j.system, j.segment) == ("r1", "sysA", "1")]
    assert {j.scale for j in judgments} == {UNBABEL_SCALE} and {j.score for j in judgments} == {-3.5}
    assert [e.severity for j in judgments for e in j.errors] == ["minor", "major"]


def test_recompute_weighs_the_errors_instead(tmp_path):
    """The flag weighs the errors like Google's ratings (sums, negated); critical has no
    weight unless given, as in the converter's --recompute_unbabel."""
    project = import_mqm(write_unbabel(tmp_path))
    got = scores(project, mqm_recompute=True)
    assert got[("sysA", "1")] == pytest.approx(-(1 + 5 + 0) / 2)  # r1: minor 1 + major punctuation 5
    assert got[("sysB", "1")] == 0.0
    got = scores(project, mqm_recompute=True, mqm_weights=parse_weights("critical=10"))
    assert got[("sysB", "1")] == -10.0


def test_cli_scores_and_recompute(tmp_path, capsys):
    bundle = tmp_path / "u.mtwb.json"
    assert main(["import", "--format", "mqm", "--source", str(write_unbabel(tmp_path)), "-o", str(bundle)]) == 0
    capsys.readouterr()
    assert main(["human-scores", str(bundle), "--protocol", "mqm", "--json"]) == 0
    out = capsys.readouterr()
    default = {(r["system"], r["segment"]): r["score"] for r in json.loads(out.out)["scores"]}
    assert default[("sysA", "1")] == pytest.approx(-1.75)
    assert "critical" not in out.err  # no weights are used: nothing to say about them
    assert main(["human-scores", str(bundle), "--protocol", "mqm", "--json", "--recompute",
                 "--weights", "critical=10"]) == 0
    redone = {(r["system"], r["segment"]): r["score"] for r in json.loads(capsys.readouterr().out)["scores"]}
    assert redone[("sysA", "1")] == pytest.approx(-3.0) and redone[("sysB", "1")] == -10.0
    assert main(["human-scores", str(bundle), "--protocol", "mqm", "--weights", "critical=10"]) == 0
    assert "--recompute" in capsys.readouterr().err  # the weights alone would change nothing
    assert main(["human-scores", str(bundle), "--protocol", "da", "--recompute"]) == 2


def test_unbabel_file_exports_the_same_rows_quoted_the_same_way(tmp_path):
    path = write_unbabel(tmp_path)
    project = loads(dumps(import_mqm(path)))
    assert mqm_table(project) == path.read_text(encoding="utf-8")
    bundle = tmp_path / "u.mtwb.json"
    assert main(["import", "--format", "mqm", "--source", str(path), "-o", str(bundle)]) == 0
    back = tmp_path / "back.tsv"
    assert main(["judgments", "export", str(bundle), "--format", "mqm", "-o", str(back)]) == 0
    assert back.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


def test_ratings_added_to_a_project_keep_unbabel_scores(tmp_path):
    path = write_unbabel(tmp_path)
    bundle = tmp_path / "u.mtwb.json"
    assert main(["import", "--format", "mqm", "--source", str(path), "-o", str(bundle)]) == 0
    once = scores(load_bundle(bundle))
    assert main(["judgments", "import", str(bundle), "--format", "mqm", str(path)]) == 0
    project = load_bundle(bundle)
    # The same ratings again add nothing (r1's rows of sysA/1 show two texts: two judgments).
    assert len(project.judgments) == 6 - 1
    assert scores(project) == once


def test_a_last_column_the_header_does_not_name(tmp_path):
    """Google's header over rows with one field more (Unbabel's misc, unquoted here): the
    column is read as misc and written back without a name, the header as it was."""
    rows = ["sysA\td\t0\t1\tr1\tRain.\t<v>Дождь</v>.\tmistranslation\tmajor\t{\"mqm\": -5}",
            "sysA\td\t0\t1\tr2\tRain.\tДождь.\tNo-error\tNo-error\t{\"mqm\": -1}",
            "sysA\td\t1\t2\tr1\t\"Quoted\" sun.\t\"Солнце\".\tNo-error\tNo-error\t{\"mqm\": 0}"]
    path = tmp_path / "unnamed.tsv"
    text = "\n".join(["\t".join(GOOGLE), *rows]) + "\n"
    path.write_text(text, encoding="utf-8")
    mqm = read_mqm_file(path)
    assert mqm.misc_scores and not mqm.quoted  # raw text with stray quotes stays raw
    project = loads(dumps(import_mqm(path)))
    assert project.segment("2").source == '"Quoted" sun.'
    assert scores(project)[("sysA", "1")] == pytest.approx(-3.0)
    assert mqm_table(project) == text


def test_misc_beside_a_comment_column_keeps_the_comment_and_the_scores(tmp_path):
    """With both columns the comment is kept as the note; the misc scores still score, and
    the export writes each rating's score as its misc (the only misc text it can give)."""
    rows = [["sysA", "d", "1", "1", "r1", "Rain.", "<v>Regen</v>.", "mistranslation", "major", "too literal",
             misc(-4.0)],
            ["sysA", "d", "1", "1", "r1", "Rain.", "Regen<v>.</v>", "punctuation", "minor", "", misc(-4.0)]]
    for header in ([*GOOGLE, "comment", "misc"], [*GOOGLE, "comment"]):
        path = write_unbabel(tmp_path, rows, header)
        project = import_mqm(path)
        assert scores(project)[("sysA", "1")] == -4.0
        assert [e.comment for j in project.judgments for e in j.errors] == ["too literal", ""]
        table = mqm_table(project)
        assert table.split("\n")[0] == "\t".join(header)
        assert [r[-1] for r in csv.reader(io.StringIO(table), delimiter="\t")][1:] == [misc(-4.0)] * 2


def test_a_row_without_a_misc_score_is_named(tmp_path, capsys):
    rows = [*UNBABEL_ROWS[:2], [*UNBABEL_ROWS[2][:9], '{"note": "no score"}']]
    path = write_unbabel(tmp_path, rows)
    with pytest.raises(DataError, match=r'unbabel.tsv:4, column \'misc\': expected a JSON object with a number "mqm"'):
        read_mqm_file(path)
    assert main(["import", "--format", "mqm", "--source", str(path), "-o", str(tmp_path / "x.mtwb.json")]) == 1
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_json_in_other_columns_does_not_make_a_file_unbabels(tmp_path):
    """Only misc (or an unnamed last column) gives scores: a comment or Anthea's metadata
    holding {"mqm": ...} leaves the errors weighed as Google's."""
    header = [*GOOGLE, "comment", "metadata"]
    rows = [["sysA", "d", "1", "1", "r1", "Rain.", "<v>Regen</v>.", "Accuracy/Mistranslation", "Major",
             '{"mqm": 7}', '{"mqm": 9}']]
    path = tmp_path / "g.tsv"
    path.write_text("\n".join("\t".join(r) for r in [header, *rows]) + "\n", encoding="utf-8")
    project = import_mqm(path)
    assert not read_mqm_file(path).misc_scores
    assert scores(project)[("sysA", "1")] == -5.0
    assert all(j.score is None for j in project.judgments)


def test_google_quote_starting_texts_stay_raw_beside_a_misc_column(tmp_path):
    """A raw text starting with a quote (no csv quoting) and a misc field still in csv
    quotes: the file stays raw, the misc score is read through its quotes, and the export
    writes every field as it was."""
    rows = ['sysA\td\t1\t1\tr1\t"Hi," he said.\t"Привет", <v>сказал</v> он.\tmistranslation\tminor\t"{""mqm"": -2}"',
            'sysA\td\t1\t1\tr2\t"Hi," he said.\t"Привет", сказал он.\tNo-error\tNo-error\t"{""mqm"": 0}"']
    path = tmp_path / "mixed.tsv"
    text = "\n".join(["\t".join([*GOOGLE, "misc"]), *rows]) + "\n"
    path.write_text(text, encoding="utf-8")
    mqm = read_mqm_file(path)
    assert not mqm.quoted and mqm.misc_scores
    project = import_mqm(path)
    assert project.segment("1").source == '"Hi," he said.'
    assert scores(project)[("sysA", "1")] == -1.0
    assert mqm_table(project) == text


# --- Google's 2022 releases and the checker ----------------------------------------------------
G2022 = [
    "Lan-Bridge.en\tnews_a.1:Chinese-English\t1\t13\trater3\t下雨。\tIt <v>rains</v>.\tAccuracy/Mistranslation\tmajor",
    "Lan-Bridge.en\tnews_a.1:Chinese-English\t1\t13\trater3\t下雨。\tIt rains<v>.</v>\tFluency/Punctuation\tminor",
    "Lan-Bridge.en\tnews_a.1:Chinese-English\t2\t14\trater3\t好。\tGood.\tNo-error\tNo-error",
    "refB.en\tnews_a.1:Chinese-English\t1\t13\trater1\t下雨。\t<v>Regen.</v>\tNon-translation!\tmajor",
    "refB.en\tnews_a.1:Chinese-English\t1\t13\trater1\t下雨。\tRegen.\tFound\tHOTW-test",
    "refB.en\tnews_a.1:Chinese-English\t2\t14\trater1\t好。\t\"Good\".\tSource error\tminor",
]


def run_checker(*args: str) -> tuple[int, dict]:
    done = subprocess.run([sys.executable, str(CHECKER), *args], capture_output=True, text=True)
    return done.returncode, json.loads(done.stdout)


def test_google_2022_conventions_and_their_averages_table(tmp_path):
    """Lower-case severities, Non-translation!, a HOTW-test row, systems named X.en in the
    raw file and X in the averages, whose 2022 table (sys hyp domain doc source ref score
    seg_id) may hold a tab in hyp: the checker pairs the names and reads the table."""
    raw = tmp_path / "mqm_generalMT2022_zhen.tsv"
    raw.write_text("\n".join(["\t".join(GOOGLE), *G2022]) + "\n", encoding="utf-8")
    project = import_mqm(raw)
    got = scores(project)
    assert got == {("Lan-Bridge.en", "13"): pytest.approx(-5.1), ("Lan-Bridge.en", "14"): 0.0,
                   ("refB.en", "13"): -25.0, ("refB.en", "14"): -1.0}
    assert mqm_table(project) == raw.read_text(encoding="utf-8")
    avg = tmp_path / "mqm_generalMT2022_zhen.avg_seg_scores.tsv"
    avg.write_text("sys\thyp\tdomain\tdoc\tsource\tref\tscore\tseg_id\n"
                   "Lan-Bridge\tIt rains.\tnews\ta.1\t下雨。\tRain.\t-5.1\t13\n"
                   "Lan-Bridge\tGood.\tnews\ta.1\t好。\tFine.\t0.0\t14\n"
                   "Lan-Bridge\tUnrated\there.\tnews\ta.1\t再见。\tBye.\tNone\t15\n"
                   "refB\tRegen.\tnews\ta.1\t下雨。\tRain.\t-25.0\t13\n"
                   "refB\t\"Good\".\tnews\ta.1\t好。\tFine.\t-1.0\t14\n", encoding="utf-8")
    code, report = run_checker(str(raw), "--workdir", str(tmp_path / "w"))
    assert code == 0, report
    assert report["matches"] == 4 and report["published"] == 4
    assert report["renamed"] == {"Lan-Bridge": "Lan-Bridge.en", "refB": "refB.en"}
    assert report["recomputed_matches"] == 4 and report["roundtrip_missing"] == report["roundtrip_extra"] == 0


def test_checker_reproduces_unbabel_files_both_ways(tmp_path):
    path = write_unbabel(tmp_path)
    code, report = run_checker(str(path), "--workdir", str(tmp_path / "w1"))
    assert code == 0, report
    assert report["recomputed_matches"] == 4 and report["roundtrip_missing"] == report["roundtrip_extra"] == 0
    code, report = run_checker(str(path), "--recompute", "--workdir", str(tmp_path / "w2"))
    assert code == 0, report
    assert report["recomputed_matches"] == 4
    # An average published as Unbabel's score is met only without --recompute.
    avg = tmp_path / "avg.tsv"
    avg.write_text("system\tmqm_avg_score\tseg_id\nsysA\t-1.75\t1\nsysA\t-0.5\t2\nsysB\t-10.0\t1\nsysB\t0.0\t2\n",
                   encoding="utf-8")
    code, report = run_checker(str(path), "--avg", str(avg), "--workdir", str(tmp_path / "w3"))
    assert code == 0 and report["matches"] == 4
    code, report = run_checker(str(path), "--avg", str(avg), "--recompute", "--workdir", str(tmp_path / "w4"))
    assert code == 1 and report["mismatch_classes"] == {"different value": 3}


def test_checker_pairs_names_the_raw_file_prefixes():
    """newstest2021's raw files are reported to name systems hyp.X and ref.A where the
    averages say X and ref-A."""
    sys.path.insert(0, str(CHECKER.parent))
    try:
        from check_mqm_reproduction import _rename_map
    finally:
        sys.path.pop(0)
    got = _rename_map({"hyp.Facebook-AI", "ref.A", "Lan-Bridge.en"}, {"Facebook-AI", "ref-A", "Lan-Bridge"}, {})
    assert got == {"Facebook-AI": "hyp.Facebook-AI", "ref-A": "ref.A", "Lan-Bridge": "Lan-Bridge.en"}


def test_every_field_in_quotes_round_trips_as_written(tmp_path):
    """A file written with every field quoted (csv's QUOTE_ALL, the header too) is read
    as csv and written back the same way."""
    out = io.StringIO(newline="")
    csv.writer(out, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_ALL).writerows(
        [[*GOOGLE, "misc"], *[r for r in UNBABEL_ROWS if "\t" not in r[5]]])
    path = tmp_path / "all.tsv"
    path.write_text(out.getvalue(), encoding="utf-8")
    project = import_mqm(path)
    assert read_mqm_file(path).quote_all
    assert scores(project)[("sysA", "1")] == pytest.approx(-1.75)
    assert mqm_table(project) == out.getvalue()
