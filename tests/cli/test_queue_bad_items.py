"""``mtworkbench queue --bad-rate``; BAD items judged by ``agreement`` and left out of
``human-scores`` and ``correlate``."""

from __future__ import annotations

import json

import pytest

from mtworkbench.cli import main
from mtworkbench.core.judging import JudgeSession, QueueConfig, apply_judgment, build_queue
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
from tests.core.test_judging import make_project


@pytest.fixture
def bundle(tmp_path):
    path = tmp_path / "p.mtwb.json"
    save_bundle(make_project(n_docs=4, per_doc=5), path)  # 2 systems x 20 segments
    return path


def test_queue_draws_bad_items_reproducibly_and_saves_them(bundle, capsys):
    assert main(["queue", str(bundle), "--judge", "cyd", "--protocol", "da", "--bad-rate", "10%",
                 "--repeat-share", "0", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "new judge cyd: DA queue of 44 items (40 distinct, 0 repeated, 4 BAD)" in out
    project = load_bundle(bundle)
    state = project.judge_queues["cyd"]
    expected = build_queue(project, "cyd", QueueConfig(seed=4, repeat_share=0.0, protocol="da", bad_rate=0.1))
    assert state == expected and sum(e.qc == "bad" for e in state.items) == 4


@pytest.mark.parametrize("args, message", [
    (["--protocol", "ldc", "--bad-rate", "0.1"], "--bad-rate applies to --protocol da or esa only"),
    (["--protocol", "mqm", "--bad-rate", "5%"], "--bad-rate applies"),
    (["--protocol", "da", "--bad-rate", "lots"], "--bad-rate must be a share"),
    (["--protocol", "da", "--bad-rate", "150%"], "between 0% and 100%"),
])
def test_queue_usage_errors(bundle, capsys, args, message):
    assert main(["queue", str(bundle), "--judge", "ann", *args]) == 2
    assert message in capsys.readouterr().err


def test_an_existing_queue_is_replaced_only_when_asked(bundle, capsys):
    assert main(["queue", str(bundle), "--judge", "ann", "--protocol", "esa", "--bad-rate", "0.2"]) == 0
    assert main(["queue", str(bundle), "--judge", "ann", "--protocol", "da"]) == 2
    assert "--replace" in capsys.readouterr().err
    assert load_bundle(bundle).judge_queues["ann"].protocol == "esa"
    assert main(["queue", str(bundle), "--judge", "ann", "--protocol", "da", "--replace"]) == 0
    assert load_bundle(bundle).judge_queues["ann"].protocol == "da"


def _rate(bundle, judge: str, score) -> None:
    project = load_bundle(bundle)
    session = JudgeSession(project, judge)
    while not session.finished:
        apply_judgment(project, session.submit_scored(score(session.current)))
    save_bundle(project, bundle)


@pytest.fixture
def rated(bundle):
    for judge in ("ann", "bob"):
        assert main(["queue", str(bundle), "--judge", judge, "--protocol", "da", "--bad-rate", "0.25",
                     "--repeat-share", "0"]) == 0
    _rate(bundle, "ann", lambda item: 20.0 + len(item.candidate) % 9 if item.qc else 70.0 + len(item.segment))
    _rate(bundle, "bob", lambda item: 55.0)
    return bundle


def test_agreement_shows_each_raters_quality_control(rated, capsys):
    capsys.readouterr()
    assert main(["agreement", str(rated)]) == 0
    text = capsys.readouterr().out
    assert "DA quality control (BAD references" in text
    ann = next(line for line in text.splitlines() if line.startswith("ann ") and line.endswith(("pass", "FAIL")))
    bob = next(line for line in text.splitlines() if line.startswith("bob ") and line.endswith(("pass", "FAIL")))
    assert ann.split()[1:3] == ["10", "10"] and ann.endswith("pass")
    assert bob.endswith("FAIL")
    assert main(["agreement", str(rated), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    checks = {c["rater"]: c for c in out["quality_control"]}
    assert checks["ann"]["passed"] is True and checks["ann"]["wilcoxon_p"] < 0.05 and checks["ann"]["n_pairs"] == 10
    assert checks["bob"]["passed"] is False and checks["bob"]["mean_bad"] == checks["bob"]["mean_original"] == 55.0
    # The agreement proper is on the 40 original items both rated, not on the BAD copies.
    assert [p["n"] for p in out["pairs"]] == [40]


def _without_bad(path, tmp_path):
    project = load_bundle(path)
    for j in [j for j in project.judgments if j.qc]:
        project.remove_judgment(j.id)
    clean = tmp_path / "clean.mtwb.json"
    save_bundle(project, clean)
    return clean


@pytest.mark.parametrize("command", [
    ["human-scores", "{}", "--protocol", "da", "--json"],
    ["human-scores", "{}", "--protocol", "da", "--level", "system", "--json"],
    ["correlate", "{}", "--human", "da:score", "--metric", "bleu", "--level", "segment", "--json"],
    ["reliability", "{}", "--human", "da:score", "--metric", "bleu", "--lengths", "1,2", "--docs", "20", "--json"],
])
def test_bad_judgments_are_not_human_scores(rated, tmp_path, capsys, command):
    capsys.readouterr()
    clean = _without_bad(rated, tmp_path)
    assert sum(j.qc == "bad" for j in load_bundle(rated).judgments) == 20
    outputs = []
    for path in (rated, clean):
        assert main([a.format(path) for a in command]) == 0, capsys.readouterr().err
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1]
    if command[0] == "human-scores" and "system" not in command:
        scores = {(s["system"], s["segment"]): s for s in outputs[0]["scores"]}
        assert all(s["raters"] == 2 for s in scores.values())
        assert scores[("A", "d1s1")]["score"] == pytest.approx((70.0 + 4 + 55.0) / 2)


def test_split_with_bad_items_then_merge_and_check_the_raters(bundle, tmp_path, capsys):
    out = tmp_path / "packages"
    assert main(["split", str(bundle), "--by", "judge", "--people", "alice,bob", "--protocol", "da",
                 "--bad-rate", "25%", "-o", str(out)]) == 0
    assert "about 5 BAD" in capsys.readouterr().out
    assert main(["split", str(bundle), "--by", "judge", "--people", "alice", "--protocol", "mqm",
                 "--bad-rate", "0.1", "-o", str(tmp_path / "x")]) == 2
    assert "--bad-rate applies to --by judge with --protocol da or esa only" in capsys.readouterr().err
    paths = sorted(out.glob("*.mtwb.json"))
    assert len(paths) == 2
    for path in paths:
        package = load_bundle(path)
        person = package.campaign.package
        state = package.judge_queues[person]
        assert state.protocol == "da" and sum(e.qc == "bad" for e in state.items) == 5
        _rate(path, person, (lambda item: 5.0 if item.qc else 90.0) if person == "alice" else (lambda item: 50.0))
    merged = tmp_path / "merged.mtwb.json"
    assert main(["merge", str(bundle), *map(str, paths), "-o", str(merged)]) == 0
    capsys.readouterr()
    assert main(["agreement", str(merged), "--json"]) == 0
    checks = {c["rater"]: c for c in json.loads(capsys.readouterr().out)["quality_control"]}
    assert (checks["alice"]["n_pairs"], checks["alice"]["passed"]) == (5, True)
    assert (checks["bob"]["n_pairs"], checks["bob"]["passed"]) == (5, False)
    assert main(["status", str(merged), "--json"]) == 0
    progress = json.loads(capsys.readouterr().out)["progress"]
    assert {(r["person"], r["protocol"]): (r["done"], r["assigned"]) for r in progress} == {
        ("alice", "da"): (20, 20), ("bob", "da"): (20, 20)}


def test_queue_in_batches_of_chosen_documents(bundle, capsys):
    assert main(["queue", str(bundle), "--judge", "ann", "--documents", "d2,d3", "--batch-size", "1",
                 "--batch-unit", "documents", "--repeat-share", "0"]) == 0
    assert "in 2 batches (2 of 10 items); the judge starts with batch 1" in capsys.readouterr().out
    project = load_bundle(bundle)
    state = project.judge_queues["ann"]
    assert state.batches == [10, 10] and state.documents == ["d2", "d3"]
    assert [len({project.document_of(e.segment) for e in state.items[at:at + 10]}) for at in (0, 10)] == [1, 1]
    assert main(["queue", str(bundle), "--judge", "bob", "--documents", "d9"]) != 0
    assert "d9" in capsys.readouterr().err
    assert main(["queue", str(bundle), "--judge", "bob", "--batch-size", "-3"]) == 2
    assert "--batch-size" in capsys.readouterr().err
