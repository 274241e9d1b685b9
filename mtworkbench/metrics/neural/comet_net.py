"""COMET's network, rebuilt from a checkpoint's settings (imports torch: load lazily).

The parameter names follow the published checkpoints (``encoder.model.*``,
``layerwise_attention.*``, ``estimator.ff.*``, ``hidden2tag.*``), so a state dict
loads as is. What is computed, after Rei et al., "COMET: A Neural Framework for MT
Evaluation", and Guerreiro et al., "xCOMET: Transparent Machine Translation
Evaluation through Fine-grained Error Detection":

* the encoder's hidden states of every layer (embeddings included) are mixed with
  learned scalar weights normalised by softmax or sparsemax, each layer optionally
  normalised over its unpadded positions first, and scaled by a learned gamma;
* regression models pool each sentence (average over non-pad tokens, first token,
  max, or the last layer's first token) and feed [h; r; h*r; |h-r|; h*s; |h-s|]
  (reference-free: [h; s; h*s; |h-s|]) to a feed-forward estimator;
* unified models encode the hypothesis joined with source and/or reference and score
  the first token; with word-level tagging a linear layer tags each token.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn

from mtworkbench.core.scoring_input import MetricError

KINDS = {
    "regression_metric": "regression",
    "referenceless_regression_metric": "referenceless",
    "unified_metric": "unified",
    "xcomet_metric": "xcomet",
}
ENCODERS = ("XLM-RoBERTa", "XLM-RoBERTa-XL")


def sparsemax(x: torch.Tensor, dim: int = 0) -> torch.Tensor:
    """Sparsemax (Martins & Astudillo, "From Softmax to Sparsemax"), with the same
    operations in the same order as the entmax package, so weights agree to the bit."""
    x = x - x.max(dim=dim, keepdim=True)[0]
    ordered, _ = torch.sort(x, dim=dim, descending=True)
    cumulative = ordered.cumsum(dim) - 1
    shape = [1] * x.dim()
    shape[dim] = -1
    ranks = torch.arange(1, x.size(dim) + 1, device=x.device, dtype=x.dtype).view(shape)
    support = (ranks * ordered > cumulative).sum(dim=dim).unsqueeze(dim)
    tau = cumulative.gather(dim, support - 1)
    tau /= support.to(x.dtype)
    return torch.clamp(x - tau, min=0)


class LayerMix(nn.Module):
    """A learned weighted sum of the encoder's layers (module name: layerwise_attention)."""

    def __init__(self, num_layers: int, layer_norm: bool, transformation: str) -> None:
        super().__init__()
        self.layer_norm = layer_norm
        self.use_sparsemax = transformation == "sparsemax"
        self.scalar_parameters = nn.ParameterList([nn.Parameter(torch.zeros(1)) for _ in range(num_layers)])
        self.gamma = nn.Parameter(torch.ones(1))

    def forward(self, layers: tuple[torch.Tensor, ...], mask: torch.Tensor) -> torch.Tensor:
        weights = torch.cat(list(self.scalar_parameters))
        normed = sparsemax(weights, dim=0) if self.use_sparsemax else torch.softmax(weights, dim=0)
        pieces = torch.split(normed, split_size_or_sections=1)
        if not self.layer_norm:
            return self.gamma * sum(w * t for w, t in zip(pieces, layers))
        mask_float = mask.float()
        broadcast = mask_float.unsqueeze(-1)
        batch, _, width = layers[0].size()
        count = mask_float.sum(1) * width
        out = []
        for w, t in zip(pieces, layers):
            masked = t * broadcast
            mean = (masked.view(batch, -1).sum(1) / count).view(batch, 1, 1)
            variance = (((masked - mean) * broadcast) ** 2).view(batch, -1).sum(1) / count
            out.append(w * ((t - mean) / torch.sqrt(variance + 1e-12).view(batch, 1, 1)))
        return self.gamma * sum(out)


