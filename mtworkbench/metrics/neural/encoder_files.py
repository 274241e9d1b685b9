"""Where an encoder's config and tokenizer come from: a local folder or the local
Hugging Face cache, never the network.

A COMET checkpoint names its encoder in ``pretrained_model`` (``xlm-roberta-large``,
``microsoft/infoxlm-large``, ``facebook/xlm-roberta-xl``, or a folder). Only the
encoder's config and tokenizer are read from there; its weights are in the
checkpoint. The search: an ``encoder=DIR`` option; ``pretrained_model`` as a folder
(as given, or beside the checkpoint); a folder ``encoder/`` inside the checkpoint;
the Hugging Face cache (``HF_HOME``/``HF_HUB_CACHE``), read with
``local_files_only=True``. A miss names what is missing and how to fetch it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from mtworkbench.core.scoring_input import MetricError
from mtworkbench.metrics.neural.checkpoint import need


def candidate_folders(name: str, checkpoint: Path, explicit: str | None) -> list[Path]:
    """Local folders that may hold the encoder's files, in the order they are tried."""
    found: list[Path] = []
    if explicit:
        found.append(Path(explicit).expanduser())
    as_path = Path(name).expanduser()
    found += [as_path, checkpoint / name, checkpoint / "encoder"]
    return [f for f in found if f.is_dir()]


def load_encoder_files(name: str, checkpoint: Path, explicit: str | None, metric: str, config_cls: Any,
                       tokenizer_loader: Any) -> tuple[Any, Any, str]:
    """(config, tokenizer, where they came from); MetricError with how to get them when absent."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # this process never reaches the hub
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    need("transformers", metric)
    folders = candidate_folders(name, checkpoint, explicit)
    if explicit and not folders:
        raise MetricError(f"{metric}: encoder folder {explicit} does not exist")
    problems: list[str] = []
    for folder in folders:
        if not (folder / "config.json").is_file():
            problems.append(f"{folder / 'config.json'} is missing")
            continue
        try:
            config = config_cls.from_pretrained(str(folder), local_files_only=True)
            tokenizer = tokenizer_loader(str(folder))
        except (OSError, ValueError, TypeError) as exc:
            problems.append(f"{folder}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
            continue
        return config, tokenizer, str(folder)
    try:  # the Hugging Face cache, offline
        config = config_cls.from_pretrained(name, local_files_only=True)
        tokenizer = tokenizer_loader(name)
        return config, tokenizer, f"Hugging Face cache: {name}"
    except (OSError, ValueError, TypeError) as exc:
        problems.append(f"not in the Hugging Face cache ({str(exc).splitlines()[0][:200] if str(exc) else exc!r})")
    raise MetricError(
        f"{metric}: the encoder {name!r} (its config.json and tokenizer files) was not found locally: "
        + "; ".join(problems)
        + f". On a connected machine run `huggingface-cli download {name} --exclude '*.bin' '*.safetensors' "
        "'*.h5' '*.msgpack' '*.onnx'` (a few MB) and copy ~/.cache/huggingface here, or give the folder with "
        f"{metric}:encoder=DIR"
    )


def xlmr_tokenizer(metric: str) -> Any:
    transformers = need("transformers", metric)

    def load(where: str) -> Any:
        return transformers.AutoTokenizer.from_pretrained(where, local_files_only=True, use_fast=True)

    return load
