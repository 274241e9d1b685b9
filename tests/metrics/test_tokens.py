"""Our 13a tokenizer instance (sacrebleu's, with a faster post-tokenizer) gives
exactly sacrebleu's tokens."""

from __future__ import annotations

import random

import pytest
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from mtworkbench.metrics.tokens import _Fast13aPost, sacrebleu_tokenizer

CHARS = "ab1 2.,-;:!?()[]{}\"'&<>/\\@#$%^*_=+|~`\t\u00a0\u2028é0\n"


def test_fast_post_tokenizer_is_installed_and_skips_nothing_it_needs() -> None:
    ours = sacrebleu_tokenizer("13a")
    assert isinstance(ours._post_tokenizer, _Fast13aPost)
    # every sacrebleu pattern is kept, in order
    assert [p for p, _, _ in ours._post_tokenizer._steps] == [p for p, _ in Tokenizer13a()._post_tokenizer._re]


def test_random_lines_tokenize_exactly_as_sacrebleu() -> None:
    rng = random.Random(0)
    original, ours = Tokenizer13a(), sacrebleu_tokenizer("13a")
    lines = ["".join(rng.choice(CHARS) for _ in range(rng.randint(0, 40))) for _ in range(5000)]
    lines += ["&quot;a-\nb<skipped>c &amp; 3-4 5.6,7 .8 9. x,y", "", " ", "1,000.50 U.S.-based"]
    for line in lines:
        assert ours(line) == original(line), repr(line)


@pytest.mark.shared
def test_real_corpora_tokenize_exactly_as_sacrebleu(shared_dir) -> None:
    original, ours = Tokenizer13a(), sacrebleu_tokenizer("13a")
    files = [
        shared_dir / "data" / "wmt17-en-de-systems" / "ref.de",
        shared_dir / "data" / "mlqe-et-en" / "ref-2.en",
        shared_dir / "data" / "wmt15-en-ru-mteval" / "google.ru",
    ]
    for path in files:
        for line in path.read_text(encoding="utf-8").split("\n"):
            assert ours(line.rstrip()) == original(line.rstrip())
