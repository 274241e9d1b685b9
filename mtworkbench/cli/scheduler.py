"""``--scheduler``: the option every scoring command shares (a dask.distributed cluster)."""

from __future__ import annotations

import argparse

SCHEDULER_HELP = ("score on a dask.distributed cluster: tcp://HOST:PORT of a running scheduler, or local:N "
                  "to start N local worker processes (needs: pip install 'mtworkbench[cluster]')")


def add_scheduler_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scheduler", metavar="ADDRESS", default=None, help=SCHEDULER_HELP)


def chosen_scheduler(args: argparse.Namespace) -> str | None:
    """The scheduler asked for, checked before any work starts (dask present, address
    well-formed). The cluster is started (``local:N``) or reached in the background from
    here on, so a command calls this first, before it reads its input."""
    address = getattr(args, "scheduler", None)
    if not address:
        return None
    from mtworkbench.scoring.cluster import import_distributed, parse_scheduler, start_cluster

    parse_scheduler(address)
    import_distributed()
    specs = getattr(args, "metric", None) or []
    start_cluster(str(address), [specs] if isinstance(specs, str) else list(specs), getattr(args, "tgt_lang", None))
    return str(address)
