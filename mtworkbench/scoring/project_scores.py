"""Metric scores of a project's systems laid out for meta-evaluation.

One :class:`SystemScores` per metric: segment scores (n_systems, n_segments),
corpus scores (n_systems,) and sufficient statistics (n_systems, n_segments, k),
rows in project system order. Systems not asked for stay NaN (statistics 0),
so row indices agree with :class:`~mtworkbench.analysis.human_scores.HumanScores`.

The scores come from :func:`~mtworkbench.scoring.job.run_scoring`, the same
path the GUI takes, without intervals and in this process.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mtworkbench.core.jobs import CancelCheck, ProgressCallback
from mtworkbench.core.model import Project
from mtworkbench.metrics.base import Metric
from mtworkbench.scoring.analysis_job import layout_scores
from mtworkbench.scoring.cache import ScoreCache
from mtworkbench.scoring.job import ScoringRequest, run_scoring


@dataclass
class SystemScores:
    spec: str
    metric: Metric
    systems: list[str]
    segments: np.ndarray
    corpus: np.ndarray
    stats: np.ndarray


def score_project(
    project: Project,
    specs: Sequence[str],
    systems: Sequence[str] | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
    scheduler: str | None = None,
) -> list[SystemScores]:
    """Score ``systems`` (default: all) of the project with each metric spec.

    ``scheduler``: a dask.distributed cluster to score on (the same numbers).
    Raises the first metric's error (``MetricSpecError`` for a bad spec,
    ``MetricError`` for input the metric cannot score).
    """
    all_systems = [s.id for s in project.systems]
    wanted = tuple(all_systems if systems is None else systems)
    request = ScoringRequest(specs=tuple(specs), systems=wanted, ci_samples=0, use_processes=False,
                             scheduler=scheduler)
    outcome = run_scoring(project, ScoreCache(), request, progress=progress, cancel=cancel)
    for spec in specs:
        if spec in outcome.failures:
            raise outcome.failures[spec]
    n_seg = len(project.segments)
    out: list[SystemScores] = []
    for spec in specs:
        metric = outcome.metrics[spec]
        layout = layout_scores(outcome.items, spec, all_systems, n_seg)
        if layout is None:  # no system asked for: the empty layout
            k = len(metric.stat_names)
            seg, corpus, stats = np.full((len(all_systems), n_seg), np.nan), np.full(len(all_systems), np.nan), \
                np.zeros((len(all_systems), n_seg, k))
        else:
            seg, corpus, stats = layout.segments, layout.corpus, layout.stats
        out.append(SystemScores(spec, metric, all_systems, seg, corpus, stats))
    return out
