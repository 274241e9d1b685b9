"""split / merge / status as a team uses them: three people, work added through the
command line and through the Python API, merged and compared item by item."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from mtworkbench.cli import main
from mtworkbench.core.campaign import content_key
from mtworkbench.core.model import EntitySpan, Judgment
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
from mtworkbench.resources import demo_project_path

PEOPLE = ["alice", "bob", "carol"]


def run_cli(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def demo(tmp_path) -> Path:
    target = tmp_path / "demo.mtwb.json"
    target.write_bytes(demo_project_path().read_bytes())
    return target


def split(capsys, bundle: Path, out: Path, by: str, *extra) -> dict[str, Path]:
    code, stdout, err = run_cli(capsys, "split", bundle, "--by", by, "--people", ",".join(PEOPLE),
                                "--overlap", "10%", "--seed", "5", "-o", out, *extra)
    assert code == 0, err
    assert "campaign c-" in stdout
    return {p: out / f"{p}.mtwb.json" for p in PEOPLE}


def test_split_is_deterministic_and_leaves_the_bundle_alone(capsys, demo, tmp_path):
    before = demo.read_bytes()
    first = split(capsys, demo, tmp_path / "a", "judge")
    second = split(capsys, demo, tmp_path / "b", "judge")
    assert demo.read_bytes() == before
    for person in PEOPLE:
        assert first[person].read_bytes() == second[person].read_bytes()
    items = load_bundle(first["alice"]).campaign.items
    shared = [it for it in items if len(it.people) > 1]
    assert len(shared) == round(0.1 * len(items)) > 0


def test_judges_three_packages_cli_and_api_merge_item_by_item(capsys, demo, tmp_path):
    packages = split(capsys, demo, tmp_path / "packages", "judge")
    # alice works through the Python API: load, rate her queue's items, save.
    alice = load_bundle(packages["alice"])
    for k, item in enumerate(alice.judge_queues["alice"].items[:5]):
        alice.add_judgment(Judgment(alice.new_id("j"), "alice", item.system, item.segment, item.reference,
                                    adequacy=1 + k % 5, fluency=5 - k % 5, timestamp="2026-11-24T05:00:00Z"))
    save_bundle(alice, packages["alice"])
    # bob and carol import judgments from files with the command line.
    for person, rating in (("bob", 2), ("carol", 4)):
        package = load_bundle(packages[person])
        rows = ["judge,system,segment,reference,adequacy,fluency,seconds,comment"]
        for item in package.campaign.items_of(person)[:4]:
            rows.append(f"{person},{item.system},{item.segment},{item.reference},{rating},{rating},3.5,by {person}")
        csv = tmp_path / f"{person}.csv"
        csv.write_text("\n".join(rows) + "\n", encoding="utf-8")
        code, _, err = run_cli(capsys, "judgments", "import", packages[person], csv)
        assert code == 0, err
    # The merged project keeps what the bundle already had (the demo ships DA scores and
    # LDC ratings) and gains every package's judgments.
    expected = Counter(content_key(j) for j in load_bundle(demo).judgments)
    before = sum(expected.values())
    for person in PEOPLE:
        expected.update(content_key(j) for j in load_bundle(packages[person]).judgments)
    assert sum(expected.values()) == before + 13

    out = tmp_path / "merged.mtwb.json"
    code, stdout, err = run_cli(capsys, "merge", demo, *packages.values(), "-o", out)
    assert code == 0, err
    merged = load_bundle(out)
    assert Counter(content_key(j) for j in merged.judgments) == expected
    records = {m.person: m for m in merged.campaign.merges}
    assert set(records) == set(PEOPLE)
    assert records["alice"].package == "alice.mtwb.json" and len(records["alice"].judgments) == 5
    assert records["bob"].merged_at.endswith("Z")

    code, stdout, _ = run_cli(capsys, "status", out, "--json")
    status = json.loads(stdout)
    done = {(r["person"], r["protocol"]): (r["done"], r["assigned"]) for r in status["progress"]}
    assert done[("alice", "ldc")] == (5, len(merged.campaign.items_of("alice")))
    assert done[("bob", "ldc")][0] == 4

    # Merging the same packages again changes nothing.
    again = tmp_path / "again.mtwb.json"
    code, stdout, err = run_cli(capsys, "merge", out, *packages.values(), "-o", again)
    assert code == 0, err
    assert "already merged" in stdout
    # byte for byte, but for the score file each bundle names (its own)
    assert again.read_bytes() == out.read_bytes().replace(b'"merged.mtwb.scores.npz"', b'"again.mtwb.scores.npz"')


def test_annotators_spans_and_overlap_agreement(capsys, demo, tmp_path):
    packages = split(capsys, demo, tmp_path / "packages", "annotator")
    campaign = load_bundle(packages["alice"]).campaign
    shared = next(it for it in campaign.items if set(it.people) >= {"alice", "bob"} or len(it.people) > 1)
    for person in shared.people:
        package = load_bundle(packages[person])
        text = package.reference_text(shared.reference, shared.segment)
        package.add_span(EntitySpan(package.new_id("e"), shared.reference, shared.segment, 0,
                                    len(text.split()[0]), "PERSON", person))
        save_bundle(package, packages[person])
    # carol adds a span with the CLI (JSON lines) on one of her own items.
    carol = load_bundle(packages["carol"])
    item = carol.campaign.items_of("carol")[0]
    text = carol.reference_text(item.reference, item.segment)
    jsonl = tmp_path / "carol.jsonl"
    records = [{"segment": s.id, "text": carol.reference_text(item.reference, s.id),
                "entities": [{"start": 0, "end": len(text.split()[0]), "type": "DATE"}] if s.id == item.segment else []}
               for s in carol.segments if carol.reference_text(item.reference, s.id) is not None]
    jsonl.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    code, _, err = run_cli(capsys, "entities", "import", packages["carol"], jsonl, "--reference", item.reference,
                           "--annotator", "carol", "--format", "jsonl")
    assert code == 0, err

    out = tmp_path / "merged.mtwb.json"
    code, _, err = run_cli(capsys, "merge", demo, *packages.values(), "-o", out)
    assert code == 0, err
    merged = load_bundle(out)
    expected = Counter(content_key(s) for s in load_bundle(demo).spans)  # the demo's own layers stay
    for person in PEOPLE:
        expected.update(content_key(s) for s in load_bundle(packages[person]).spans)
    assert Counter(content_key(s) for s in merged.spans) == expected
    # Both annotators of the shared item are there, so the two can be compared.
    on_shared = {s.annotator for s in merged.spans_for(shared.reference, shared.segment)} & set(PEOPLE)
    assert on_shared == set(shared.people)


def test_conflict_is_kept_listed_and_exits_3(capsys, demo, tmp_path):
    packages = split(capsys, demo, tmp_path / "p", "annotator", "--overlap", "100%")
    a = load_bundle(packages["alice"])
    item = next(it for it in a.campaign.items if {"alice", "bob"} <= set(it.people))
    a.add_span(EntitySpan(a.new_id("e"), item.reference, item.segment, 0, 3, "PERSON", "alice"))
    save_bundle(a, packages["alice"])
    out = tmp_path / "merged.mtwb.json"
    code, _, err = run_cli(capsys, "merge", demo, packages["alice"], "-o", out)
    assert code == 0, err
    # The team corrects alice's span in the project while alice changes it in her package.
    merged = load_bundle(out)
    span = next(s for s in merged.spans if s.annotator == "alice")
    merged.remove_span(span.id)
    merged.add_span(replace(span, type="ORGANIZATION"))
    save_bundle(merged, out)
    a = load_bundle(packages["alice"])
    mine = next(s for s in a.spans if s.annotator == "alice")
    a.remove_span(mine.id)
    a.add_span(replace(mine, type="LOCATION"))
    save_bundle(a, packages["alice"])
    code, stdout, err = run_cli(capsys, "merge", out, packages["alice"], "-o", out)
    assert code == 3
    assert "1 conflicting items" in err and "conflict (span" in stdout
    merged = load_bundle(out)
    assert [s.type for s in merged.spans if s.annotator == "alice"] == ["ORGANIZATION"]
    assert merged.campaign.conflicts[0].theirs["type"] == "LOCATION"
    code, stdout, _ = run_cli(capsys, "status", out)
    assert "1 conflicts" in stdout
    # Work under another person's name in a package is not a conflict but a refusal.
    b = load_bundle(packages["bob"])
    b.add_span(EntitySpan(b.new_id("e"), item.reference, item.segment, 0, 3, "LOCATION", "alice"))
    save_bundle(b, packages["bob"])
    code, _, err = run_cli(capsys, "merge", out, packages["bob"], "-o", out)
    assert code == 1 and str(packages["bob"]) in err and "'alice'" in err


def test_refusals_name_the_package(capsys, demo, tmp_path):
    packages = split(capsys, demo, tmp_path / "p", "judge")
    other = split(capsys, demo, tmp_path / "q", "judge", "--seed", "6")
    out = tmp_path / "merged.mtwb.json"
    # Another campaign.
    code, _, err = run_cli(capsys, "merge", demo, packages["alice"], other["bob"], "-o", out)
    assert code == 1 and str(other["bob"]) in err and "belongs to campaign" in err
    assert not out.exists()  # nothing written when a package is refused
    # A changed source text: named with the first differing segment.
    data = json.loads(packages["bob"].read_text(encoding="utf-8"))
    segment = data["documents"][0]["paragraphs"][0]["segments"][0]
    segment["source"] += " (edited)"
    packages["bob"].write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, _, err = run_cli(capsys, "merge", demo, packages["bob"], "-o", out)
    assert code == 1 and str(packages["bob"]) in err and f"segment {segment['id']!r}" in err
    # Corrupt and foreign files.
    broken = tmp_path / "broken.mtwb.json"
    broken.write_text(packages["carol"].read_text(encoding="utf-8")[:500], encoding="utf-8")
    code, _, err = run_cli(capsys, "merge", demo, broken, "-o", out)
    assert code == 1 and str(broken) in err and "Traceback" not in err
    code, _, err = run_cli(capsys, "merge", demo, demo, "-o", out)
    assert code == 1 and "not a work package" in err
    data = json.loads(packages["carol"].read_text(encoding="utf-8"))
    data["campaign"]["items"][0]["people"] = ["mallory"]
    tampered = tmp_path / "tampered.mtwb.json"
    tampered.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run_cli(capsys, "merge", demo, tampered, "-o", out)
    assert code == 1 and "$.campaign.items[0].people" in err and str(tampered) in err
    assert not out.exists()


def test_usage_errors(capsys, demo, tmp_path):
    code, _, err = run_cli(capsys, "split", demo, "--by", "judge", "--people", "a,,b", "-o", tmp_path)
    assert code == 2 and "people" in err
    code, _, err = run_cli(capsys, "split", demo, "--by", "judge", "--people", "a,b", "--overlap", "lots", "-o", tmp_path)
    assert code == 2 and "overlap" in err
    code, _, err = run_cli(capsys, "status", demo)
    assert code == 1 and "not part of a campaign" in err


def test_merge_in_place(capsys, demo, tmp_path):
    packages = split(capsys, demo, tmp_path / "p", "judge")
    package = load_bundle(packages["carol"])
    item = package.campaign.items_of("carol")[0]
    package.add_judgment(Judgment("j1", "carol", item.system, item.segment, item.reference, 3, 3))
    save_bundle(package, packages["carol"])
    code, _, err = run_cli(capsys, "merge", demo, packages["carol"], "-o", demo)
    assert code == 0, err
    merged = load_bundle(demo)
    assert [(j.judge, j.adequacy) for j in merged.judgments if j.judge == "carol"] == [("carol", 3)]
    assert len(merged.judgments) == len(load_bundle(packages["carol"]).judgments) + sum(
        1 for j in load_bundle(demo_project_path()).judgments)  # the demo's own ratings are kept
    assert merged.campaign.merges[0].person == "carol"
