"""MetricX-23 and MetricX-24 (Juraska et al., "MetricX-23: The Google Submission to the WMT
2023 Metrics Shared Task"; "MetricX-24: The Google Submission to the WMT 2024 Metrics
Shared Task") from a local Hugging Face folder (imports torch: load lazily).

The model is mT5's encoder and one step of its decoder (start token 0); the score is
the output layer's entry 250089 at that step, clipped to [0, 25] (an error score:
lower is better). Inputs, tokenised with mT5's sentencepiece vocabulary, the final
end-of-sequence token removed, at most ``max_input_length`` tokens:

* MetricX-23: ``candidate: H reference: R``, or ``candidate: H source: S`` (QE);
* MetricX-24 (hybrid): ``source: S candidate: H reference: R``, or without the
  reference part when there is none.

Only that one output row is computed (a dot product instead of a 250k-way layer).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from mtworkbench.core.jobs import CancelCheck, ProgressCallback, check_cancel, report
from mtworkbench.core.scoring_input import MetricError
from mtworkbench.metrics.neural.checkpoint import load_safetensors, load_weights, need
from mtworkbench.metrics.neural.comet_predict import inference_setup
from mtworkbench.metrics.neural.tokenization import load_tokens

SCORE_ROW = 250089
MAX_LENGTH = {"23": 1024, "24": 1536}
TOKENIZER_FOR_WIDTH = {512: "google/mt5-base", 1024: "google/mt5-large", 2048: "google/mt5-xl", 4096: "google/mt5-xxl"}


def metricx_input(version: str, hyp: str, src: str | None, ref: str | None) -> str:
    if version == "23":
        if ref is not None:
            return f"candidate: {hyp} reference: {ref}"
        return f"candidate: {hyp} source: {src}"
    text = f"source: {src} candidate: {hyp}"
    return text if ref is None else f"{text} reference: {ref}"


def read_state(folder: Path) -> dict[str, torch.Tensor]:
    """The weights of a Hugging Face folder: safetensors or weights-only pickles, whole or sharded."""
    for index, loader in (("model.safetensors.index.json", load_safetensors), ("pytorch_model.bin.index.json", None)):
        if (folder / index).exists():
            shards = sorted(set(json.loads((folder / index).read_text(encoding="utf-8"))["weight_map"].values()))
            state: dict[str, torch.Tensor] = {}
            for shard in shards:
                part = loader(folder / shard, "metricx") if loader else load_weights(folder / shard, "metricx")
                state.update(part)
            return state
    if (folder / "model.safetensors").exists():
        return load_safetensors(folder / "model.safetensors", "metricx")
    if (folder / "pytorch_model.bin").exists():
        state = load_weights(folder / "pytorch_model.bin", "metricx")
        if not isinstance(state, dict):
            raise MetricError(f"metricx: {folder / 'pytorch_model.bin'}: expected a state dict")
        return state
    raise MetricError(f"metricx: {folder} has no model.safetensors or pytorch_model.bin")


class MetricXModel:
    """A loaded MetricX checkpoint."""

    def __init__(self, folder: str | Path, version: str = "24", device: str = "auto", precision: str = "fp32",
                 tokenizer: str | None = None, max_input_length: int = 0, threads: int = 0) -> None:
        transformers = need("transformers", "metricx")
        self.folder = Path(folder)
        self.version = version
        self.max_length = max_input_length or MAX_LENGTH[version]
        if not (self.folder / "config.json").exists():
            raise MetricError(f"metricx: {self.folder / 'config.json'} is missing; a MetricX checkpoint is a Hugging "
                              "Face folder (huggingface-cli download google/metricx-24-hybrid-large-v2p6)")
        config = transformers.MT5Config.from_pretrained(str(self.folder), local_files_only=True)
        if config.vocab_size <= SCORE_ROW:
            raise MetricError(f"metricx: {self.folder}: vocabulary of {config.vocab_size} entries; MetricX reads entry "
                              f"{SCORE_ROW}")
        self.tokenizer = self._tokenizer(transformers, config, tokenizer)
        self.device, self.dtype = inference_setup("metricx", device, precision, threads)
        state = read_state(self.folder)
        config._attn_implementation = "eager"  # the reference ran eager attention
        model = transformers.MT5Model(config)
        own = model.state_dict()
        if "shared.weight" not in state or "lm_head.weight" not in state:
            raise MetricError(f"metricx: {self.folder}: the weights lack shared.weight or lm_head.weight")
        missing = [k for k in own if k not in state and not k.endswith("embed_tokens.weight")]
        if missing:
            raise MetricError(f"metricx: {self.folder}: {len(missing)} weights are missing (first: {missing[0]})")
        model.load_state_dict({k: v for k, v in state.items() if k in own}, strict=False)
        self.score_row = state["lm_head.weight"][SCORE_ROW].detach().clone()
        # read from the file: transformers 5 reports tie_word_embeddings=True for mT5 whatever the file says
        raw = json.loads((self.folder / "config.json").read_text(encoding="utf-8"))
        tied = bool(raw.get("tie_word_embeddings", True))
        self.scale = config.d_model ** -0.5 if tied else 1.0
        self.model = model.to(self.device, dtype=self.dtype).eval()
        self.score_row = self.score_row.to(self.device, dtype=self.dtype)

    def _tokenizer(self, transformers: Any, config: Any, explicit: str | None) -> Any:
        return find_tokenizer(self.folder, transformers, config, explicit)

    def _encode(self, texts: list[str]) -> tuple[torch.Tensor, torch.Tensor]:
        # without the end-of-sequence token, as MetricX was trained
        rows = [ids[:-1] for ids in self.tokenizer.ids(texts, self.max_length)]
        width = max([1] + [len(r) for r in rows])
        ids = torch.full((len(rows), width), self.tokenizer.pad_token_id or 0, dtype=torch.long)
        mask = torch.zeros((len(rows), width), dtype=torch.long)
        for i, r in enumerate(rows):
            ids[i, : len(r)] = torch.tensor(r, dtype=torch.long)
            mask[i, : len(r)] = 1
        return ids.to(self.device), mask.to(self.device)

    def predict(self, hyps: Sequence[str], srcs: Sequence[str] | None, refs: Sequence[str] | None,
                batch_size: int = 8, progress: ProgressCallback | None = None,
                cancel: CancelCheck | None = None) -> list[float]:
        if self.version == "23" and refs is None and srcs is None:
            raise MetricError("metricx: give a reference (--ref) or, for a QE checkpoint, a source (--src)")
        if self.version == "24" and srcs is None:
            raise MetricError("metricx: MetricX-24 reads the source; give --src")
        texts = [metricx_input(self.version, h, None if srcs is None else srcs[i], None if refs is None else refs[i])
                 for i, h in enumerate(hyps)]
        n = len(texts)
        order = sorted(range(n), key=lambda i: len(texts[i]))
        out = [0.0] * n
        step = max(1, batch_size)
        with torch.inference_mode():
            for start in range(0, n, step):
                check_cancel(cancel)
                report(progress, start, n)
                idx = order[start:start + step]
                ids, mask = self._encode([texts[i] for i in idx])
                start_ids = torch.zeros((len(idx), 1), dtype=torch.long, device=self.device)
                hidden = self.model(input_ids=ids, attention_mask=mask, decoder_input_ids=start_ids).last_hidden_state
                values = torch.clamp((hidden[:, 0, :] * self.scale) @ self.score_row, 0, 25)
                for i, v in zip(idx, values.float().tolist()):
                    out[i] = v
        report(progress, n, n)
        return out


def find_tokenizer(folder: Path, transformers: Any, config: Any, explicit: str | None) -> Any:
    """mT5's tokenizer from beside the checkpoint, a named folder or the Hugging Face cache."""
    from mtworkbench.metrics.neural.encoder_files import candidate_folders

    name = explicit or TOKENIZER_FOR_WIDTH.get(config.d_model, "google/mt5-xl")
    places = [str(p) for p in candidate_folders(name, folder, explicit)]
    places += [str(folder / "tokenizer")] if (folder / "tokenizer").is_dir() else []
    if (folder / "spiece.model").exists() or (folder / "tokenizer.json").exists():
        places.insert(0, str(folder))
    problems = []
    for where in places + [name]:
        try:
            return load_tokens(where, "metricx", "</s>", "</s>", "<pad>",
                               lambda w: transformers.AutoTokenizer.from_pretrained(w, local_files_only=True))
        except (OSError, ValueError, TypeError) as exc:
            problems.append(f"{where}: {str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__}")
    raise MetricError(
        f"metricx: mT5's tokenizer {name!r} was not found locally ({'; '.join(problems)}). On a connected machine "
        f"run `huggingface-cli download {name} --include '*.json' 'spiece.model'`, or give "
        "metricx:tokenizer=DIR"
    )
