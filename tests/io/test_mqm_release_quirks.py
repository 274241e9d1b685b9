"""Quirks of Google's later MQM releases (rows written here, none copied from the data):
the 2023 side-by-side header note, quality-control rows beside "No-error", scripts other
than Latin, empty targets, markers in odd places; and the reproduction checker in tools/."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from mtworkbench.analysis.human_scores import HumanSpec, collect_human_scores
from mtworkbench.analysis.mqm_weights import GOOGLE_WEIGHTS, is_not_an_error, parse_weights
from mtworkbench.cli import main
from mtworkbench.io.bundle.bundle import dumps, loads
from mtworkbench.io.judgments.mqm import import_mqm
from mtworkbench.io.judgments.mqm_export import mqm_table

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "tools" / "check_mqm_reproduction.py"
HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"


def write(tmp_path: Path, name: str, header: str, rows: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


def body(text: str) -> Counter:
    return Counter(line for line in text.split("\n")[1:] if line)


def scores(project, weights=GOOGLE_WEIGHTS) -> dict[tuple[str, str], float]:
    human = collect_human_scores(project, HumanSpec("mqm", "score"), protocol="mqm", mqm_weights=weights)
    m, c = human.matrix, human.counts
    return {(s, g): float(m[i, k]) for i, s in enumerate(human.systems)
            for k, g in enumerate(human.segments) if c[i, k]}


SIDE_BY_SIDE_HEADER = ("system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata"
                       "\t# Documentation: see the viewer's page")
SIDE_BY_SIDE_ROWS = [
    'sysA\tnews.1:xx-yy\t1\t1\trater1\tRain today.\tHeute <v>Regen</v>.\tAccuracy/Mistranslation\tMajor\t{"t":1}',
    'sysA\tnews.1:xx-yy\t1\t1\trater2\tRain today.\tHeute Regen.\tMissed\tHOTW-test\t{"t":2}',
    'sysA\tnews.1:xx-yy\t1\t1\trater2\tRain today.\tHeute Regen.\tNo-error\tNo-error\t{"t":3}',
    'sysB\tnews.1:xx-yy\t1\t1\trater2\tRain today.\tRegen heute<v>.</v>\tFluency/Punctuation\tMinor\t{}',
    'sysB\tnews.1:xx-yy\t1\t1\trater2\tRain today.\tRegen heute.\tFound\tHOTW-test\t{}',
    'sysB\tnews.1:xx-yy\t2\t2\trater1\tSun tomorrow.\tMorgen Sonne.\tNo-error\tNo-error\t{}',
]


def test_side_by_side_header_note_is_no_column(tmp_path):
    """The 2023 side-by-side files end the header with a '# Documentation' note that no
    row has a field for; the rows (one field fewer) must still read."""
    path = write(tmp_path, "sxs.tsv", SIDE_BY_SIDE_HEADER, SIDE_BY_SIDE_ROWS)
    project = import_mqm(path)
    assert project.segment_ids == ["1", "2"]
    table = mqm_table(project)
    assert table.split("\n")[0] == "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity"
    expected = Counter("\t".join(r.split("\t")[:9]) for r in SIDE_BY_SIDE_ROWS)  # metadata is not kept
    assert body(table) == expected


def test_no_error_beside_a_quality_control_row_survives_and_weighs_nothing(tmp_path):
    """A rater's "No-error" row beside a HOTW-test row of the same item was dropped on
    export; it stays, and neither row counts as an error."""
    path = write(tmp_path, "sxs.tsv", SIDE_BY_SIDE_HEADER, SIDE_BY_SIDE_ROWS)
    project = loads(dumps(import_mqm(path)))
    assert body(mqm_table(project))["sysA\tnews.1:xx-yy\t1\t1\trater2\tRain today.\tHeute Regen.\tNo-error\tNo-error"] == 1
    got = scores(project)
    assert got[("sysA", "1")] == pytest.approx(-2.5)  # rater1 -5, rater2 0
    assert got[("sysB", "1")] == pytest.approx(-0.1)  # the HOTW row adds nothing
    errors = [e for j in project.judgments for e in j.errors]
    assert GOOGLE_WEIGHTS.unweighted_severities(errors) == []
    assert sorted(e.severity for e in errors if is_not_an_error(e)) == ["HOTW-test", "HOTW-test", "No-error"]


def test_cli_says_nothing_about_weights_for_quality_control_rows(tmp_path, capsys):
    path = write(tmp_path, "sxs.tsv", SIDE_BY_SIDE_HEADER, SIDE_BY_SIDE_ROWS)
    bundle = tmp_path / "s.mtwb.json"
    assert main(["import", "--format", "mqm", "--source", str(path), "-o", str(bundle)]) == 0
    capsys.readouterr()
    assert main(["human-scores", str(bundle), "--protocol", "mqm", "--json"]) == 0
    captured = capsys.readouterr()
    assert "no weight" not in captured.err
    assert {(r["system"], r["segment"]): r["score"] for r in json.loads(captured.out)["scores"]} == \
        pytest.approx({("sysA", "1"): -2.5, ("sysB", "1"): -0.1, ("sysB", "2"): 0.0})


def test_a_repeated_no_error_row_is_written_back_twice(tmp_path):
    rows = ["s\td\t1\t1\tr1\tA.\tB.\tNo-error\tNo-error", "s\td\t1\t1\tr1\tA.\tB.\tNo-error\tNo-error",
            "s\td\t2\t2\tr1\tC.\tD.\tNo-error\tNo-error"]
    path = write(tmp_path, "twice.tsv", HEADER, rows)
    project = loads(dumps(import_mqm(path)))
    assert body(mqm_table(project)) == Counter(rows)
    assert scores(project) == {("s", "1"): 0.0, ("s", "2"): 0.0}


def test_cyrillic_hebrew_critical_empty_targets_and_odd_markers(tmp_path):
    """Non-Latin scripts (right-to-left too), a Critical severity, an empty and a blank
    translation, an empty span, a span over the whole text, a source-side span."""
    rows = [
        "sysR\td1\t1\t1\tr1\tThe cat sat.\tКошка <v>сидела</v>.\tAccuracy/Mistranslation\tCritical",
        "sysR\td1\t1\t1\tr1\tThe cat sat.\tКошка сидела<v>.</v>\tFluency/Punctuation\tMinor",
        "sysR\td1\t1\t1\tr2\tThe cat sat.\tКошка сидела.\tNo-error\tNo-error",
        "sysH\td1\t1\t1\tr1\tThe cat sat.\t<v>החתול</v> ישב.\tAccuracy/Mistranslation\tMajor",
        "sysH\td1\t1\t1\tr2\tThe cat sat.\tהחתול ישב.\tNo-error\tNo-error",
        "sysR\td1\t2\t2\tr1\tA dog.\t\tNon-translation!\tMajor",
        "sysH\td1\t2\t2\tr1\tA dog.\t  \tNo-error\tNo-error",
        "sysH\td1\t2\t2\tr2\tA dog.\t<v>  </v>\tAccuracy/Omission\tMajor",
        "sysR\td2\t1\t3\tr2\t<v>Bird</v> flies.\tПтица летит.\tSource error\tMinor",
        "sysR\td2\t1\t3\tr2\tBird flies.\t<v></v>Птица летит.\tAccuracy/Omission\tMinor",
        "sysH\td2\t1\t3\tr1\tBird flies.\t<v>ציפור עפה.</v>\tStyle/Awkward\tNeutral",
    ]
    path = write(tmp_path, "scripts.tsv", HEADER, rows)
    project = loads(dumps(import_mqm(path)))
    assert project.system_text("sysH", "2") == "  "
    assert project.system_text("sysR", "2") == ""
    assert body(mqm_table(project)) == Counter(rows)
    assert scores(project)[("sysR", "1")] == pytest.approx(-0.05)  # Critical weighs 0 unless given
    with_critical = scores(project, parse_weights("critical=10"))
    assert with_critical[("sysR", "1")] == pytest.approx(-5.05)
    assert with_critical[("sysR", "2")] == -25.0
    assert with_critical[("sysH", "2")] == pytest.approx(-2.5)
    assert with_critical[("sysR", "3")] == -2.0


def run_checker(*args: str) -> tuple[int, dict]:
    done = subprocess.run([sys.executable, str(CHECKER), *args], capture_output=True, text=True, cwd=ROOT)
    return done.returncode, json.loads(done.stdout)


def test_checker_passes_a_faithful_release_and_catches_a_wrong_average(tmp_path):
    path = write(tmp_path, "sxs.tsv", SIDE_BY_SIDE_HEADER, SIDE_BY_SIDE_ROWS)
    # Google's averages file: "system<TAB>score seg_id"; a raw "sysB" published as "sys-B".
    avg = tmp_path / "sxs.avg_seg_scores.tsv"
    avg.write_text("system mqm_avg_score seg_id\nsysA\t-2.500000 1\nsys-B\t-0.100000 1\nsys-B\t-0.000000 2\n"
                   "sysA\tNone 2\n", encoding="utf-8")
    code, report = run_checker(str(path), "--avg", str(avg), "--workdir", str(tmp_path / "w"))
    assert code == 0, report
    assert (report["matches"], report["mismatches"], report["rows"]) == (3, 0, 6)
    assert report["renamed"] == {"sys-B": "sysB"}
    assert (report["recomputed_matches"], report["recomputed_mismatches"]) == (3, 0)
    assert (report["roundtrip_missing"], report["roundtrip_extra"]) == (0, 0)

    avg.write_text("system mqm_avg_score seg_id\nsysA\t-2.400000 1\nsysB -0.1 1\nsysB 0 2\n", encoding="utf-8")
    code, report = run_checker(str(path), "--avg", str(avg), "--workdir", str(tmp_path / "w2"))
    assert code == 1
    assert report["mismatch_classes"] == {"different value": 1}


def test_category_path_weights_win_over_the_severity_rules():
    """mt-metrics-eval writes weights as SEVERITY/CATEGORY paths; the releases differ in
    such conventions (a Minor Non-translation, a category that weighs nothing)."""
    from mtworkbench.core.model import ErrorSpan

    weights = parse_weights("critical=10,minor/non-translation!=1,*/source issue=0,"
                            "major/accuracy=4,major/accuracy/creative reinterpretation=0")
    def w(severity: str, category: str) -> float:
        return weights.weight(ErrorSpan(None, None, severity, category))

    assert w("Minor", "Non-translation!") == 1.0
    assert w("Major", "Non-translation!") == 25.0
    assert w("Major", "Source issue") == 0.0 and w("Minor", "source issue") == 0.0
    assert w("Major", "Accuracy/Mistranslation") == 4.0
    assert w("Major", "Accuracy/Creative Reinterpretation") == 0.0
    assert w("Critical", "Fluency/Grammar") == 10.0
    assert w("Minor", "Fluency/Punctuation") == 0.1
    assert weights.unweighted_severities([ErrorSpan(None, None, "Weird", "Source issue")]) == []
    assert weights.to_json()["*/source issue"] == 0.0


def test_bad_path_weight_is_a_usage_error(tmp_path, capsys):
    path = write(tmp_path, "sxs.tsv", SIDE_BY_SIDE_HEADER, SIDE_BY_SIDE_ROWS)
    bundle = tmp_path / "s.mtwb.json"
    assert main(["import", "--format", "mqm", "--source", str(path), "-o", str(bundle)]) == 0
    capsys.readouterr()
    assert main(["human-scores", str(bundle), "--protocol", "mqm", "--weights", "major//x=1"]) == 2
    assert "empty part" in capsys.readouterr().err
    assert main(["human-scores", str(bundle), "--protocol", "mqm", "--json", "--weights", "*/accuracy=0"]) == 0
    got = {(r["system"], r["segment"]): r["score"] for r in json.loads(capsys.readouterr().out)["scores"]}
    assert got[("sysA", "1")] == 0.0


def test_checker_reads_averages_given_as_a_named_table(tmp_path):
    """Averages as a tab-separated table naming sys/score/seg_id (one row per rater
    there: averaged), and penalties published with the other sign are pointed out."""
    path = write(tmp_path, "sxs.tsv", SIDE_BY_SIDE_HEADER, SIDE_BY_SIDE_ROWS)
    avg = tmp_path / "named.tsv"
    avg.write_text("sys\tdoc\tseg_id\tscore\nsysA\tn\t1\t-5\nsysA\tn\t1\t0\nsysB\tn\t1\t-0.1\nsysB\tn\t2\tNone\n",
                   encoding="utf-8")
    code, report = run_checker(str(path), "--avg", str(avg), "--workdir", str(tmp_path / "w"))
    assert code == 1  # sysB segment 2 is rated in the raw file but published as None
    assert report["matches"] == 2
    assert report["published_keys_given_more_than_once"] == 1
    assert report["mismatch_classes"] == {"we score an item published as None": 1}

    avg.write_text("sys\tseg_id\tscore\nsysA\t1\t2.5\nsysB\t1\t0.1\n", encoding="utf-8")
    code, report = run_checker(str(path), "--avg", str(avg), "--workdir", str(tmp_path / "w2"))
    assert report["mismatch_classes"]["different value"] == 2
    assert "sign flipped" in report["mismatch_examples"]["note"][0]


def test_a_header_that_does_not_describe_the_rows_is_named_as_such(tmp_path, capsys):
    """Rows of 8 fields under a header of 9 (a published source-error file lacks seg_id and
    rater in every row): one line saying so, not a guess about tabs inside a text."""
    rows = ["sysA\td1\t1\tA source.\tA <v>target</v>.\tSource error\tMinor\t",
            "sysB\td1\t2\tB source.\tB target<v>.</v>\tSource error\tMajor\t"]
    path = write(tmp_path, "short.tsv", HEADER, rows)
    assert main(["import", "--format", "mqm", "--source", str(path), "-o", str(tmp_path / "x.mtwb.json")]) == 1
    err = capsys.readouterr().err.strip()
    assert "short.tsv:1: the header names 9 columns but every row has 8" in err
    assert len(err.splitlines()) == 1


def test_a_rating_whose_rows_show_the_text_with_other_whitespace_is_summed(tmp_path):
    """A span reaching past the text's end ('... sun. </v>') makes that row show the
    translation with a trailing space: the row keeps its own text (exact export), and the
    rater's score for the item is still the sum over all their rows, as Google's scorer has it."""
    rows = [
        "sysA\td\t1\t1\tr1\tSonne.\tThe <v>sun</v>.\tAccuracy/Mistranslation\tMajor",
        "sysA\td\t1\t1\tr1\tSonne.\t<v>The sun. </v>\tStyle/Awkward\tMinor",
        "sysA\td\t1\t1\tr2\tSonne.\tThe sun.\tNo-error\tNo-error",
        # Rows showing one same text: one judgment holding both errors.
        "sysA\td\t2\t2\tr2\tMond.\tThe <v>moon</v>.\tAccuracy/Mistranslation\tMajor",
        "sysA\td\t2\t2\tr2\tMond.\tThe moon<v>.</v>\tFluency/Spelling\tMinor",
    ]
    path = write(tmp_path, "ws.tsv", HEADER, rows)
    project = loads(dumps(import_mqm(path)))
    assert body(mqm_table(project)) == Counter(rows)
    assert [j.text for j in project.judgments if j.judge == "r1"] == [None, "The sun. "]
    got = scores(project)
    assert got[("sysA", "1")] == pytest.approx(-3.0)  # r1: 5 + 1 summed; r2: 0; mean -3
    assert got[("sysA", "2")] == pytest.approx(-6.0)  # one rating with two errors


def test_ratings_showing_the_text_with_other_whitespace_import_into_the_project(tmp_path, capsys):
    """``judgments import`` checks that the rated texts are the project's; one showing
    the translation with a trailing space is still that translation."""
    rows = ["sysA\td\t1\t1\tr1\tSonne.\tThe <v>sun</v>.\tAccuracy/Mistranslation\tMajor",
            "sysA\td\t1\t1\tr1\tSonne.\t<v>The sun. </v>\tStyle/Awkward\tMinor"]
    path = write(tmp_path, "ws.tsv", HEADER, rows)
    bundle = tmp_path / "p.mtwb.json"
    assert main(["import", "--format", "mqm", "--source", str(path), "-o", str(bundle)]) == 0
    assert main(["judgments", "import", str(bundle), "--format", "mqm", str(path)]) == 0
    wrong = write(tmp_path, "wrong.tsv", HEADER, ["sysA\td\t1\t1\tr9\tSonne.\tThe moon.\tOther\tMinor"])
    capsys.readouterr()
    assert main(["judgments", "import", str(bundle), "--format", "mqm", str(wrong)]) == 1
    assert "differs from the project's" in capsys.readouterr().err
