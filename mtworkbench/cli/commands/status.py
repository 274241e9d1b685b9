"""``mtworkbench status``: progress of a campaign, per person and protocol."""

from __future__ import annotations

import argparse
import json

from mtworkbench.cli.progress import cli_progress


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "status",
        help="progress of a campaign: items done / assigned per person",
        description=(
            "For a campaign's merged project or one person's package: per person and protocol, "
            "the items done out of those assigned (and how many are shared with another person)."
        ),
    )
    p.add_argument("bundle", help="a merged project or a package")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtworkbench.core.campaign import campaign_progress
    from mtworkbench.core.errors import DataError
    from mtworkbench.io.bundle.bundle import load_bundle

    with cli_progress(args, "Reading"):
        project = load_bundle(args.bundle)
    try:
        rows = campaign_progress(project)
    except DataError as exc:
        raise DataError(f"{args.bundle}: {exc}") from None
    campaign = project.campaign
    if args.json:
        print(json.dumps({
            "campaign": campaign.id, "by": campaign.by, "package": campaign.package,
            "merges": len(campaign.merges), "conflicts": len(campaign.conflicts),
            "progress": [{"person": r.person, "protocol": r.protocol, "done": r.done,
                          "assigned": r.assigned, "shared": r.shared} for r in rows],
        }, indent=2, ensure_ascii=False))
        return 0
    what = f"package of {campaign.package}" if campaign.package else f"{len(campaign.merges)} packages merged"
    print(f"campaign {campaign.id} ({campaign.by}s; {what}; {len(campaign.conflicts)} conflicts)")
    width = max([len("person"), *(len(r.person) for r in rows)])
    print(f"{'person':<{width}}  {'protocol':<10} {'done':>6} {'assigned':>8} {'shared':>6}")
    for r in rows:
        print(f"{r.person:<{width}}  {r.protocol:<10} {r.done:>6} {r.assigned:>8} {r.shared:>6}  {100 * r.fraction:5.1f}%")
    return 0
