"""The scoring job without Qt: worker processes and the thread give the same
numbers, results are reused from the cache, cancel stops both paths, and a
metric that cannot score the project is reported, not raised."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu
from metrics_synthetic import synthetic_project

from mtworkbench.core.jobs import Cancelled
from mtworkbench.core.project_input import scoring_input
from mtworkbench.scoring.cache import ScoreCache, pack_input
from mtworkbench.scoring.job import InputReader, ScoringRequest, run_scoring


def store_all(cache, outcome):
    for item in outcome.items:
        cache.store(item.system, item.spec, item.fingerprint, item.entry, item.generation)


def test_input_reader_equals_scoring_input_for_every_system():
    project = synthetic_project(30, 3)
    reader = InputReader(project, ScoreCache())
    for system in ("sys0", "sys1", "sys2"):
        blob, fp, _generation = reader.read(system)
        assert (blob, fp) == pack_input(scoring_input(project, system))


def test_processes_and_thread_agree_and_match_sacrebleu():
    project = synthetic_project(200, 3)
    request = {"specs": ("bleu", "wer"), "systems": ("sys0", "sys1", "sys2"), "baseline": "sys0",
               "ci_samples": 200, "paired_samples": 200}
    in_thread = run_scoring(project, ScoreCache(), ScoringRequest(**request, use_processes=False))
    in_processes = run_scoring(project, ScoreCache(), ScoringRequest(**request, use_processes=True))
    assert not in_thread.used_processes and in_processes.used_processes
    by_key = {(i.system, i.spec): i.entry for i in in_processes.items}
    assert len(by_key) == 6
    for item in in_thread.items:
        other = by_key[(item.system, item.spec)]
        assert other.score.corpus == item.entry.score.corpus
        np.testing.assert_array_equal(other.score.stats, item.entry.score.stats)
        assert other.ci == item.entry.ci  # same seed, same resamples
    for spec in ("bleu", "wer"):
        assert in_thread.paired[spec][1] == in_processes.paired[spec][1]
    hyps = [project.system_text("sys1", s) for s in project.segment_ids]
    refs = [[project.reference_text("ref", s) for s in project.segment_ids]]
    assert by_key[("sys1", "bleu")].score.corpus == pytest.approx(sacrebleu.corpus_bleu(hyps, refs).score, abs=1e-9)


def test_cached_results_are_not_computed_again():
    project = synthetic_project(50, 2)
    cache = ScoreCache()
    request = ScoringRequest(("bleu",), ("sys0", "sys1"), ci_samples=0, use_processes=False)
    store_all(cache, run_scoring(project, cache, request))
    calls = []
    again = run_scoring(project, cache, request, progress=lambda d, t: calls.append((d, t)))
    assert [i.entry for i in again.items] == [cache.current("sys0", "bleu"), cache.current("sys1", "bleu")]
    assert calls and all(t == 1000 * 1 or t == 1 for _d, t in calls)  # only the paired step counted


@pytest.mark.parametrize("use_processes", [False, True])
def test_cancel_stops_the_job(use_processes):
    project = synthetic_project(400, 4)
    request = ScoringRequest(("chrf",), ("sys0", "sys1", "sys2", "sys3"), ci_samples=0, use_processes=use_processes)
    seen = []

    def cancel() -> bool:
        return len(seen) > 0

    with pytest.raises(Cancelled):
        run_scoring(project, ScoreCache(), request, progress=lambda d, t: seen.append(d), cancel=cancel)


@pytest.mark.parametrize("use_processes", [False, True])
def test_a_metric_that_cannot_score_is_reported(use_processes):
    project = synthetic_project(20, 2)  # no entity annotated: NEE has nothing to score
    outcome = run_scoring(project, ScoreCache(), ScoringRequest(("bleu", "nee"), ("sys0", "sys1"), baseline="sys0",
                                                                ci_samples=0, use_processes=use_processes))
    assert {i.spec for i in outcome.items} == {"bleu"}
    assert "no reference has any entity annotated" in outcome.errors["nee"]
    assert set(outcome.paired) == {"bleu"}
