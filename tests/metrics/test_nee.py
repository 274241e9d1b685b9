"""NEE (SPECS.md, NEE): unique entities per unit, four normalisation steps,
micro aggregation over units, per-type counts, explanations. Expected values
are derived by hand in the comments."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mtworkbench.metrics.base import EntityMention, MetricError, MetricSpecError, ScoringInput
from mtworkbench.metrics.nee import NEE, TextPosition
from mtworkbench.metrics.nee_text import Normalisation, normalise_tokens
from mtworkbench.metrics.registry import create_metric


def mention(text: str, surface: str, type_: str, nth: int = 0) -> EntityMention:
    start = -1
    for _ in range(nth + 1):
        start = text.index(surface, start + 1)
    return EntityMention(start, start + len(surface), type_)


def single(hyp: str, ref: str, surfaces: list[tuple[str, str]], **options) -> float:
    data = ScoringInput(
        hypotheses=[hyp],
        references=[[ref]],
        entities=[[[mention(ref, s, t) for s, t in surfaces]]],
    )
    return NEE(**options).score(data).corpus


# --- normalisation, one step at a time ------------------------------------------------
@pytest.mark.parametrize(
    "hyp, ref, entity, options, expected",
    [
        # (a) diacritics
        ("Il va a Mâcon", "Il va à Macon", "Macon", {}, 1.0),
        ("Il va a Mâcon", "Il va à Macon", "Macon", {"diacritics": "no"}, 0.0),
        # (b) case
        ("visit PARIS now", "Visit Paris now", "Paris", {}, 1.0),
        ("visit PARIS now", "Visit Paris now", "Paris", {"case": "no"}, 0.0),
        ("in der STRASSE", "in der Straße", "Straße", {}, 1.0),  # full case folding
        # (c) numbers below 100
        ("Apollo eleven landed", "Apollo 11 landed", "Apollo 11", {}, 1.0),
        ("Apollo eleven landed", "Apollo 11 landed", "Apollo 11", {"numbers": "no"}, 0.0),
        ("the 42nd Street", "forty-two", "forty-two", {}, 0.0),  # "42nd" is not 42
        ("room 42", "room forty two", "forty two", {}, 1.0),
        ("in 100 days", "in one hundred days", "one hundred", {}, 0.0),  # only below 100
        # (d) possessives
        ("John's car", "John drove", "John", {}, 1.0),
        ("John's car", "John drove", "John", {"possessives": "no"}, 1.0),  # tokens john ' s
        ("the Smiths' farm", "the Smiths", "Smiths", {}, 1.0),
        ("Johns car", "John's car", "John's", {}, 0.0),
        ("John car", "John's car", "John's", {}, 1.0),
        ("John car", "John's car", "John's", {"possessives": "no"}, 0.0),
        # apostrophes that are not possessive stay
        ("dell'Italia", "Italia", "Italia", {}, 1.0),
        ("l'Aquila", "L'Aquila", "L'Aquila", {}, 1.0),
        ("la Aquila", "L'Aquila", "L'Aquila", {}, 0.0),
        # exact token match: a partial word is not a match
        ("Parisian food", "Paris", "Paris", {}, 0.0),
    ],
)
def test_normalisation_steps(hyp, ref, entity, options, expected):
    assert single(hyp, ref, [(entity, "LOCATION")], **options) == expected


@pytest.mark.parametrize(
    "lang, words, digits",
    [
        ("en", "ninety-nine", "99"),
        ("en", "seventeen", "17"),
        ("de", "einundzwanzig", "21"),
        ("de", "siebenundneunzig", "97"),
        ("de", "zwölf", "12"),
        ("de", "dreißig", "30"),
        ("fr", "soixante et onze", "71"),
        ("fr", "quatre-vingts", "80"),
        ("fr", "quatre-vingt-dix-sept", "97"),
        ("fr", "vingt-et-un", "21"),
        ("fr", "dix-huit", "18"),
        ("fr", "septante-trois", "73"),
        ("es", "dieciséis", "16"),
        ("es", "veintidós", "22"),
        ("es", "cuarenta y cinco", "45"),
        ("es", "noventa y nueve", "99"),
        ("it", "ventuno", "21"),
        ("it", "trentotto", "38"),
        ("it", "quarantatré", "43"),
        ("it", "diciannove", "19"),
        ("pt", "vinte e dois", "22"),
        ("nl", "tweeëntwintig", "22"),
    ],
)
def test_number_words(lang, words, digits):
    for chosen in (lang, "all"):
        norm = Normalisation(lang=chosen)
        assert [t.text for t in normalise_tokens(words, norm)] == [digits]
        assert [t.text for t in normalise_tokens(f"x {digits} y", norm)] == ["x", digits, "y"]


def test_number_words_of_another_language_stay_words():
    norm = Normalisation(lang="en")
    assert [t.text for t in normalise_tokens("einundzwanzig", norm)] == ["einundzwanzig"]


def test_number_tokens_keep_offsets():
    toks = normalise_tokens("Il a quatre-vingt-dix ans", Normalisation())
    assert [(t.text, t.start, t.end) for t in toks] == [("il", 0, 2), ("a", 3, 4), ("90", 5, 21), ("ans", 22, 25)]


# --- units and aggregation ---------------------------------------------------------------
def corpus() -> ScoringInput:
    # Paragraph p1 = segments 0 and 1, p2 = segment 2; one document d1.
    refs = [
        "Merkel met Macron in Paris.",
        "Later Merkel flew to Berlin.",
        "Macron stayed in Paris.",
    ]
    hyps = [
        "Merkel met Macron.",
        "Then she flew to Paris and Berlin.",
        "He stayed in Lyon.",
    ]
    ents = [
        [mention(refs[0], "Merkel", "PERSON"), mention(refs[0], "Macron", "PERSON"), mention(refs[0], "Paris", "LOCATION")],
        [mention(refs[1], "Merkel", "PERSON"), mention(refs[1], "Berlin", "LOCATION")],
        [mention(refs[2], "Macron", "PERSON"), mention(refs[2], "Paris", "LOCATION")],
    ]
    return ScoringInput(
        hypotheses=hyps,
        references=[refs],
        documents=["d1", "d1", "d1"],
        paragraphs=["p1", "p1", "p2"],
        entities=[ents],
    )


def test_paragraph_unit_counts_unique_entities_and_micro_averages():
    # p1 unique: Merkel, Macron, Paris, Berlin -> all four occur in segments 0-1 of the output.
    # p2 unique: Macron, Paris -> neither in "He stayed in Lyon." -> 0/2.
    # micro: (4 + 0) / (4 + 2) = 2/3; unit counts sit on each unit's first segment.
    metric = NEE()
    result = metric.score(corpus())
    np.testing.assert_array_equal(result.stats, [[4, 4], [0, 0], [0, 2]])
    assert result.corpus == pytest.approx(4 / 6)
    np.testing.assert_array_equal(result.segments, [1.0, 1.0, 0.0])
    assert result.extras["by_type"] == {
        "LOCATION": {"found": 2, "total": 3},
        "PERSON": {"found": 2, "total": 3},
    }


def test_document_unit():
    # One unit: Merkel, Macron, Paris, Berlin, all found somewhere in the output -> 4/4.
    result = create_metric("nee:unit=document").score(corpus())
    assert result.corpus == 1.0
    np.testing.assert_array_equal(result.stats, [[4, 4], [0, 0], [0, 0]])


def test_segment_unit():
    # seg0: Merkel, Macron found, Paris not (2/3); seg1: Merkel missing, Berlin found (1/2); seg2: 0/2.
    result = create_metric("nee:unit=segment").score(corpus())
    np.testing.assert_array_equal(result.stats, [[2, 3], [1, 2], [0, 2]])
    assert result.corpus == pytest.approx(3 / 7)
    np.testing.assert_allclose(result.segments, [2 / 3, 1 / 2, 0.0])


def test_without_grouping_each_segment_is_a_unit():
    data = corpus()
    data.paragraphs = None
    assert NEE().score(data).corpus == pytest.approx(3 / 7)


def test_aggregate_is_vectorised_and_nan_without_entities():
    metric = NEE()
    out = metric.aggregate(np.array([[[1, 2], [0, 0]], [[3, 3], [2, 4]]], dtype=float))
    assert out.shape == (2, 2)
    assert out[0, 0] == 0.5 and math.isnan(out[0, 1]) and out[1, 0] == 1.0 and out[1, 1] == 0.5
    assert math.isnan(metric.aggregate(np.array([0.0, 0.0])))


def test_same_string_twice_in_a_unit_counts_once_but_two_types_count_twice():
    ref = "Washington met Washington in Washington."
    ents = [
        mention(ref, "Washington", "PERSON", 0),
        mention(ref, "Washington", "PERSON", 1),
        mention(ref, "Washington", "LOCATION", 2),
    ]
    data = ScoringInput(hypotheses=["Washington spoke."], references=[[ref]], entities=[[ents]])
    result = NEE().score(data)
    np.testing.assert_array_equal(result.stats, [[2, 2]])
    ex = NEE().explain(data, 0)
    person = next(e for e in ex.entities if e.type == "PERSON")
    assert person.reference_positions == [TextPosition(0, 0, 10), TextPosition(0, 15, 25)]


def test_explain_positions_in_reference_and_output():
    data = corpus()
    ex = NEE().explain(data, 1)  # segment 1 lies in paragraph p1
    assert ex.unit == "p1" and ex.segments == [0, 1]
    paris = next(e for e in ex.entities if e.text == "Paris")
    assert paris.found
    assert paris.reference_positions == [TextPosition(0, 21, 26)]
    assert paris.output_positions == [TextPosition(1, 17, 22)]  # "Then she flew to Paris..."
    ex2 = NEE().explain_unit(data, "p2")
    assert [e.found for e in ex2.entities] == [False, False]
    found_ref, missed_ref, out = ex2.for_segment(2)
    assert found_ref == [] and out == []
    assert missed_ref == [TextPosition(2, 0, 6), TextPosition(2, 17, 22)]
    with pytest.raises(MetricError):
        NEE().explain_unit(data, "p9")


def test_multi_word_entity_position_in_output_spans_all_tokens():
    ref = "Ich sah Der Maulwurf: Undercover in Nordkorea gestern"
    hyp = "Ich sah der maulwurf : undercover in nordkorea"
    data = ScoringInput(
        hypotheses=[hyp],
        references=[[ref]],
        entities=[[[mention(ref, "Der Maulwurf: Undercover in Nordkorea", "SERIES")]]],
    )
    ex = NEE().explain(data, 0)
    assert ex.entities[0].output_positions == [TextPosition(0, 8, len(hyp))]


def test_reference_choice():
    # Stream 1 has no entities; stream 2 has "Rome". First annotated stream = 2.
    data = ScoringInput(
        hypotheses=["I love Rome", "Nothing"],
        references=[["I love Roma", "x"], ["I adore Rome", None]],
        entities=[[[], []], [[EntityMention(8, 12, "LOCATION")], []]],
    )
    assert NEE().score(data).corpus == 1.0
    assert NEE().score(data).extras["reference"] == 2
    with pytest.raises(MetricError, match="reference 1 has no entity"):
        NEE(reference="1").score(data)
    assert NEE(reference="2").score(data).corpus == 1.0
    no_entities = ScoringInput(hypotheses=["a"], references=[["a"]], entities=[[[]]])
    with pytest.raises(MetricError, match="no reference has any entity"):
        NEE().score(no_entities)
    with pytest.raises(MetricSpecError):
        NEE(reference="3").score(data)


def test_human_human_agreement_is_nee_on_a_human_translation():
    # Two translators render the same entities; NEE of translator 2 against the
    # annotated translator 1: 'Gênes' matches 'Genes' after diacritics, 'vingt et un'
    # equals '21', 'ONU' is missing -> 2/3.
    ref1 = "Les Nations unies et Gênes ont signé vingt et un accords."
    human2 = "L'ONU et Genes ont conclu 21 accords."
    ents = [
        mention(ref1, "Nations unies", "ORGANIZATION"),
        mention(ref1, "Gênes", "LOCATION"),
        mention(ref1, "vingt et un", "NUMBER"),
    ]
    data = ScoringInput(hypotheses=[human2], references=[[ref1]], entities=[[ents]])
    assert NEE(lang="fr").score(data).corpus == pytest.approx(2 / 3)


def test_errors_are_user_messages():
    data = ScoringInput(hypotheses=["a"], references=[["a"]])
    with pytest.raises(MetricError, match="entity annotations"):
        NEE().score(data)
    bad = ScoringInput(hypotheses=["a"], references=[["ab"]], entities=[[[EntityMention(0, 5, "X")]]])
    with pytest.raises(MetricError, match="outside"):
        NEE().score(bad)
    with pytest.raises(MetricSpecError):
        create_metric("nee:unit=sentence")
    with pytest.raises(MetricSpecError):
        create_metric("nee:lang=12")


def test_signature_and_spec():
    metric = create_metric("nee:unit=document,case=no,lang=de")
    assert metric.spec() == "nee:unit=document,case=False,lang=de"
    sig = metric.signature(1)
    assert sig.startswith("nee|nrefs:1|unit:document|diac:yes|case:no|num:yes|poss:yes|lang:de|ref:first|tok:none|unicode:none|layer:auto|version:")


def test_bootstrap_style_resampling_sums_unit_rows():
    # Summing the rows of any set of whole units gives their micro score.
    metric = NEE()
    stats = metric.segment_statistics(corpus())
    assert metric.aggregate(stats[[0, 1]].sum(0)) == 1.0
    assert metric.aggregate(stats[[2]].sum(0)) == 0.0


# --- invariants ---------------------------------------------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(["Ann", "l'Aquila", "forty-two", "Gênes", "O'Neil's", "the", "UN", ",", "Smiths'", "42"]), min_size=1, max_size=12),
    st.data(),
)
def test_a_reference_scored_against_itself_finds_everything(words, draw):
    text = " ".join(words)
    k = draw.draw(st.integers(0, len(words) - 1))
    j = draw.draw(st.integers(k, len(words) - 1))
    start = len(" ".join(words[:k])) + (1 if k else 0)
    end = len(" ".join(words[: j + 1]))
    data = ScoringInput(hypotheses=[text], references=[[text]], entities=[[[EntityMention(start, end, "X")]]])
    for options in ({}, {"case": "no", "diacritics": "no", "numbers": "no", "possessives": "no"}):
        score = NEE(**options).score(data).corpus
        assert score == 1.0


# --- the command line on plain files with MUC references -------------------------------------
def test_score_plain_files_with_muc_references(tmp_path, capsys):
    from mtworkbench.cli import main

    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.sgml"
    hyp.write_text("Chirac went to Bonn.\nKohl saw him on the 3rd.\n", encoding="utf-8")
    ref.write_text(
        '<ENAMEX TYPE="PERSON">Chirac</ENAMEX> visited <ENAMEX TYPE="LOCATION">Bonn</ENAMEX>.\n'
        '<ENAMEX TYPE="PERSON">Kohl</ENAMEX> met <ENAMEX TYPE="PERSON">Chirac</ENAMEX> on <TIMEX TYPE="DATE">Monday</TIMEX>.\n',
        encoding="utf-8",
    )
    assert main(["score", "--hyp", str(hyp), "--ref", str(ref), "--ref-format", "muc", "--metric", "nee:unit=segment", "--json"]) == 0
    out = capsys.readouterr().out
    import json

    entry = next(s for s in json.loads(out)["scores"] if s["metric"] == "nee")
    # seg 1: Chirac, Bonn found (2/2); seg 2: Kohl found, Chirac and Monday missed (1/3) -> 3/5.
    assert entry["corpus"] == pytest.approx(3 / 5)
    assert entry["segments"] == pytest.approx([1.0, 1 / 3])
    assert entry["by_type"] == {
        "DATE": {"found": 0, "total": 1},
        "LOCATION": {"found": 1, "total": 1},
        "PERSON": {"found": 2, "total": 3},
    }


# --- the EA-MT data (../shared/data/eamt-ne) ----------------------------------------------------
def _report_module(project_root):
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("eamt_ne_report", project_root / "tools" / "eamt_ne_report.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.shared
@pytest.mark.parametrize(
    "locale, not_verbatim, not_even_ignoring_case",
    # The data README: mentions that are not a verbatim substring of their translation,
    # and how many of those are not one case-insensitively either.
    [("de_DE", 23, 6), ("fr_FR", 42, 1), ("es_ES", 21, 3), ("it_IT", 34, 5)],
)
def test_eamt_import_locates_mentions_as_the_readme_counts(shared_dir, project_root, locale, not_verbatim, not_even_ignoring_case):
    report = _report_module(project_root)
    lp = report.load_locale(shared_dir / "data" / "eamt-ne" / f"{locale}.jsonl")
    assert lp.mentions == sum(len(r.texts) for r in lp.project.references)
    assert lp.located["case"] + lp.located["tokens"] + lp.located["missing"] == not_verbatim
    assert lp.located["tokens"] + lp.located["missing"] == not_even_ignoring_case
    assert len(lp.project.spans) == lp.mentions - lp.located["missing"]


@pytest.mark.shared
def test_eamt_reference_against_itself_finds_every_entity(shared_dir, project_root):
    report = _report_module(project_root)
    lp = report.load_locale(shared_dir / "data" / "eamt-ne" / "it_IT.jsonl")
    sub = report.human_subset(lp)
    # Reference 1 as the output finds every entity of reference 1.
    score, found, total = report.nee_against(sub, "human-1", "ref1", "it")
    assert score == 1.0 and found == total == len(
        [s for s in sub.spans if s.reference == "ref1"]
    )


def test_explain_one_unit_cold_equals_explain_all():
    data = corpus()
    warm = NEE()
    warm.score(data)
    for segment in (0, 1, 2):
        assert NEE().explain(data, segment) == warm.explain(data, segment)
    for unit in ("p1", "p2"):
        assert NEE().explain_unit(data, unit) == warm.explain_unit(data, unit)
    with pytest.raises(MetricError, match="no segment 7"):
        NEE().explain(data, 7)


def test_language_codes_with_region():
    data = ScoringInput(
        hypotheses=["zweiundvierzig Tage"],
        references=[["42 Tage"]],
        entities=[[[EntityMention(0, 2, "NUMBER")]]],
    )
    assert NEE(lang="de_DE").score(data).corpus == 1.0
    assert NEE(lang="en").score(data).corpus == 0.0
    assert NEE(lang="pl").score(data).corpus == 0.0  # no Polish number words: digits only
    assert NEE(lang="auto").score(data).corpus == 1.0  # no target language given: all languages
