"""The per-project MQM typology: the value, its JSON and bundle round trips, validation
naming the JSON field, edits that keep the judgments consistent, and imports adding
the categories they bring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtworkbench.core.errors import BundleError
from mtworkbench.core.model import Document, ErrorSpan, Judgment, Paragraph, Project, Segment, System
from mtworkbench.core.mqm_typology import (
    GOOGLE_MQM_CATEGORIES,
    GOOGLE_TYPOLOGY,
    Typology,
    TypologyCategory,
    TypologyError,
    typology_from_json,
)
from mtworkbench.core.typology_edits import (
    apply_change,
    categories_in_use,
    plan_removal,
    plan_rename,
    plan_replacement,
    revert_change,
)
from mtworkbench.io.bundle.bundle import dumps, loads
from mtworkbench.io.judgments.judgments import apply_import, revert_import
from mtworkbench.io.judgments.mqm import plan_mqm_file
from mtworkbench.io.judgments.typology_file import read_typology_file, write_typology_file

FIXTURES = Path(__file__).parent.parent / "fixtures"


def project_with_errors() -> Project:
    p = Project([Document("d", [Paragraph("p", [Segment("a", "Der Hund"), Segment("b", "bellt")])])],
                systems=[System("S", texts={"a": "The dog", "b": "barks"})])
    p.add_judge("r1")
    p.add_judgment(Judgment("j1", "r1", "S", "a", protocol="mqm", errors=(
        ErrorSpan(0, 3, "Minor", "Fluency/Grammar"), ErrorSpan(4, 7, "Major", "Accuracy/Mistranslation"))))
    p.add_judgment(Judgment("j2", "r1", "S", "b", protocol="mqm", errors=(ErrorSpan(0, 5, "Minor", "Fluency/Grammar"),)))
    return p


def test_google_default_keys_and_names():
    entries = {e.full_name: e.keys for e in GOOGLE_TYPOLOGY.entries()}
    assert entries["Accuracy/Mistranslation"] == "am" and entries["Fluency/Grammar"] == "fg"
    assert entries["Non-translation"] == "n"
    assert "Accuracy/Mistranslation" in GOOGLE_TYPOLOGY and "Accuracy" in GOOGLE_TYPOLOGY
    assert "Fluency/Display" not in GOOGLE_TYPOLOGY
    assert len(GOOGLE_MQM_CATEGORIES) == 22 and GOOGLE_MQM_CATEGORIES[-1] == "Non-translation"
    assert typology_from_json(GOOGLE_TYPOLOGY.to_json()) == GOOGLE_TYPOLOGY


def test_edits_return_new_values_and_refuse_clearly():
    t = GOOGLE_TYPOLOGY.add("Display", parent="Fluency")
    assert "Fluency/Display" in t and "Fluency/Display" not in GOOGLE_TYPOLOGY
    assert t.entries()[t.names().index("Fluency/Display")].keys == "fd"
    t2 = t.add("Design")  # D taken by nothing at the top: first letter
    assert t2.categories[-1] == TypologyCategory("Design", "d")
    with pytest.raises(TypologyError, match="already"):
        t.add("Display", parent="Fluency")
    with pytest.raises(TypologyError, match="taken by 'Accuracy'"):
        t.add("Adequacy", key="A")  # keys ignore case
    with pytest.raises(TypologyError, match="cannot contain '/'"):
        t.add("A/B")
    with pytest.raises(TypologyError, match="subcategories have no subcategories"):
        t.add("X", parent="Fluency/Display")
    moved = t.move("Style", -10)
    assert moved.categories[0].name == "Style" and len(moved.categories) == len(t.categories)
    assert t.set_key("Other", "9").entries()[t.names().index("Other")].keys == "9"
    assert t.rename("Fluency/Display", "Layout").find("Fluency/Layout") is not None
    assert "Style" not in t.remove("Style")


def test_with_names_adds_what_is_missing_in_order():
    t = GOOGLE_TYPOLOGY.with_names(["Fluency/Display", "Accuracy/Omission", "Non-translation!", "", "Fluency/Display"])
    added = [n for n in t.names() if n not in GOOGLE_TYPOLOGY]
    assert added == ["Fluency/Display", "Non-translation!"]


@pytest.mark.parametrize("broken, where, what", [
    ({"categories": []}, "$.settings.mqm_typology.categories", "at least one category"),
    ({"categories": [{"name": "A", "key": "ab"}]}, "$.settings.mqm_typology.categories[0].key", "one letter or digit"),
    ({"categories": [{"name": "A", "key": "a"}, {"name": "B", "key": "A"}]},
     "$.settings.mqm_typology.categories[1].key", "taken by 'A'"),
    ({"categories": [{"name": "A"}, {"name": "A"}]}, "$.settings.mqm_typology.categories[1].name", "duplicate category"),
    ({"categories": [{"name": "A", "subcategories": [{"name": "x", "subcategories": []}]}]},
     "$.settings.mqm_typology.categories[0].subcategories[0].subcategories", "unknown field"),
    ({"categories": [{"name": "A/B"}]}, "$.settings.mqm_typology.categories[0].name", "cannot contain '/'"),
    ({"categories": [{"name": 3}]}, "$.settings.mqm_typology.categories[0].name", "expected a string"),
    ({"categories": "Accuracy"}, "$.settings.mqm_typology.categories", "expected a list"),
    ({"cats": []}, "$.settings.mqm_typology", "missing field 'categories'"),
])
def test_bundle_refuses_a_malformed_typology_naming_the_field(broken, where, what):
    data = json.loads(dumps(project_with_errors()))
    data["settings"]["mqm_typology"] = broken
    with pytest.raises(BundleError) as info:
        loads(json.dumps(data), file="x.mtwb.json")
    assert info.value.json_path == where and what in str(info.value)
    assert str(info.value).startswith("x.mtwb.json: " + where)


def test_bundle_refuses_a_bad_max_errors():
    data = json.loads(dumps(project_with_errors()))
    data["settings"]["mqm_max_errors"] = 0
    with pytest.raises(BundleError, match=r"\$\.settings\.mqm_max_errors: expected a positive integer"):
        loads(json.dumps(data))


def test_bundle_round_trip_and_default_not_written():
    p = project_with_errors()
    text = dumps(p)
    assert "mqm_typology" not in text and "mqm_max_errors" not in text  # older bundles stay byte-identical
    assert loads(text).settings.mqm_typology == GOOGLE_TYPOLOGY
    custom = GOOGLE_TYPOLOGY.add("Display", parent="Fluency").move("Style", -1).set_key("Other", "9")
    p.set_setting("mqm_typology", custom)
    p.set_setting("mqm_max_errors", 3)
    again = loads(dumps(p))
    assert again.settings.mqm_typology == custom and again.settings.mqm_max_errors == 3
    assert dumps(again) == dumps(p)


def test_set_setting_checks_types():
    p = project_with_errors()
    with pytest.raises(Exception, match="positive integer"):
        p.set_setting("mqm_max_errors", 0)
    with pytest.raises(Exception, match="must be a Typology"):
        p.set_setting("mqm_typology", ["Accuracy"])


def test_rename_updates_the_judgments_and_reverts():
    p = project_with_errors()
    change = plan_rename(p, "Fluency/Grammar", "Syntax")
    assert "2 errors in 2 judgments" in change.description
    apply_change(p, change)
    assert "Fluency/Syntax" in p.settings.mqm_typology and "Fluency/Grammar" not in p.settings.mqm_typology
    assert categories_in_use(p) == {"Fluency/Syntax": 2, "Accuracy/Mistranslation": 1}
    assert p.judgment("j1").errors[1].category == "Accuracy/Mistranslation"  # untouched
    revert_change(p, change)
    assert categories_in_use(p) == {"Fluency/Grammar": 2, "Accuracy/Mistranslation": 1}
    assert p.settings.mqm_typology == GOOGLE_TYPOLOGY


def test_renaming_a_category_moves_its_subcategories_errors():
    p = project_with_errors()
    apply_change(p, plan_rename(p, "Fluency", "Linguistic conventions"))
    assert categories_in_use(p)["Linguistic conventions/Grammar"] == 2
    assert p.settings.mqm_typology.categories[1].name == "Linguistic conventions"


def test_rename_to_an_existing_name_is_refused():
    p = project_with_errors()
    with pytest.raises(TypologyError, match="subcategory 'Spelling' already"):
        plan_rename(p, "Fluency/Grammar", "Spelling")


def test_removing_a_used_category_is_refused_an_unused_one_is_not():
    p = project_with_errors()
    with pytest.raises(TypologyError, match="cannot remove 'Fluency': 2 errors"):
        plan_removal(p, "Fluency")
    with pytest.raises(TypologyError, match="cannot remove 'Fluency/Grammar': 2 errors"):
        plan_removal(p, "Fluency/Grammar")
    change = plan_removal(p, "Fluency/Spelling")
    apply_change(p, change)
    assert "Fluency/Spelling" not in p.settings.mqm_typology


def test_replacement_keeps_categories_in_use():
    p = project_with_errors()
    small = Typology((TypologyCategory("Accuracy", "a", (TypologyCategory("Mistranslation", "m"),)),))
    change = plan_replacement(p, small, "Import")
    assert change.kept == ("Fluency/Grammar",) and "kept 1 category in use: Fluency/Grammar" in change.description
    apply_change(p, change)
    assert p.settings.mqm_typology.names() == ("Accuracy", "Accuracy/Mistranslation", "Fluency", "Fluency/Grammar")
    revert_change(p, change)
    assert p.settings.mqm_typology == GOOGLE_TYPOLOGY


def test_mqm_import_adds_missing_categories_and_undo_removes_them():
    p = Project([Document("talk.1", [Paragraph("p", [Segment("10", "Der Hund bellt."), Segment("11", 'Ja, "gut".')])]),
                 Document("talk.2", [Paragraph("q", [Segment("12", "Neu.")])])],
                systems=[System("sysA", texts={"10": "The hound barks.", "11": "Yes, good", "12": "Novel."}),
                         System("sysB", texts={"10": '"Dog" barks', "11": 'Yes, "good".', "12": ""}),
                         System("ref", "human", texts={"10": "", "11": "", "12": "New."})])
    plan = plan_mqm_file(p, FIXTURES / "mqm-small.tsv")
    apply_import(p, plan)
    assert "Non-translation!" in p.settings.mqm_typology  # not in Google's: added, not dropped
    assert [n for n in p.settings.mqm_typology.names() if n not in GOOGLE_TYPOLOGY] == ["Non-translation!"]
    revert_import(p, plan)
    assert p.settings.mqm_typology == GOOGLE_TYPOLOGY and p.judgments == []


def test_typology_file_round_trip_and_errors(tmp_path):
    custom = GOOGLE_TYPOLOGY.add("Display", parent="Fluency")
    path = tmp_path / "t.json"
    write_typology_file(custom, path)
    assert json.loads(path.read_text("utf-8"))["format"] == "mtworkbench-mqm-typology"
    assert read_typology_file(path) == custom
    path.write_text('{"categories": [{"name": "A", "key": "?"}]}', "utf-8")
    with pytest.raises(BundleError, match=r"t\.json: \$\.categories\[0\]\.key: a key is one letter or digit"):
        read_typology_file(path)
    path.write_text('{"categories": [', "utf-8")
    with pytest.raises(BundleError, match="not valid JSON"):
        read_typology_file(path)


def test_merging_a_package_adds_the_categories_its_raters_used():
    from mtworkbench.core.campaign import make_package, merge_package
    from mtworkbench.core.campaign_plan import plan_campaign

    project = project_with_errors()
    campaign = plan_campaign(project, "judge", ["alice"], overlap=0.0, seed=1, protocol="mqm")
    package = loads(dumps(make_package(project, campaign, "alice")))
    package.set_setting("mqm_typology", package.settings.mqm_typology.add("Display", parent="Fluency"))
    item = package.campaign.items_of("alice")[0]
    package.add_judgment(Judgment(package.new_id("j"), "alice", item.system, item.segment, item.reference,
                                  protocol="mqm", errors=(ErrorSpan(0, 3, "Minor", "Fluency/Display"),)))
    merged = loads(dumps(project))
    assert not merge_package(merged, loads(dumps(package)), "alice.mtwb.json", "1").conflicts
    assert "Fluency/Display" in merged.settings.mqm_typology
    assert [n for n in merged.settings.mqm_typology.names() if n not in GOOGLE_TYPOLOGY] == ["Fluency/Display"]
