"""Google's MQM TSV: import with its quirks, scores, and an export giving back the same rows."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mtworkbench.analysis.human_scores import HumanSpec, collect_human_scores
from mtworkbench.analysis.mqm_weights import parse_weights
from mtworkbench.cli import main
from mtworkbench.core.errors import DataError
from mtworkbench.io.bundle.bundle import dumps, load_bundle, loads
from mtworkbench.io.judgments.mqm import import_mqm, insert_markers, read_mqm_file, strip_markers
from mtworkbench.io.judgments.mqm_export import mqm_table

SMALL = Path(__file__).resolve().parents[1] / "fixtures" / "mqm-small.tsv"


def rows(text: str) -> list[str]:
    return sorted(line for line in text.split("\n") if line)


def mqm_scores(project, weights=None):
    kwargs = {} if weights is None else {"mqm_weights": weights}
    human = collect_human_scores(project, HumanSpec("mqm", "score"), protocol="mqm", **kwargs)
    m, c = human.matrix, human.counts
    return {(s, g): (float(m[i, k]), int(c[i, k])) for i, s in enumerate(human.systems)
            for k, g in enumerate(human.segments) if c[i, k]}


def test_markers_round_trip():
    assert strip_markers("a <v>bc</v> d") == ("a bc d", (2, 4))
    assert strip_markers("no markers") == ("no markers", None)
    assert strip_markers("open <v>to the end") == ("open to the end", (5, None))
    assert strip_markers("<v></v>x") == ("x", (0, 0))
    for marked in ("a <v>bc</v> d", "open <v>to the end", "closed</v> only", "<v></v>x"):
        plain, span = strip_markers(marked)
        assert insert_markers(plain, span) == marked


def test_small_file_builds_the_project():
    project = import_mqm(SMALL)
    assert project.segment_ids == ["10", "11", "12"]
    assert [d.id for d in project.documents] == ["talk.1", "talk.2"]
    assert [s.id for s in project.systems] == ["sysA", "sysB", "ref"]
    assert project.system("ref").kind == "human" and [r.id for r in project.references] == ["ref"]
    assert project.system_text("sysA", "10") == "The hound barks."  # markers removed
    assert project.system_text("sysB", "10") == '"Dog" barks'  # a text starting with a quote is not csv quoting
    assert project.segment("10").source == "Der Hund bellt."
    j = next(j for j in project.judgments if (j.judge, j.system, j.segment) == ("rater1", "sysA", "10"))
    assert [(e.start, e.end, e.severity, e.category) for e in j.errors] == [
        (4, 9, "Minor", "Terminology/Inappropriate for context"), (10, 15, "Minor", "Fluency/Punctuation")]
    omission = next(j for j in project.judgments if (j.judge, j.system, j.segment) == ("rater1", "sysB", "10"))
    assert (omission.errors[0].start, omission.errors[0].source_start, omission.errors[0].source_end) == (None, 4, 8)
    flawless = next(j for j in project.judgments if (j.judge, j.system, j.segment) == ("rater2", "sysA", "10"))
    assert flawless.protocol == "mqm" and flawless.errors == ()  # "rated, no errors"
    assert len(project.judgments) == 8


def test_minor_punctuation_discount_covers_its_subcategories():
    from mtworkbench.core.model import ErrorSpan

    w = parse_weights("")
    assert w.weight(ErrorSpan(0, 1, "minor", "fluency/PUNCTUATION")) == 0.1
    assert w.weight(ErrorSpan(0, 1, "Minor", "Fluency/Punctuation/Quotes")) == 0.1
    assert w.weight(ErrorSpan(0, 1, "Major", "Fluency/Punctuation")) == 5.0
    assert w.weight(ErrorSpan(0, 1, "Minor", "Fluency/Punctuationish")) == 1.0
    assert w.weight(ErrorSpan(None, None, "Minor", "Non-translation")) == 25.0  # SPECS: any Non-translation


def test_small_file_scores_by_hand():
    scores = mqm_scores(import_mqm(SMALL))
    assert scores[("sysA", "10")] == pytest.approx((-0.55, 2))  # (1 + 0.1) and 0, averaged
    assert scores[("sysB", "10")] == pytest.approx((-15.0, 2))  # Non-translation 25 and a Major 5
    assert scores[("sysA", "11")] == (0.0, 1)  # Neutral weighs 0
    assert scores[("sysA", "12")] == (-6.0, 1)  # lower-case "major" and an error with no span
    assert scores[("ref", "12")] == (0.0, 1)
    assert ("sysB", "12") not in scores  # nobody rated it
    custom = mqm_scores(import_mqm(SMALL), parse_weights("major=10,minor-punctuation=1,non-translation=30"))
    assert custom[("sysA", "10")] == pytest.approx((-1.0, 2))
    assert custom[("sysB", "10")] == pytest.approx((-20.0, 2))


def test_export_gives_back_the_same_rows_and_survives_the_bundle():
    original = SMALL.read_text(encoding="utf-8")
    project = import_mqm(SMALL)
    assert rows(mqm_table(project)) == rows(original)
    again = loads(dumps(project))
    assert mqm_table(again) == mqm_table(project)


def test_file_without_comment_column_exports_without_it(tmp_path):
    lines = SMALL.read_text(encoding="utf-8").split("\n")
    nine = "\n".join("\t".join(line.split("\t")[:9]) for line in lines if line) + "\n"
    path = tmp_path / "nine.tsv"
    path.write_text(nine, encoding="utf-8")
    project = loads(dumps(import_mqm(path)))
    assert rows(mqm_table(project)) == rows(nine)


def test_csv_quoted_file_is_read_and_written_quoted(tmp_path):
    text = ("system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
            's\td\t7\t609\tr1\t"He said ""no""."\t"Er sagte <v>""nein""</v>."\tFluency/Punctuation\tMinor\n'
            's\td\t9\t700\tr1\tOk.\tGut.\tNo-error\tNo-error\n')
    path = tmp_path / "quoted.tsv"
    path.write_text(text, encoding="utf-8")
    project = import_mqm(path)
    assert project.segment("609").source == 'He said "no".'
    assert project.system_text("s", "609") == 'Er sagte "nein".'
    assert project.judgments[0].errors[0].start == 9
    out = mqm_table(loads(dumps(project)))
    assert rows(out) == rows(text)  # doc_ids 7 and 9 are not positions: kept too


def test_malformed_files_name_line_and_column(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("system\tseg_id\trater\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"bad.tsv:1: header lacks column 'source'"):
        read_mqm_file(bad)
    lines = SMALL.read_text(encoding="utf-8").split("\n")
    bad.write_text("\n".join(lines[:3] + ["sysA\ttalk.1\t1\t10\trater1\tonly six"]) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"bad.tsv:4: expected 10 tab-separated fields, found 6"):
        read_mqm_file(bad)
    fields = lines[1].split("\t")
    fields[1] = "talk.9"
    bad.write_text("\n".join(lines[:2] + ["\t".join(fields)]) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"bad.tsv:3, column 'doc': segment '10' is in document 'talk.1'"):
        import_mqm(bad)
    fields = lines[1].split("\t")
    fields[8] = "Critical"
    bad.write_text("\n".join(lines[:2] + ["\t".join(fields)]) + "\n", encoding="utf-8")
    # A severity the weights do not name weighs 0, as in Google's scorer; the CLI says so.
    assert mqm_scores(import_mqm(bad))[("sysA", "10")] == (-1.0, 1)  # the Minor 1 and the Critical 0
    assert mqm_scores(import_mqm(bad), parse_weights("critical=10"))[("sysA", "10")] == (-11.0, 1)


def test_cli_import_scores_and_export(tmp_path, capsys):
    bundle = tmp_path / "m.mtwb.json"
    assert main(["import", "--format", "mqm", "--source", str(SMALL), "-o", str(bundle)]) == 0
    capsys.readouterr()
    assert main(["human-scores", str(bundle), "--protocol", "mqm", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["scores"]
    assert {"system": "sysB", "segment": "10", "score": -15.0, "raters": 2} in out
    assert len(out) == 6
    assert main(["human-scores", str(bundle), "--protocol", "mqm", "--level", "system", "--system", "sysA",
                 "--weights", "minor-punctuation=0.1", "--json"]) == 0
    system = json.loads(capsys.readouterr().out)["scores"]
    assert system == [{"system": "sysA", "score": pytest.approx((-0.55 + 0 - 6) / 3), "segments": 3, "raters": 2}]
    exported = tmp_path / "back.tsv"
    assert main(["judgments", "export", str(bundle), "--format", "mqm", "-o", str(exported)]) == 0
    assert rows(exported.read_text(encoding="utf-8")) == rows(SMALL.read_text(encoding="utf-8"))
    assert main(["human-scores", str(bundle), "--protocol", "mqm", "--weights", "major=x"]) == 2
    assert "major must be a number" in capsys.readouterr().err
    capsys.readouterr()
    text = SMALL.read_text(encoding="utf-8").replace("\tMajor\t", "\tCritical\t")
    critical = tmp_path / "critical.tsv"
    critical.write_text(text, encoding="utf-8")
    bundle2 = tmp_path / "c.mtwb.json"
    assert main(["import", "--format", "mqm", "--source", str(critical), "-o", str(bundle2)]) == 0
    capsys.readouterr()
    assert main(["human-scores", str(bundle2), "--protocol", "mqm", "--json"]) == 0
    captured = capsys.readouterr()
    assert "no weight for severity 'Critical': counted as 0 (give one with --weights critical=W)" in captured.err
    scores = {(r["system"], r["segment"]): r["score"] for r in json.loads(captured.out)["scores"]}
    assert scores[("sysB", "10")] == -12.5  # Non-translation still 25; the omission, now Critical, 0


def test_cli_judgments_import_into_an_existing_project(tmp_path, capsys):
    corpus = tmp_path / "corpus.tsv"
    corpus.write_text("id\tsource\tsys:sysA\tsys:sysB\tsys:ref\n"
                      "10\tDer Hund bellt.\tThe hound barks.\t\"Dog\" barks\t\n"
                      "11\tJa, \"gut\".\tYes, good\tYes, \"good\".\t\n"
                      "12\tNeu.\tNovel.\t\tNew.\n", encoding="utf-8")
    bundle = tmp_path / "p.mtwb.json"
    assert main(["import", "--format", "tsv", "--source", str(corpus), "-o", str(bundle)]) == 0
    assert main(["judgments", "import", str(bundle), "--format", "mqm", str(SMALL)]) == 0
    assert "imported 8 judgments" in capsys.readouterr().out
    project = load_bundle(bundle)
    assert mqm_scores(project) == mqm_scores(import_mqm(SMALL))
    wrong = tmp_path / "wrong.tsv"
    lines = SMALL.read_text(encoding="utf-8").split("\n")
    wrong.write_text("\n".join(lines[:2] + [lines[2].replace("hound <v>barks</v>", "dog <v>barks</v>")]) + "\n",
                     encoding="utf-8")
    assert main(["judgments", "import", str(bundle), "--format", "mqm", str(wrong)]) == 1
    assert "wrong.tsv:3, column 'target': the translation of segment '10' by 'sysA' differs" in capsys.readouterr().err


def test_correlate_works_on_an_mqm_project(tmp_path, capsys):
    bundle = tmp_path / "m.mtwb.json"
    # sysA translated every segment, so it can be the reference (metrics need one per segment).
    assert main(["import", "--format", "mqm", "--source", str(SMALL), "--ref", "sysA", "-o", str(bundle)]) == 0
    capsys.readouterr()
    assert main(["correlate", str(bundle), "--human", "mqm", "--metric", "chrf", "--system", "sysB",
                 "--system", "ref", "--ci", "none", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["results"][0]["n"] == 3  # sysB's segments 10 and 11, ref's 12: the rated items


def test_cli_agreement_reports_span_agreement(tmp_path, capsys):
    bundle = tmp_path / "m.mtwb.json"
    assert main(["import", "--format", "mqm", "--source", str(SMALL), "-o", str(bundle)]) == 0
    capsys.readouterr()
    assert main(["agreement", str(bundle), "--json"]) == 0
    [pair] = json.loads(capsys.readouterr().out)["spans"]
    # rater1 and rater2 both rated segment 10 of sysA and of sysB.
    assert pair["judges"] == ["rater1", "rater2"] and pair["n_items"] == 2
    assert pair["spans"] == [2, 0]  # rater1's omission is marked in the source; rater2's Non-translation has no span
    assert pair["exact_f1"] == 0.0 and pair["overlap_f1"] == 0.0
    assert pair["pearson"] == pytest.approx(1.0)  # -1.1 vs 0 and -5 vs -25: the same order
    assert main(["agreement", str(bundle)]) == 0
    assert "mqm      rater1       rater2" in capsys.readouterr().out


def test_analysis_offers_the_mqm_protocol_as_a_human_score():
    from mtworkbench.gui.analysis.human_choices import human_choices

    choices = {c.spec: c.count for c in human_choices(import_mqm(SMALL))}
    assert choices["mqm:score"] == 8
    assert choices["rater1:score"] == 4  # a rater's MQM judgments carry a score too
    by_spec = collect_human_scores(import_mqm(SMALL), "mqm:score")  # what the workspace asks for
    by_protocol = collect_human_scores(import_mqm(SMALL), HumanSpec("mqm", "score"), protocol="mqm")
    np.testing.assert_array_equal(by_spec.matrix, by_protocol.matrix)


def test_no_error_spelling_of_the_file_is_kept(tmp_path):
    text = SMALL.read_text(encoding="utf-8").replace("No-error\tNo-error", "no-error\tno-error")
    path = tmp_path / "lower.tsv"
    path.write_text(text, encoding="utf-8")
    project = loads(dumps(import_mqm(path)))
    assert sum(1 for j in project.judgments if not j.errors) == 3
    assert rows(mqm_table(project)) == rows(text)


def test_rows_without_severity_are_kept_and_weigh_nothing(tmp_path):
    lines = SMALL.read_text(encoding="utf-8").split("\n")
    fields = lines[1].split("\t")
    fields[8] = ""
    text = "\n".join(lines[:1] + ["\t".join(fields)] + lines[2:])
    path = tmp_path / "nosev.tsv"
    path.write_text(text, encoding="utf-8")
    project = loads(dumps(import_mqm(path)))
    assert mqm_scores(project)[("sysA", "10")] == pytest.approx((-0.05, 2))  # only the punctuation error's 0.1
    assert rows(mqm_table(project)) == rows(text)


def test_csv_export_leaves_span_judgments_to_the_mqm_format(tmp_path, capsys):
    bundle = tmp_path / "m.mtwb.json"
    assert main(["import", "--format", "mqm", "--source", str(SMALL), "-o", str(bundle)]) == 0
    out = tmp_path / "j.csv"
    assert main(["judgments", "export", str(bundle), "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert "8 MQM judgments with error spans are left out; export them with --format mqm" in captured.err
    assert out.read_text(encoding="utf-8").count("\n") == 1  # the header only


def test_a_row_with_another_source_version_is_refused_naming_both_lines(tmp_path):
    lines = SMALL.read_text(encoding="utf-8").split("\n")
    omission = lines[5].split("\t")  # rater1's source-side omission on sysB, segment 10
    omission[5] = "Der  <v>Hund</v> bellt."  # a second space: another version of the source
    text = "\n".join(lines[:5] + ["\t".join(omission)] + lines[6:]) + "\n"
    path = tmp_path / "versions.tsv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        import_mqm(path)
    message = str(caught.value)
    assert "versions.tsv:6, column 'source'" in message and "line 2" in message and "character 5" in message


def test_rows_with_another_target_version_are_kept(tmp_path):
    lines = SMALL.read_text(encoding="utf-8").split("\n")
    other = lines[1].split("\t")
    other[4], other[6] = "rater3", "The <v>hound</v> barks!"  # rater3 was shown another translation
    text = "\n".join(lines[:-1] + ["\t".join(other)]) + "\n"
    path = tmp_path / "versions.tsv"
    path.write_text(text, encoding="utf-8")
    project = import_mqm(path)
    shown = next(j for j in project.judgments if j.judge == "rater3")
    assert shown.text == "The hound barks!" and project.system_text("sysA", "10") == "The hound barks."
    assert rows(mqm_table(loads(dumps(project)))) == rows(text)  # every row as the rater saw it


@pytest.mark.parametrize("marked, column, where", [
    ("Ich <v>möchte</v> Sie alle <v>bitten</v>.", "target", "a second <v> (a second marked span) at character 28"),
    ("Ich möchte</v> Sie <v>bitten</v>.", "target", "<v> after </v> at character 20"),
    ("Ich <v>möchte</v> Sie bitten</v>.", "target", "a second </v> at character 29"),
    ("Jose<v>\u0301</v> fragt.", "target", "falls inside a character"),
    ("<v>我</v>想<v>请</v>", "source", "a second <v>"),
])
def test_markers_that_mark_no_one_span_are_refused_with_line_column_and_character(tmp_path, marked, column, where):
    source, target = ("Ich möchte Sie alle bitten.", marked) if column == "target" else (marked, "I want.")
    path = tmp_path / "m.tsv"
    path.write_text("system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
                    f"sysA\td\t1\t1\tr1\t{source}\t{target}\tAccuracy/Mistranslation\tMajor\n",
                    encoding="utf-8")
    with pytest.raises(DataError) as caught:
        read_mqm_file(path)
    assert f"m.tsv:2, column {column!r}: " in str(caught.value) and where in str(caught.value)


def test_crlf_and_bom_are_read(tmp_path):
    text = SMALL.read_text(encoding="utf-8")
    path = tmp_path / "crlf.tsv"
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    project = import_mqm(path)
    assert rows(mqm_table(project)) == rows(text)
    assert mqm_scores(project) == mqm_scores(import_mqm(SMALL))


from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@given(st.text(alphabet=st.characters(blacklist_characters="<>\t\n\r", blacklist_categories=("Cs",)), max_size=30),
       st.data())
def test_markers_property(plain, data):
    import regex

    # Markers go between characters as a reader sees them (grapheme clusters): one inside a
    # character (a flag's two halves, a letter and its accent) is refused, not kept.
    bounds = [0] + [m.end() for m in regex.finditer(r"\X", plain)]
    start = data.draw(st.sampled_from(bounds))
    end = data.draw(st.sampled_from([b for b in bounds if b >= start]))
    span = data.draw(st.sampled_from([(start, end), (start, None), (None, end), None]))
    marked = insert_markers(plain, span)
    assert strip_markers(marked) == (plain, span)


def test_error_counts_per_system():
    from mtworkbench.analysis.error_counts import error_counts

    counts = error_counts(import_mqm(SMALL).judgments)
    assert counts.systems == ["sysA", "sysB", "ref"]
    assert counts.rated == {"sysA": 4, "sysB": 3, "ref": 1}
    assert counts.count("sysA") == 5 and counts.count("sysB") == 2 and counts.count("ref") == 0
    assert counts.count("sysA", severity="Major") == 1  # "major" is spelled as first seen ("Major")
    assert counts.count("sysA", category="Fluency/Punctuation", severity="Minor") == 1
    top = error_counts(import_mqm(SMALL).judgments, top_level=True)
    assert top.count("sysA", category="Fluency") == 2 and top.count("sysB", category="Non-translation!") == 1
    assert top.to_json()["systems"][0]["errors"] == 5


def test_anthea_column_names_are_read_and_written_back(tmp_path):
    lines = SMALL.read_text(encoding="utf-8").split("\n")
    header = "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata"
    text = "\n".join([header] + lines[1:])
    path = tmp_path / "anthea.tsv"
    path.write_text(text, encoding="utf-8")
    project = loads(dumps(import_mqm(path)))
    assert project.segment_ids == ["10", "11", "12"]
    out = mqm_table(project)
    # The "metadata" column is not kept (README); the others come back under their own names.
    assert out.split("\n")[0] == "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity"
    assert sorted(out.split("\n")[1:-1]) == sorted("\t".join(line.split("\t")[:9]) for line in lines[1:] if line)


def test_a_raw_text_in_quotes_is_not_taken_for_csv_quoting(tmp_path):
    text = ("system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
            's\td\t1\t1\tr\t"Danke."\t"Thank <v>you</v>."\tStyle/Awkward\tMinor\n')
    path = tmp_path / "raw.tsv"
    path.write_text(text, encoding="utf-8")
    project = import_mqm(path)
    assert project.system_text("s", "1") == '"Thank you."' and project.segment("1").source == '"Danke."'
    assert rows(mqm_table(project)) == rows(text)


def test_mqm_ratings_import_is_undoable_and_emits_events(tmp_path):
    from mtworkbench.io.judgments.judgments import apply_import, revert_import
    from mtworkbench.io.judgments.mqm import plan_mqm_judgments

    project = import_mqm(SMALL)
    for j in list(project.judgments):
        project.remove_judgment(j.id)
    for judge in list(project.judges):
        project.remove_judge(judge)
    events = []
    project.subscribe(lambda e: events.append(e.kind))
    plan = plan_mqm_judgments(project, read_mqm_file(SMALL))
    apply_import(project, plan)
    assert len(project.judgments) == 8 and project.judges == ["rater1", "rater2"]
    assert events.count("judgment_added") == 8
    revert_import(project, plan)
    assert project.judgments == [] and project.judges == []
    assert events.count("judgment_removed") == 8


def test_a_carriage_return_inside_an_unquoted_field_is_refused(tmp_path):
    """Found by the readers' fuzz suite: a lone CR in a raw field imported, then the export refused it."""
    path = tmp_path / "cr.tsv"
    path.write_text("system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
                    "sysA\td\t1\t1\tr1\tQuelle\tZiel\rmehr\tAccuracy/Mistranslation\tMajor\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"cr.tsv:2, column 7: a carriage return"):
        read_mqm_file(path)
