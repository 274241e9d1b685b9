"""``mtworkbench split``: one work package per person (annotators or judges) from a bundle."""

from __future__ import annotations

import argparse

from mtworkbench.cli.progress import cli_progress, note_kept


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "split",
        help="split a project into work packages, one per person",
        description=(
            "Assign the project's items - reference segments to annotate (--by annotator) or "
            "system x segment x reference items to judge (--by judge) - to people and write one "
            "package (a bundle with only that person's items) per person into DIR. A share of the "
            "items (--overlap) goes to two people, for agreement. The same bundle, people, overlap "
            "and seed always give the same packages. The bundle itself is not changed; "
            "'mtworkbench merge BUNDLE DIR/*.mtwb.json -o OUT' brings the work back."
        ),
    )
    p.add_argument("bundle", help="the team's project bundle")
    p.add_argument("--by", required=True, choices=("annotator", "judge"), help="what the people do")
    p.add_argument("--people", required=True, metavar="NAME,NAME,...", help="the people, separated by commas")
    p.add_argument("--overlap", default="0%", metavar="SHARE",
                   help="share of the items given to two people, e.g. 10%% or 0.1 (default 0%%)")
    p.add_argument("--seed", type=int, default=0, help="seed of the assignment (default 0)")
    p.add_argument("--protocol", metavar="NAME",
                   help="the judging protocol of the judges' queues, and progress is counted in (default ldc)")
    p.add_argument("--bad-rate", default="0", metavar="SHARE",
                   help="BAD items (degraded copies, quality control) hidden in each judge's queue, as a share "
                        "of their items, e.g. 10%% (--protocol da or esa; default 0)")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="folder for the packages")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtworkbench.cli import UsageError
    from mtworkbench.core.campaign import CampaignError, parse_overlap, parse_people, parse_share
    from mtworkbench.core.queue_state import BAD_PROTOCOLS
    from mtworkbench.io.bundle.bundle import load_bundle
    from mtworkbench.io.bundle.packages import split_project

    try:
        people = parse_people(args.people)
        overlap = parse_overlap(args.overlap)
        bad_rate = parse_share(args.bad_rate, "--bad-rate")
    except CampaignError as exc:
        raise UsageError(str(exc)) from None
    if args.protocol and args.by != "judge":
        raise UsageError("--protocol applies to --by judge only")
    if bad_rate and (args.by != "judge" or args.protocol not in BAD_PROTOCOLS):
        raise UsageError(f"--bad-rate applies to --by judge with --protocol {' or '.join(BAD_PROTOCOLS)} only")
    with cli_progress(args, "Reading"):
        project = load_bundle(args.bundle)
    with cli_progress(args, "Writing packages", unit="packages") as progress:
        def written(done: int, total: int) -> None:
            progress(done, total)
            if done:  # a Ctrl+C from here on leaves these complete packages (each written atomically)
                note_kept(f"{done} of {total} packages written to {args.output}; the bundle is unchanged")

        result = split_project(project, args.by, people, args.output, overlap, args.seed, args.protocol,
                               bad_rate, progress=written)
    campaign = result.campaign
    shared = sum(len(it.people) > 1 for it in campaign.items)
    print(f"campaign {campaign.id}: {len(campaign.items)} {args.by} items, {shared} shared by two people")
    for person, path in result.packages.items():
        mine = campaign.items_of(person)
        bad = round(campaign.bad_rate * len(mine))
        print(f"  {person}: {len(mine)} items ({sum(len(it.people) > 1 for it in mine)} shared"
              f"{f', about {bad} BAD' if bad else ''}) -> {path}")
    return 0
