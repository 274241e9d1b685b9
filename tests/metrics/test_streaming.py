"""Very long inputs: above ``Metric.stream_above`` segments the base loop extracts
references batch by batch and keeps none (memory), with the same statistics."""

from __future__ import annotations

import numpy as np
import pytest

from mtworkbench.core.scoring_input import ScoringInput
from mtworkbench.metrics.registry import create_metric

from .corpora import random_corpus


@pytest.mark.parametrize("spec", ["chrf", "chrf++", "ter", "wer", "lepor"])
def test_streamed_statistics_equal_cached_ones(spec, monkeypatch):
    hyps, refs = random_corpus(3)
    data = ScoringInput(hyps, refs)
    cached = create_metric(spec)
    expected = cached.score(data)
    assert len(cached._reference_cache) == 1  # the metric goes through the base loop
    metric = create_metric(spec)
    monkeypatch.setattr(type(metric), "stream_above", 2)
    streamed = metric.score(data)
    np.testing.assert_array_equal(streamed.stats, expected.stats)
    assert streamed.corpus == expected.corpus
    assert len(metric._reference_cache) == 0  # nothing kept
