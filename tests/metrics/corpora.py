"""Random corpora for parity tests against the installed sacrebleu."""

from __future__ import annotations

import random

# Small vocabulary so that n-grams repeat; punctuation and case exercise the
# tokenizers; non-ASCII letters exercise lowercasing and the intl tokenizer.
WORDS = ["the", "The", "cat", "a", "A", "sat", "on", "mat", "0", "Über", "über", "naïve",
         "dog", "it's", "x", "y", "3.5", "1,000", "(a)", "U.S.", "-", "!", "é"]
PUNCT = ["", "", "", ".", ",", "!", "?", "\"", "'s", ")"]


def random_line(rng: random.Random, max_len: int = 14) -> str:
    roll = rng.random()
    if roll < 0.06:
        return ""
    if roll < 0.09:
        return rng.choice([" ", "\t", "   "])
    n = rng.randint(1, max_len)
    tokens = [rng.choice(WORDS) + rng.choice(PUNCT) for _ in range(n)]
    return " ".join(tokens) + (
        " " if rng.random() < 0.1 else ""
    )


def perturb(rng: random.Random, line: str) -> str:
    """A hypothesis close to a reference: drops, swaps and substitutions."""
    tokens = line.split()
    out = []
    for t in tokens:
        r = rng.random()
        if r < 0.15:
            continue
        if r < 0.3:
            out.append(rng.choice(WORDS))
        else:
            out.append(t)
        if rng.random() < 0.05:
            out.append(t)
    if len(out) > 2 and rng.random() < 0.3:
        i = rng.randrange(len(out) - 1)
        out[i], out[i + 1] = out[i + 1], out[i]
    return " ".join(out)


def random_corpus(seed: int, variable_refs: bool = True) -> tuple[list[str], list[list[str | None]]]:
    """(hypotheses, reference streams) with 1-4 references; None = missing."""
    rng = random.Random(seed)
    n_seg = rng.randint(1, 12)
    n_refs = rng.randint(1, 4)
    refs: list[list[str | None]] = [[random_line(rng) for _ in range(n_seg)] for _ in range(n_refs)]
    if variable_refs and n_refs > 1:
        for i in range(n_seg):
            for k in range(1, n_refs):  # stream 0 always present
                if rng.random() < 0.2:
                    refs[k][i] = None
    hyps = []
    for i in range(n_seg):
        base = refs[rng.randrange(n_refs)][i] or ""
        hyps.append(perturb(rng, base) if rng.random() < 0.8 else random_line(rng))
    return hyps, refs
