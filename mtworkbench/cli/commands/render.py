"""``mtworkbench render``: draw a Metrics view of a project to PNG or SVG, headless."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    from mtworkbench.gui.metrics.views import VIEW_NAMES  # names only: no Qt

    p = subparsers.add_parser(
        "render",
        help="render a metric view to PNG or SVG without opening the app",
        description=(
            "Render one of the Metrics workspace's views of a project bundle to an image. "
            "Detail views show one segment of one system (default: the first of each); "
            "corpus-table shows every system with the project's metrics (or --metric)."
        ),
    )
    p.add_argument("bundle", help="a project bundle (*.mtwb.json)")
    p.add_argument("--view", required=True, choices=VIEW_NAMES)
    p.add_argument("--system", help="system id (default: the first system)")
    p.add_argument("--segment", help="segment id (default: the first segment)")
    p.add_argument("--metric", metavar="SPEC", help="metric spec, e.g. gtm:e=2 (default: the view's own)")
    p.add_argument("--out", required=True, help="output file, .png or .svg")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from mtworkbench.cli import UsageError

    out = Path(args.out)
    if out.suffix.lower() not in (".png", ".svg"):
        raise UsageError(f"--out must end in .png or .svg, not {out.name!r}")
    # Qt is imported only here, so every other command stays Qt-free.
    from mtworkbench.gui.render import render

    written = render(args.bundle, args.view, system=args.system, segment=args.segment, metric=args.metric, out=out)
    print(f"wrote {written}")
    return 0