def _activation(name: str) -> nn.Module:
    cls = getattr(nn, name.title(), None)
    if cls is None or not isinstance(cls, type) or not issubclass(cls, nn.Module):
        raise MetricError(f"comet: activation {name!r} in the checkpoint's settings is not a torch activation")
    return cls()


class FeedForward(nn.Module):
    """Linear layers with an activation after each hidden one (module name: estimator.ff)."""

    def __init__(self, in_dim: int, hidden: list[int], activation: str, final: str | None, out_dim: int = 1) -> None:
        super().__init__()
        layers: list[nn.Module] = [nn.Linear(in_dim, hidden[0]), _activation(activation), nn.Dropout(0.0)]
        for a, b in zip(hidden, hidden[1:]):
            layers += [nn.Linear(a, b), _activation(activation), nn.Dropout(0.0)]
        layers.append(nn.Linear(hidden[-1], out_dim))
        if final is not None:
            layers.append(_activation(final))
        self.ff = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dtype = next(self.ff.parameters()).dtype
        return self.ff(x.to(dtype))


class Encoder(nn.Module):
    """The pretrained encoder (module name: encoder.model) and its tokenizer."""

    def __init__(self, model: nn.Module, tokenizer: Any) -> None:
        super().__init__()
        self.model = model
        self.tokenizer = tokenizer
        config: Any = model.config
        self.width: int = int(config.hidden_size)
        self.num_layers: int = int(config.num_hidden_layers) + 1
        self.max_positions: int = int(config.max_position_embeddings) - 2

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> tuple[torch.Tensor, ...]:
        out = self.model(input_ids=input_ids, attention_mask=attention_mask, output_hidden_states=True,
                         return_dict=True)
        return tuple(out.hidden_states)


@dataclass(frozen=True)
class CometSettings:
    """The settings of a checkpoint that change inference."""

    kind: str
    encoder_model: str
    pretrained_model: str
    layer: Any  # "mix" or a layer index
    layer_transformation: str
    layer_norm: bool
    pool: str
    hidden_sizes: tuple[int, ...]
    activations: str
    final_activation: str | None
    input_segments: tuple[str, ...]
    word_level: bool
    error_labels: tuple[str, ...]
    word_layer: int

    @classmethod
    def from_hparams(cls, hp: dict[str, Any], where: Path) -> CometSettings:
        identifier = hp.get("class_identifier")
        if identifier not in KINDS:
            raise MetricError(f"comet: {where}: class_identifier {identifier!r} is not one of {', '.join(KINDS)}")
        kind = KINDS[identifier]
        encoder = str(hp.get("encoder_model", "XLM-RoBERTa"))
        if encoder not in ENCODERS:
            raise MetricError(f"comet: {where}: encoder_model {encoder!r} is not supported (supported: "
                              f"{', '.join(ENCODERS)})")
        unified = kind in ("unified", "xcomet")
        layer = hp.get("sent_layer", "mix") if unified else hp.get("layer", "mix")
        try:
            hidden = tuple(int(x) for x in hp.get("hidden_sizes", [2560, 1280] if kind == "xcomet" else [3072, 1024]))
        except (TypeError, ValueError):
            raise MetricError(f"comet: {where}: hidden_sizes must be a list of numbers") from None
        word_level = kind == "xcomet" or (kind == "unified" and bool(hp.get("word_level_training", False)))
        labels = ("minor", "major", "critical") if kind == "xcomet" else tuple(hp.get("error_labels", ["minor", "major"]))
        segments = ("mt", "src", "ref") if kind == "xcomet" else tuple(hp.get("input_segments", ["mt", "src", "ref"]))
        defaults = {"regression": ("softmax", True), "referenceless": ("softmax", True),
                    "unified": ("sparsemax", True), "xcomet": ("sparsemax", False)}[kind]
        return cls(
            kind=kind,
            encoder_model=encoder,
            pretrained_model=str(hp.get("pretrained_model", "xlm-roberta-large")),
            layer=layer,
            layer_transformation=str(hp.get("layer_transformation", defaults[0])),
            layer_norm=bool(hp.get("layer_norm", defaults[1])),
            pool=str(hp.get("pool", "avg")),
            hidden_sizes=hidden,
            activations=str(hp.get("activations", "Tanh")),
            final_activation=hp.get("final_activation"),
            input_segments=segments,
            word_level=word_level,
            error_labels=labels,
            word_layer=int(hp.get("word_layer", 36 if kind == "xcomet" else 24)),
        )


