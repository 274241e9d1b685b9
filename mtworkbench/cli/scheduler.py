"""``--scheduler``: the option every scoring command shares (a dask.distributed cluster)."""

from __future__ import annotations

import argparse

SCHEDULER_HELP = ("score on a dask.distributed cluster: tcp://HOST:PORT of a running scheduler, or local:N "
                  "to start N local worker processes (needs: pip install 'mtworkbench[cluster]')")


def add_scheduler_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scheduler", metavar="ADDRESS", default=None, help=SCHEDULER_HELP)


def chosen_scheduler(args: argparse.Namespace) -> str | None:
    """The scheduler asked for, checked before any work starts (dask present, address well-formed)."""
    address = getattr(args, "scheduler", None)
    if not address:
        return None
    from mtworkbench.scoring.cluster import import_distributed, parse_scheduler

    parse_scheduler(address)
    import_distributed()
    return str(address)


def close_clusters(args: argparse.Namespace) -> None:
    if getattr(args, "scheduler", None):
        from mtworkbench.scoring.cluster import shutdown_clusters

        shutdown_clusters()
