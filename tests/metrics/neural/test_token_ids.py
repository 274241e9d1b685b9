"""Token ids without offsets (what regression models and joined inputs read) are the ids of the
full encoding, at whatever length each call truncates to; padded batches are the ids and mask the
reference's tokenizer call gives."""

from __future__ import annotations

import pytest
import torch

from mtworkbench.metrics.neural.comet_predict import CometModel
from mtworkbench.metrics.neural.spm_convert import xlmr_tokenizer
from mtworkbench.metrics.neural.tokenization import JsonTokens, TransformersTokens
from tests.metrics.neural.fixtures import ROOT, pairs

TEXTS = ["Der Zug kommt heute später an.", "今日は良い天気ですね。", "Он читает книгу в саду.",
         "ذهبنا إلى السوق في الصباح الباكر.", "这是一个很长的中文句子，用来检查截断。" * 4, "  two  spaces ", ""]


def all_texts() -> list[str]:
    return TEXTS + [t for rows in pairs().values() for row in rows for t in row]


@pytest.mark.parametrize("built", [False, True])
def test_ids_are_the_ids_of_encode_at_each_length(built):
    path = ROOT / "encoder" / ("sentencepiece.bpe.model" if built else "tokenizer.json")
    def fresh() -> JsonTokens:
        return JsonTokens(path, "comet", "<s>", "</s>", "<pad>", built=xlmr_tokenizer(path) if built else None)

    tokens = fresh()
    texts = all_texts()
    # lengths change between calls: a truncation left from the call before would cut the wrong length
    for length in (30, 512, 5, 512, 30):
        expected = [ids for ids, _ in fresh().encode(texts, length)]
        assert tokens.ids(texts, length) == expected
        assert [ids for ids, _ in tokens.encode(texts, length)] == expected
    assert max(len(ids) for ids in tokens.ids(texts, 5)) == 5 < max(len(ids) for ids in tokens.ids(texts, 512))


def test_transformers_tokenizer_ids_are_the_ids_of_encode():
    transformers = pytest.importorskip("transformers")
    tokens = TransformersTokens(transformers.XLMRobertaTokenizerFast.from_pretrained(str(ROOT / "encoder")))
    texts = all_texts()
    for length in (8, 512):
        assert tokens.ids(texts, length) == [ids for ids, _ in tokens.encode(texts, length)]


def test_padded_batch_is_ids_and_mask_row_by_row():
    model = CometModel(ROOT / "comet-regression", device="cpu")
    rows = model.tokenizer.ids(TEXTS, model.max_positions - 2)
    ids, mask = model._padded(rows)
    width = max(len(r) for r in rows)
    assert ids.shape == mask.shape == (len(rows), width)
    assert ids.dtype == mask.dtype == torch.long
    pad = model.tokenizer.pad_token_id
    for i, r in enumerate(rows):
        assert ids[i].tolist() == r + [pad] * (width - len(r))
        assert mask[i].tolist() == [1] * len(r) + [0] * (width - len(r))
