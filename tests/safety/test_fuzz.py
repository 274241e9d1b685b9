"""Fuzzing: random bundles and corpora either load and round-trip exactly, or are refused cleanly.

"Cleanly" means a ``DataError`` (``BundleError`` for bundles) with a one-line
message; any other exception fails the test. Strings are drawn from all of
Unicode, lone surrogates, NUL, combining marks and right-to-left text included.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtworkbench.core.errors import DataError
from mtworkbench.io.bundle.bundle import dumps, loads, project_to_dict
from mtworkbench.io.corpora.corpus import import_corpus
from mtworkbench.io.corpora.plaintext import read_lines, write_lines
from mtworkbench.io.judgments.judgments import read_judgment_rows

from .helpers import project

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                         HealthCheck.too_slow])

SPECIAL = ["\x00", "\u0301", "\u202e", "\u05d0", "\ud800", "\udfff", "\ufeff", "\r", "\n", "\t", "\u2028",
           "=", "'", '"', "\\", "\U0001F600"]
texts = st.one_of(st.text(), st.text(st.sampled_from(SPECIAL) | st.characters(), max_size=12))
floats = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([1e308, -0.0, 5e-324])
scalars = st.none() | st.booleans() | st.integers() | floats | texts
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
                           max_leaves=12)


def _clean_refusal(exc: DataError) -> None:
    message = str(exc)
    assert message and "\n" not in message


def _check(text: str) -> None:
    """Load; then the project must save and load back to the same bytes."""
    try:
        p = loads(text, file="fuzz.mtwb.json")
    except DataError as exc:
        _clean_refusal(exc)
        return
    saved = dumps(p)
    saved.encode("utf-8")  # savable: no surrogate, no NaN slipped through
    assert dumps(loads(saved)) == saved


def _paths(data, prefix=()):
    """Every (container, key) slot in a bundle dict, to put a random value into."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield data, k
            yield from _paths(v)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield data, i
            yield from _paths(v)


@FUZZ
@given(st.data())
def test_random_values_anywhere_in_a_bundle(data):
    bundle = project_to_dict(project())
    slots = list(_paths(bundle))
    for _ in range(data.draw(st.integers(1, 3))):
        container, key = slots[data.draw(st.integers(0, len(slots) - 1))]
        container[key] = data.draw(json_values)
    ensure_ascii = data.draw(st.booleans())
    try:
        text = json.dumps(bundle, ensure_ascii=ensure_ascii)
    except (UnicodeEncodeError, ValueError):
        return
    if not ensure_ascii:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate cannot be in a UTF-8 file; escaped it can
            text = json.dumps(bundle, ensure_ascii=True)
    _check(text)


@FUZZ
@given(src=texts, ref=texts, hyp=texts, comment=texts, judge=texts, seconds=floats, score=floats)
def test_random_texts_and_numbers_in_every_text_field(src, ref, hyp, comment, judge, seconds, score):
    bundle = project_to_dict(project())
    bundle["documents"][0]["paragraphs"][0]["segments"][0]["source"] = src
    bundle["references"][0]["texts"]["s2"] = ref
    bundle["systems"][1]["texts"]["s3"] = hyp
    bundle["judges"].append(judge)
    bundle["judgments"].append({"id": "jf", "judge": judge, "system": "sys1", "segment": "s1", "adequacy": 2,
                                "comment": comment, "seconds": seconds, "score": score, "scale": "da"})
    _check(json.dumps(bundle, ensure_ascii=True))


@settings(max_examples=30, deadline=None)
@given(depth=st.integers(1, 5000), where=st.sampled_from(["learned_model", "judge_queues", "root"]),
       brackets=st.sampled_from(["[]", "{}"]))
def test_deep_structures_are_refused_not_recursed(depth, where, brackets):
    open_, close = brackets
    deep = (open_ + '"k":') * depth if open_ == "{" else open_ * depth
    deep = deep + ("1" if open_ == "{" else "") + close * depth
    if where == "root":
        text = deep
    else:
        bundle = project_to_dict(project())
        bundle[where] = "PLACEHOLDER"
        text = json.dumps(bundle).replace('"PLACEHOLDER"', deep)
    _check(text)


line_texts = st.text(st.sampled_from(SPECIAL[:4] + ["a", "b", " ", "é", "\u05d0"] + SPECIAL[6:]), max_size=40)


@FUZZ
@given(lines=st.lists(line_texts, max_size=6), raw=st.binary(max_size=40), use_raw=st.booleans())
def test_random_corpus_files_read_exactly_or_are_refused(tmp_path, lines, raw, use_raw):
    path = tmp_path / "c.txt"
    if use_raw:
        path.write_bytes(raw)
    else:
        try:
            write_lines(path, lines)
        except (DataError, UnicodeEncodeError):
            return  # a segment a one-per-line UTF-8 file cannot hold is refused before writing
        assert read_lines(path) == lines
    for reader in (read_lines, lambda p: import_corpus("tsv", source=p), read_judgment_rows,
                   lambda p: import_corpus("plain", source=p, references=[p], systems=[("S", p)])):
        try:
            reader(path)
        except DataError as exc:
            _clean_refusal(exc)


def test_a_key_with_a_line_break_is_named_on_one_line():
    """Found by the fuzz above: a reference text keyed by an unknown segment "\\n" gave a
    two-line message (the key went into the JSON path as it was)."""
    data = project_to_dict(project())
    data["references"][0]["texts"]["\n\u2028"] = "text"
    try:
        loads(json.dumps(data), file="odd\rname.mtwb.json")
    except DataError as exc:
        _clean_refusal(exc)
        assert "texts.\\n\\u2028" in str(exc) and "odd\\rname.mtwb.json" in str(exc)
    else:
        raise AssertionError("a text for an unknown segment was accepted")
