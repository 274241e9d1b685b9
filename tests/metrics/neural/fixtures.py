"""The small neural checkpoints of tests/fixtures/neural (made by tools/make_neural_fixtures.py
with the reference implementations) and what the tests need of them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "neural"
COMET_MODELS = sorted(p.name for p in ROOT.glob("comet-*") if (p / "hparams.yaml").exists())
SCORE_ROW = 250089


def pairs() -> dict[str, list[list[str]]]:
    return json.loads((ROOT / "PAIRS.json").read_text(encoding="utf-8"))


def expected(model: str) -> dict[str, Any]:
    return json.loads((ROOT / model / "expected.json").read_text(encoding="utf-8"))


def columns(pair: str) -> tuple[list[str], list[str], list[str]]:
    rows = pairs()[pair]
    return [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]


def metricx_folder(target: Path) -> Path:
    """The full-size MetricX folder rebuilt from the stored rows (the rest of its 250112-entry
    embedding and output layers is zero, as it was when the expected scores were made)."""
    import torch
    from safetensors.torch import load_file, save_file

    src = ROOT / "metricx"
    target.mkdir(parents=True, exist_ok=True)
    config = json.loads((src / "config.json").read_text(encoding="utf-8"))
    state = load_file(str(src / "weights.safetensors"))
    rows = state.pop("shared_rows")
    score_row = state.pop("score_row")
    shared = torch.zeros(config["vocab_size"], config["d_model"])
    shared[: rows.shape[0]] = rows
    head = torch.zeros(config["vocab_size"], config["d_model"])
    head[SCORE_ROW] = score_row
    state["shared.weight"] = shared
    state["encoder.embed_tokens.weight"] = shared.clone()
    state["decoder.embed_tokens.weight"] = shared.clone()
    state["lm_head.weight"] = head
    save_file(state, str(target / "model.safetensors"))
    shutil.copy2(src / "config.json", target / "config.json")
    shutil.copytree(src / "tokenizer", target / "tokenizer", dirs_exist_ok=True)
    return target


def copy_model(name: str, parent: Path, as_name: str | None = None) -> Path:
    """A copy of a fixture checkpoint with its encoder folder beside it (its pretrained_model
    is ``../encoder``)."""
    target = parent / (as_name or name)
    shutil.copytree(ROOT / name, target)
    if not (parent / "encoder").exists():
        shutil.copytree(ROOT / "encoder", parent / "encoder")
    return target
