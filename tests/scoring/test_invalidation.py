"""Issue 14, item 3: every kind of input, edited, recomputes exactly the scores
that read it (counted), and every way a score file can be wrong is ignored with a
notice naming the file and why. ``correlate``, ``reliability`` and the Analysis
job reuse the persisted scores."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from mtworkbench.cli import main
from mtworkbench.core.model import EntitySpan, Judgment
from mtworkbench.io.bundle.bundle import bundle_transaction, save_bundle
from mtworkbench.scoring import job as job_module
from mtworkbench.scoring.cache import ScoreCache, cache_for
from mtworkbench.scoring.job import ScoringRequest, run_scoring
from mtworkbench.scoring.store import load_project, store_path
from tests.gui.metrics_synthetic import synthetic_project
from tests.scoring.test_store import ALL, SPECS, SYSTEMS, computed, make_bundle, run


@pytest.fixture
def bundle(tmp_path):
    return make_bundle(tmp_path)


# --- each kind of input ----------------------------------------------------------------------
def test_editing_a_source_recomputes_nothing(bundle):
    """No metric here reads the source (``Metric.reads``): all are restored."""
    run(load_project(bundle))
    project = load_project(bundle)
    seg = project.segment_ids[4]
    project.set_segment_source(seg, project.segment(seg).source + " edited")
    assert computed(run(project)) == set()


def test_editing_a_source_in_the_app_recomputes_nothing(bundle):
    """The app's in-memory cache drops everything on a source edit; the score file
    still knows what each metric read."""
    project = load_project(bundle)
    cache = cache_for(project)
    request = ScoringRequest(specs=SPECS, systems=SYSTEMS, ci_samples=0, use_processes=False)
    run_scoring(project, cache, request)
    project.set_segment_source(project.segment_ids[0], "a new source")
    assert cache.missing(list(SYSTEMS), list(SPECS))  # the event reached the cache
    outcome = run_scoring(project, cache, request)
    assert computed(outcome) == set() and set(outcome.restored) == ALL


def test_changing_the_target_language_recomputes_every_score(bundle):
    run(load_project(bundle))
    project = load_project(bundle)
    project.set_target_language("de")
    assert computed(run(project)) == ALL
    project = load_project(bundle)
    project.set_target_language("de")
    assert computed(run(project)) == set()  # and the new scores persisted


def test_a_judgment_recomputes_no_metric_score(bundle):
    run(load_project(bundle))
    project = load_project(bundle)
    project.add_judge("ann")
    project.add_judgment(Judgment("j1", "ann", "sys0", project.segment_ids[0], score=3.0, scale="da"))
    assert computed(run(project)) == set()


def test_removing_an_entity_span_recomputes_nee_only(bundle):
    run(load_project(bundle))
    project = load_project(bundle)
    project.remove_span("e1")
    outcome = run(project, specs=("bleu", "chrf", "ter"))
    assert computed(outcome) == set()
    with pytest.raises(AssertionError):  # no entity is left: NEE cannot score, nothing stale is served
        run(project, specs=("nee",))


def test_a_span_in_another_layer_recomputes_only_nee_reading_that_layer(bundle):
    project = load_project(bundle)
    seg = project.segment_ids[2]
    text = project.reference_text("ref", seg)
    project.add_span(EntitySpan("b1", "ref", seg, 0, text.index(" "), "PERSON", "bob"))
    seg = project.segment_ids[5]
    project.add_span(EntitySpan("e2", "ref", seg, 0, project.reference_text("ref", seg).index(" "), "PERSON", "ann"))
    save_bundle(project, bundle)
    specs = ("nee", "nee:layer=bob", "bleu")
    run(load_project(bundle), specs=specs)
    project = load_project(bundle)
    seg = project.segment_ids[3]
    text = project.reference_text("ref", seg)
    # bob's layer (2 spans to ann's 2): ann's stays the default (ties go to the first name), so plain NEE keeps its score
    project.add_span(EntitySpan("b2", "ref", seg, 0, text.index(" "), "LOCATION", "bob"))
    assert computed(run(project, specs=specs)) == {(s, "nee:layer=bob") for s in SYSTEMS}


def test_a_metric_option_recomputes_that_spec_only(bundle):
    run(load_project(bundle), specs=("chrf", "ter"))
    outcome = run(load_project(bundle), specs=("chrf", "chrf:beta=1", "ter", "ter:case_sensitive=true"))
    assert computed(outcome) == {(s, m) for s in SYSTEMS for m in ("chrf:beta=1", "ter:case_sensitive=true")}


def test_scores_read_back_equal_a_fresh_computation_after_each_edit(bundle):
    """Whatever was restored after an edit is exactly what a fresh run computes."""
    run(load_project(bundle))
    project = load_project(bundle)
    project.set_system_text("sys0", project.segment_ids[1], "new words here")
    project.set_segment_source(project.segment_ids[2], "other source")
    restored = run(project)
    fresh = run_scoring(project, ScoreCache(), ScoringRequest(specs=SPECS, systems=SYSTEMS, ci_samples=0,
                                                              use_processes=False))
    by_key = {(i.system, i.spec): i.entry.score for i in fresh.items}
    assert computed(restored) == {("sys0", m) for m in SPECS}
    for item in restored.items:
        old = by_key[(item.system, item.spec)]
        assert item.entry.score.corpus == old.corpus and item.entry.score.signature == old.signature
        np.testing.assert_array_equal(item.entry.score.segments, old.segments)


# --- files that cannot be trusted ------------------------------------------------------------
def test_a_stale_file_from_before_an_edit_is_not_trusted(bundle, capsys):
    run(load_project(bundle))
    before_edit = bundle.parent / "before.npz"
    shutil.copyfile(store_path(bundle), before_edit)
    project = load_project(bundle)
    project.set_system_text("sys1", project.segment_ids[0], "edited and saved")
    save_bundle(project, bundle)
    run(load_project(bundle))
    shutil.copyfile(before_edit, store_path(bundle))  # the old file comes back (a restore, a sync tool)
    capsys.readouterr()
    assert computed(run(load_project(bundle))) == {("sys1", m) for m in SPECS}
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(store_path(bundle)) in err
    assert f"{len(SPECS)} stored scores are stale" in err and "of sys1" in err
    assert computed(run(load_project(bundle))) == set()  # rewritten: no notice any more
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("damage, why", [
    (lambda path: path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2]), "corrupt score cache"),
    (lambda path: path.write_bytes(b""), "corrupt score cache"),
    (lambda path: path.write_bytes(b"PK\x03\x04" + b"\x00" * 64), "corrupt score cache"),
    (lambda path: np.savez(path, header=np.frombuffer(b"{not json", dtype=np.uint8)), "corrupt score cache"),
    (lambda path: np.savez(path, header=np.frombuffer(json.dumps({"format": "x"}).encode(), dtype=np.uint8)),
     "not a score cache"),
])
def test_a_damaged_file_is_ignored_with_a_notice_naming_it(bundle, capsys, damage, why):
    run(load_project(bundle))
    path = store_path(bundle)
    damage(path)
    capsys.readouterr()
    assert computed(run(load_project(bundle))) == ALL
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(path) in err and why in err
    assert computed(run(load_project(bundle))) == set()  # rewritten whole, trusted again


def _rewrite_header(path, **changes):
    with np.load(path) as npz:
        arrays = dict(npz)
    header = json.loads(bytes(arrays["header"]).decode())
    header.update(changes)
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)


@pytest.mark.parametrize("changes", [{"mtworkbench": "0.0.1"}, {"version": 99}, {"metrics_code": "0" * 32}])
def test_a_file_from_another_version_is_ignored_with_a_notice_naming_it(bundle, capsys, changes):
    run(load_project(bundle))
    path = store_path(bundle)
    _rewrite_header(path, **changes)
    capsys.readouterr()
    assert computed(run(load_project(bundle))) == ALL
    err = capsys.readouterr().err.strip()
    assert str(path) in err and "another version" in err


def test_entries_that_do_not_fit_are_not_trusted(bundle, capsys):
    run(load_project(bundle), specs=("bleu",))
    path = store_path(bundle)
    with np.load(path) as npz:
        arrays = dict(npz)
    arrays["seg0"] = arrays["seg0"][:-1]  # one segment score short
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)
    capsys.readouterr()
    assert computed(run(load_project(bundle), specs=("bleu",))) == {(s, "bleu") for s in SYSTEMS}
    assert str(path) in capsys.readouterr().err


# --- the commands and the app reuse the file -----------------------------------------------------
@pytest.fixture
def rated_bundle(tmp_path):
    project = synthetic_project(30, 4, words=8)
    project.add_judge("da")
    rng = np.random.default_rng(5)
    for s in project.systems:
        for seg in project.segment_ids:
            project.add_judgment(Judgment(project.new_id("j"), "da", s.id, seg, score=float(rng.normal()), scale="da"))
    path = tmp_path / "rated.mtwb.json"
    save_bundle(project, path)
    return path


@pytest.fixture
def count_scoring(monkeypatch):
    """(system, spec) pairs actually computed in this process."""
    calls: list[tuple[str, str]] = []
    real = job_module.score_one

    def counting(metric, data, ci_samples, seed, progress=None, cancel=None, system=None):
        calls.append((system, metric.name))
        return real(metric, data, ci_samples, seed, progress, cancel, system=system)

    monkeypatch.setattr(job_module, "score_one", counting)
    return calls


def _json_out(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_correlate_reuses_the_scores_and_a_judgment_changes_only_the_correlation(rated_bundle, capsys, count_scoring):
    argv = ["correlate", str(rated_bundle), "--human", "da", "--metric", "bleu", "--metric", "chrf", "--json"]
    first = _json_out(capsys, argv)
    assert len(count_scoring) == 8
    count_scoring.clear()
    assert _json_out(capsys, argv) == first and count_scoring == []
    with bundle_transaction(rated_bundle) as project:
        project.add_judgment(Judgment("extra", "da", "sys0", project.segment_ids[0], score=40.0, scale="da"))
    changed = _json_out(capsys, argv)
    assert count_scoring == []  # a judgment is no metric input
    assert changed["results"][0]["r"] != first["results"][0]["r"]  # human scores are never cached


def test_reliability_reuses_the_scores(rated_bundle, capsys, count_scoring):
    argv = ["reliability", str(rated_bundle), "--human", "da", "--metric", "bleu", "--lengths", "1,5",
            "--docs", "10", "--json"]
    first = _json_out(capsys, argv)
    assert len(count_scoring) == 4
    count_scoring.clear()
    assert _json_out(capsys, argv) == first and count_scoring == []


def test_score_reuses_what_correlate_computed(rated_bundle, capsys, count_scoring):
    _json_out(capsys, ["correlate", str(rated_bundle), "--human", "da", "--metric", "ter", "--json"])
    count_scoring.clear()
    _json_out(capsys, ["score", str(rated_bundle), "--metric", "ter", "--jobs", "1", "--json"])
    assert count_scoring == []


def test_the_analysis_job_reuses_the_scores(rated_bundle, count_scoring):
    from mtworkbench.analysis.human_scores import collect_human_scores
    from mtworkbench.scoring.analysis_job import AnalysisRequest, run_analysis

    def analyse():
        project = load_project(rated_bundle)
        human = collect_human_scores(project, "da", z=False)
        request = AnalysisRequest(human_spec="da", z=False, specs=("bleu", "chrf"), with_reliability=False)
        return run_analysis(project, cache_for(project), human, request)

    first = analyse()
    assert len(count_scoring) == 8
    count_scoring.clear()
    second = analyse()
    assert count_scoring == []
    assert [c.r for c in second.correlations] == [c.r for c in first.correlations]


def test_an_unsaved_project_recomputes_only_what_an_edit_touched_and_keeps_it_on_save(tmp_path):
    from tests.scoring.test_store import SPECS as specs

    project = synthetic_project(12, 2, words=8)
    seg = project.segment_ids[0]
    project.add_span(EntitySpan("e1", "ref", seg, 0, project.reference_text("ref", seg).index(" "), "PERSON", "ann"))
    cache = cache_for(project)  # the app's cache: it drops everything a source or span edit may touch
    request = ScoringRequest(specs=specs, systems=SYSTEMS, ci_samples=0, use_processes=False)
    assert computed(run_scoring(project, cache, request)) == ALL
    project.set_segment_source(project.segment_ids[1], "edited source")
    assert computed(run_scoring(project, cache, request)) == set()
    seg = project.segment_ids[2]
    project.add_span(EntitySpan("e2", "ref", seg, 0, project.reference_text("ref", seg).index(" "), "PERSON", "ann"))
    assert computed(run_scoring(project, cache, request)) == {(s, "nee") for s in SYSTEMS}
    assert list(tmp_path.iterdir()) == []  # nothing written while unsaved
    path = tmp_path / "first-save.mtwb.json"
    from mtworkbench.scoring.store import attach

    save_bundle(project, path)
    attach(project, path)  # the app attaches after its first save
    assert computed(run(load_project(path))) == set()
