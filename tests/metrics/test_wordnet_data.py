"""Offline WordNet 3.0: the cached synonym tables, their rebuild, nltk's layout."""

from __future__ import annotations

import logging
import random

import pytest

from mtworkbench.metrics import wordnet_data
from mtworkbench.metrics.wordnet_data import (
    CACHE_FILE,
    build_tables,
    forget_loaded_tables,
    load_synonym_tables,
    wordnet_source_dir,
)


def test_cache_dir_follows_the_environment(wordnet_cache):
    assert wordnet_data.cache_dir() == wordnet_cache


def test_index_sense_facts(wordnet_cache):
    tables = load_synonym_tables()
    # WordNet 3.0: car.n.01 (offset 02958343) holds car, auto, automobile, machine, motorcar.
    for word in ("car", "auto", "automobile", "motorcar"):
        assert 2958343 in tables.word_synsets(word)
    assert tables.exceptions["went"] == ("go",)
    assert "geese" in tables.exceptions and "goose" in tables.exceptions["geese"]
    # Offsets of different parts of speech are pooled per word (POS dropped).
    assert len(tables.word_synsets("run")) > 40
    assert tables.synonym_set("cars") >= tables.word_synsets("car")
    assert tables.word_synsets("qwzx") == frozenset()


def test_cached_tables_equal_a_fresh_build(wordnet_cache):
    load_synonym_tables()  # make sure the cache file exists
    forget_loaded_tables()
    cached = load_synonym_tables()
    assert wordnet_data.last_load is not None and not wordnet_data.last_load.built
    fresh = build_tables()
    # Counted with the shell: cut -d% -f1 index.sense | sort -u | wc -l -> 147306;
    # distinct first fields of the four *.exc files -> 5940.
    assert len(cached) == len(fresh) == 147306
    assert len(cached.exceptions) == 5940
    rng = random.Random(5)
    for word in rng.sample(fresh.words(), 500):
        assert cached.word_synsets(word) == fresh.word_synsets(word)
    assert cached.exceptions == fresh.exceptions


def test_missing_cache_is_built(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="mtworkbench.metrics.wordnet_data")
    tables = load_synonym_tables(tmp_path, use_memory=False)
    assert (tmp_path / CACHE_FILE).is_file()
    assert wordnet_data.last_load.built
    assert "building the WordNet synonym cache" in caplog.text
    assert 2958343 in tables.word_synsets("car")


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_corrupt_cache_is_rebuilt_with_a_warning(wordnet_cache, tmp_path, caplog, damage):
    good = (wordnet_cache / CACHE_FILE)
    load_synonym_tables()
    target = tmp_path / CACHE_FILE
    data = good.read_bytes()
    target.write_bytes({"garbage": b"not a cache", "truncated": data[: len(data) // 2]}[damage])
    with caplog.at_level(logging.WARNING, logger="mtworkbench.metrics.wordnet_data"):
        tables = load_synonym_tables(tmp_path, use_memory=False)
    assert "unreadable" in caplog.text and "rebuilding" in caplog.text
    assert wordnet_data.last_load.built
    assert 2958343 in tables.word_synsets("car")
    # The rebuilt file loads cleanly.
    forget_loaded_tables()
    load_synonym_tables(tmp_path, use_memory=False)
    assert not wordnet_data.last_load.built


def test_source_files_have_crlf_and_are_read_anyway():
    raw = (wordnet_source_dir() / "index.sense").read_bytes()[:200]
    assert b"\r\n" in raw  # the reason CRs are stripped


@pytest.mark.slow
def test_synsets_agree_with_nltks_reader(wordnet_cache):
    """nltk's WordNet reader on the LF copy gives the same lemma -> offsets map."""
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    root = wordnet_data.nltk_data_dir()
    assert (root / "corpora" / "wordnet" / "index.sense").is_file()
    assert b"\r" not in (root / "corpora" / "wordnet" / "noun.exc").read_bytes()
    if str(root) not in nltk.data.path:
        nltk.data.path.append(str(root))  # nltk only reads corpora under its data path
    reader = WordNetCorpusReader(nltk.data.find("corpora/wordnet"), None)
    assert reader.get_version() == "3.0"
    tables = load_synonym_tables()
    rng = random.Random(11)
    for word in rng.sample(tables.words(), 300):
        # _lemma_pos_offset_map is nltk's parse of index.{noun,verb,adj,adv}: an
        # independent route to the same lemma -> offsets facts.
        by_pos = reader._lemma_pos_offset_map.get(word, {})
        offsets = {o for offs in by_pos.values() for o in offs}
        assert offsets == set(tables.word_synsets(word)), word
