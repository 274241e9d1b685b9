"""``mtworkbench gui [BUNDLE]``: open the desktop app (the default command)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("gui", help="open the app (default)", description="Open the desktop app, optionally on a bundle.")
    p.add_argument("bundle", nargs="?")
    p.add_argument("--demo", action="store_true", help="open the bundled demo project")
    p.add_argument("--quit-after", type=float, metavar="SECONDS", help="close after this long (smoke tests)")
    p.add_argument("--screenshot", metavar="PNG", help="save a screenshot of the window once it shows")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from mtworkbench.gui.xcb_check import check_before_qt

    # Before Qt's GUI is loaded: a missing system library is named with its package,
    # not left to Qt's abort (which names another library, or none).
    problem = check_before_qt()
    if problem:
        print(problem, file=sys.stderr)
        return 1
    # Qt is imported only here, so every other command stays Qt-free.
    from mtworkbench.gui.app import exit_now, run_app

    code = run_app(args.bundle, demo=args.demo, quit_after=args.quit_after, screenshot=args.screenshot)
    exit_now(code)
    return code
