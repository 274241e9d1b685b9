"""Scores persist with the project (scoring/store.py): a second run reuses them,
an edit to one kind of input recomputes exactly the scores that read it, and a
corrupt or other-version file is ignored with a notice."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from mtworkbench.core.model import EntitySpan
from mtworkbench.io.bundle.bundle import save_bundle
from mtworkbench.metrics.registry import create_metric
from mtworkbench.scoring import store as store_module
from mtworkbench.scoring.cache import ScoreCache
from mtworkbench.scoring.job import ScoringRequest, run_scoring
from mtworkbench.scoring.store import attach, load_project, store_path
from tests.gui.metrics_synthetic import synthetic_project

SPECS = ("bleu", "chrf", "ter", "nee")
SYSTEMS = ("sys0", "sys1")


@pytest.fixture
def bundle(tmp_path):
    return make_bundle(tmp_path)


def make_bundle(tmp_path):
    """Two systems, one reference with one entity span, saved as ``p.mtwb.json``."""
    project = synthetic_project(12, 2, words=8)
    seg = project.segment_ids[0]
    text = project.reference_text("ref", seg)
    end = text.index(" ")
    project.add_span(EntitySpan("e1", "ref", seg, 0, end, "PERSON", "ann"))
    path = tmp_path / "p.mtwb.json"
    save_bundle(project, path)
    return path


def run(project, specs=SPECS, systems=SYSTEMS):
    request = ScoringRequest(specs=tuple(specs), systems=tuple(systems), ci_samples=0, use_processes=False)
    outcome = run_scoring(project, ScoreCache(), request)
    assert not outcome.failures, outcome.errors
    return outcome


def computed(outcome) -> set[tuple[str, str]]:
    return {(i.system, i.spec) for i in outcome.items} - set(outcome.restored)


ALL = {(s, m) for s in SYSTEMS for m in SPECS}


def test_second_run_restores_everything_with_equal_numbers(bundle):
    first = run(load_project(bundle))
    assert computed(first) == ALL and store_path(bundle).exists()
    second = run(load_project(bundle))
    assert computed(second) == set() and set(second.restored) == ALL
    by_key = {(i.system, i.spec): i.entry.score for i in first.items}
    for item in second.items:
        old, new = by_key[(item.system, item.spec)], item.entry.score
        assert new.corpus == old.corpus and new.signature == old.signature and new.system == old.system
        np.testing.assert_array_equal(new.segments, old.segments)
        np.testing.assert_array_equal(new.stats, old.stats)
        assert new.extras == old.extras and new.to_json() == old.to_json()


def test_editing_a_hypothesis_recomputes_that_system_only(bundle):
    run(load_project(bundle))
    project = load_project(bundle)
    project.set_system_text("sys1", project.segment_ids[3], "something else entirely")
    assert computed(run(project)) == {("sys1", m) for m in SPECS}


def test_editing_a_reference_recomputes_every_system(bundle):
    run(load_project(bundle))
    project = load_project(bundle)
    seg = project.segment_ids[5]
    project.set_reference_text("ref", seg, project.reference_text("ref", seg) + " more")
    assert computed(run(project)) == ALL


def test_editing_an_annotation_recomputes_nee_only(bundle):
    run(load_project(bundle))
    project = load_project(bundle)
    seg = project.segment_ids[1]
    text = project.reference_text("ref", seg)
    project.add_span(EntitySpan("e2", "ref", seg, 0, text.index(" "), "LOCATION", "ann"))
    assert computed(run(project)) == {(s, "nee") for s in SYSTEMS}


def test_a_changed_option_is_computed_the_rest_restored(bundle):
    run(load_project(bundle))
    outcome = run(load_project(bundle), specs=("bleu", "bleu:tokenize=none", "chrf:beta=3"))
    assert computed(outcome) == {(s, m) for s in SYSTEMS for m in ("bleu:tokenize=none", "chrf:beta=3")}
    assert set(outcome.restored) == {(s, "bleu") for s in SYSTEMS}


def test_a_changed_learned_model_recomputes_learned(bundle):
    from tests.scoring.test_service import tiny_model

    project = load_project(bundle)
    project.learned_model = tiny_model().to_json()
    run(project, specs=("learned", "bleu"))
    again = load_project(bundle)
    again.learned_model = tiny_model().to_json()
    assert computed(run(again, specs=("learned", "bleu"))) == set()
    other = tiny_model()
    other.intercept = other.intercept + 1.0  # a different model
    again.learned_model = other.to_json()
    assert computed(run(again, specs=("learned", "bleu"))) == {(s, "learned") for s in SYSTEMS}


def test_undo_finds_the_old_scores_again(bundle):
    project = load_project(bundle)
    run(project)
    seg = project.segment_ids[0]
    old = project.set_system_text("sys0", seg, "changed")
    run(project)
    project.set_system_text("sys0", seg, old)
    # the file keeps one version per (system, spec): the changed one replaced it
    assert computed(run(project)) == {("sys0", m) for m in SPECS}
    assert computed(run(project)) == set()


def test_corrupt_file_is_ignored_with_a_notice(bundle, capsys):
    run(load_project(bundle))
    path = store_path(bundle)
    path.write_bytes(path.read_bytes()[:200])
    capsys.readouterr()
    outcome = run(load_project(bundle))
    err = capsys.readouterr().err
    assert "corrupt score cache" in err and len(err.strip().splitlines()) == 1
    assert computed(outcome) == ALL
    assert computed(run(load_project(bundle))) == set()  # rewritten whole


def test_garbage_and_other_version_files_are_ignored(bundle, capsys, monkeypatch):
    path = store_path(bundle)
    path.write_text("not a zip at all", encoding="utf-8")
    capsys.readouterr()
    assert computed(run(load_project(bundle))) == ALL
    assert "corrupt score cache" in capsys.readouterr().err
    monkeypatch.setattr(store_module, "STORE_VERSION", store_module.STORE_VERSION + 1)
    assert computed(run(load_project(bundle))) == ALL
    assert "another version" in capsys.readouterr().err


def test_tampered_numbers_with_wrong_shape_are_not_trusted(bundle, capsys):
    run(load_project(bundle), specs=("bleu",))
    path = store_path(bundle)
    with np.load(path) as npz:
        arrays = dict(npz)
    arrays["stats0"] = arrays["stats0"][:, :2]  # no longer BLEU's statistics
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)
    capsys.readouterr()
    outcome = run(load_project(bundle), specs=("bleu",))
    assert computed(outcome) != set()


def test_a_project_never_attached_persists_nothing(tmp_path):
    project = synthetic_project(5, 2)
    run(project, specs=("bleu",))
    assert list(tmp_path.iterdir()) == []


def test_numbers_equal_a_fresh_metric(bundle):
    run(load_project(bundle))
    project = load_project(bundle)
    outcome = run(project)
    from mtworkbench.core.project_input import scoring_input

    for item in outcome.items:
        fresh = create_metric(item.spec)
        fresh.bind(project)
        expected = fresh.score(scoring_input(project, item.system))
        assert item.entry.score.corpus == expected.corpus
        np.testing.assert_array_equal(item.entry.score.segments, expected.segments)


def test_score_command_twice_prints_the_same_and_restores(bundle):
    cmd = [sys.executable, "-m", "mtworkbench", "score", str(bundle), "--metric", "bleu", "--metric", "ter", "--json"]
    first = subprocess.run(cmd, capture_output=True, text=True, check=True)
    assert store_path(bundle).exists()
    second = subprocess.run(cmd, capture_output=True, text=True, check=True)
    assert second.stdout == first.stdout
    assert json.loads(second.stdout)["scores"][0]["metric"] == "bleu"


def test_attach_twice_keeps_one_store(bundle):
    project = load_project(bundle)
    assert attach(project, bundle) is attach(project, bundle)


def test_array_extras_round_trip_exactly(bundle):
    """NIST, GTM and METEOR keep numpy arrays among their extras."""
    first = run(load_project(bundle), specs=("nist", "gtm"))
    second = run(load_project(bundle), specs=("nist", "gtm"))
    assert computed(second) == set()
    old = {(i.system, i.spec): i.entry.score for i in first.items}
    for item in second.items:
        extras = old[(item.system, item.spec)].extras
        assert set(item.entry.score.extras) == set(extras)
        for name, value in extras.items():
            got = item.entry.score.extras[name]
            assert type(got) is type(value)
            np.testing.assert_array_equal(got, value)
            if isinstance(value, np.ndarray):
                assert got.dtype == value.dtype


def test_read_only_bundle_folder_keeps_scores_in_the_user_cache(bundle, tmp_path, monkeypatch):
    """(Simulated: the tests run as root, who may write anywhere.)"""
    monkeypatch.setenv("MTWB_CACHE_DIR", str(tmp_path / "cache"))
    real_write = store_module._write_atomically

    def refuse_beside_bundle(path, arrays):
        if path.parent == bundle.parent:
            raise PermissionError(13, "Permission denied", str(path))
        real_write(path, arrays)

    monkeypatch.setattr(store_module, "_write_atomically", refuse_beside_bundle)
    assert computed(run(load_project(bundle))) == ALL
    assert not store_path(bundle).exists()
    assert list((tmp_path / "cache" / "scores").glob("p.mtwb.json.*.scores.npz"))
    assert computed(run(load_project(bundle))) == set()


def test_scores_of_other_metric_code_are_not_reused(bundle, capsys, monkeypatch):
    run(load_project(bundle), specs=("bleu",))
    monkeypatch.setattr(store_module, "metrics_code_digest", lambda: "a metric was fixed since")
    capsys.readouterr()
    assert computed(run(load_project(bundle), specs=("bleu",))) == {(s, "bleu") for s in SYSTEMS}
    assert "another version" in capsys.readouterr().err


def test_the_shipped_demo_keeps_its_scores_in_the_user_cache(tmp_path, monkeypatch):
    # Scoring the demo where it ships (the program's resources folder) must not write a
    # score file into the program's own folder: an installed copy or a desktop build.
    from mtworkbench.io.bundle.bundle import load_bundle
    from mtworkbench.resources import demo_project_path
    from mtworkbench.scoring.store import attach, fallback_path, store_path

    monkeypatch.setenv("MTWB_CACHE_DIR", str(tmp_path / "cache"))
    demo = demo_project_path()
    store = attach(load_bundle(demo), demo)
    assert store.path == fallback_path(demo)
    assert tmp_path / "cache" in store.path.parents
    assert store.path != store_path(demo)
