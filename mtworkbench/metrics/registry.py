"""Metric names -> classes, imported lazily so the CLI starts fast and a
metric's heavy dependencies (WordNet, scikit-learn) load only when used."""

from __future__ import annotations

import importlib

from mtworkbench.core.language import language_profile
from mtworkbench.metrics.base import Metric, MetricSpecError
from mtworkbench.metrics.language_defaults import language_options
from mtworkbench.metrics.spec import parse_spec

# name -> "module:Class". Every metric the CLI and GUI offer is listed here.
_METRICS: dict[str, str] = {
    "bleu": "mtworkbench.metrics.bleu:BLEU",
    "nist": "mtworkbench.metrics.nist:NIST",
    "wer": "mtworkbench.metrics.edit:WER",
    "per": "mtworkbench.metrics.edit:PER",
    "ter": "mtworkbench.metrics.edit:TER",
    "chrf": "mtworkbench.metrics.edit:CHRF",
    "chrf++": "mtworkbench.metrics.edit:CHRFPlusPlus",
    "gtm": "mtworkbench.metrics.gtm:GTM",
    "meteor": "mtworkbench.metrics.meteor:Meteor",
    "lepor": "mtworkbench.metrics.lepor:LEPOR",
    "hlepor": "mtworkbench.metrics.lepor:HLEPOR",
    "nee": "mtworkbench.metrics.nee:NEE",
    "learned": "mtworkbench.metrics.learned:LearnedMetric",
    # neural metrics: torch loads with the first segment scored (the optional extra mtworkbench[neural])
    "comet": "mtworkbench.metrics.neural.metric:CometMetric",
    "metricx": "mtworkbench.metrics.neural.metric:MetricXMetric",
}


def register_metric(name: str, target: str) -> None:
    """Offer the metric class at ``target`` (``"module:Class"``) under ``name``,
    as a line in ``_METRICS`` does (for metrics that live outside this package)."""
    module, sep, cls = target.partition(":")
    if not (module and sep and cls):
        raise MetricSpecError(f"metric target {target!r}: expected 'module:Class'")
    _METRICS[name] = target


def metric_names() -> list[str]:
    return list(_METRICS)


def metric_class(name: str) -> type[Metric]:
    try:
        target = _METRICS[name]
    except KeyError:
        raise MetricSpecError(
            f"unknown metric {name!r}; valid metrics: {', '.join(_METRICS)}"
        ) from None
    module_name, class_name = target.split(":")
    return getattr(importlib.import_module(module_name), class_name)


def create_metric(spec: str, language: str | None = None) -> Metric:
    """``'bleu:tokenize=none'`` -> a configured BLEU instance.

    ``language``: the target language, whose defaults (tokenizer, Meteor
    preset, ...) fill the options the spec leaves unset (language_defaults).
    """
    name, options = parse_spec(spec)
    cls = metric_class(name)
    profile = language_profile(language) if language else None
    if profile is None:
        return cls(**options)
    known = {o.name for o in cls.option_specs}
    defaults = {k: v for k, v in language_options(name, profile).items() if k in known}
    metric = cls(**{**defaults, **options})
    metric.language = profile.code
    return metric
