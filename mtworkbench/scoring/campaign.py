"""Scoring a whole mt-metrics-eval campaign: every language pair, system and metric.

Each language pair becomes a project bundle in the output folder (``LP.mtwb.json``,
imported once) whose score file keeps every (system, metric) result as it is
finished: a re-run reads those back and computes only what is missing, and a
killed run loses only the metric it was computing. Each pair is then
meta-evaluated against each of its human scores with the statistics of
``correlate`` (:func:`~mtworkbench.analysis.meta_eval.evaluate_metrics`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mtworkbench.core.errors import DataError
from mtworkbench.core.jobs import CancelCheck
from mtworkbench.scoring.analysis_job import layout_scores
from mtworkbench.scoring.cache import ScoreCache
from mtworkbench.scoring.job import ScoringRequest, run_scoring

# (level, statistic) pairs of the meta-evaluation, as `correlate --level L --stat S` computes them
META_STATS: tuple[tuple[str, str], ...] = (
    ("system", "pearson"), ("system", "kendall"), ("system", "pairwise-accuracy"), ("system", "spa"),
    ("segment", "pearson"), ("segment", "kendall"),
)
DEFAULT_METRICS = ("bleu", "chrf", "ter")


def language_pairs(directory: str | Path) -> list[str]:
    """The pairs of an mt-metrics-eval test set: the folders under ``system-outputs``."""
    outputs = Path(directory) / "system-outputs"
    if not outputs.is_dir():
        raise DataError(f"{directory}: not an mt-metrics-eval test set (no system-outputs folder)")
    pairs = sorted(p.name for p in outputs.iterdir() if p.is_dir() and not p.is_symlink() and "-" in p.name)
    if not pairs:
        raise DataError(f"{outputs}: no language-pair folders (expected e.g. zh-en)")
    return pairs


@dataclass
class PairSummary:
    lp: str
    bundle: str
    systems: list[str]
    n_segments: int
    # spec -> system -> corpus score
    scores: dict[str, dict[str, float | None]] = field(default_factory=dict)
    computed: int = 0  # (system, metric) results computed in this run
    restored: int = 0  # read back from the score file
    meta: list[dict[str, Any]] = field(default_factory=list)
    backend: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"lp": self.lp, "bundle": self.bundle, "systems": self.systems, "n_segments": self.n_segments,
                "scores": self.scores, "computed": self.computed, "restored": self.restored, "meta": self.meta,
                "backend": self.backend}


def open_pair(directory: str | Path, lp: str, out_dir: Path) -> tuple[Any, Path]:
    """The pair's bundle in ``out_dir``: imported on the first run, loaded (with its scores) after."""
    from mtworkbench.io.bundle.bundle import save_bundle
    from mtworkbench.io.formats import LAYOUT_FORMATS
    from mtworkbench.scoring.store import load_project

    path = out_dir / f"{lp}.mtwb.json"
    if not path.exists():
        result = LAYOUT_FORMATS.get("mt-metrics-eval").read(str(directory), lp)
        save_bundle(result.project, path)  # atomic: a killed import leaves no half bundle
    return load_project(path), path


def score_pair(
    project: Any,
    bundle: Path,
    lp: str,
    specs: Sequence[str],
    scheduler: str | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    cancel: CancelCheck | None = None,
) -> PairSummary:
    """Every system with every metric, one metric at a time: each metric's results reach
    the score file before the next starts, so a killed run loses only the unfinished one."""
    systems = [s.id for s in project.systems]
    n_seg = len(project.segments)
    summary = PairSummary(lp, bundle.name, systems, n_seg)
    layouts = {}
    for k, spec in enumerate(specs):
        def sub(done: int, total: int, k: int = k) -> None:
            if progress is not None and total:
                progress(int(1000 * (k + done / total)), 1000 * len(specs))

        request = ScoringRequest(specs=(spec,), systems=tuple(systems), ci_samples=0,
                                 use_processes=None if jobs > 1 else False, jobs=jobs, scheduler=scheduler)
        outcome = run_scoring(project, ScoreCache(), request, progress=sub, cancel=cancel)
        if spec in outcome.failures:
            raise outcome.failures[spec]
        summary.restored += len(outcome.restored)
        summary.computed += len(outcome.items) - len(outcome.restored)
        if outcome.backend.get("kind") != "thread":
            summary.backend = outcome.backend
        layout = layout_scores(outcome.items, spec, systems, n_seg)
        layouts[spec] = (outcome.metrics[spec], layout)
        summary.scores[spec] = {s: _num(layout.corpus[i]) if layout is not None else None
                                for i, s in enumerate(systems)}
    if progress is not None:
        progress(1000 * len(specs), 1000 * len(specs))
    summary.meta = meta_evaluate(project, systems, layouts)
    return summary


def meta_evaluate(project: Any, systems: list[str], layouts: dict[str, tuple[Any, Any]]) -> list[dict[str, Any]]:
    """Every metric against every human score of the pair, at system and segment level."""
    from mtworkbench.analysis.human_scores import collect_human_scores
    from mtworkbench.analysis.meta_eval import MetaEvalData, evaluate_metrics

    out: list[dict[str, Any]] = []
    for name in sorted({j.judge for j in project.judgments if not j.qc}):
        human = collect_human_scores(project, name)
        rated = [s for s in human.rated_systems() if s in systems]
        if len(rated) < 2:
            continue
        rows = [human.systems.index(s) for s in rated]
        mine = [systems.index(s) for s in rated]
        data = {
            spec: MetaEvalData(human_segments=human.matrix[rows], human_systems=human.system_scores()[rows],
                               metric_segments=np.asarray(layout.segments, float)[mine],
                               metric_systems=np.asarray(layout.corpus, float)[mine],
                               higher_is_better=bool(metric.higher_is_better))
            for spec, (metric, layout) in layouts.items() if layout is not None
        }
        if not data:
            continue
        for level, stat in META_STATS:
            ev = evaluate_metrics(data, stat, level)
            for spec, res in zip(data, ev.results):
                out.append({"human": name, "level": level, "stat": stat, "metric": spec, "value": _num(res.value),
                            "n": res.n, "p": _num(res.p), "systems": len(rated)})
    return out


def _num(x: Any) -> float | None:
    return None if x is None or not math.isfinite(float(x)) else float(x)
