"""Regression models embed sources, hypotheses and references each in batches of their own token
count, not in the batches the sources' character counts make (the reference's order), so
multilingual text is not padded to its neighbours' length; the scores do not change."""

from __future__ import annotations

import pytest

from mtworkbench.metrics.neural.comet_predict import CometModel
from tests.metrics.neural.fixtures import ROOT

# sources of growing length in characters (so the reference's order is this order), in several
# scripts; hypotheses and references alternate between a long German and a short Chinese
# sentence, so batches of two in the sources' order always pair a long with a short one
SOURCES = ["Гора.", "Ein Haus.", "القطة نائمة.", "今日は良い天気ですね。", "Он читает книгу в саду.",
           "Der Zug kommt heute später an.", "ذهبنا إلى السوق في الصباح الباكر.",
           "Мы долго гуляли по старому городу вечером."]
LONG = "Die Sitzung beginnt um drei Uhr nachmittags im großen Saal im dritten Stock des Gebäudes."
SHORT = ["好。", "对。", "是。", "行。"]


def texts() -> tuple[list[str], list[str], list[str]]:
    mt = [LONG if i % 2 == 0 else SHORT[i // 2] for i in range(len(SOURCES))]
    ref = [SHORT[i // 2] if i % 2 == 0 else LONG for i in range(len(SOURCES))]
    return SOURCES, mt, ref


@pytest.fixture(scope="module")
def model() -> CometModel:
    return CometModel(ROOT / "comet-regression", device="cpu")


def test_each_kind_of_text_is_padded_only_to_its_own_lengths(model, monkeypatch):
    src, mt, ref = texts()
    short_tokens = {len(ids) for ids, _ in model.tokenizer.encode(SHORT, 512)}
    assert len(short_tokens) == 1  # the short sentences are one token count, so they pad nothing
    cells: list[tuple[int, int]] = []  # per embedding call: padded cells, real tokens
    embed = model.net.sentence_embedding

    def counting(ids, mask):
        cells.append((ids.numel(), int(mask.sum())))
        return embed(ids, mask)

    monkeypatch.setattr(model.net, "sentence_embedding", counting)
    model.predict(mt, src, ref, batch_size=2)
    hyp_and_ref = cells[4:]  # four batches of sources, then hypotheses, then references
    assert len(hyp_and_ref) == 8
    # batched in the sources' order, every one of these batches would pad a short text to a long one
    assert all(padded == real for padded, real in hyp_and_ref), hyp_and_ref


def test_scores_do_not_depend_on_the_batching(model):
    src, mt, ref = texts()
    together = model.predict(mt, src, ref, batch_size=2)
    alone = [model.predict([m], [s], [r], batch_size=1).scores[0] for s, m, r in zip(src, mt, ref)]
    assert together.scores == pytest.approx(alone, abs=1e-6)
    assert together.system_score == pytest.approx(sum(alone) / len(alone), abs=1e-6)
    assert max(alone) - min(alone) > 1e-3


def test_progress_counts_segments_and_cancel_stops_between_batches(model):
    from mtworkbench.core.jobs import Cancelled

    src, mt, ref = texts()
    seen: list[tuple[int, int]] = []
    model.predict(mt, src, ref, batch_size=2, progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, 8) and seen[-1] == (8, 8)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    asked: list[int] = []
    with pytest.raises(Cancelled):
        model.predict(mt, src, ref, batch_size=2, cancel=lambda: asked.append(1) or len(asked) > 3)
    assert len(asked) == 4
