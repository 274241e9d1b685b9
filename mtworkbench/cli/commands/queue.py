"""``mtworkbench queue``: draw a judge's work queue in a bundle (protocol, repeats, BAD items)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "queue",
        help="draw a judge's work queue (protocol, repeats, DA/ESA BAD items)",
        description=(
            "Draw the work queue of JUDGE in BUNDLE (saved in place), as the Judge workspace's "
            "'Start queue' does: every system x segment once in a seeded order, repeats for "
            "intra-judge consistency, and for DA and ESA optionally BAD items - degraded copies "
            "(a stretch of words, or of characters in scripts without spaces, replaced from another "
            "segment) hidden among the items for quality control, as WMT does. The rater is not "
            "told which are BAD; 'mtworkbench agreement' then tests per rater whether they scored "
            "lower (one-sided Wilcoxon, p < 0.05). Their ratings never count as human scores. "
            "A judge not in the project is added."
        ),
    )
    p.add_argument("bundle", help="the project bundle")
    p.add_argument("--judge", required=True, metavar="NAME", help="whose queue")
    p.add_argument("--protocol", default="ldc", choices=("ldc", "da", "esa", "mqm"),
                   help="how the items are rated (default ldc)")
    p.add_argument("--bad-rate", default="0", metavar="SHARE",
                   help="BAD items as a share of the distinct items, e.g. 0.1 or 10%% (DA, ESA; default 0)")
    p.add_argument("--repeat-share", default="10%", metavar="SHARE",
                   help="repeated items as a share of the distinct items (default 10%%)")
    p.add_argument("--seed", type=int, default=0, help="seed of the order and the BAD items (default 0)")
    p.add_argument("--da-basis", default="reference", choices=("reference", "source"),
                   help="what a DA rater compares with (default reference)")
    p.add_argument("--max-errors", type=int, default=5, metavar="N", help="MQM errors a segment at most (default 5)")
    p.add_argument("--systems", metavar="ID,ID,...", help="only these systems (default all)")
    p.add_argument("--documents", metavar="ID,ID,...", help="only the segments of these documents (default all)")
    p.add_argument("--batch-size", type=int, default=0, metavar="N",
                   help="serve the queue in batches of N items (or N whole documents with --batch-unit "
                        "documents), each with its own repeats and BAD items; the judge does batch 1 first "
                        "(default 0: one batch)")
    p.add_argument("--batch-unit", default="items", choices=("items", "documents"),
                   help="what --batch-size counts (default items)")
    p.add_argument("--suggest-spans", metavar="SPEC",
                   help="ESA, MQM: start every item with the error spans of a span-marking metric pre-marked as "
                        "suggestions the judge keeps, changes or deletes (ESA-AI), e.g. comet:model=NAME for an "
                        "xCOMET checkpoint registered with 'models add'; spans stored with the project's scores "
                        "are used as they are, otherwise the model runs once")
    p.add_argument("--replace", action="store_true",
                   help="replace the judge's existing queue (their judgments stay in the project)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtworkbench.cli import UsageError
    from mtworkbench.core.campaign import CampaignError, parse_share
    from mtworkbench.core.judging import QueueConfig, build_queue
    from mtworkbench.core.queue_state import BAD_PROTOCOLS, SUGGESTION_PROTOCOLS
    from mtworkbench.core.wording import plural
    from mtworkbench.io.bundle.bundle import bundle_transaction

    try:
        bad_rate = parse_share(args.bad_rate, "--bad-rate")
        repeat_share = parse_share(args.repeat_share, "--repeat-share")
    except CampaignError as exc:
        raise UsageError(str(exc)) from None
    if bad_rate and args.protocol not in BAD_PROTOCOLS:
        raise UsageError(f"--bad-rate applies to --protocol {' or '.join(BAD_PROTOCOLS)} only")
    if args.suggest_spans and args.protocol not in SUGGESTION_PROTOCOLS:
        raise UsageError(f"--suggest-spans applies to --protocol {' or '.join(SUGGESTION_PROTOCOLS)} only")
    if args.max_errors < 1:
        raise UsageError("--max-errors must be at least 1")
    judge = args.judge.strip()
    if not judge:
        raise UsageError("--judge needs a name")
    systems = None
    if args.systems is not None:
        systems = tuple(s.strip() for s in args.systems.split(","))
        if not all(systems):
            raise UsageError(f"--systems must be ids separated by commas, not {args.systems!r}")
    documents = None
    if args.documents is not None:
        documents = tuple(d.strip() for d in args.documents.split(","))
        if not all(documents):
            raise UsageError(f"--documents must be ids separated by commas, not {args.documents!r}")
    if args.batch_size < 0:
        raise UsageError("--batch-size must be 0 (one batch) or more")
    config = QueueConfig(seed=args.seed, repeat_share=repeat_share, systems=systems, documents=documents,
                         protocol=args.protocol, da_basis=args.da_basis, max_errors=args.max_errors,
                         bad_rate=bad_rate, batch_size=args.batch_size, batch_unit=args.batch_unit)
    with bundle_transaction(args.bundle) as project:
        if judge in project.judge_queues and not args.replace:
            raise UsageError(f"judge {judge!r} has a queue already; give --replace to draw a new one")
        added = judge not in project.judges
        if added:
            project.add_judge(judge)
        state = build_queue(project, judge, config)
        suggested = ""
        if args.suggest_spans:
            state, suggested = _with_model_spans(project, args, state)
        project.set_judge_queue(judge, state)
    bad = sum(1 for e in state.items if e.qc)
    repeats = sum(1 for e in state.items if e.repeat)
    print(f"{args.bundle}: {'new judge ' if added else ''}{judge}: {args.protocol.upper()} queue of "
          f"{len(state.items)} items ({len(state.items) - bad - repeats} distinct, {repeats} repeated, {bad} BAD)"
          + suggested)
    if state.batches is not None:
        runs: list[list[int]] = []  # [size, how many batches in a row have it]
        for size in state.batches:
            if runs and runs[-1][0] == size:
                runs[-1][1] += 1
            else:
                runs.append([size, 1])
        sizes = ", ".join(f"{count} of {plural(size, 'item')}" for size, count in runs)
        print(f"in {plural(len(state.batches), 'batch')} ({sizes}); the judge starts with batch 1")
    return 0


def _with_model_spans(project, args: argparse.Namespace, state):
    """The queue with the metric's error spans on its items, and a note saying how many."""
    from mtworkbench.cli import UsageError
    from mtworkbench.cli.progress import cli_progress
    from mtworkbench.core.model import ModelError
    from mtworkbench.core.queue_drawing import with_suggestions
    from mtworkbench.core.scoring_input import MetricError
    from mtworkbench.scoring.span_suggestions import model_spans
    from mtworkbench.scoring.store import attach

    attach(project, args.bundle)  # spans scored before come from the project's score file
    systems = sorted({e.system for e in state.items}, key=[s.id for s in project.systems].index)
    try:
        with cli_progress(args, f"error spans of {args.suggest_spans}", scale=1000) as progress:
            found = model_spans(project, args.suggest_spans, systems, progress=progress)
        state = with_suggestions(project, state, found.spans, args.suggest_spans)
    except (MetricError, ModelError) as exc:
        raise UsageError(f"--suggest-spans {args.suggest_spans}: {exc}") from None
    marked = sum(len(e.suggested or ()) for e in state.items)
    return state, f"; {marked} error spans of {found.model} pre-marked as suggestions"
