"""The example of docs/adding-a-metric.md, run as written: its module is taken
from the page, registered with one line and scored through the API and the CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from mtworkbench.metrics import MetricError, ScoringInput, create_metric, metric_names, registry


@pytest.fixture
def length_ratio(project_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Write the page's example module and register it; returns the metric name."""
    page = (project_root / "docs" / "adding-a-metric.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", page, re.S)
    assert code is not None, "docs/adding-a-metric.md: no python block"
    (tmp_path / "length_ratio_example.py").write_text(code.group(1), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_METRICS", dict(registry._METRICS))
    registry.register_metric("length_ratio", "length_ratio_example:LengthRatio")
    return "length_ratio"


def test_example_metric_scores_through_the_api(length_ratio: str) -> None:
    assert length_ratio in metric_names()
    metric = create_metric("length_ratio:lowercase=yes")
    data = ScoringInput(
        hypotheses=["a b c", "one two", ""],
        references=[["a b c d", "one two three", "x"], ["a b", None, "y z"]],
    )
    score = metric.score(data)
    # mean reference lengths 3, 3, 1.5; hypothesis lengths 3, 2, 0
    assert np.allclose(score.segments, [3 / 3, 2 / 3, 0.0])
    assert score.corpus == pytest.approx(5 / 7.5)
    assert score.signature.startswith("length_ratio|nrefs:2|tok:13a|lc:yes|version:mtworkbench-")
    with pytest.raises(MetricError, match="no explanation is available"):
        metric.explain(data, 0)


def test_example_metric_scores_through_the_cli(length_ratio: str, tmp_path: Path, capsys) -> None:
    from mtworkbench.cli import main

    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_text("the cat sat\nhello\n", encoding="utf-8")
    ref.write_text("the cat sat down\nhello there\n", encoding="utf-8")
    code = main(["score", "--hyp", str(hyp), "--ref", str(ref), "--metric", "length_ratio", "--json"])
    assert code == 0
    entry = json.loads(capsys.readouterr().out)["scores"][0]
    assert entry["metric"] == "length_ratio"
    assert entry["segments"] == [0.75, 0.5]
    assert entry["corpus"] == pytest.approx(4 / 6)


def test_a_segment_without_reference_is_refused_by_the_base_class(length_ratio: str) -> None:
    data = ScoringInput(hypotheses=["a", "b"], references=[["a", None]])
    with pytest.raises(MetricError, match="length_ratio: segment 2 has no reference"):
        create_metric("length_ratio").score(data)
