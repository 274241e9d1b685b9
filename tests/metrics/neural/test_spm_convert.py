"""An XLM-R folder without tokenizer.json tokenises as transformers 4 converted it: the
fixture's tokenizer.json is exactly that conversion of its sentencepiece.bpe.model
(tools/make_neural_fixtures.py), so both must give the same ids and offsets."""

from __future__ import annotations

from mtworkbench.metrics.neural.spm_convert import read_model, xlmr_tokenizer
from mtworkbench.metrics.neural.tokenization import JsonTokens, load_tokens
from tests.metrics.neural.fixtures import ROOT, pairs

ODD = ["  leading and  double   spaces ", "tab\there", "Ünïcödé ﬁ ligature", "<mask> and <s> inside", "",
       "中文  空格", "русский   текст", "نص عربي", "日本語のテキスト。"]


def test_conversion_equals_transformers_4(tmp_path):
    texts = [t for rows in pairs().values() for row in rows for t in row] + ODD
    stored = JsonTokens(ROOT / "encoder" / "tokenizer.json", "comet", "<s>", "</s>", "<pad>")
    built = JsonTokens(ROOT / "encoder" / "sentencepiece.bpe.model", "comet", "<s>", "</s>", "<pad>",
                       built=xlmr_tokenizer(ROOT / "encoder" / "sentencepiece.bpe.model"))
    assert built.encode(texts, 30) == stored.encode(texts, 30)
    assert built.encode(texts, 512) == stored.encode(texts, 512)
    assert (built.pad_token_id, built.cls_token_id, built.sep_token_id) == (1, 0, 2)


def test_folder_without_tokenizer_json_uses_the_conversion(tmp_path):
    import shutil

    folder = tmp_path / "enc"
    folder.mkdir()
    for name in ("config.json", "sentencepiece.bpe.model"):
        shutil.copy2(ROOT / "encoder" / name, folder / name)
    tokens = load_tokens(str(folder), "comet", "<s>", "</s>", "<pad>", fallback=None)
    assert isinstance(tokens, JsonTokens)
    pieces, model_type, _ = read_model(folder / "sentencepiece.bpe.model")
    assert model_type == 1 and len(pieces) > 100
