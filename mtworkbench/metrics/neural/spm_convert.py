"""An XLM-R tokenizer from ``sentencepiece.bpe.model`` alone, built as transformers 4 built it.

When a folder has no ``tokenizer.json``, the reference tools (transformers 4) converted
the sentencepiece model into a fast tokenizer: the unigram pieces behind XLM-R's four
fairseq specials, the model's precompiled normalisation, trailing spaces stripped,
runs of spaces made one ``▁``, a ``▁`` before each word, ``<s> A </s>`` around each text.
transformers 5 builds a different pipeline (other offsets), so we build this one with
the ``tokenizers`` library. The model file is read with a small protobuf reader (the
fields we need only), so protobuf is not needed.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

from mtworkbench.core.scoring_input import MetricError

UNIGRAM = 1
CONTROL, USER_DEFINED = 3, 4


def _fields(data: bytes) -> list[tuple[int, int, Any]]:
    """(field number, wire type, value) of one protobuf message, in order."""
    out: list[tuple[int, int, Any]] = []
    i, n = 0, len(data)

    def varint() -> int:
        nonlocal i
        shift = value = 0
        while True:
            if i >= n:
                raise ValueError("truncated varint")
            b = data[i]
            i += 1
            value |= (b & 0x7F) << shift
            if not b & 0x80:
                return value
            shift += 7

    while i < n:
        key = varint()
        number, wire = key >> 3, key & 7
        if wire == 0:
            out.append((number, wire, varint()))
        elif wire == 1:
            out.append((number, wire, data[i:i + 8]))
            i += 8
        elif wire == 2:
            size = varint()
            out.append((number, wire, data[i:i + size]))
            i += size
        elif wire == 5:
            out.append((number, wire, data[i:i + 4]))
            i += 4
        else:
            raise ValueError(f"unsupported wire type {wire}")
    return out


def read_model(path: Path) -> tuple[list[tuple[str, float, int]], int, bytes]:
    """(pieces as (text, score, type), model type, precompiled normalisation map)."""
    try:
        top = _fields(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise MetricError(f"{path}: not a sentencepiece model ({exc})") from None
    pieces: list[tuple[str, float, int]] = []
    model_type, charsmap = UNIGRAM, b""
    for number, wire, value in top:
        if number == 1 and wire == 2:
            text, score, kind = "", 0.0, 1
            for f, w, v in _fields(value):
                if f == 1 and w == 2:
                    text = v.decode("utf-8")
                elif f == 2 and w == 5:
                    score = struct.unpack("<f", v)[0]
                elif f == 3 and w == 0:
                    kind = v
            pieces.append((text, score, kind))
        elif number == 2 and wire == 2:
            for f, w, v in _fields(value):
                if f == 3 and w == 0:
                    model_type = v
        elif number == 3 and wire == 2:
            for f, w, v in _fields(value):
                if f == 2 and w == 2:
                    charsmap = v
    return pieces, model_type, charsmap


def xlmr_tokenizer(path: Path) -> Any:
    """A ``tokenizers.Tokenizer`` equal to transformers 4's conversion of an XLM-R model file."""
    from tokenizers import AddedToken, Regex, Tokenizer, normalizers, pre_tokenizers, processors
    from tokenizers.models import Unigram

    pieces, model_type, charsmap = read_model(path)
    if model_type != UNIGRAM:
        raise MetricError(f"{path}: a sentencepiece model of type {model_type}; XLM-R's is a unigram model")
    vocab = [("<s>", 0.0), ("<pad>", 0.0), ("</s>", 0.0), ("<unk>", 0.0)]
    vocab += [(text, score) for text, score, _ in pieces[3:]]
    vocab += [("<mask>", 0.0)]
    tokenizer = Tokenizer(Unigram(vocab, unk_id=3, byte_fallback=False))
    added = [(i, text, kind == CONTROL) for i, (text, _, kind) in enumerate(pieces) if kind in (CONTROL, USER_DEFINED)]
    tokenizer.add_tokens([AddedToken(text, normalized=False, special=special) for _, text, special in sorted(added)])
    steps = [normalizers.Strip(left=False, right=True), normalizers.Replace(Regex(" {2,}"), "▁")]
    if charsmap:
        steps.insert(0, normalizers.Precompiled(charsmap))
    tokenizer.normalizer = normalizers.Sequence(steps)
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    ids = {t: tokenizer.token_to_id(t) for t in ("<s>", "</s>")}
    tokenizer.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>", special_tokens=list(ids.items()))
    # the special tokens transformers registers for XLM-R (the mask token takes the space before it)
    tokenizer.add_special_tokens([AddedToken("<s>", normalized=False), AddedToken("</s>", normalized=False),
                                  AddedToken("<unk>", normalized=False), AddedToken("<pad>", normalized=False),
                                  AddedToken("<mask>", lstrip=True, normalized=False)])
    return tokenizer
