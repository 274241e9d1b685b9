"""compare-mt analyses of two systems, against counts derived by hand."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from mtworkbench.analysis.compare_systems import (
    bucket_labels,
    compare_systems,
    frequency_buckets,
    ngram_differences,
    ngram_matches,
)
from mtworkbench.cli import main
from mtworkbench.core.model import (
    Document,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)
from mtworkbench.io.bundle.bundle import save_bundle
from mtworkbench.scoring.project_scores import score_project


def test_bucket_labels_follow_compare_mt():
    assert bucket_labels((1, 2, 3, 4, 5, 10, 100, 1000)) == [
        "<1", "1", "2", "3", "4", "[5,10)", "[10,100)", "[100,1000)", ">=1000"]


def test_word_fmeasure_by_frequency_by_hand():
    # Reference "a a b" / "c"; frequencies from it: a 2, b 1, c 1.
    # Output A: "a b b" / "c d" -> per segment min(ref, out) matches:
    #   freq-1 bucket (b, c, and d with frequency 0 goes to "<1"):
    #     b: ref 1 out 2 -> 1 match; c: ref 1, out 1 -> 1 match. Bucket "1": ref 2 words, out 3, matches 2.
    #   freq-2 bucket (a): ref 2, out 1, match 1.  "<1" bucket (d): ref 0, out 1, match 0.
    # Bucket 1: R = 2/2, P = 2/3, F = 2*(2/3)*1/(5/3) = 0.8. Bucket 2: R = 1/2, P = 1, F = 2/3.
    refs = [["a", "a", "b"], ["c"]]
    out_a = [["a", "b", "b"], ["c", "d"]]
    out_b = [["a", "a", "b"], ["c"]]  # identical to the reference: F = 1 wherever it has words
    freq = Counter(w for r in refs for w in r)
    buckets = {b.label: b for b in frequency_buckets(refs, [out_a, out_b], freq, cutoffs=(1, 2, 3))}
    assert buckets["1"].reference_words == 2 and buckets["1"].matches == [2, 2]
    assert buckets["1"].fmeasure[0] == pytest.approx(0.8)
    assert buckets["2"].fmeasure[0] == pytest.approx(2 / 3)
    assert buckets["<1"].output_words == [1, 0] and buckets["<1"].fmeasure == [0.0, 0.0]
    assert buckets["1"].fmeasure[1] == buckets["2"].fmeasure[1] == 1.0


def test_ngram_matches_and_smoothed_share_by_hand():
    # Reference "x y x"; output "x x x y": unigrams x matches twice (two copies in the
    # reference), the third x not; y once. Bigrams: "x x" no, "x x" no, "x y" yes.
    refs = [["x", "y", "x"]]
    m = ngram_matches(refs, [["x", "x", "x", "y"]])
    assert m[("x",)] == 2 and m[("y",)] == 1 and m[("x", "y")] == 1 and m[("x", "x")] == 0
    # Shares with alpha 1: "x": A 2, B 0 -> 3/4; "y": A 1, B 1 -> 1/2 (neither list);
    # "y x": A 0, B 1 -> 1/3 (B's list).
    ma = Counter({("x",): 2, ("y",): 1})
    mb = Counter({("y",): 1, ("y", "x"): 1})
    for_a, for_b = ngram_differences(ma, mb, top=5)
    assert [(d.ngram, d.score) for d in for_a] == [("x", 0.75)]
    assert [(d.ngram, d.matches_a, d.matches_b) for d in for_b] == [("y x", 0, 1)]
    assert for_b[0].score == pytest.approx(1 / 3)


def small_project(path=None):
    segs = [Segment(f"s{i}", f"source {i}") for i in range(1, 4)]
    ref = {"s1": "the cat sat on the mat", "s2": "a dog barked", "s3": " ".join(["word"] * 12)}
    a = {"s1": "the cat sat on the mat", "s2": "a dog barked loudly", "s3": " ".join(["word"] * 12)}
    b = {"s1": "a cat is on a mat", "s2": "a dog barked", "s3": "<script>alert(1)</script> & word"}
    project = Project(documents=[Document("d", [Paragraph("p", segs)])], target_language="en",
                      references=[Reference("r", texts=ref)], systems=[System("A", texts=a), System("B", texts=b)])
    if path:
        save_bundle(project, path)
    return project


def test_compare_systems_buckets_and_differences():
    project = small_project()
    scored = score_project(project, ["chrf"])
    cmp = compare_systems(project, "A", "B", scored, top_ngrams=3, top_sentences=1)
    # Reference lengths 6, 3, 12 tokens: two in "<10", one in "[10,20)".
    counts = {b.label: b.segments for b in cmp.length_buckets}
    assert counts["<10"] == 2 and counts["[10,20)"] == 1 and sum(counts.values()) == 3
    # The [10,20) bucket holds only s3, where A equals the reference: chrF 100.
    (long_bucket,) = [b for b in cmp.length_buckets if b.label == "[10,20)"]
    assert long_bucket.scores["chrf"][0] == pytest.approx(100.0)
    # A's largest lead is s3 (A perfect, B mostly wrong); B's is s2 (A adds a word).
    lead = {d.difference > 0: d.segment for d in cmp.differences}
    assert lead == {True: "s3", False: "s2"}
    assert cmp.errors is None and any("no MQM/ESA" in n for n in cmp.notes)
    assert cmp.tokenizer == "13a"


def test_analyze_cli_json_and_html(tmp_path, capsys):
    bundle = small_project(tmp_path / "p.mtwb.json") and tmp_path / "p.mtwb.json"
    html = tmp_path / "report.html"
    assert main(["analyze", str(bundle), "--system", "A", "--system", "B", "--metric", "chrf",
                 "--json", "--html", str(html)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["system_a"] == "A" and len(out["frequency_buckets"]) == 9
    text = html.read_text(encoding="utf-8")
    # Data text is escaped; nothing is fetched from elsewhere.
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; word" in text and "<script>" not in text
    assert "<svg" in text and "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in text and "src=" not in text
    assert main(["analyze", str(bundle), "--system", "A"]) == 2
    assert main(["analyze", str(bundle), "--system", "A", "--system", "Z"]) == 1
    assert "no system 'Z'" in capsys.readouterr().err


def test_analyze_cli_buckets_words_by_a_frequency_file(tmp_path, capsys):
    bundle = small_project(tmp_path / "p.mtwb.json") and tmp_path / "p.mtwb.json"
    freq = tmp_path / "Häufigkeit-频率.tsv"
    # "cat" is common in the file (bucket 1000+) though it occurs once in the reference.
    freq.write_text("cat\t5000\nKatze\t3\n猫\t12\n\nword\t1\n", encoding="utf-8")
    assert main(["analyze", str(bundle), "--system", "A", "--system", "B", "--metric", "chrf",
                 "--freq-file", str(freq), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["frequency_source"] == f"file {freq.name}"
    by_label = {b["label"]: b["reference_words"] for b in out["frequency_buckets"]}
    assert by_label[">=1000"] == 1  # the reference's one "cat"
    assert by_label["1"] == 12  # s3's twelve "word" tokens: count 1 in the file
    freq.write_text("cat\t5000\nKatze drei\n", encoding="utf-8")
    assert main(["analyze", str(bundle), "--system", "A", "--system", "B", "--metric", "chrf",
                 "--freq-file", str(freq)]) == 1
    err = capsys.readouterr().err
    assert f"{freq}:2: expected WORD<TAB>COUNT" in err and "Traceback" not in err


def test_error_counts_by_length_bucket_where_spans_exist():
    import dataclasses

    from mtworkbench.core import model

    if "errors" not in {f.name for f in dataclasses.fields(model.Judgment)} or not hasattr(model, "ErrorSpan"):
        pytest.skip("this model has no MQM/ESA error spans yet (they come with the MQM protocols)")
    project = small_project()
    project.add_judge("rater")
    major, minor = model.ErrorSpan(0, 3, "major", "accuracy"), model.ErrorSpan(4, 7, "minor", "fluency")
    # s1 (6 reference tokens, "<10"): A one minor, B a major and a minor; s3 (12, "[10,20)"): B one major.
    for k, (system, seg, errors) in enumerate([("A", "s1", (minor,)), ("B", "s1", (major, minor)),
                                               ("B", "s3", (major,)), ("A", "s3", ())]):
        project.add_judgment(model.Judgment(f"e{k}", "rater", system, seg, score=0.0, scale="mqm",
                                            protocol="mqm", errors=errors))
    scored = score_project(project, ["chrf"])
    buckets = {b.label: b.counts for b in compare_systems(project, "A", "B", scored).errors}
    assert buckets["<10"] == {"minor": [1, 1], "major": [0, 1]}
    assert buckets["[10,20)"] == {"major": [0, 1]}
