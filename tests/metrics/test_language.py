"""Target languages (SPECS.md "Target languages"): the language table, the
metrics' language defaults, and parity with sacrebleu, GTM 1.4 and Meteor 1.4
on the shared goldens and on hand-written zh/ja/ko/de/ru/ar strings."""

from __future__ import annotations

import json

import numpy as np
import pytest
import sacrebleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from mtworkbench.cli import main
from mtworkbench.core.language import language_label, language_profile, meteor_defaults
from mtworkbench.metrics.base import MetricError, ScoringInput
from mtworkbench.metrics.registry import create_metric

# --- hand-written text -------------------------------------------------------
ZH_HYP = ["习近平访问了美国。", "今天天气很好，我们去公园吧！", "他说：“这是１２３号房间。”"]
ZH_REFS = [
    ["习近平对美国进行了访问。", "今天天气不错，我们去公园吧。", "他说：“这是123号房间。”"],
    ["习近平访问美国。", "天气很好，去公园吧！", "他说这是一二三号房间。"],
]
JA_HYP = ["今日は良い天気です。", "私は東京に住んでいます。", "彼は本を読みました。"]
JA_REF = ["今日はいい天気です。", "私は東京で暮らしています。", "彼は本を読んだ。"]
KO_HYP = ["안녕하세요 세계입니다.", "나는 학교에 갑니다.", "오늘 날씨가 좋네요."]
KO_REF = ["안녕 세계입니다.", "저는 학교에 가요.", "오늘은 날씨가 좋습니다."]


