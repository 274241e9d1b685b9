"""Tokenising as the reference implementations did: a folder's ``tokenizer.json`` read as is.

The reference tools ran transformers 4, whose fast tokenizers are the folder's
``tokenizer.json`` unchanged. transformers 5 rebuilds an XLM-R or T5 tokenizer's
normaliser and pre-tokeniser from its own recipe, which moves character offsets (so
xCOMET's spans) and can change the tokens of text with runs of spaces. So a folder
with ``tokenizer.json`` is read with the ``tokenizers`` library directly; an XLM-R folder
with only ``sentencepiece.bpe.model`` is converted as transformers 4 converted it
(``spm_convert``); anything else falls back to transformers' own tokenizer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mtworkbench.core.scoring_input import MetricError
from mtworkbench.metrics.neural.checkpoint import need


class Tokens:
    """What a metric needs of a tokenizer: ids (with special tokens) and character offsets."""

    pad_token_id: int
    cls_token_id: int
    sep_token_id: int

    def encode(self, texts: list[str], max_length: int) -> list[tuple[list[int], list[tuple[int, int]]]]:
        raise NotImplementedError

    def ids(self, texts: list[str], max_length: int) -> list[list[int]]:
        """The ids of ``encode`` without the character offsets (which only span decoding needs)."""
        return [ids for ids, _ in self.encode(texts, max_length)]


class JsonTokens(Tokens):
    def __init__(self, path: Path, metric: str, bos: str, eos: str, pad: str, built: Any = None) -> None:
        tokenizers = need("tokenizers", metric)
        try:
            self.tokenizer = built if built is not None else tokenizers.Tokenizer.from_file(str(path))
        except Exception as exc:  # the library raises its own exception type
            raise MetricError(f"{metric}: {path}: not a tokenizer file ({exc})") from None
        ids = {name: self.tokenizer.token_to_id(name) for name in (bos, eos, pad)}
        missing = [name for name, i in ids.items() if i is None]
        if missing:
            raise MetricError(f"{metric}: {path}: the tokenizer has no {', '.join(missing)} token")
        self.cls_token_id, self.sep_token_id, self.pad_token_id = ids[bos], ids[eos], ids[pad]
        self.tokenizer.no_padding()
        self._truncated_at: int | None = None
        # the same ids without computing offsets (tokenizers 0.20 and later); a third less work
        self._encode_ids = getattr(self.tokenizer, "encode_batch_fast", self.tokenizer.encode_batch)

    def _truncate(self, max_length: int) -> None:
        if self._truncated_at != max_length:  # enabled once per length, not once per batch
            self.tokenizer.enable_truncation(max_length=max_length)
            self._truncated_at = max_length

    def encode(self, texts: list[str], max_length: int) -> list[tuple[list[int], list[tuple[int, int]]]]:
        self._truncate(max_length)
        return [(list(e.ids), [tuple(o) for o in e.offsets]) for e in self.tokenizer.encode_batch(texts)]

    def ids(self, texts: list[str], max_length: int) -> list[list[int]]:
        self._truncate(max_length)
        return [e.ids for e in self._encode_ids(texts)]


class TransformersTokens(Tokens):
    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self.pad_token_id = tokenizer.pad_token_id
        self.cls_token_id = tokenizer.cls_token_id if tokenizer.cls_token_id is not None else tokenizer.bos_token_id
        self.sep_token_id = tokenizer.sep_token_id if tokenizer.sep_token_id is not None else tokenizer.eos_token_id

    def encode(self, texts: list[str], max_length: int) -> list[tuple[list[int], list[tuple[int, int]]]]:
        enc = self.tokenizer(texts, truncation=True, max_length=max_length, return_offsets_mapping=True)
        return [(list(ids), [(int(a), int(b)) for a, b in offs])
                for ids, offs in zip(enc["input_ids"], enc["offset_mapping"])]

    def ids(self, texts: list[str], max_length: int) -> list[list[int]]:
        return [list(ids) for ids in self.tokenizer(texts, truncation=True, max_length=max_length)["input_ids"]]


def load_tokens(where: str, metric: str, bos: str, eos: str, pad: str, fallback: Any) -> Tokens:
    """``tokenizer.json`` in the folder ``where`` (or the Hugging Face cache entry of that name),
    else ``fallback(where)``, transformers' tokenizer."""
    folder = Path(where)
    if (folder / "tokenizer.json").is_file():
        return JsonTokens(folder / "tokenizer.json", metric, bos, eos, pad)
    model = folder / "sentencepiece.bpe.model"
    if not folder.is_dir():
        cached = _cached_file(where, "tokenizer.json")
        if cached is not None:
            return JsonTokens(cached, metric, bos, eos, pad)
        found = _cached_file(where, "sentencepiece.bpe.model")
        model = found if found is not None else model
    if bos == "<s>" and model.is_file():  # XLM-R without tokenizer.json: converted as transformers 4 did
        from mtworkbench.metrics.neural.spm_convert import xlmr_tokenizer

        need("tokenizers", metric)
        return JsonTokens(model, metric, bos, eos, pad, built=xlmr_tokenizer(model))
    return TransformersTokens(fallback(where))


def _cached_file(repo: str, name: str) -> Path | None:
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return None
    try:
        found = try_to_load_from_cache(repo, name)
    except Exception:  # a malformed repo name is simply not in the cache
        return None
    return Path(found) if isinstance(found, str) else None
