"""The 13a fast paths (a str.replace per punctuation character present, a
space not padded, patterns skipped without their trigger characters) give
exactly sacrebleu's Tokenizer13a output on arbitrary Unicode."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from mtworkbench.metrics.tokens import _Fast13aPost, sacrebleu_tokenizer

# the characters the 13a patterns react to, whitespace of several kinds, CJK,
# dashes and quotes beyond ASCII, and digits of other scripts
_INTERESTING = st.sampled_from(
    list("0123456789.,-;:!?()[]{}\"'&<>/\\@#$%^*_=+|~` \t\n\u00a0\u2028\u3000")
    + ["&quot;", "&amp;", "&lt;", "&gt;", "<skipped>", "-\n"]
    + list("\u2013\u2014\u201e\u201c\u00ab\u00bb\u4e2d\u6587\u3002\uff0c\u0663\u00e9a")
)
_TEXT = st.lists(st.one_of(_INTERESTING, st.characters()), max_size=60).map("".join)


@settings(max_examples=3000, deadline=None)
@given(_TEXT)
def test_13a_equals_sacrebleu_on_random_unicode(line: str) -> None:
    assert sacrebleu_tokenizer("13a")(line) == Tokenizer13a()(line)


@settings(max_examples=1000, deadline=None)
@given(_TEXT)
def test_fast_post_tokenizer_equals_sacrebleus_regexp_steps(line: str) -> None:
    original = Tokenizer13a()._post_tokenizer
    assert _Fast13aPost()(line) == original(line)


def test_punctuation_step_no_longer_uses_translate_but_still_pads_every_class_character() -> None:
    post = _Fast13aPost()
    padded = post("a!b\"c#d$e%f&g(h)i*j+k/l:m;n<o=p>q?r@s[t\\u]v^w_x`y{z|A}B~C")
    assert padded.split()[1::2] == list("!\"#$%&()*+/:;<=>?@[\\]^_`{|}~")


def test_no_digit_path_is_on_for_sacrebleus_patterns_and_matches_on_prose() -> None:
    post = _Fast13aPost()
    assert post._no_digit_path
    for line in ["Er sagt, es sei gut. Wirklich?", "a.b,c", ".start", "end.", "U.S.A.", "x ,y", "a\n.b"]:
        assert post(line) == Tokenizer13a()._post_tokenizer(line), line


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(list("ab .,;-\n\u00e9\u4e2d") + ["&quot;"]), max_size=40).map("".join))
def test_no_digit_path_on_period_and_comma_heavy_text(line: str) -> None:
    assert sacrebleu_tokenizer("13a")(line) == Tokenizer13a()(line)
