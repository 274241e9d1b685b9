"""What a checkpoint folder holds, and whether it can be used here, before it is registered.

``describe`` reads the settings only (no torch): the kind a COMET checkpoint's
``class_identifier`` names, its encoder, and the licence of the published
checkpoint its folder is a copy of, when known. ``check`` goes further where the
neural extra is installed: the weights are read as weights only (a checkpoint
that holds code is refused, nothing of it runs) and the encoder's config and
tokenizer (mT5's tokenizer for MetricX) are looked up locally, so a missing file
is named, with how to get it, when the model is added rather than at scoring.
``models add`` and the app's Models dialog both register through ``add_model``,
which calls ``check``.
"""

from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path

from mtworkbench.core.scoring_input import MetricError
from mtworkbench.metrics.neural import INSTALL_HINT
from mtworkbench.metrics.neural.checkpoint import detect_kind, read_hparams

COMET_KINDS = {
    "regression_metric": "COMET regression (with reference)",
    "referenceless_regression_metric": "CometKiwi (reference-free)",
    "unified_metric": "unified (COMET-22 / CometKiwi-XL style)",
    "xcomet_metric": "xCOMET (scores and error spans)",
}

# Published checkpoints by the words their folders carry (huggingface-cli keeps the
# repository's name in the path); the most specific first. Model cards are the authority.
LICENCES: tuple[tuple[str, str], ...] = (
    ("cometkiwi", "CC BY-NC-SA 4.0 (non-commercial)"),
    ("xcomet", "CC BY-NC-SA 4.0 (non-commercial)"),
    ("wmt22-comet-da", "Apache-2.0"),
    ("metricx", "Apache-2.0"),
)


@dataclass(frozen=True)
class CheckpointInfo:
    kind: str  # comet | metricx
    detail: str  # what the checkpoint is, in words
    encoder: str = ""  # the encoder (COMET) or the model width (MetricX) it names
    licence: str = ""  # "" when not known


def neural_extra_missing() -> str:
    """'' when torch and transformers can be imported, else what to install (said, not raised)."""
    missing = [m for m in ("torch", "transformers") if importlib.util.find_spec(m) is None]
    if not missing:
        return ""
    return f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not installed: neural metrics " \
           f"cannot score or be checked here. Install them with: {INSTALL_HINT}"


def licence_of(*names: str) -> str:
    text = " ".join(names).lower()
    return next((licence for word, licence in LICENCES if word in text), "")


def describe(folder: str | Path, name: str = "") -> CheckpointInfo:
    """The checkpoint's kind and encoder from its settings (plain data only; no torch)."""
    path = Path(folder)
    kind = detect_kind(path)
    licence = licence_of(str(path), name)
    if kind == "comet":
        hp = read_hparams(path / "hparams.yaml")
        identifier = str(hp.get("class_identifier", ""))
        detail = COMET_KINDS.get(identifier, f"unknown COMET class {identifier!r}")
        return CheckpointInfo(kind, detail, str(hp.get("pretrained_model", "")), licence)
    try:
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MetricError(f"metricx: {path / 'config.json'} cannot be read as JSON ({exc})") from None
    if not isinstance(config, dict):
        raise MetricError(f"metricx: {path / 'config.json'}: expected a JSON object")
    width = config.get("d_model", "?")
    return CheckpointInfo(kind, f"MetricX (mT5, width {width}; lower is better, 0-25)", f"d_model {width}", licence)


def check(folder: str | Path) -> CheckpointInfo:
    """``describe``, plus (with the neural extra) the weights read as weights only and the
    encoder's or tokenizer's files found locally; MetricError names what is wrong."""
    path = Path(folder)
    info = describe(path)
    if neural_extra_missing():
        return info
    from mtworkbench.metrics.neural.checkpoint import load_weights

    if info.kind == "comet":
        from mtworkbench.metrics.neural.comet_net import CometSettings
        from mtworkbench.metrics.neural.comet_predict import encoder_files

        settings = CometSettings.from_hparams(read_hparams(path / "hparams.yaml"), path / "hparams.yaml")
        ckpt = path / "checkpoints" / "model.ckpt"
        load_weights(ckpt)  # refuses a pickle holding code before any of it runs
        encoder_files(settings, path, None)
        return info
    import transformers

    from mtworkbench.metrics.neural.metricx import find_tokenizer

    for weights in sorted(path.glob("pytorch_model*.bin")):  # safetensors hold tensors only by their format
        load_weights(weights, "metricx")
    config = transformers.MT5Config.from_pretrained(str(path), local_files_only=True)
    find_tokenizer(path, transformers, config, None)
    return info
