"""``mtworkbench merge``: bring the work of packages back into the team's project."""

from __future__ import annotations

import argparse
import sys

from mtworkbench.cli.progress import cli_progress

# Exit status when everything was merged except conflicting items (kept and listed).
EXIT_CONFLICTS = 3


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "merge",
        help="merge work packages back into a project",
        description=(
            "Merge the entity spans and judgments of work packages (from 'mtworkbench split') into "
            "the bundle and write the result to OUT, recording who merged what, when and from which "
            "package. A package from another campaign, a corrupt one, or one whose source, "
            "reference or system texts changed is refused (exit 1) and nothing is written. "
            "Conflicts - the same item changed in two places - keep the project's version; the "
            f"other one is listed, stored in OUT (campaign.conflicts) and the exit status is {EXIT_CONFLICTS}. "
            "Merging a package already merged changes nothing."
        ),
    )
    p.add_argument("bundle", help="the team's project bundle (or an earlier merge result)")
    p.add_argument("packages", nargs="+", metavar="PACKAGE", help="package bundles")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="the merged bundle to write")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from mtworkbench.core.output import describe_target, messages_for
    from mtworkbench.io.bundle.bundle import read_bundle, save_bundle
    from mtworkbench.io.bundle.packages import merge_packages

    loaded = read_bundle(args.bundle)
    project = loaded.project
    with cli_progress(args, "Merging"):
        result = merge_packages(project, args.packages)
    # Merging in place: refuse to overwrite the bundle if someone saved it meanwhile.
    same = Path(args.output).resolve() == Path(args.bundle).resolve()
    with cli_progress(args, "Writing"):
        save_bundle(project, args.output, expected_hash=loaded.sha256 if same else None)
    with messages_for(args.output):
        print(result.summary())
    if result.conflicts:
        print(
            f"mtworkbench merge: {result.conflicts} conflicting items were not applied: the project's "
            f"versions are kept and the packages' versions are listed in {args.output} (campaign.conflicts)",
            file=sys.stderr,
        )
        return EXIT_CONFLICTS
    with messages_for(args.output):
        print(f"wrote {describe_target(args.output)}")
    return 0