class CometNet(nn.Module):
    """Encoder, layer mix, estimator and (word-level models) the tagger."""

    def __init__(self, settings: CometSettings, encoder: Encoder) -> None:
        super().__init__()
        self.settings = settings
        self.encoder = encoder
        width: int = encoder.width
        layers: int = encoder.num_layers
        self.layerwise_attention = (
            LayerMix(layers, settings.layer_norm, settings.layer_transformation)
            if settings.layer == "mix" else None
        )
        factor = {"regression": 6, "referenceless": 4}.get(settings.kind, 1)
        self.estimator = FeedForward(width * factor, list(settings.hidden_sizes), settings.activations,
                                     settings.final_activation)
        self.labels = ("O",) + tuple(f"I-{label}" for label in settings.error_labels)
        self.hidden2tag = nn.Linear(width, len(self.labels)) if settings.word_level else None

    def mixed(self, layers: tuple[torch.Tensor, ...], mask: torch.Tensor) -> torch.Tensor:
        if self.layerwise_attention is not None:
            return self.layerwise_attention(layers, mask)
        layer = self.settings.layer
        if isinstance(layer, int) and not isinstance(layer, bool) and 0 <= layer < len(layers):
            return layers[layer]
        raise MetricError(f"comet: layer {layer!r} of the checkpoint's settings is not one of the encoder's "
                          f"{len(layers)} layers or 'mix'")

    def sentence_embedding(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        layers = self.encoder(input_ids, attention_mask)
        embeddings = self.mixed(layers, attention_mask)
        pad = self.encoder.tokenizer.pad_token_id
        pool = self.settings.pool
        if pool == "default":
            return layers[-1][:, 0, :]
        if pool == "cls":
            return embeddings[:, 0, :]
        padding = input_ids.eq(pad).unsqueeze(-1)
        if pool == "max":
            return embeddings.float().masked_fill_(padding, float("-inf")).type_as(embeddings).max(dim=1)[0]
        if pool == "avg":
            summed = torch.sum(embeddings.float().masked_fill_(padding, 0.0).type_as(embeddings), 1)
            count = attention_mask.unsqueeze(-1).expand(embeddings.size()).float().sum(1)
            return summed / count
        raise MetricError(f"comet: pool {pool!r} of the checkpoint's settings is not avg, cls, max or default")

    def regression(self, mt: torch.Tensor, src: torch.Tensor, ref: torch.Tensor | None) -> torch.Tensor:
        if ref is None:
            features = torch.cat((mt, src, mt * src, torch.abs(mt - src)), dim=1)
        else:
            features = torch.cat((mt, ref, mt * ref, torch.abs(mt - ref), mt * src, torch.abs(mt - src)), dim=1)
        return self.estimator(features).view(-1)

    def unified(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor | None]:
        """Sentence scores and (word-level models) tag logits of joined inputs."""
        layers = self.encoder(input_ids, attention_mask)
        embeddings = self.mixed(layers, attention_mask)
        score = self.estimator(embeddings[:, 0, :]).view(-1)
        if self.hidden2tag is None:
            return score, None
        word_layer = self.settings.word_layer
        if not 0 <= word_layer < len(layers):
            raise MetricError(f"comet: word_layer {word_layer} is not one of the encoder's {len(layers)} layers")
        return score, self.hidden2tag(layers[word_layer])
