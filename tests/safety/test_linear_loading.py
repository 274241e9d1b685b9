"""Loading grows linearly: systems, references and typology categories are looked up
by index, so a bundle with 100,000 systems or a typology of 100,000 categories loads
in seconds. Complexity is asserted by the ratio of two sizes (a quadratic cost makes
ten times the input cost a hundred times the time), with a generous bound."""

from __future__ import annotations

import json
import time

from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.core.mqm_typology import typology_from_json
from mtworkbench.io.bundle.bundle import dumps, loads


def _bundle_text(n_systems: int) -> str:
    p = Project([Document("d", [Paragraph("p", [Segment("s1", "Quelle")])])], source_language="de",
                target_language="en")
    for k in range(n_systems):
        p.add_system(System(f"sys{k}", "machine", {"s1": f"Übersetzung {k}"}))
    for k in range(min(n_systems, 1000)):
        p.add_reference(Reference(f"r{k}", "T", {"s1": "Referenz"}))
    return dumps(p)


def _timed(fn, *args) -> float:
    best = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - start)
    return best


def test_lookups_by_id_follow_adds_and_removals():
    p = Project([Document("d", [Paragraph("p", [Segment("s1", "源文")])])])
    p.add_system(System("a", "machine", {"s1": "x"}))
    p.add_system(System("b", "machine", {"s1": "y"}))
    p.add_reference(Reference("r", "T", {"s1": "z"}))
    removal = p.remove_system("a")
    assert not p.has_system("a") and p.has_system("b")
    p.restore_system(removal)
    assert p.system("a").texts == {"s1": "x"} and [s.id for s in p.systems] == ["a", "b"]
    p.remove_reference("r")
    assert not p.has_reference("r")


def test_loading_is_linear_in_systems():
    small, large = _bundle_text(10_000), _bundle_text(100_000)
    t_small = _timed(loads, small)
    t_large = _timed(loads, large)
    project = loads(large)
    assert len(project.systems) == 100_000 and project.has_system("sys99999")
    # Linear: ~10x; quadratic: ~100x (and 60 s and more before the index).
    assert t_large < 30 * max(t_small, 0.05), (t_small, t_large)


def _typology(n: int) -> dict:
    return {"categories": [{"name": f"Kategorie {k}", "key": ""} for k in range(n)]}


def test_typology_reading_and_merging_is_linear_in_categories():
    small, large = _typology(10_000), _typology(100_000)
    t_small = _timed(typology_from_json, small)
    t_large = _timed(typology_from_json, large)
    typology = typology_from_json(large)
    assert len(typology.categories) == 100_000 and "Kategorie 99999" in typology
    assert t_large < 30 * max(t_small, 0.05), (t_small, t_large)
    merged = typology_from_json(_typology(3)).with_names(f"Neu {k}/Unter" for k in range(50_000))
    assert len(merged.categories) == 50_003 and "Neu 49999/Unter" in merged


def test_with_names_keeps_keys_unique_and_order():
    base = typology_from_json({"categories": [{"name": "Accuracy", "key": "a"}]})
    merged = base.with_names(["Accuracy/Omission", "Ärger", "Accuracy/Addition", "Ärger", "  ", "抜け/訳"])
    assert [e.full_name for e in merged.entries()] == [
        "Accuracy", "Accuracy/Omission", "Accuracy/Addition", "Ärger", "抜け", "抜け/訳"]
    keys = [c.key.casefold() for c in merged.categories if c.key]
    assert len(keys) == len(set(keys))
    assert base.with_names(["Accuracy"]) is base


def test_duplicates_in_a_large_typology_file_are_still_refused(tmp_path):
    from mtworkbench.core.errors import BundleError

    data = _typology(1000)
    data["categories"].append({"name": "Kategorie 5", "key": ""})
    try:
        typology_from_json(data)
    except BundleError as exc:
        assert "duplicate category 'Kategorie 5'" in str(exc) and "categories[1000]" in str(exc)
    else:
        raise AssertionError("a duplicate category was accepted")
    data = {"categories": [{"name": "Eins", "key": "x"}, {"name": "Zwei", "key": "X"}]}
    try:
        typology_from_json(json.loads(json.dumps(data)))
    except BundleError as exc:
        assert "key 'X' is taken by 'Eins'" in str(exc)
    else:
        raise AssertionError("a taken key was accepted")


def test_typology_import_of_100000_categories_runs_in_seconds(tmp_path):
    from mtworkbench.io.bundle.bundle import load_bundle, save_bundle

    from .helpers import cli, project

    bundle = tmp_path / "p.mtwb.json"
    save_bundle(project(), bundle)
    typology = tmp_path / "typology.json"
    typology.write_text(json.dumps(_typology(100_000), ensure_ascii=False), encoding="utf-8")
    done = cli("typology", str(bundle), "--import", str(typology), timeout=60)
    assert done.returncode == 0, done.stderr
    assert len(load_bundle(bundle).settings.mqm_typology.categories) == 100_000