def write(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def run_cli(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def score_json(capsys, *args):
    code, out, err = run_cli(capsys, "score", *args, "--json")
    assert code == 0, err
    return json.loads(out)["scores"], err


def read_lines(path):
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


# --- the table ---------------------------------------------------------------
@pytest.mark.parametrize(
    "code, tok, word, asian, nee",
    [
        ("zh", "zh", "zh", True, "NFKC"),
        ("zh-CN", "zh", "zh", True, "NFKC"),
        ("ja", "ja-mecab", "ja-mecab", True, "NFKC"),
        ("ko", "ko-mecab", "ko-mecab", True, "NFKC"),
        ("de", "13a", "none", False, None),
        ("ru", "13a", "none", False, None),
        ("ar", "13a", "none", False, None),
    ],
)
def test_profile_follows_sacrebleus_language_defaults(code, tok, word, asian, nee):
    p = language_profile(code)
    assert (p.bleu_tokenizer, p.word_tokenizer, p.ter_asian_support, p.nee_unicode) == (tok, word, asian, nee)


def test_meteor_rows_follow_meteor_1_4():
    de = meteor_defaults("de")
    assert de.modules == ("exact", "stem", "paraphrase") and de.weights == (1.0, 0.8, 0.2)
    assert (de.alpha, de.beta, de.gamma, de.delta, de.function_words, de.stemmer) == (0.95, 1.0, 0.55, 0.55, "de", "german")
    ru = meteor_defaults("ru")
    assert (ru.row, ru.modules, ru.weights, ru.stemmer, ru.function_words) == ("other", ("exact", "stem"), (1.0, 0.5), "russian", "none")
    assert (ru.alpha, ru.beta, ru.gamma, ru.delta) == (0.75, 1.4, 0.7, 0.5) and ru.notice is None
    assert meteor_defaults("cz") == meteor_defaults("cs") and meteor_defaults("cs").function_words == "cz"
    ar = meteor_defaults("ar")
    assert ar.modules == ("exact", "paraphrase") and ar.alpha == 0.0 and ar.stemmer is None
    # outside Meteor's table: language-independent defaults, said out loud
    zh = meteor_defaults("zh")
    assert zh.modules == ("exact",) and "Chinese" in zh.notice
    el = meteor_defaults("el")
    assert el.modules == ("exact", "stem") and el.stemmer == "greek" and "Greek" in el.notice


def test_language_labels():
    assert language_label("de") == "German"
    assert language_label("zh") == "Chinese"
    assert language_label("qqq") == "the target language"
    assert language_label("") == "the target language"


# --- explicit options win, signatures tell -------------------------------------
def test_language_sets_unset_options_and_explicit_ones_win():
    assert create_metric("bleu", "zh").options["tokenize"] == "zh"
    assert create_metric("bleu:tokenize=13a", "zh").options["tokenize"] == "13a"
    assert "lang:zh|case:mixed|eff:no|tok:13a" in create_metric("bleu:tokenize=13a", "zh").signature(1)
    assert create_metric("ter", "ja").options["asian_support"] is True
    assert create_metric("ter:asian_support=no", "ja").options["asian_support"] is False
    m = create_metric("meteor:delta=0.5", "de")
    assert (m.delta, m.alpha) == (0.5, 0.95)
    assert create_metric("bleu").signature(1).startswith("bleu|nrefs:1|case:")  # no language: no lang field


def test_every_signature_names_language_and_choice():
    for spec, chosen in [("bleu", "tok:zh"), ("gtm", "tok:zh"), ("wer", "tok:zh"), ("ter", "asian:yes"),
                         ("meteor", "tok:zh"), ("lepor", "tok:zh"), ("chrf", "nc:6"), ("nee", "tok:zh")]:
        sig = create_metric(spec, "zh").signature(1)
        assert "lang:zh" in sig and chosen in sig, sig
    assert "tok:ja-mecab-" in create_metric("bleu", "ja").signature(1)
    assert "tok:ko-mecab-" in create_metric("bleu", "ko").signature(1)
    de = create_metric("meteor", "de").signature(1)
    assert "fw:de" in de and "stem:german" in de and "para:no-table" in de and "mod:exact+stem|" in de


# --- BLEU, chrF, TER equal sacrebleu with trg_lang -----------------------------------
@pytest.mark.parametrize(
    "lang, hyps, refs",
    [("zh", ZH_HYP, ZH_REFS), ("ja", JA_HYP, [JA_REF]), ("ko", KO_HYP, [KO_REF])],
)
def test_bleu_chrf_ter_equal_sacrebleu_with_trg_lang(lang, hyps, refs):
    data = ScoringInput(hyps, refs, target_language=lang)
    bleu = create_metric("bleu", lang).score(data)
    sb = sacrebleu.BLEU(trg_lang=lang)
    assert bleu.corpus == pytest.approx(sb.corpus_score(hyps, refs).score, abs=1e-9)
    sent = sacrebleu.BLEU(trg_lang=lang, effective_order=True)
    expected = [sent.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)]
    np.testing.assert_allclose(bleu.segments, expected, rtol=0, atol=1e-9)
    assert f"tok:{sb.tokenizer.signature()}" in bleu.signature
    chrf = create_metric("chrf", lang).score(data)
    assert chrf.corpus == pytest.approx(sacrebleu.CHRF().corpus_score(hyps, refs).score, abs=1e-9)
    ter = create_metric("ter", lang).score(data)
    assert ter.corpus == pytest.approx(sacrebleu.TER(asian_support=True).corpus_score(hyps, refs).score, abs=1e-9)


def test_chinese_bleu_is_not_zero_on_a_near_perfect_output():
    hyp, ref = "习近平访问了美国。", "习近平访问美国。"
    assert create_metric("bleu").score(ScoringInput([hyp], [[ref]])).corpus == 0.0  # one "word" each
    assert create_metric("bleu", "zh").score(ScoringInput([hyp], [[ref]])).corpus > 40


def test_missing_mecab_package_is_one_line_naming_it(monkeypatch):
    import importlib.util

    from mtworkbench.core import segmenter
    from mtworkbench.metrics import tokens

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ipadic" else real(name, *a))
    tokens.sacrebleu_tokenizer.cache_clear()
    segmenter.segmenter.cache_clear()
    try:
        with pytest.raises(MetricError, match=r"needs the Python package ipadic \(pip install ipadic\)") as err:
            create_metric("bleu", "ja").score(ScoringInput(JA_HYP, [JA_REF]))
        assert "\n" not in str(err.value)
    finally:
        tokens.sacrebleu_tokenizer.cache_clear()
        segmenter.segmenter.cache_clear()


# --- word-level metrics on languages without spaces --------------------------------
def test_word_metrics_see_zh_tokens():
    data = ScoringInput(["习近平访问了美国"], [["习近平访问美国"]], target_language="zh")
    wer = create_metric("wer", "zh")
    assert wer.tokens("习近平访问了美国") == list("习近平访问了美国")
    assert wer.score(data).corpus == pytest.approx(1 / 7)  # one insertion over 7 characters
    grid = create_metric("gtm", "zh").explain(data, 0)
    assert grid.hyp_tokens == list("习近平访问了美国")
    res = create_metric("meteor", "zh").explain(data, 0)
    assert res.hypothesis_tokens == list("习近平访问了美国") and len(res.links) == 7
    lepor = create_metric("lepor", "zh").explain(data, 0)
    assert lepor.hypothesis_tokens == list("习近平访问了美国")


def test_japanese_word_metrics_use_mecab_words():
    wer = create_metric("wer", "ja")
    assert wer.tokens("今日は良い天気です。") == ["今日", "は", "良い", "天気", "です", "。"]


def test_gtm_zh_golden_every_segment(capsys, shared_dir):
    g = json.loads((shared_dir / "golden/lang/gtm-zh-e1.HuaweiTSC.vs-refA-refB.json").read_text())
    refs = [a for r in g["refs"] for a in ("--ref", shared_dir / r)]
    (s,), _ = score_json(capsys, "--hyp", shared_dir / g["hyp"], *refs, "--tgt-lang", "zh", "--metric", "gtm:e=1")
    assert "lang:zh" in s["signature"] and "tok:zh" in s["signature"]
    assert s["corpus"] == pytest.approx(g["corpus"], abs=1e-9)
    np.testing.assert_allclose(s["segments"], g["segments"], rtol=0, atol=1e-9)


def test_sacrebleu_zh_golden(capsys, shared_dir):
    g = json.loads((shared_dir / "golden/lang/sacrebleu-zh.HuaweiTSC.vs-refA-refB.json").read_text())
    refs = [a for r in g["refs"] for a in ("--ref", shared_dir / r)]
    (b, c), _ = score_json(capsys, "--hyp", shared_dir / g["hyp"], *refs, "--tgt-lang", "zh", "--metric", "bleu", "--metric", "chrf")
    assert "tok:zh" in b["signature"]
    assert b["corpus"] == pytest.approx(g["bleu"], abs=1e-9)
    np.testing.assert_allclose(b["segments"], g["bleu_segments"], rtol=0, atol=1e-9)
    assert c["corpus"] == pytest.approx(g["chrf"], abs=1e-9)


def test_gtm_study_takes_tgt_lang(capsys, tmp_path):
    hyp = write(tmp_path / "h.zh", ["习近平访问了美国"])
    ref = write(tmp_path / "r.zh", ["美国习近平访问"])
    code, out, err = run_cli(capsys, "gtm-study", "--hyp", hyp, "--ref", ref, "--tgt-lang", "zh", "-e", "2", "--json")
    assert code == 0, err
    assert json.loads(out)["studies"][0]["rows"][0]["equal"] == 1


# --- METEOR per language ---------------------------------------------------------------
def test_meteor_de_golden_every_segment(capsys, shared_dir, tmp_path):
    g = json.loads((shared_dir / "golden/lang/meteor-de.Online-W.vs-refA.json").read_text())
    tok = Tokenizer13a()
    prep = lambda p, out: write(out, [tok(line).lower() for line in read_lines(shared_dir / p)])  # noqa: E731
    hyp, ref = prep(g["hyp"], tmp_path / "h"), prep(g["refs"][0], tmp_path / "r")
    (s,), err = score_json(capsys, "--hyp", hyp, "--ref", ref, "--tgt-lang", "de", "--metric", "meteor")
    assert err == ""
    assert s["corpus"] == pytest.approx(g["corpus"], abs=1e-9)
    np.testing.assert_allclose(s["segments"], g["segments"], rtol=0, atol=1e-9)


def test_meteor_german_stemmer_keeps_meteors_niss():
    # Meteor 1.4's Snowball German keeps the s of -nissen: no stem match with -nis.
    m = create_metric("meteor", "de")
    res = m.explain(ScoringInput(["das ergebnis"], [["die ergebnissen"]]), 0)
    assert res.links == []
    res = m.explain(ScoringInput(["die ergebnisse"], [["den ergebnissen"]]), 0)
    assert [link.module for link in res.links] == ["stem"]


def test_meteor_russian_uses_russian_stems_and_no_function_words():
    m = create_metric("meteor", "ru")
    res = m.explain(ScoringInput(["большие кошки спят"], [["большая кошка спит"]]), 0)
    # Snowball Russian: больш-ие/больш-ая and кошк-и/кошк-а share stems; спят/спит do not
    assert [(link.hyp, link.ref, link.module) for link in res.links] == [(0, 0, "stem"), (1, 1, "stem")]
    assert not any(res.per_reference[0].hyp_function_words)
    assert "stem:russian" in m.signature(1) and "fw:none" in m.signature(1)
    # Russian row: P and R weighted as Meteor's other languages (alpha 0.75, ...)
    assert (m.alpha, m.beta, m.gamma, m.delta) == (0.75, 1.4, 0.7, 0.5)


def test_meteor_arabic_row_and_right_to_left_text():
    m = create_metric("meteor", "ar")
    res = m.explain(ScoringInput(["ذهب الولد إلى المدرسة"], [["ذهب الولد الى المدرسة"]]), 0)
    assert m.modules == ("exact",) and len(res.links) == 3
    assert "para:no-table" in m.signature(1)


def test_unknown_language_gets_a_notice_never_english(capsys, tmp_path):
    hyp = write(tmp_path / "h", ["a b c"])
    ref = write(tmp_path / "r", ["a b d"])
    (s,), err = score_json(capsys, "--hyp", hyp, "--ref", ref, "--tgt-lang", "el", "--metric", "meteor")
    assert err.count("\n") == 1 and "no defaults for Greek" in err
    assert "defaults:language-independent" in s["signature"] and "fw:none" in s["signature"]
    assert "stem:greek" in s["signature"]


def test_shipped_function_word_lists():
    from mtworkbench.metrics.meteor.function_words import function_words

    assert [len(function_words(x)) for x in ("en", "de", "fr", "cz")] == [93, 92, 85, 68]
    assert {"-lrb-", "-rrb-", "\u2019", "\u201c", "\u201d", "\u2014"} <= function_words("en")
    assert {"die", "der", "und"} <= function_words("de")


# --- NEE ----------------------------------------------------------------------------
def test_nee_matches_chinese_entities_and_full_width_digits():
    from mtworkbench.metrics.base import EntityMention

    ref = "习近平访问了美国。１２３号"
    hyp = "美国总统会见习近平。123号"
    ents = [[[EntityMention(0, 3, "PER"), EntityMention(6, 8, "LOC"), EntityMention(9, 12, "NUM")]]]
    data = ScoringInput([hyp], [[ref]], documents=["d"], paragraphs=["p"], entities=ents, target_language="zh")
    assert create_metric("nee", "zh").score(data).corpus == pytest.approx(1.0)
    # without the language: 习近平访问了美国 is one "word", so nothing is found
    assert create_metric("nee").score(data).corpus < 1.0


# --- Meteor's -norm --------------------------------------------------------------------
@pytest.mark.parametrize(
    "lang, raw, expected",
    [
        ("en", 'The U.S.-based firm\'s profit rose 3,5% to $1,000.50... "Great," he said.',
         'The US based firm \'s profit rose 3,5 % to $ 1,000.50 ... " Great , " he said .'),
        ("en", "Mr. Smith doesn't like it -- really.", "Mr. Smith doesn 't like it - really ."),
        ("en", "He bought No. 5 at 3 p.m. today.", "He bought No. 5 at 3 pm today ."),
        ("fr", "L'homme n'est pas là.", "L' homme n' est pas là ."),
        ("de", "Der Preis (ca. 5 Euro) war gut.", "Der Preis ( ca. 5 Euro ) war gut ."),
        ("ar", 'قال: "مرحبا، العالم."', 'قال : " مرحبا ، العالم . "'),
    ],
)
def test_meteor_norm_tokenises_like_meteor(lang, raw, expected):
    from mtworkbench.metrics.meteor.normalise import normalise

    assert normalise(raw, lang) == expected


def test_meteor_norm_option_lowercases_and_is_in_the_signature():
    m = create_metric("meteor:norm=yes", "de")
    assert m.tokens("Der Preis (ca. 5 Euro) war GUT.") == ["der", "preis", "(", "ca.", "5", "euro", ")", "war", "gut", "."]
    assert "norm:yes" in m.signature(1) and "norm:no" in create_metric("meteor", "de").signature(1)
    raw = ScoringInput(['Er sagte: "Gut."'], [['er sagte : " gut . "']])
    assert create_metric("meteor:norm=yes", "de").score(raw).corpus == pytest.approx(1.0)
    assert create_metric("meteor", "de").score(raw).corpus < 0.5


def test_meteor_russian_stems_keep_yo_as_meteors_older_snowball():
    # Snowball 2.x folds ё into е; Meteor 1.4's older Snowball does not, so
    # "жёлтые" and "желтые" are different words with different stems there.
    from mtworkbench.metrics.meteor.matchers import _Stemmer

    stem = _Stemmer("russian")
    assert stem("желтые") == "желт"
    assert stem("жёлтые") != stem("желтые") and stem("жёлтые").startswith("жёлт")
    assert stem("кошки") == stem("кошка") == "кошк"  # no ё: Snowball as is


def test_meteor_norm_refuses_languages_meteor_cannot_normalise():
    from mtworkbench.metrics.base import MetricSpecError

    with pytest.raises(MetricSpecError, match="normaliser knows en, cs, de, es, fr, ar only, not ru"):
        create_metric("meteor:norm=yes", "ru")


# --- Meteor's paraphrase module with a table the user owns ----------------------------
def write_table(path, entries):
    import gzip

    with gzip.open(path, "wt", encoding="utf-8") as f:
        for prob, phrase, para in entries:
            f.write(f"{prob}\n{phrase}\n{para}\n")
    return str(path)


def test_paraphrase_table_matches_phrases_as_meteor(tmp_path):
    table = write_table(tmp_path / "paraphrase-en.gz", [
        (0.5, "passed away", "died"), (0.3, "the united states", "the us"), (0.2, "big", "large"),
    ])
    hyps = ["he died in the us yesterday", "the large house is big"]
    refs = ["he passed away in the united states yesterday", "the big house is large"]
    spec = f"meteor:modules=exact+stem+paraphrase,weights=1+0.6+0.6,paraphrase={table}"
    m = create_metric(spec, "en")
    res = m.explain(ScoringInput(hyps, [refs]), 0)
    stats = res.per_reference[0].statistics
    # died <-> passed away (1 + 2 words), the us <-> the united states (2 + 3; "the" may go to exact)
    assert stats["paraphrase_tst_content"] + stats["paraphrase_tst_function"] >= 2
    assert stats["tst_word_matches"] == 6 and stats["ref_word_matches"] == 8
    assert stats["chunks"] == 1
    # Meteor 1.4 (-l en -m "exact stem paraphrase" -w "1.0 0.6 0.6" -a TABLE) on these two lines:
    score = m.score(ScoringInput(hyps, [refs]))
    np.testing.assert_allclose(score.segments, [0.7189255189255189, 0.42618850012597786], rtol=0, atol=1e-12)
    assert score.corpus == pytest.approx(0.4296330943743378, abs=1e-12)
    without = create_metric("meteor:modules=exact+stem,weights=1+0.6", "en").score(ScoringInput(hyps, [refs]))
    assert without.segments[0] < score.segments[0]
    assert "para:paraphrase-en.gz" in m.signature(1)


def test_paraphrase_default_and_errors(tmp_path):
    from mtworkbench.metrics.base import MetricSpecError

    table = write_table(tmp_path / "p.gz", [(1, "sehr gut", "prima")])
    de = create_metric(f"meteor:paraphrase={table}", "de")
    assert de.modules == ("exact", "stem", "paraphrase") and de.weights["paraphrase"] == 0.2
    assert "para:no-table" not in de.signature(1)
    assert create_metric("meteor", "de").modules == ("exact", "stem")
    with pytest.raises(MetricSpecError, match="needs a Meteor paraphrase table"):
        create_metric("meteor:modules=exact+paraphrase", "de")
    bad = tmp_path / "bad.txt"
    bad.write_text("0.5\nonly two lines\n", encoding="utf-8")
    with pytest.raises(MetricError, match=r"bad.txt: 2 lines; expected entries of three lines"):
        create_metric(f"meteor:paraphrase={bad}", "de").score(ScoringInput(["a"], [["a b"]]))


@pytest.mark.parametrize(
    "language, word, stem",
    [  # the Snowball stemmers inside meteor-1.4.jar give these stems
        ("french", "héroïque", "héroïqu"), ("french", "canoë", "canoë"), ("french", "naïve", "naïv"),
        ("french", "nationales", "national"),
        ("hungarian", "nők", "nők"), ("hungarian", "betűk", "betű"), ("hungarian", "erősen", "erős"),
        ("german", "ergebnissen", "ergebniss"), ("german", "häuser", "haus"),
        ("russian", "жёлтые", "жёлты"), ("russian", "кошками", "кошк"),
    ],
)
def test_meteor_stems_equal_meteors_snowball(language, word, stem):
    from mtworkbench.metrics.meteor.matchers import _Stemmer

    assert _Stemmer(language)(word) == stem


def test_korean_word_metrics_use_mecab_ko_words():
    wer = create_metric("wer", "ko")
    assert wer.tokens("저는 학교에 가요.") == ["저", "는", "학교", "에", "가요", "."]
    data = ScoringInput(["저는 학교에 가요."], [["저는 학교에 갑니다."]], target_language="ko")
    # 저 는 학교 에 match; 가요 and 갑니다 do not: a partial match
    assert 0 < create_metric("gtm", "ko").score(data).corpus < 1


def test_nee_matches_japanese_entities_inside_unspaced_text():
    from mtworkbench.metrics.base import EntityMention

    ref = "昨日、田中さんは東京大学に行きました。"
    hyp = "田中さんは昨日東京大学へ行った。"
    i, j = ref.index("東京大学"), ref.index("田中")
    ents = [[[EntityMention(i, i + 4, "ORG"), EntityMention(j, j + 2, "PER")]]]
    data = ScoringInput([hyp], [[ref]], documents=["d"], paragraphs=["p"], entities=ents, target_language="ja")
    assert create_metric("nee", "ja").score(data).corpus == pytest.approx(1.0)
    assert create_metric("nee").score(data).corpus == pytest.approx(0.0)  # whole runs never match


def test_bundle_scoring_takes_the_projects_language_and_tgt_lang_overrides(capsys, tmp_path):
    from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
    from mtworkbench.io.bundle.bundle import save_bundle

    ids = [f"s{i}" for i in range(len(ZH_HYP))]
    project = Project(
        documents=[Document("d", [Paragraph("p", [Segment(i, "source") for i in ids])])],
        references=[Reference("r1", texts=dict(zip(ids, ZH_REFS[0])))],
        systems=[System("sys", texts=dict(zip(ids, ZH_HYP)))],
        target_language="zh",
    )
    path = tmp_path / "zh.mtwb.json"
    save_bundle(project, path)
    (s,), _ = score_json(capsys, path, "--metric", "bleu")
    assert "lang:zh" in s["signature"] and "tok:zh" in s["signature"]
    expected = sacrebleu.BLEU(trg_lang="zh").corpus_score(ZH_HYP, [ZH_REFS[0]]).score
    assert s["corpus"] == pytest.approx(expected, abs=1e-9)
    (s,), _ = score_json(capsys, path, "--metric", "bleu", "--tgt-lang", "de")
    assert "lang:de" in s["signature"] and "tok:13a" in s["signature"]


def test_meteor_without_a_language_says_it_uses_english(capsys, tmp_path):
    hyp = write(tmp_path / "h", ["a b c"])
    ref = write(tmp_path / "r", ["a b d"])
    (s,), err = score_json(capsys, "--hyp", hyp, "--ref", ref, "--metric", "meteor")
    assert "no target language given" in err and "English" in err and err.count("\n") == 1
    assert "fw:en" in s["signature"] and "lang:" not in s["signature"]
    _, err = score_json(capsys, "--hyp", hyp, "--ref", ref, "--metric", "meteor", "--tgt-lang", "en")
    assert err == ""


def test_nee_keeps_marks_of_any_script_inside_words():
    from mtworkbench.metrics.base import EntityMention

    # Devanagari vowel signs are marks: "मुंबई" is one word, not pieces
    ref, hyp = "वह मुंबई गया।", "मुंबई में वह गया।"
    data = ScoringInput([hyp], [[ref]], documents=["d"], paragraphs=["p"],
                        entities=[[[EntityMention(3, 8, "LOC")]]], target_language="hi")
    assert create_metric("nee", "hi").score(data).corpus == pytest.approx(1.0)
    assert create_metric("nee", "hi").score(ScoringInput(["मुंबा गया"], [[ref]], documents=["d"], paragraphs=["p"],
                        entities=[[[EntityMention(3, 8, "LOC")]]])).corpus == 0.0
    # vocalised Arabic in the reference, none in the output: harakat are diacritics
    ref, hyp = "زار مُحَمَّد القاهرة", "محمد زار القاهرة"
    data = ScoringInput([hyp], [[ref]], documents=["d"], paragraphs=["p"],
                        entities=[[[EntityMention(4, 12, "PER")]]], target_language="ar")
    assert create_metric("nee", "ar").score(data).corpus == pytest.approx(1.0)


@pytest.mark.parametrize("given, code", [("zh-CN", "zh"), ("ZH_hant", "zh"), ("deu", "de"), ("jpn", "ja"),
                                         ("German", "de"), ("cz", "cs"), ("", None)])
def test_language_codes_are_normalised(given, code):
    from mtworkbench.core.language import normalise_code

    assert normalise_code(given) == code


def test_two_letter_codes_skip_langcodes_only_where_it_would_keep_them():
    """normalise_code answers most two-letter codes without loading langcodes' tables;
    it must answer every one of the 676 as langcodes does."""
    import itertools
    import string

    import langcodes

    from mtworkbench.core import language

    for a, b in itertools.product(string.ascii_lowercase, repeat=2):
        code = a + b
        try:
            expected = langcodes.Language.get(langcodes.standardize_tag(code)).language or code
        except (ValueError, LookupError):
            expected = code
        assert language._standard_primary(code) == expected, code


def test_a_language_profile_loads_no_language_names_until_asked():
    import subprocess
    import sys

    probe = ("import sys; from mtworkbench.core.language import language_profile; p = language_profile('de'); "
             "assert p.bleu_tokenizer and 'langcodes' not in sys.modules, sorted(sys.modules); "
             "assert p.display_name == 'German' and p.label == 'German'")
    subprocess.run([sys.executable, "-c", probe], check=True)
