"""Metric scores of a project's systems laid out for meta-evaluation.

One :class:`SystemScores` per metric: segment scores (n_systems, n_segments),
corpus scores (n_systems,) and sufficient statistics (n_systems, n_segments, k),
rows in project system order. Systems not asked for stay NaN (statistics 0),
so row indices agree with :class:`~mtworkbench.analysis.human_scores.HumanScores`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mtworkbench.core.jobs import CancelCheck, ProgressCallback, check_cancel, report
from mtworkbench.core.model import Project
from mtworkbench.core.scoring import scoring_input
from mtworkbench.metrics.base import Metric
from mtworkbench.metrics.external import project_metric


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
) -> list[SystemScores]:
    """Score ``systems`` (default: all) of the project with each metric spec."""
    all_systems = [s.id for s in project.systems]
    wanted = list(all_systems if systems is None else systems)
    metrics = [project_metric(spec, project) for spec in specs]  # ext:NAME = imported scores
    inputs = {sid: scoring_input(project, sid) for sid in wanted}
    n_seg = len(project.segments)
    out: list[SystemScores] = []
    total = len(metrics) * len(wanted)
    step = 0
    for spec, metric in zip(specs, metrics):
        k = len(metric.stat_names)
        seg = np.full((len(all_systems), n_seg), np.nan)
        corpus = np.full(len(all_systems), np.nan)
        stats = np.zeros((len(all_systems), n_seg, k))
        for sid in wanted:
            check_cancel(cancel)
            row = all_systems.index(sid)
            result = metric.score(inputs[sid], system=sid)
            seg[row] = result.segments
            corpus[row] = result.corpus
            stats[row] = result.stats
            step += 1
            report(progress, step, total)
        out.append(SystemScores(spec, metric, all_systems, seg, corpus, stats))
    return out
