"""``mtworkbench score``: score plain files or a project's systems with any metrics."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from mtworkbench.cli import UsageError
from mtworkbench.cli.progress import Progress, cli_progress
from mtworkbench.cli.scheduler import add_scheduler_argument, chosen_scheduler
from mtworkbench.cli.target_language import add_tgt_lang_argument, chosen_language, print_notices
from mtworkbench.core.errors import DataError
from mtworkbench.core.jobs import ProgressCallback
from mtworkbench.core.scoring_input import MetricScore, ScoringInput
from mtworkbench.metrics.base import CorpusScore
from mtworkbench.metrics.registry import create_metric, metric_names


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "score",
        help="score hypotheses against references",
        description=(
            "Score --hyp files against --ref files, or the systems of a project bundle. "
            f"Metrics: {', '.join(metric_names())}. SPEC is NAME[:key=value,...], e.g. "
            "bleu:tokenize=none or gtm:e=2."
        ),
    )
    p.add_argument("bundle", nargs="?", help="a project bundle (*.mtwb.json)")
    p.add_argument("--hyp", action="append", default=[],
                   help="hypothesis file, one segment per line (repeat for several systems, each named by its path)")
    p.add_argument("--src", help="source file, one segment per line (neural metrics read it; reference-free "
                                 "ones need no --ref)")
    p.add_argument("--ref", action="append", default=[], help="reference file (repeat for several)")
    p.add_argument(
        "--ref-format",
        choices=("plain", "muc"),
        default="plain",
        help="muc: reference lines carry MUC-7 inline entity tags (they feed NEE)",
    )
    p.add_argument("--system", action="append", default=[], help="with a bundle: only these systems")
    p.add_argument("--metric", action="append", default=[], metavar="SPEC", help="metric spec (repeatable)")
    add_tgt_lang_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--jobs", type=int, default=0, metavar="N",
                   help="with a bundle: worker processes for systems x metrics (default: all cores; 1: none)")
    add_scheduler_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.bundle and (args.hyp or args.ref or args.src):
        raise UsageError("give either a bundle or --hyp/--ref/--src files, not both")
    metric_specs = list(args.metric)
    backend: dict = {}  # where the work ran (with --scheduler)
    if args.bundle:
        if args.jobs < 0:
            raise UsageError("--jobs must be 1 or more (0: all cores)")
        scheduler = chosen_scheduler(args)  # a cluster starts while the bundle is read
        with cli_progress(args, "Reading") as progress:
            scores, n_segments = _score_bundle(args, metric_specs, progress, backend, scheduler)
    else:
        if not args.hyp:
            raise UsageError("give a bundle, or --hyp and at least one --ref")
        if not metric_specs:
            raise UsageError(f"give at least one --metric; valid metrics: {', '.join(metric_names())}")
        scheduler = chosen_scheduler(args)  # a cluster starts while the files are read
        file_scores, n_segments = _score_files(args, metric_specs, scheduler, backend)
        if file_scores is None:
            return 0
        scores = file_scores

    if args.json:
        import json

        out: dict = {"n_segments": n_segments, "scores": [s.to_json() for s in scores]}
        if backend and scheduler:  # which cluster did the work; no score depends on it
            out["backend"] = backend
        json.dump(out, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print_table(scores, n_segments)
    return 0


def _score_files(args: argparse.Namespace, metric_specs: list[str], scheduler: str | None, backend: dict
                 ) -> tuple[list[MetricScore] | None, int]:
    """Every --hyp file with every metric, here or on the cluster; (None, n) when the
    corpus table was printed already (the lean path)."""
    language = chosen_language(args)
    metrics = [create_metric(spec, language) for spec in metric_specs]
    if not args.ref:
        needing = [m.name for m in metrics if m.needs_references]
        if needing:
            raise UsageError(f"give at least one --ref: {', '.join(needing)} scores against references "
                             "(reference-free neural metrics need only --src and --hyp)")
    print_notices(metrics, "score")
    inputs = read_plain_inputs(args.hyp, args.ref, args.ref_format, args.src)
    for _system, data in inputs:
        data.target_language = language
    n_segments = inputs[0][1].n_segments
    if not args.json and not scheduler and all(metric.lean for metric in metrics):
        # the table shows corpus scores only: plain Python, numpy never loads
        # (its import alone is a quarter of a one-shot BLEU run)
        table: list[MetricScore | CorpusScore] = [metric.corpus_only(data, system=system)
                                                  for metric in metrics for system, data in inputs]
        print_table(table, n_segments)
        return None, n_segments
    if scheduler:
        from mtworkbench.scoring.input_job import score_inputs_on_cluster

        with cli_progress(args, "Scoring", unit="scores", scale=1000) as progress:  # thousandths of a score
            return score_inputs_on_cluster(metrics, inputs, scheduler, progress=progress, backend=backend), n_segments
    scores = []
    with cli_progress(args, "Scoring", unit="segments") as progress:
        for metric in metrics:
            for system, data in inputs:
                progress.stage(f"Scoring {metric.name}" + (f" of {system}" if system else ""), unit="segments")
                scores.append(metric.score(data, progress=progress, system=system))
    return scores, n_segments


def _score_bundle(args: argparse.Namespace, metric_specs: list[str], progress: Progress, backend: dict,
                  scheduler: str | None) -> tuple[list[MetricScore], int]:
    from mtworkbench.scoring.store import load_project

    project = load_project(args.bundle)  # with its persisted scores
    # --tgt-lang overrides the project's language for this run (the file is not changed)
    project.target_language = chosen_language(args, project.target_language) or ""
    metric_specs = metric_specs or list(project.settings.metrics)
    systems = args.system or [s.id for s in project.systems]
    for system_id in systems:
        if not project.has_system(system_id):
            raise DataError(
                f"{args.bundle}: no system {system_id!r}; systems: "
                + ", ".join(s.id for s in project.systems)
            )
    progress.stage("Scoring", unit="scores", scale=1000)  # the service counts thousandths of a score
    scores = score_bundle_systems(project, metric_specs, systems, jobs=args.jobs or os.cpu_count() or 1,
                                  progress=progress, scheduler=scheduler, backend=backend)
    return scores, len(project.segments)


def score_bundle_systems(project, specs: list[str], systems: list[str], jobs: int = 1,
                         progress: ProgressCallback | None = None, scheduler: str | None = None,
                         backend: dict | None = None) -> list[MetricScore]:
    """Every system with every metric through the scoring service; with ``jobs`` > 1
    the (system, metric) pairs not in the project's score file are spread over
    that many processes when the work is large enough to pay for starting them;
    with ``scheduler``, over a dask.distributed cluster. ``backend`` receives where
    the work ran."""
    from mtworkbench.scoring.cache import ScoreCache
    from mtworkbench.scoring.job import ScoringRequest, run_scoring
    from mtworkbench.scoring.process_executor import shutdown_pool

    request = ScoringRequest(specs=tuple(specs), systems=tuple(systems), ci_samples=0,
                             use_processes=None if jobs > 1 else False, jobs=jobs, scheduler=scheduler)
    try:
        outcome = run_scoring(project, ScoreCache(), request, progress=progress)
    finally:
        shutdown_pool()
        if scheduler:
            from mtworkbench.scoring.cluster import shutdown_clusters

            shutdown_clusters()
    if backend is not None:
        backend.update(outcome.backend)
    for spec in specs:
        if spec in outcome.failures:
            raise outcome.failures[spec]
    for why in dict.fromkeys(outcome.unscored.values()):
        print(f"note: {why}", file=sys.stderr)
    scored = {(item.spec, item.system): item.entry.score for item in outcome.items}
    return [scored[(spec, system)] for spec in specs for system in systems if (spec, system) in scored]


def read_plain_inputs(hyp_paths: list[str], ref_paths: list[str], ref_format: str, src_path: str | None = None
                      ) -> list[tuple[str | None, ScoringInput]]:
    """One input per hypothesis file, sharing the references: (None, input) for one file
    (as ``score`` always printed it), (path, input) for each of several."""
    from dataclasses import replace

    from mtworkbench.io.corpora.plaintext import read_lines

    first = read_plain_input(hyp_paths[0], ref_paths, ref_format, src_path, others=hyp_paths[1:])
    if len(hyp_paths) == 1:
        return [(None, first)]
    out: list[tuple[str | None, ScoringInput]] = [(hyp_paths[0], first)]
    for path in hyp_paths[1:]:
        lines = read_lines(path)
        if len(lines) != first.n_segments:
            raise DataError(f"{path} has {len(lines)} lines, {hyp_paths[0]} has {first.n_segments}: "
                            "every --hyp file must have one line per segment")
        out.append((path, replace(first, hypotheses=lines)))
    return out


def read_plain_input(hyp_path: str, ref_paths: list[str], ref_format: str, src_path: str | None = None,
                     others: Sequence[str] = ()) -> ScoringInput:
    """``others``: further hypothesis files of the same run, checked not to repeat a file."""
    from mtworkbench.io.corpora.plaintext import check_same_length, read_lines

    files = {hyp_path: read_lines(hyp_path)}
    for path in [*others, *ref_paths, *([src_path] if src_path else [])]:
        if path in files:
            raise UsageError(f"file {path} is given twice")
        files[path] = [] if path in others else read_lines(path)
    for path in others:  # read by the caller, one at a time; only their names are checked here
        del files[path]
    check_same_length(files)
    refs = [files[p] for p in ref_paths]
    entities = None
    if ref_format == "muc":
        from mtworkbench.io.annotations.muc import parse_inline

        parsed_refs, entities = [], []
        for path, lines in zip(ref_paths, refs):
            texts, mentions = [], []
            for lineno, line in enumerate(lines, 1):
                try:
                    text, found = parse_inline(line)
                except DataError as exc:
                    raise DataError(f"{path}: line {lineno}: {exc}") from None
                texts.append(text)
                mentions.append(found)
            parsed_refs.append(texts)
            entities.append(mentions)
        refs = parsed_refs
    n = len(files[hyp_path])
    return ScoringInput(
        hypotheses=files[hyp_path],
        # without --ref one stream of missing references: a reference-free metric reads none
        references=refs or [[None] * n],
        sources=files[src_path] if src_path else None,
        documents=["doc"] * n,
        paragraphs=["p"] * n,
        entities=entities,
    )


def print_table(scores: Sequence[MetricScore | CorpusScore], n_segments: int) -> None:
    rows = [("metric", "system", "score", "signature")]
    for s in scores:
        rows.append((s.metric, s.system or "-", f"{s.corpus:.4f}", s.signature))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    print(f"{n_segments} segments")
    for r in rows:
        print("  ".join(r[i].ljust(widths[i]) for i in range(3)) + "  " + r[3])
