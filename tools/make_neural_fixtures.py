#!/usr/bin/env python3
"""Build the small neural-metric checkpoints in tests/fixtures/neural/ and their expected
outputs, computed by the reference implementations in their own environment.

Run it in a separate virtual environment that has the reference packages (they pin
numpy<2 and transformers<5, so they cannot share the project's environment):

    python3.11 -m venv /tmp/comet-ref
    /tmp/comet-ref/bin/pip install unbabel-comet==2.2.7      # torch, transformers 4.x, sentencepiece, protobuf
    git clone https://github.com/google-research/metricx /tmp/metricx   # MetricX-23/24 model code
    HF_HUB_OFFLINE=1 /tmp/comet-ref/bin/python tools/make_neural_fixtures.py --metricx-src /tmp/metricx

Nothing is downloaded: a tiny sentencepiece vocabulary is trained on the sentences below,
the encoders are tiny XLM-R / mT5 shapes initialised at random from fixed seeds, and
each COMET checkpoint is saved in COMET's layout (``hparams.yaml`` +
``checkpoints/model.ckpt``, its ``pretrained_model`` the folder ``encoder`` beside them).
Expected outputs come from ``comet.load_from_checkpoint(...).predict(...)`` and from
MetricX's ``MT5ForRegression`` fed as its ``predict.py`` feeds it (one segment at a time).

MetricX reads its score from vocabulary entry 250089 of a 250112-entry output layer;
only the embedding rows the tiny tokenizer can produce and that one output row are
non-zero, and only they are stored (``weights.safetensors``); the tests rebuild the
full-size folder from them (``tests/metrics/neural/fixtures.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
from pathlib import Path

# Segments in several languages and directions; the long ones exceed the tiny
# encoders' length, so truncation is exercised.
PAIRS: dict[str, list[tuple[str, str, str]]] = {
    "zh-en": [
        ("今天天气很好，我们去公园散步吧。", "The weather is nice today, let's go for a walk in the park.",
         "The weather is good today; let us take a walk in the park."),
        ("他昨天买了一本关于历史的书。", "He buy a book about history yesterday.", "Yesterday he bought a book on history."),
        ("这个问题非常复杂。", "This question very complex.", "This problem is very complicated."),
        ("会议将在下午三点开始，请大家准时参加，不要迟到，谢谢合作。会议室在三楼。",
         "The meeting will start at three in the afternoon, please everyone attend on time, don't be late, "
         "thanks for cooperation. The meeting room is on the third floor.",
         "The meeting begins at 3 p.m.; please be punctual. Thank you. The room is on the third floor."),
        ("我爱你。", "I love you.", "I love you."),
    ],
    "en-zh": [
        ("The cat is sleeping on the sofa.", "猫在沙发上睡觉。", "猫正在沙发上睡觉。"),
        ("Please send me the report by Friday.", "请在星期五之前把报告发给我。", "请于周五前将报告发送给我。"),
        ("Machine translation has improved a lot.", "机器翻译改进了很多。", "机器翻译已经有了很大进步。"),
        ("Where is the nearest train station?", "最近火车站在哪里？", "最近的火车站在哪里？"),
    ],
    "de-en": [
        ("Der Zug hat zwanzig Minuten Verspätung.", "The train is twenty minutes late.", "The train is delayed by twenty minutes."),
        ("Ich habe keine Zeit.", "I have no time.", "I don't have time."),
        ("Könnten Sie bitte das Fenster schließen?", "Could you close please the window?", "Could you please close the window?"),
    ],
    "en-ru": [
        ("The museum opens at ten o'clock.", "Музей открывается в десять часов.", "Музей открывается в десять."),
        ("We need more data.", "Нам нужно больше данных.", "Нам нужно больше данных."),
        ("She reads books every evening.", "Она читает книги каждый вечер.", "Каждый вечер она читает книги."),
    ],
    "ar-en": [
        ("أين المكتبة؟", "Where is the library?", "Where is the library?"),
        ("أحب القهوة في الصباح.", "I like coffee in morning.", "I love coffee in the morning."),
        ("الطقس حار جدا اليوم.", "The weather is very hot today.", "It is very hot today."),
    ],
    "en-ja": [
        ("Thank you for your help.", "ご協力ありがとうございます。", "助けてくれてありがとう。"),
        ("The store closes at nine.", "店は九時に閉まります。", "その店は9時に閉まる。"),
    ],
}

EXTRA_TEXT = [
    "Guten Morgen, wie geht es Ihnen? Das Wetter ist schön.", "Привет, как дела? Сегодня хорошая погода.",
    "مرحبا، كيف حالك؟ الطقس جميل اليوم.", "こんにちは、お元気ですか。今日はいい天気です。",
    "你好，你好吗？今天天气很好。", "Hello, how are you? The weather is nice today.",
]

# (folder, unbabel-comet class, settings, layer weights seed)
COMET_MODELS = [
    ("comet-regression", "RegressionMetric", dict(
        layer="mix", layer_transformation="softmax", layer_norm=True, pool="avg",
        hidden_sizes=[24, 12], activations="Tanh", final_activation=None), 11),
    ("comet-regression-sparse-cls", "RegressionMetric", dict(
        layer="mix", layer_transformation="sparsemax", layer_norm=False, pool="cls",
        hidden_sizes=[16], activations="Tanh", final_activation="Sigmoid"), 12),
    ("comet-regression-layer-max", "RegressionMetric", dict(
        layer=2, layer_transformation="softmax", layer_norm=False, pool="max",
        hidden_sizes=[20, 10], activations="Sigmoid", final_activation=None), 13),
    ("comet-referenceless", "ReferencelessRegression", dict(
        layer="mix", layer_transformation="sparsemax", layer_norm=True, pool="avg",
        hidden_sizes=[24, 12], activations="Tanh", final_activation=None), 14),
    ("comet-unified-kiwi", "UnifiedMetric", dict(
        sent_layer="mix", layer_transformation="sparsemax", layer_norm=True, input_segments=["mt", "src"],
        hidden_sizes=[24, 12], activations="Tanh", final_activation=None, word_level_training=False), 15),
    ("comet-unified-spans", "UnifiedMetric", dict(
        sent_layer="mix", layer_transformation="softmax", layer_norm=False, input_segments=["mt", "src", "ref"],
        hidden_sizes=[16], activations="Tanh", final_activation=None, word_level_training=True,
        error_labels=["minor", "major"], word_layer=2), 16),
    ("comet-xcomet", "XCOMETMetric", dict(
        sent_layer="mix", layer_transformation="sparsemax", layer_norm=False,
        hidden_sizes=[24, 12], activations="Tanh", final_activation=None, word_layer=3), 17),
]
ENCODER = "../encoder"  # one tiny XLM-R config and tokenizer beside the checkpoints, shared by them
ENCODER_SHAPE = dict(hidden_size=32, num_hidden_layers=3, num_attention_heads=4, intermediate_size=48,
                     max_position_embeddings=66)


def all_texts() -> list[str]:
    out = list(EXTRA_TEXT)
    for rows in PAIRS.values():
        for row in rows:
            out += list(row)
    return out


def train_sentencepiece(folder: Path, prefix: str, vocab: int, t5: bool) -> Path:
    import sentencepiece as spm

    corpus = folder / "corpus.txt"
    corpus.write_text("\n".join(all_texts() * 3) + "\n", encoding="utf-8")
    ids = dict(pad_id=0, eos_id=1, unk_id=2, bos_id=-1) if t5 else dict(unk_id=0, bos_id=1, eos_id=2, pad_id=-1)
    spm.SentencePieceTrainer.train(input=str(corpus), model_prefix=str(folder / prefix), vocab_size=vocab,
                                   character_coverage=1.0, model_type="unigram", hard_vocab_limit=False,
                                   num_threads=1, seed_sentencepiece_size=2000,
                                   # no normalisation table: it alone would be 240 KB per tokenizer file
                                   normalization_rule_name="identity", **ids)
    corpus.unlink()
    (folder / f"{prefix}.vocab").unlink()
    return folder / f"{prefix}.model"


def make_xlmr_encoder(work: Path, out: Path) -> None:
    from transformers import XLMRobertaConfig, XLMRobertaTokenizer, XLMRobertaTokenizerFast

    model = train_sentencepiece(work, "sentencepiece.bpe", 500, t5=False)
    slow = XLMRobertaTokenizer(vocab_file=str(model))
    fast = XLMRobertaTokenizerFast(vocab_file=str(model), tokenizer_object=None, from_slow=True)
    out.mkdir(parents=True, exist_ok=True)
    fast.save_pretrained(str(out))
    config = XLMRobertaConfig(vocab_size=len(slow), pad_token_id=1, bos_token_id=0, eos_token_id=2,
                              type_vocab_size=1, **ENCODER_SHAPE)
    config.save_pretrained(str(out))


def randomise(model, seed: int, head_std: float) -> None:
    import torch

    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "LayerNorm" in name or name.endswith("gamma"):
                continue
            if "scalar_parameters" in name:
                # the embedding layer (0) kept low: its first token is the same for every sentence
                p.copy_(torch.randn(p.shape, generator=gen) * 1.5 - (3.0 if name.endswith(".0") else 0.0))
            elif p.dim() >= 2:
                std = 0.5 if ("word_embeddings" in name or "hidden2tag" in name) else 0.15
                std = head_std if "estimator" in name else std
                p.copy_(torch.randn(p.shape, generator=gen) * std)
            else:
                p.copy_(torch.randn(p.shape, generator=gen) * 0.1)


def build_comet(root: Path, name: str, cls_name: str, settings: dict, seed: int) -> Path:
    import comet.models as cm
    import pytorch_lightning
    import torch
    import yaml

    folder = root / name
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "checkpoints").mkdir(parents=True)
    torch.manual_seed(seed)
    cls = getattr(cm, cls_name)
    cwd = os.getcwd()
    os.chdir(folder)  # pretrained_model "../encoder" is read relative to the working folder
    try:
        model = cls(pretrained_model=ENCODER, encoder_model="XLM-RoBERTa", load_pretrained_weights=False,
                    local_files_only=True, dropout=0.1, **settings)
    finally:
        os.chdir(cwd)
    # a sigmoid after the estimator saturates (every score the same) unless its weights are small
    randomise(model, seed, 0.05 if settings.get("final_activation") == "Sigmoid" else 0.5)
    hparams = {k: v for k, v in dict(model.hparams).items()}
    hparams["pretrained_model"] = ENCODER
    with open(folder / "hparams.yaml", "w", encoding="utf-8") as f:
        yaml.safe_dump(hparams, f, sort_keys=True, allow_unicode=True)
    state = {k: v.clone() for k, v in model.state_dict().items()}
    torch.save({"epoch": 0, "global_step": 0, "pytorch-lightning_version": pytorch_lightning.__version__,
                "state_dict": state, "hparams_name": "kwargs", "hyper_parameters": hparams},
               folder / "checkpoints" / "model.ckpt")
    return folder


def comet_expected(folder: Path, with_src: bool, with_ref: bool) -> list[dict]:
    from comet import load_from_checkpoint

    cwd = os.getcwd()
    os.chdir(folder)
    try:
        model = load_from_checkpoint(str(folder / "checkpoints" / "model.ckpt"), local_files_only=True)
        out = []
        for pair, rows in PAIRS.items():
            samples = []
            for src, mt, ref in rows:
                sample = {"mt": mt}
                if with_src:
                    sample["src"] = src
                if with_ref:
                    sample["ref"] = ref
                samples.append(sample)
            pred = model.predict(samples, batch_size=2, gpus=0, progress_bar=False)
            case = {"pair": pair, "src": with_src, "ref": with_ref, "scores": list(pred.scores),
                    "system_score": pred.system_score}
            meta = pred.get("metadata") if hasattr(pred, "get") else None
            if meta is not None and "error_spans" in meta:
                case["error_spans"] = [[{"start": int(s["start"]), "end": int(s["end"]), "severity": s["severity"],
                                         "confidence": float(s["confidence"])} for s in seg]
                                       for seg in meta["error_spans"]]
            out.append(case)
        return out
    finally:
        os.chdir(cwd)


# --- MetricX ------------------------------------------------------------------------------
MT5_SHAPE = dict(vocab_size=250112, d_model=16, d_kv=8, d_ff=24, num_layers=2, num_decoder_layers=1, num_heads=2,
                 relative_attention_num_buckets=8, relative_attention_max_distance=32, feed_forward_proj="gated-gelu",
                 tie_word_embeddings=False, decoder_start_token_id=0, pad_token_id=0, eos_token_id=1)
SCORE_ROW = 250089


def metricx_text(version: str, qe: bool, src: str, mt: str, ref: str) -> str:
    """The input strings of MetricX's predict.py (metricx23 and metricx24)."""
    if version == "23":
        return f"candidate: {mt} source: {src}" if qe else f"candidate: {mt} reference: {ref}"
    return f"source: {src} candidate: {mt}" + ("" if qe else f" reference: {ref}")


