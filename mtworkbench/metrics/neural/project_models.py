"""Which registered models a project names, and which of them this machine lacks.

A project names a neural metric's checkpoint by registered name (``comet:model=NAME``,
optionally ``sha256=PREFIX``) in its metric settings, and its saved scores carry the
name and fingerprint in their signatures (``comet|...|model:NAME|sha256:HEX|...``).
Opened on another machine, the app says which of those names is not registered here,
or is registered with other content, so the user knows what to copy and add.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mtworkbench.core.metric_files import looks_like_path
from mtworkbench.core.scoring_input import MetricError
from mtworkbench.metrics.neural.models import load_registry
from mtworkbench.metrics.spec import parse_spec

NEURAL_METRICS = ("comet", "metricx")


@dataclass(frozen=True)
class NamedModel:
    metric: str  # comet | metricx
    name: str
    sha256: str = ""  # the fingerprint (or its first digits) the project expects; "" when it names none


@dataclass(frozen=True)
class MissingModel:
    model: NamedModel
    reason: str  # "not registered" or "registered with other content (sha256:...)"


def named_models(specs: Iterable[str], signatures: Iterable[str] = ()) -> list[NamedModel]:
    """The models the metric specs and score signatures name, each name once (with the
    longest fingerprint seen)."""
    found: dict[tuple[str, str], str] = {}
    for spec in specs:
        try:
            name, options = parse_spec(spec)
        except (MetricError, ValueError):
            continue
        model = str(options.get("model", ""))
        if name in NEURAL_METRICS and model and not looks_like_path(model):
            key = (name, model)
            found[key] = max(found.get(key, ""), str(options.get("sha256", "")), key=len)
    for signature in signatures:
        parts = signature.split("|")
        if parts[0] not in NEURAL_METRICS:
            continue
        fields = dict(p.split(":", 1) for p in parts[1:] if ":" in p)
        model = fields.get("model", "")
        if model:
            key = (parts[0], model)
            found[key] = max(found.get(key, ""), fields.get("sha256", ""), key=len)
    return [NamedModel(metric, name, sha) for (metric, name), sha in found.items()]


def missing_models(models: Iterable[NamedModel]) -> list[MissingModel]:
    """The named models this machine has not registered, or has registered with other content
    (by the recorded fingerprint; the files are not read again)."""
    registry = load_registry()
    out = []
    for m in models:
        entry = registry.get(m.name)
        if entry is None:
            out.append(MissingModel(m, "not registered on this machine"))
        elif m.sha256 and not entry.sha256.startswith(m.sha256.lower()):
            out.append(MissingModel(m, f"registered here with other content (sha256:{entry.sha256[:16]}, the project "
                                       f"expects sha256:{m.sha256[:16]})"))
    return out


def missing_models_notice(specs: Iterable[str], signatures: Iterable[str] = ()) -> str:
    """One line naming each model the project needs and this machine lacks ('' when none)."""
    try:
        missing = missing_models(named_models(specs, signatures))
    except MetricError as exc:  # an unreadable registry: said, not raised
        return str(exc)
    if not missing:
        return ""
    parts = [f"{m.model.metric}:model={m.model.name}" + (f" (sha256:{m.model.sha256[:16]})" if m.model.sha256 else "")
             + f" {m.reason}" for m in missing]
    return ("This project's neural metrics need checkpoints this machine lacks: " + "; ".join(parts)
            + ". Copy each checkpoint here and add it under that name (Metrics > Models…, or "
              "`mtworkbench models add NAME DIR`).")
