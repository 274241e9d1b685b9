"""``mtworkbench models``: the neural-metric checkpoints registered on this machine, by name."""

from __future__ import annotations

import argparse

from mtworkbench.cli import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "models",
        help="register neural-metric checkpoints (COMET, MetricX) by name",
        description="A project names a neural metric's checkpoint by name (comet:model=NAME); each machine "
                    "registers where its copy lives. Registered per user, in the user's configuration folder.",
    )
    sub = p.add_subparsers(dest="models_command", metavar="ACTION")
    add = sub.add_parser("add", help="register the checkpoint in DIR as NAME",
                         description="DIR is a COMET checkpoint folder (hparams.yaml + checkpoints/model.ckpt) or a "
                                     "MetricX Hugging Face model folder. Its content fingerprint (sha256) is recorded.")
    add.add_argument("name")
    add.add_argument("folder", metavar="DIR")
    add.set_defaults(func=run_add)
    lst = sub.add_parser("list", help="list the registered checkpoints")
    lst.set_defaults(func=run_list)
    rm = sub.add_parser("remove", help="forget a registered checkpoint (its files are kept)")
    rm.add_argument("name")
    rm.set_defaults(func=run_remove)
    p.set_defaults(func=_missing_action)


def _missing_action(args: argparse.Namespace) -> int:
    raise UsageError("choose an action: add, list or remove")


def run_add(args: argparse.Namespace) -> int:
    from mtworkbench.metrics.neural.models import add_model

    entry = add_model(args.name, args.folder)
    print(f"{entry.name}: {entry.kind} checkpoint at {entry.path}, sha256 {entry.sha256}")
    print(f"use it as --metric {entry.kind}:model={entry.name} (a project may add ,sha256={entry.sha256[:16]})")
    return 0


def run_list(args: argparse.Namespace) -> int:
    from mtworkbench.metrics.neural.models import load_registry, registry_path

    models = load_registry()
    if not models:
        print(f"no checkpoint is registered ({registry_path()}); add one with: mtworkbench models add NAME DIR")
        return 0
    for m in models.values():
        print(f"{m.name}\t{m.kind}\tsha256:{m.sha256[:16]}\t{m.path}")
    return 0


def run_remove(args: argparse.Namespace) -> int:
    from mtworkbench.metrics.neural.models import remove_model

    remove_model(args.name)
    print(f"{args.name}: removed from the registry (its files are kept)")
    return 0
