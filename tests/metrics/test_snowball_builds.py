"""METEOR's stemmers: the compiled Snowball 2.2.0 (PyStemmer) stems as the generated Python does.

metrics/meteor/snowball.py takes PyStemmer when its release is Snowball 2.2.0 (it is
about 20 times faster) and snowballstemmer's Python classes otherwise; the stems Meteor 1.4
parity was checked with must not change with the build.
"""

from __future__ import annotations

import random

import pytest

from mtworkbench.metrics.meteor import snowball

Stemmer = pytest.importorskip("Stemmer", reason="PyStemmer (a dependency) is not installed")

LATIN = "abcdefghijklmnopqrstuvwxyz" + "àáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿßăąćčđęėğıįłńőœřśşšţțșūůűųźżž"
SCRIPTS = {
    "arabic": "ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوىيًٌٍَُِّْ",
    "armenian": "աբգդեզէըթժիլխծկհձղճմյնշոչպջռսվտրցւփքօֆև",
    "greek": "αάβγδεέζηήθιίϊΐκλμνξοόπρσςτυύϋΰφχψωώ",
    "hindi": "अआइईउऊऋएऐओऔकखगघङचछजझञटठडढणतथदधनपफबभमयरलवशषसहािीुूृेैोौंःँ्",
    "nepali": "अआइईउऊऋएऐओऔकखगघङचछजझञटठडढणतथदधनपफबभमयरलवशषसहािीुूृेैोौंःँ्",
    "russian": "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    "serbian": "абвгдђежзијклљмнњопрстћуфхцчџшabcčćddžđefghijklljmnnjoprsštuvzž",
    "tamil": "அஆஇஈஉஊஎஏஐஒஓஔகஙசஞடணதநபமயரலவழளறனாிீுூெேைொோௌ்",
    "yiddish": "אבגדהוזחטיכךלמםנןסעפףצץקרשתװױײַָּֿ",
}


def words_for(language: str, n: int = 4000) -> list[str]:
    """Random words of the language's alphabet, with the endings stemmers look at repeated."""
    rng = random.Random(language)
    alphabet = SCRIPTS.get(language, LATIN)
    out = []
    for _ in range(n):
        length = rng.randint(1, 14)
        word = "".join(rng.choice(alphabet) for _ in range(length))
        if out and rng.random() < 0.3:  # an earlier word's stem with another ending
            word = rng.choice(out)[: rng.randint(1, 8)] + word[-rng.randint(1, 4):]
        out.append(word)
    return out


@pytest.mark.parametrize("language", snowball.languages())
def test_the_compiled_and_the_python_builds_stem_alike(language):
    compiled = Stemmer.Stemmer(language)
    generated = snowball.python_stemmer(language)
    words = words_for(language)
    differing = [(w, compiled.stemWord(w), generated.stemWord(w)) for w in words
                 if compiled.stemWord(w) != generated.stemWord(w)]
    assert not differing, differing[:5]


def test_real_words_stem_alike(shared_dir):
    """Every word of German, Russian and English corpora (the WMT17 systems alone: 50,000 forms)."""
    data = shared_dir / "data"
    files = {"german": [data / "wmt17-en-de-systems" / "ref.de", *(data / "wmt17-en-de-systems" / "systems").iterdir()],
             "russian": sorted((data / "wmt15-en-ru-mteval").glob("*.ru")),
             "english": [data / "mlqe-et-en" / "ref-1.en", data / "mlqe-et-en" / "mt.en"]}
    for language, paths in files.items():
        words = {w for path in paths for line in path.read_text(encoding="utf-8").lower().splitlines()
                 for w in line.split()}
        compiled, generated = Stemmer.Stemmer(language), snowball.python_stemmer(language)
        assert len(words) > 1000
        assert [w for w in words if compiled.stemWord(w) != generated.stemWord(w)] == [], language


def test_the_compiled_build_is_taken_only_for_snowball_2_2_0(monkeypatch):
    import importlib.metadata

    snowball.c_stemmers.cache_clear()
    try:
        assert snowball.c_stemmers() is Stemmer  # the pinned PyStemmer 2.2.0.3
        assert isinstance(snowball.stemmer("german"), Stemmer.Stemmer)
        snowball.c_stemmers.cache_clear()
        monkeypatch.setattr(importlib.metadata, "version", lambda name: "3.1.0")  # Snowball 3: other stems
        assert snowball.c_stemmers() is None
        chosen = snowball.stemmer("german")
        assert not isinstance(chosen, Stemmer.Stemmer) and chosen.stemWord("häuser") == "haus"
    finally:
        snowball.c_stemmers.cache_clear()
