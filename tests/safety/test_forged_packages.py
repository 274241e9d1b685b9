"""A work package is data from someone else's hands: it brings only its person's work on
its person's items, and the plan it is checked against is the team project's."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from mtworkbench.cli import main
from mtworkbench.core.campaign import CampaignError
from mtworkbench.core.model import Judgment
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
from mtworkbench.io.bundle.packages import merge_packages, split_project

from .helpers import project

PEOPLE = ["alice", "bob"]


@pytest.fixture
def team(tmp_path):
    p = project(n_segments=12, n_systems=3)
    path = tmp_path / "team.mtwb.json"
    save_bundle(p, path)
    result = split_project(p, "judge", PEOPLE, tmp_path / "packages", seed=3)
    return path, result


def _rate(package_path: Path, person: str, judge: str | None = None, item_of: str | None = None, n: int = 2):
    package = load_bundle(package_path)
    items = package.campaign.items_of(item_of or person)
    if (judge or person) not in package.judges:
        package.add_judge(judge or person)
    for k, item in enumerate(items[:n]):
        package.add_judgment(Judgment(package.new_id("j"), judge or person, item.system, item.segment,
                                      item.reference, adequacy=1 + k, fluency=2))
    save_bundle(package, package_path)
    return items[:n]


def test_judgments_under_another_judges_name_are_refused(team, tmp_path, capsys):
    path, result = team
    _rate(result.packages["alice"], "alice", judge="bob", item_of="alice")
    before = path.read_bytes()
    code = main(["merge", str(path), str(result.packages["alice"]), "-o", str(path)])
    err = capsys.readouterr().err
    assert code == 1
    assert "alice.mtwb.json" in err and "'bob'" in err and "judgment" in err
    assert path.read_bytes() == before


def test_judgments_on_someone_elses_items_are_refused(team):
    path, result = team
    package = load_bundle(result.packages["alice"])
    alice_items = {(it.system, it.segment) for it in package.campaign.items_of("alice")}
    bobs = next(it for it in package.campaign.items if "alice" not in it.people
                and (it.system, it.segment) not in alice_items)
    package.add_judgment(Judgment("jx", "alice", bobs.system, bobs.segment, bobs.reference, adequacy=5, fluency=5))
    save_bundle(package, result.packages["alice"])
    with pytest.raises(CampaignError, match=rf"alice.mtwb.json.*{bobs.segment!r}.*not one of 'alice''s items"):
        merge_packages(load_bundle(path), [result.packages["alice"]])


def test_a_forgery_cannot_win_a_conflict_against_the_real_work(team, tmp_path):
    path, result = team
    rated = _rate(result.packages["bob"], "bob", n=1)
    # mallory edits alice's package to hold a rating "by bob" of bob's item
    package = load_bundle(result.packages["alice"])
    item = rated[0]
    package.add_judge("bob")
    package.add_judgment(Judgment("forged", "bob", item.system, item.segment, item.reference, adequacy=1, fluency=1))
    save_bundle(package, result.packages["alice"])
    with pytest.raises(CampaignError, match=r"alice\.mtwb\.json"):
        merge_packages(load_bundle(path), [result.packages["alice"], result.packages["bob"]])
    merged = load_bundle(path)
    merge_packages(merged, [result.packages["bob"]])
    assert [j.adequacy for j in merged.judgments if j.judge == "bob"] == [1]
    assert not any(j.id == "forged" for j in merged.judgments)


def test_an_edited_plan_in_the_first_package_is_not_adopted(team, capsys):
    path, result = team
    _rate(result.packages["bob"], "bob")
    package = load_bundle(result.packages["alice"])
    c = package.campaign
    # bob's items handed to alice in alice's package
    items = [replace(it, people=("alice",)) if it.people == ("bob",) else it for it in c.items]
    package.campaign = replace(c, items=items)
    save_bundle(package, result.packages["alice"])
    code = main(["merge", str(path), str(result.packages["alice"]), str(result.packages["bob"]),
                 "-o", str(path)])
    err = capsys.readouterr().err
    assert code == 1 and "alice.mtwb.json" in err and "edited" in err
    # bob's genuine package on its own merges: the plan is the team project's
    assert main(["merge", str(path), str(result.packages["bob"]), "-o", str(path)]) == 0, capsys.readouterr().err
    merged = load_bundle(path)
    assert merged.campaign.items == result.campaign.items  # the plan split made, not alice's edit
    assert sum(1 for j in merged.judgments if j.judge == "bob") == 2


def test_genuine_packages_still_merge_in_any_order(team):
    path, result = team
    _rate(result.packages["alice"], "alice")
    _rate(result.packages["bob"], "bob")
    merged = load_bundle(path)
    report = merge_packages(merged, [result.packages["bob"], result.packages["alice"]])
    assert report.conflicts == 0
    assert {j.judge for j in merged.judgments} >= {"alice", "bob"}
