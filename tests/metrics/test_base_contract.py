"""The metric contract: the base class's loop (progress, cancel), its reference
cache, the one explain() signature and the Signature object."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from mtworkbench import __version__
from mtworkbench.core.jobs import Cancelled
from mtworkbench.metrics import Metric, MetricError, ScoringInput, create_metric, metric_class, metric_names
from mtworkbench.metrics.base import Option, parse_bool
from mtworkbench.metrics.signature import Signature


class Overlap(Metric):
    """Counts its reference extractions and segment rows; statistics are
    (hypothesis words also in a reference, hypothesis words)."""

    name = "overlap"
    progress_every = 3
    option_specs = (
        Option("lowercase", parse_bool, False, "lowercase first"),
        Option("label", str, "x", "an option that does not touch the references"),
    )
    reference_options = ("lowercase",)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.extracted: list[int] = []
        self.rows = 0

    @property
    def stat_names(self) -> tuple[str, ...]:
        return ("shared", "hyp_len")

    def words(self, text: str) -> list[str]:
        return (text.lower() if self.options["lowercase"] else text).split()

    def extract_reference(self, segment: int, refs: Sequence[str | None]) -> set[str]:
        self.extracted.append(segment)
        return {w for r in super().extract_reference(segment, refs) for w in self.words(r)}

    def statistics_row(self, segment: int, hypothesis: str, prepared: set[str]) -> tuple[int, int]:
        self.rows += 1
        hyp = self.words(hypothesis)
        return sum(w in prepared for w in hyp), len(hyp)

    def aggregate(self, totals: np.ndarray) -> np.ndarray | float:
        t = np.asarray(totals, dtype=float)
        out = np.where(t[..., 1] > 0, t[..., 0] / np.maximum(t[..., 1], 1), 0.0)
        return float(out) if out.ndim == 0 else out


REFS = [f"word{i} common Word{i}" for i in range(10)]


def system(prefix: str) -> ScoringInput:
    # Fresh lists each time: the cache must key on content, not identity.
    return ScoringInput([f"{prefix} word{i} common" for i in range(10)], [list(REFS)])


def test_loop_reports_progress_monotonically_up_to_the_total() -> None:
    calls: list[tuple[int, int]] = []
    stats = Overlap().segment_statistics(system("a"), progress=lambda d, t: calls.append((d, t)))
    assert stats.shape == (10, 2) and stats[:, 0].tolist() == [2.0] * 10
    done = [d for d, _ in calls]
    assert all(t == 10 for _, t in calls)
    assert done == sorted(done) and done[0] == 0 and calls[-1] == (10, 10)
    assert len(calls) >= 4  # every progress_every (3) segments, not only at the ends


def test_cancel_stops_the_loop_with_the_cancel_exception() -> None:
    metric = Overlap()
    checks = []

    def cancel() -> bool:
        checks.append(1)
        return len(checks) >= 2  # the second check (at segment 3) cancels

    with pytest.raises(Cancelled):
        metric.segment_statistics(system("a"), cancel=cancel)
    assert metric.rows == 3


def test_references_are_extracted_once_for_many_systems() -> None:
    metric = Overlap()
    first = metric.score(system("a"))
    second = metric.score(system("b"))
    assert metric.extracted == list(range(10))  # not twice
    assert metric.rows == 20
    assert first.corpus == second.corpus == pytest.approx(2 / 3)


def test_a_changed_reference_is_extracted_again() -> None:
    metric = Overlap()
    metric.score(system("a"))
    data = system("a")
    changed = list(REFS)
    changed[4] = "something else"
    metric.score(ScoringInput(data.hypotheses, [changed]))
    assert len(metric.extracted) == 20
    assert metric.score(ScoringInput(data.hypotheses, [changed])).segments[4] == 0.0


def test_the_cache_key_holds_the_extraction_options_only() -> None:
    metric = Overlap()
    metric.score(system("a"))
    metric.options["label"] = "y"  # not a reference option: still a hit
    metric.score(system("a"))
    assert len(metric.extracted) == 10
    metric.options["lowercase"] = True  # changes the extracted words
    metric.score(system("a"))
    assert len(metric.extracted) == 20


@pytest.mark.parametrize("spec", ["bleu", "nist", "wer", "per", "ter", "chrf", "chrf++", "gtm", "meteor:modules=exact", "lepor", "hlepor"])
def test_every_metric_prepares_references_once_for_two_systems(spec: str) -> None:
    metric = create_metric(spec)
    calls = []
    prepare = metric.prepare_references

    def counting(data: ScoringInput) -> Any:
        calls.append(1)
        return prepare(data)

    metric.prepare_references = counting  # type: ignore[method-assign]
    refs = [["the cat sat on the mat", "a dog"], ["the cat is on the mat", None]]
    one = metric.score(ScoringInput(["the cat sat on a mat", "a dog barked"], [list(s) for s in refs]))
    two = metric.score(ScoringInput(["the mat", "dog"], [list(s) for s in refs]))
    again = create_metric(spec).score(ScoringInput(["the mat", "dog"], refs))
    assert len(calls) == 1
    # the cached references give the same numbers as a fresh instance
    assert np.array_equal(two.stats, again.stats) and two.corpus == again.corpus
    assert not np.array_equal(one.stats, two.stats)


@pytest.mark.parametrize("name", metric_names())
def test_every_metric_has_the_one_explain_signature(name: str) -> None:
    params = list(inspect.signature(metric_class(name).explain).parameters.values())
    assert [p.name for p in params] == ["self", "data", "segment", "ref"]
    assert params[3].default is None


def test_explain_restricted_to_one_reference() -> None:
    data = ScoringInput(["the cat sat"], [["the cat sat"], ["a dog ran"]])
    for spec in ("bleu", "wer", "gtm", "meteor:modules=exact", "lepor", "nist"):
        metric = create_metric(spec)
        assert metric.explain(data, 0, ref=1) != metric.explain(data, 0, ref=0), spec
    with pytest.raises(MetricError, match="out of range"):
        create_metric("wer").explain(data, 0, ref=2)


def test_a_metric_without_explanation_says_so() -> None:
    with pytest.raises(MetricError, match="overlap: no explanation is available"):
        Overlap().explain(system("a"), 0)


def test_signature_object_formats_fields_in_order() -> None:
    sig = Signature("m", 2, (("tok", "13a"), ("lc", False), ("w", (1.0, 0.5))))
    version = f"version:mtworkbench-{__version__}"
    assert sig.format() == f"m|nrefs:2|tok:13a|lc:no|w:1.0+0.5|{version}"
    assert str(sig.with_field("lang", "de")) == f"m|nrefs:2|tok:13a|lc:no|w:1.0+0.5|lang:de|{version}"
    assert str(Signature("m").with_trailing("seed", 1)) == f"m|{version}|seed:1"


def test_metric_signature_comes_from_its_options() -> None:
    assert Overlap(lowercase="yes").signature(1) == (
        f"overlap|nrefs:1|lowercase:yes|label:x|version:mtworkbench-{__version__}"
    )