def build_metricx(root: Path, work: Path, metricx_src: Path) -> None:
    import torch
    from safetensors.torch import save_file
    from transformers import MT5Config, T5TokenizerFast

    sys.path.insert(0, str(metricx_src))
    from metricx24 import models as m24

    folder = root / "metricx"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    spm_model = train_sentencepiece(work, "spiece", 400, t5=True)
    tokenizer = T5TokenizerFast(vocab_file=str(spm_model), extra_ids=0, from_slow=True)
    tokenizer.save_pretrained(str(folder / "tokenizer"))
    torch.manual_seed(21)
    config = MT5Config(**MT5_SHAPE)
    model = m24.MT5ForRegression(config)
    used = len(tokenizer)
    gen = torch.Generator().manual_seed(21)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "layer_norm" in name:
                continue
            p.copy_(torch.randn(p.shape, generator=gen) * (0.4 if p.dim() >= 2 else 0.1))
        model.shared.weight[used:] = 0
        keep = model.lm_head.weight[SCORE_ROW].clone() * 3
        model.lm_head.weight.zero_()
        model.lm_head.weight[SCORE_ROW] = keep
    model.eval()

    def predictions() -> list[float]:
        out = []
        for version in ("23", "24"):
            for qe in (False, True):
                for src, mt, ref in (row for rows in PAIRS.values() for row in rows):
                    text = metricx_text(version, qe, src, mt, ref)
                    enc = tokenizer(text, max_length=1024, truncation=True, padding=False)
                    with torch.no_grad():
                        out.append(float(model(input_ids=torch.tensor([enc["input_ids"][:-1]]),
                                               attention_mask=torch.tensor([enc["attention_mask"][:-1]])).predictions[0]))
        return out

    # Scores are clipped to 0-25: turn and scale the one output row so that most land inside,
    # spread out, rather than at 0 (the prediction is linear in that row before clipping).
    with torch.no_grad():
        if sum(p > 0 for p in predictions()) < len(predictions()) / 2:
            model.lm_head.weight[SCORE_ROW] *= -1
        top = max(predictions())
        if top > 0:
            model.lm_head.weight[SCORE_ROW] *= 18.0 / top
    config.save_pretrained(str(folder))
    state = {k: v.contiguous() for k, v in model.state_dict().items()
             if k not in ("shared.weight", "lm_head.weight", "encoder.embed_tokens.weight", "decoder.embed_tokens.weight")}
    state["shared_rows"] = model.shared.weight[:used].contiguous()
    state["score_row"] = model.lm_head.weight[SCORE_ROW].contiguous()
    save_file(state, str(folder / "weights.safetensors"))

    cases = []
    for version, max_len in (("23", 1024), ("24", 1536)):
        for qe in (False, True):
            for pair, rows in PAIRS.items():
                preds = []
                for src, mt, ref in rows:
                    text = metricx_text(version, qe, src, mt, ref)
                    enc = tokenizer(text, max_length=max_len, truncation=True, padding=False)
                    ids = torch.tensor([enc["input_ids"][:-1]])
                    mask = torch.tensor([enc["attention_mask"][:-1]])
                    with torch.no_grad():
                        preds.append(float(model(input_ids=ids, attention_mask=mask).predictions[0]))
                cases.append({"version": version, "qe": qe, "pair": pair, "scores": preds})
    (folder / "expected.json").write_text(json.dumps({"cases": cases}, ensure_ascii=False, indent=1) + "\n",
                                          encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "neural"))
    parser.add_argument("--metricx-src", help="a checkout of google-research/metricx (skip MetricX without it)")
    parser.add_argument("--only", choices=("comet", "metricx"), help="build one kind only (each in its environment)")
    args = parser.parse_args()
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    random.seed(0)
    import tempfile

    import torch
    import transformers

    torch.set_num_threads(1)
    root = Path(args.out)
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if args.only in (None, "comet"):
            encoder = root / "encoder"
            if encoder.exists():
                shutil.rmtree(encoder)
            make_xlmr_encoder(work, encoder)
            for name, cls_name, settings, seed in COMET_MODELS:
                folder = build_comet(root, name, cls_name, settings, seed)
                cases = []
                for with_src, with_ref in ((True, True), (True, False), (False, True)):
                    if cls_name in ("RegressionMetric",) and not (with_src and with_ref):
                        continue
                    if cls_name == "ReferencelessRegression" and with_ref:
                        continue
                    if name == "comet-unified-kiwi" and not with_src:
                        continue
                    cases += comet_expected(folder, with_src, with_ref)
                (folder / "expected.json").write_text(
                    json.dumps({"class": cls_name, "cases": cases}, ensure_ascii=False, indent=1) + "\n",
                    encoding="utf-8")
                print(f"{name}: {len(cases)} cases", flush=True)
        if args.only in (None, "metricx") and args.metricx_src:
            build_metricx(root, work, Path(args.metricx_src))
            print("metricx: done", flush=True)
    from importlib.metadata import PackageNotFoundError, version

    import numpy

    versions = {"torch": torch.__version__, "transformers": transformers.__version__, "numpy": numpy.__version__,
                "python": sys.version.split()[0]}
    try:
        versions["unbabel-comet"] = version("unbabel-comet")
    except PackageNotFoundError:
        pass
    if args.metricx_src:
        versions["metricx"] = "google-research/metricx " + (Path(args.metricx_src) / "COMMIT").read_text().strip() \
            if (Path(args.metricx_src) / "COMMIT").exists() else "google-research/metricx"
    (root / "PAIRS.json").write_text(json.dumps(PAIRS, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    path = root / "VERSIONS.json"
    recorded = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    recorded[args.only or "all"] = versions
    path.write_text(json.dumps(recorded, indent=1) + "\n", encoding="utf-8")
    print(versions)
    return 0


if __name__ == "__main__":
    sys.exit(main())
