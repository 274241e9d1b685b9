"""Reading checkpoints as data only.

A COMET checkpoint is a folder ``DIR/checkpoints/model.ckpt`` + ``DIR/hparams.yaml``
(as ``huggingface-cli download Unbabel/...`` leaves it); a MetricX checkpoint is a
Hugging Face model folder (``config.json`` + ``model.safetensors`` or
``pytorch_model.bin``, possibly sharded). Settings are read with ``yaml.safe_load``
(a tag that would build a Python object is refused), weights with
``torch.load(weights_only=True)`` or safetensors (a pickle that would call code is
refused before anything of it runs). The fingerprint is the sha256 of the
settings and weight files, so a bundle can name a model by content, never by path.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtworkbench.core.files import check_regular_file
from mtworkbench.core.scoring_input import MetricError
from mtworkbench.metrics.neural import INSTALL_HINT

# Checkpoints are large (XCOMET-XXL ~ 40 GB): the size check of small files does not apply.
NO_LIMIT = 1 << 62
COMET_FILES = ("hparams.yaml", "checkpoints/model.ckpt")
HPARAMS_MAX_BYTES = 1 << 20


def need(module: str, metric: str) -> Any:
    """Import an optional package of the neural extra, or say how to install it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MetricError(
            f"{metric}: neural metrics need the optional packages torch and transformers "
            f"({module} is not installed); install them with: {INSTALL_HINT}"
        ) from None


def read_hparams(path: Path, metric: str = "comet") -> dict[str, Any]:
    """``hparams.yaml`` as plain data; a file that would build Python objects is refused."""
    yaml = need("yaml", metric)
    if not path.exists():
        raise MetricError(f"{metric}: {path} is missing; a COMET checkpoint folder holds hparams.yaml and "
                          "checkpoints/model.ckpt")
    try:
        check_regular_file(path, HPARAMS_MAX_BYTES)
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise MetricError(f"{metric}: {path}: cannot be read as UTF-8 text ({exc})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        line = f" (line {where.line + 1})" if where is not None else ""
        raise MetricError(
            f"{metric}: {path}{line} is refused: it is not plain YAML data "
            f"({str(getattr(exc, 'problem', '') or exc).strip()}); checkpoint settings may hold "
            "numbers, text and lists only, never Python objects"
        ) from None
    if not isinstance(data, dict):
        raise MetricError(f"{metric}: {path}: expected a mapping of settings, found {type(data).__name__}")
    return data


# Containers Lightning writes into a checkpoint besides tensors: read as plain dicts.
_PLAIN_DICT_NAMES = (
    "lightning.fabric.utilities.data.AttributeDict",
    "pytorch_lightning.utilities.parsing.AttributeDict",
    "lightning_fabric.utilities.data.AttributeDict",
)


class _PlainDict(dict):
    """Stands in for Lightning's AttributeDict (a dict with attribute access)."""


def load_weights(path: Path, metric: str = "comet") -> Any:
    """A pickled checkpoint loaded as weights and plain containers only.

    ``torch.load(weights_only=True)`` refuses every global outside tensors and
    builtin containers before it is called, so no code in the file runs.
    """
    torch = need("torch", metric)
    if not path.exists():
        raise MetricError(f"{metric}: {path} is missing")
    check_regular_file(path, NO_LIMIT)
    serialization = torch.serialization
    safe = [(_PlainDict, name) for name in _PLAIN_DICT_NAMES]
    try:
        with serialization.safe_globals(safe):
            return torch.load(path, map_location="cpu", weights_only=True, mmap=_zip_file(path))
    except Exception as exc:  # torch raises UnpicklingError, RuntimeError or ValueError by version
        text = str(exc)
        if "Weights only load failed" in text or "Unsupported global" in text or "UnpicklingError" in repr(type(exc)):
            culprit = _first_global(text)
            raise MetricError(
                f"{metric}: {path} is refused: it holds Python objects{culprit}, not only weights; "
                "nothing of it was run. Use the checkpoint as published, or re-save its state_dict"
            ) from None
        raise MetricError(f"{metric}: {path}: cannot be read as a torch checkpoint ({text.splitlines()[0] if text else exc!r})") from None


def _zip_file(path: Path) -> bool:
    """Only the zip format can be memory-mapped (the legacy tar format cannot)."""
    with open(path, "rb") as f:
        return f.read(4) == b"PK\x03\x04"


def _first_global(text: str) -> str:
    for line in text.splitlines():
        line = line.strip()
        if "GLOBAL" in line or "Unsupported global" in line:
            return f" ({line[:160]})"
    return ""


def load_safetensors(path: Path, metric: str) -> dict[str, Any]:
    st = need("safetensors.torch", metric)
    check_regular_file(path, NO_LIMIT)
    try:
        return dict(st.load_file(str(path), device="cpu"))
    except Exception as exc:
        raise MetricError(f"{metric}: {path}: cannot be read as safetensors ({exc})") from None


# --- fingerprints ------------------------------------------------------------------------
@dataclass(frozen=True)
class FileStamp:
    path: str
    size: int
    mtime_ns: int


_FINGERPRINTS: dict[tuple[FileStamp, ...], str] = {}


def comet_files(folder: Path) -> list[Path]:
    return [folder / name for name in COMET_FILES]


def metricx_files(folder: Path) -> list[Path]:
    names = ["config.json"]
    for index in ("model.safetensors.index.json", "pytorch_model.bin.index.json"):
        if (folder / index).exists():
            try:
                shards = sorted(set(json.loads((folder / index).read_text(encoding="utf-8"))["weight_map"].values()))
            except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
                raise MetricError(f"metricx: {folder / index}: not a weight index ({exc})") from None
            return [folder / n for n in names + [index] + shards]
    for single in ("model.safetensors", "pytorch_model.bin"):
        if (folder / single).exists():
            return [folder / n for n in names + [single]]
    raise MetricError(f"metricx: {folder} has no model.safetensors or pytorch_model.bin; a MetricX checkpoint is a "
                      "Hugging Face model folder (huggingface-cli download google/metricx-24-hybrid-large-v2p6)")


def checkpoint_files(folder: Path, kind: str) -> list[Path]:
    return comet_files(folder) if kind == "comet" else metricx_files(folder)


def fingerprint(files: list[Path]) -> str:
    """sha256 over the files' names and contents; remembered per (path, size, mtime) in this
    process, so a run that scores many systems hashes a large checkpoint once."""
    stamps = []
    for f in files:
        try:
            info = os.stat(f)
        except OSError:
            raise MetricError(f"{f} is missing") from None
        stamps.append(FileStamp(str(f), info.st_size, info.st_mtime_ns))
    key = tuple(stamps)
    found = _FINGERPRINTS.get(key)
    if found is not None:
        return found
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode() + b"\0")
        with open(f, "rb") as stream:
            for block in iter(lambda: stream.read(1 << 22), b""):
                h.update(block)
        h.update(b"\0")
    found = _FINGERPRINTS[key] = h.hexdigest()
    return found


def detect_kind(folder: Path) -> str:
    """``comet`` for a folder with hparams.yaml, ``metricx`` for a Hugging Face model folder."""
    if (folder / "hparams.yaml").exists() or (folder / "checkpoints" / "model.ckpt").exists():
        return "comet"
    if (folder / "config.json").exists():
        return "metricx"
    raise MetricError(f"{folder}: neither a COMET checkpoint (hparams.yaml + checkpoints/model.ckpt) nor a "
                      "MetricX model folder (config.json + weights)")
