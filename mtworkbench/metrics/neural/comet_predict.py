"""Loading a COMET checkpoint and scoring with it (imports torch: load lazily).

Scores equal those of the reference implementation's ``predict()`` on the same
checkpoint: the same tokenisation and truncation (``max_position_embeddings - 4``
tokens per text), the same joining of hypothesis, source and reference for
unified models (``<s> mt </s></s> src </s></s> ref </s>``, cut at the encoder's
length), the same combination of the three joined inputs (their mean for unified
models; for xCOMET the weighted capped regression scores plus the span score),
and segments batched in order of source length (references when there is no
source), the system score being the mean in that order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from mtworkbench.core.jobs import CancelCheck, ProgressCallback, check_cancel, report
from mtworkbench.core.scoring_input import MetricError
from mtworkbench.metrics.neural.checkpoint import load_weights, read_hparams
from mtworkbench.metrics.neural.comet_net import CometNet, CometSettings, Encoder
from mtworkbench.metrics.neural.encoder_files import load_encoder_files
from mtworkbench.metrics.neural.spans import SPAN_PENALTY, MetricSpan, decode_tags
from mtworkbench.metrics.neural.tokenization import Tokens, load_tokens

SPAN_INPUT_WEIGHTS = (0.1667, 0.3333, 0.5)  # src-joined, ref-joined, all-joined tag probabilities
XCOMET_SCORE_WEIGHTS = (0.12, 0.33, 0.33, 0.22)  # the three regression scores, then the span score
CHUNK_BATCHES = 64  # batches of segments whose texts are sorted by token count together
DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


@dataclass
class CometOutput:
    scores: list[float]
    system_score: float
    spans: list[list[MetricSpan]] | None = None
    parts: dict[str, list[float]] = field(default_factory=dict)


def choose_device(name: str, metric: str = "comet") -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise MetricError(f"{metric}: device=cuda was asked but torch sees no CUDA GPU here; use device=cpu")
    if name == "mps" and not (getattr(torch.backends, "mps", None) and torch.backends.mps.is_available()):
        raise MetricError(f"{metric}: device=mps was asked but this machine has no Metal GPU torch can use")
    return torch.device(name)


def inference_setup(metric: str, device: str, precision: str, threads: int) -> tuple[torch.device, torch.dtype]:
    """The device and dtype a model runs in (CPU threads set when asked); half precision only on a GPU."""
    if threads > 0:
        torch.set_num_threads(threads)
    chosen = choose_device(device, metric)
    if precision != "fp32" and chosen.type == "cpu":
        raise MetricError(f"{metric}: precision={precision} is for GPUs; on the CPU scores are computed in fp32")
    return chosen, DTYPES[precision]


def encoder_files(settings: CometSettings, folder: Path, explicit: str | None) -> tuple[Any, Tokens, str]:
    """The encoder's config and tokenizer (and where they were found), without building it."""
    import transformers

    config_cls: Any
    if settings.encoder_model == "XLM-RoBERTa-XL":
        config_cls = transformers.XLMRobertaXLConfig
    else:
        config_cls = transformers.XLMRobertaConfig
    tokenizer_cls = getattr(transformers, "XLMRobertaTokenizerFast", None) or transformers.XLMRobertaTokenizer

    def tokenizer(where: str) -> Tokens:
        return load_tokens(where, "comet", "<s>", "</s>", "<pad>",
                           lambda w: tokenizer_cls.from_pretrained(w, local_files_only=True))

    return load_encoder_files(settings.pretrained_model, folder, explicit, "comet", config_cls, tokenizer)


def build_encoder(settings: CometSettings, folder: Path, explicit: str | None) -> Encoder:
    import transformers

    model_cls: Any
    if settings.encoder_model == "XLM-RoBERTa-XL":
        model_cls = transformers.XLMRobertaXLModel
    else:
        model_cls = transformers.XLMRobertaModel
    config, tok, _where = encoder_files(settings, folder, explicit)
    config.output_hidden_states = True
    try:
        model = model_cls(config, add_pooling_layer=False)
    except TypeError:  # a transformers without the argument builds no pooler for this use either
        model = model_cls(config)
    return Encoder(model, tok)


