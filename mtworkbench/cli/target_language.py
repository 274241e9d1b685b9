"""``--tgt-lang`` for the commands that score files: the target language whose
defaults (tokenizer, Meteor preset, ...) the metrics take (core.language)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable

from mtworkbench.metrics.base import Metric


def add_tgt_lang_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tgt-lang",
        metavar="XX",
        help="target language code (e.g. de, zh, ja): picks each metric's language defaults "
        "(sacrebleu's tokenizer, Meteor's -l XX preset); explicit metric options win. "
        "With a bundle: the project's target language unless given",
    )


def chosen_language(args: argparse.Namespace, project_language: str | None = None) -> str | None:
    """--tgt-lang when given, else the project's language, else None."""
    return (getattr(args, "tgt_lang", None) or "").strip() or project_language or None


# Metrics whose defaults are a language's own: without a language they take English's.
_LANGUAGE_SPECIFIC = frozenset({"meteor"})


def print_notices(metrics: Iterable[Metric], command: str) -> None:
    """One line on stderr per metric whose language defaults need a word (once each)."""
    from mtworkbench.metrics.language_defaults import metric_notice

    seen: set[str] = set()
    for metric in metrics:
        notice = metric_notice(metric)
        if notice is None and metric.language is None and metric.name in _LANGUAGE_SPECIFIC:
            notice = f"{metric.name}: no target language given (--tgt-lang XX): Meteor's English defaults"
        if notice and notice not in seen:
            seen.add(notice)
            print(f"mtworkbench {command}: note: {notice}", file=sys.stderr)