class CometModel:
    """A loaded checkpoint: call ``predict`` as often as needed (one load per run)."""

    def __init__(self, folder: str | Path, device: str = "auto", precision: str = "fp32",
                 encoder: str | None = None, threads: int = 0) -> None:
        self.folder = Path(folder)
        hparams_path = self.folder / "hparams.yaml"
        ckpt_path = self.folder / "checkpoints" / "model.ckpt"
        hp = read_hparams(hparams_path)
        if not ckpt_path.exists():
            raise MetricError(f"comet: {ckpt_path} is missing; a COMET checkpoint folder holds hparams.yaml and "
                              "checkpoints/model.ckpt (huggingface-cli download Unbabel/wmt22-comet-da)")
        checkpoint = load_weights(ckpt_path)
        if isinstance(checkpoint, dict) and "state_dict" in checkpoint:
            state = checkpoint["state_dict"]
            stored = checkpoint.get("hyper_parameters")
            if isinstance(stored, dict):  # what the reference builds the model from; hparams.yaml names the class
                hp = {**hp, **{k: v for k, v in stored.items() if k != "class_identifier"}}
        elif isinstance(checkpoint, dict):
            state = checkpoint
        else:
            raise MetricError(f"comet: {ckpt_path}: expected a state dict, found {type(checkpoint).__name__}")
        self.settings = CometSettings.from_hparams(hp, hparams_path)
        self.device, self.dtype = inference_setup("comet", device, precision, threads)
        net = CometNet(self.settings, build_encoder(self.settings, self.folder, encoder))
        self._load_state(net, state, ckpt_path)
        self.net = net.to(self.device, dtype=self.dtype).eval()
        self.tokenizer = net.encoder.tokenizer
        self.max_positions = net.encoder.max_positions

    @staticmethod
    def _load_state(net: CometNet, state: dict[str, Any], where: Path) -> None:
        own = net.state_dict()
        missing = [k for k in own if k not in state and not k.endswith("position_ids")]
        if missing:
            raise MetricError(f"comet: {where} lacks {len(missing)} weights the settings call for (first: "
                              f"{missing[0]}); the checkpoint does not match its hparams.yaml")
        for key, value in own.items():
            if key in state and tuple(state[key].shape) != tuple(value.shape):
                raise MetricError(f"comet: {where}: weight {key} has shape {tuple(state[key].shape)}, the settings "
                                  f"call for {tuple(value.shape)}")
        net.load_state_dict({k: v for k, v in state.items() if k in own}, strict=False)

    # --- what the metric needs ---------------------------------------------------------
    @property
    def needs_reference(self) -> bool:
        s = self.settings
        return s.kind == "regression" or (s.kind == "unified" and tuple(s.input_segments) == ("mt", "ref"))

    @property
    def uses_reference(self) -> bool:
        s = self.settings
        return s.kind == "regression" or (s.kind in ("unified", "xcomet") and "ref" in s.input_segments)

    @property
    def uses_source(self) -> bool:
        s = self.settings
        return s.kind in ("regression", "referenceless") or "src" in s.input_segments

    @property
    def word_level(self) -> bool:
        return self.settings.word_level

    def predict(
        self,
        mt: Sequence[str],
        src: Sequence[str] | None,
        ref: Sequence[str] | None,
        batch_size: int = 16,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> CometOutput:
        n = len(mt)
        if self.needs_reference and ref is None:
            raise MetricError("comet: this checkpoint scores against references; give --ref (or pick a "
                              "reference-free checkpoint such as wmt22-cometkiwi-da)")
        if self.settings.kind != "unified" and self.settings.kind != "xcomet" and src is None:
            raise MetricError("comet: this checkpoint reads the source; give --src")
        if self.settings.kind in ("unified", "xcomet") and src is None and ref is None:
            raise MetricError("comet: give a source (--src) or a reference (--ref)")
        keys = src if src is not None else ref
        assert keys is not None
        order = sorted(range(n), key=lambda i: len(keys[i]))
        scores: list[float] = []
        spans: list[list[MetricSpan]] = []
        step = max(1, batch_size)
        with torch.inference_mode():
            if self.settings.kind in ("regression", "referenceless"):
                scores = self._regression_scores(order, mt, src, ref, step, progress, cancel)
            else:
                for start in range(0, n, step):
                    check_cancel(cancel)
                    report(progress, start, n)
                    idx = order[start:start + step]
                    b_src = None if src is None else [src[i] for i in idx]
                    b_ref = None if ref is None else [ref[i] for i in idx]
                    got, found = self._unified_batch([mt[i] for i in idx], b_src, b_ref)
                    scores += got
                    spans += found
        report(progress, n, n)
        system = sum(scores) / len(scores) if scores else float("nan")
        back = [0.0] * n
        back_spans: list[list[MetricSpan]] = [[] for _ in range(n)]
        for k, i in enumerate(order):
            back[i] = scores[k]
            if spans:
                back_spans[i] = spans[k]
        return CometOutput(back, system, back_spans if self.word_level else None)

    # --- batches -------------------------------------------------------------------------
    def _padded(self, rows: list[list[int]]) -> tuple[torch.Tensor, torch.Tensor]:
        """Token ids padded into a batch with its attention mask, as the reference's tokenizer call
        with padding and truncation gives them."""
        width = max(len(r) for r in rows)
        pad = [self.tokenizer.pad_token_id] * width
        # one tensor from padded lists: a tensor per row and a copy into each cost more than the encoder on
        # small models
        ids = torch.tensor([r + pad[len(r):] for r in rows], dtype=torch.long)
        lengths = torch.tensor([len(r) for r in rows], dtype=torch.long)
        mask = (torch.arange(width)[None, :] < lengths[:, None]).long()
        return ids.to(self.device), mask.to(self.device)

    def _regression_scores(self, order: list[int], mt: Sequence[str], src: Sequence[str] | None,
                           ref: Sequence[str] | None, step: int, progress: ProgressCallback | None,
                           cancel: CancelCheck | None) -> list[float]:
        """Scores in ``order``, the estimator fed the reference's batches. Each kind of text is
        embedded on its own and so is batched by its own token count: the reference pads
        hypotheses and references within batches made by the source's length in characters,
        which on multilingual text (a Chinese and an English sentence of one length in
        characters differ severalfold in tokens) pads far more. A sentence's embedding does not
        depend on the rest of its batch, so the scores are the same up to float rounding."""
        assert src is not None
        kinds: list[Sequence[str]] = [src, mt]
        if ref is not None and self.settings.kind == "regression":
            kinds.append(ref)
        n = len(order)
        done = 0
        scores: list[float] = []
        chunk = step * CHUNK_BATCHES
        for c0 in range(0, n, chunk):
            idx = order[c0:c0 + chunk]
            embedded = []
            for texts in kinds:
                rows = self.tokenizer.ids([str(texts[i]) for i in idx], self.max_positions - 2)
                by_length = sorted(range(len(idx)), key=lambda k: len(rows[k]))
                emb: torch.Tensor | None = None
                for b0 in range(0, len(idx), step):
                    check_cancel(cancel)
                    report(progress, done // len(kinds), n)
                    part = by_length[b0:b0 + step]
                    got = self.net.sentence_embedding(*self._padded([rows[k] for k in part]))
                    if emb is None:
                        emb = got.new_empty((len(idx), got.shape[1]))
                    emb[torch.tensor(part, device=got.device)] = got
                    done += len(part)
                assert emb is not None
                embedded.append(emb)
            for b0 in range(0, len(idx), step):
                ref_emb = embedded[2][b0:b0 + step] if len(embedded) > 2 else None
                scores += self.net.regression(embedded[1][b0:b0 + step], embedded[0][b0:b0 + step],
                                              ref_emb).float().tolist()
        return scores

    def _ids_without_pad(self, texts: list[str]) -> list[list[int]]:
        pad = self.tokenizer.pad_token_id
        return [[i for i in ids if i != pad] for ids in self.tokenizer.ids(texts, self.max_positions - 2)]

    def _join(self, parts: list[list[list[int]]]) -> tuple[torch.Tensor, torch.Tensor]:
        """Each segment's texts joined into one input, padded into a batch."""
        cls, sep, pad = self.tokenizer.cls_token_id, self.tokenizer.sep_token_id, self.tokenizer.pad_token_id
        rows = []
        for i in range(len(parts[0])):
            inner = [p[i][1:-1] for p in parts]
            joined = [cls] + inner[0] + [sep]
            for more in inner[1:]:
                joined += [sep] + more + [sep]
            if sum(len(x) for x in inner) > self.max_positions - (1 + 2 * len(parts)):
                joined = joined[: self.max_positions]
            rows.append(joined)
        width = max(len(r) for r in rows)
        ids = torch.full((len(rows), width), pad, dtype=torch.long)
        for i, r in enumerate(rows):
            ids[i, : len(r)] = torch.tensor(r, dtype=torch.long)
        lengths = torch.tensor([len(r) for r in rows], dtype=torch.long)
        mask = torch.arange(width)[None, :] < lengths[:, None]
        return ids.to(self.device), mask.to(self.device)

    def _unified_batch(self, mt: list[str], src: list[str] | None, ref: list[str] | None
                       ) -> tuple[list[float], list[list[MetricSpan]]]:
        segments = self.settings.input_segments
        use_src = src is not None and "src" in segments
        use_ref = ref is not None and "ref" in segments
        offsets: list[list[tuple[int, int]]] = []
        if self.word_level:
            encoded = self.tokenizer.encode(mt, self.max_positions - 2)
            pad = self.tokenizer.pad_token_id
            mt_ids = [[i for i in ids if i != pad] for ids, _ in encoded]
            offsets = [offs for _, offs in encoded]
        else:
            mt_ids = self._ids_without_pad(mt)
        src_ids = self._ids_without_pad(src) if use_src and src is not None else None
        ref_ids = self._ids_without_pad(ref) if use_ref and ref is not None else None
        if src_ids is not None and ref_ids is not None:
            inputs = [self._join([mt_ids, src_ids]), self._join([mt_ids, ref_ids]), self._join([mt_ids, src_ids, ref_ids])]
        else:
            inputs = [self._join([mt_ids] + [x for x in (src_ids, ref_ids) if x is not None])]
        outputs = [self.net.unified(ids, mask) for ids, mask in inputs]
        scores = self._combine_scores([s for s, _ in outputs])
        if not self.word_level:
            return scores.float().tolist(), []
        seq_len = max(len(x) for x in mt_ids)
        logits = [x for _, x in outputs if x is not None]
        if len(outputs) == 3:
            probs = torch.sum(torch.stack([
                torch.softmax(x, dim=2)[:, :seq_len, :] * w
                for w, x in zip(torch.tensor(SPAN_INPUT_WEIGHTS), logits)]), dim=0)
        else:
            probs = torch.softmax(logits[0], dim=2)[:, :seq_len, :]
        found = self._decode(probs, offsets, mt)
        if self.settings.kind == "xcomet":
            penalties = torch.tensor([min(25, sum(SPAN_PENALTY.get(x.severity, 0) for x in s)) for s in found])
            span_scores = (penalties * -1 + 25) / 25
            scores = scores + span_scores.to(scores.device) * XCOMET_SCORE_WEIGHTS[3]
        return scores.float().tolist(), found

    def _combine_scores(self, scores: list[torch.Tensor]) -> torch.Tensor:
        if self.settings.kind != "xcomet":
            return scores[0] if len(scores) == 1 else torch.stack(scores, dim=0).mean(dim=0)
        capped = [torch.where(s > 1.0, 1.0, s) for s in scores]
        if len(capped) == 3:
            return torch.stack([c * w for c, w in zip(capped, XCOMET_SCORE_WEIGHTS[:3])], dim=0).sum(dim=0)
        return capped[0] * sum(XCOMET_SCORE_WEIGHTS[:3])

    def _decode(self, probs: torch.Tensor, offsets: list[list[tuple[int, int]]], mt: list[str]) -> list[list[MetricSpan]]:
        values, labels = torch.topk(probs.float() if probs.dtype != torch.float32 else probs, 1, dim=-1)
        names = self.net.labels
        out = []
        for i, segment_offsets in enumerate(offsets):
            n = len(segment_offsets)
            tags = [names[k] if k < len(names) else "?" for k in labels[i, :n, 0].tolist()]
            probabilities = list(values[i, :n, 0].unbind(0))
            spans = []
            for start, end, severity, chosen in decode_tags(tags, probabilities, segment_offsets):
                confidence = torch.stack(chosen).mean().item()
                spans.append(MetricSpan(start, end, severity, confidence, mt[i][start:end]))
            out.append(spans)
        return out
