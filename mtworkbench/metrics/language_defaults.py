"""A target language's defaults (core.language) turned into a metric's options;
``registry.create_metric`` applies them where the spec does not set them (an
explicit option always wins).

    create_metric("bleu", "zh")            -> BLEU, tokenize=zh, lang:zh in its signature
    create_metric("bleu:tokenize=13a", "zh") -> BLEU, tokenize=13a (explicit wins)
    create_metric("meteor", "de")          -> Meteor 1.4's German defaults

Without a language the metric keeps its own defaults (sacrebleu's, Meteor's
English ones) and its signature carries no ``lang:`` field.
"""

from __future__ import annotations

from typing import Any

from mtworkbench.core.language import LanguageProfile
from mtworkbench.metrics.base import Metric


def language_options(metric: str, profile: LanguageProfile) -> dict[str, Any]:
    """The options the language sets for ``metric`` (a registry name)."""
    word = profile.word_tokenizer
    if metric in ("bleu", "nist"):
        # NIST counts word n-grams like BLEU: the same tokenizer.
        return {"tokenize": profile.bleu_tokenizer}
    if metric == "ter":
        return {"asian_support": profile.ter_asian_support}
    if metric in ("wer", "per", "gtm", "lepor", "hlepor"):
        return {"tokenize": word} if word != "none" else {}
    if metric == "meteor":
        out: dict[str, Any] = {"preset": f"meteor-1.x-{profile.code}"}
        if word != "none":
            out["tokenize"] = word
        return out
    if metric == "nee":
        # NEE's own ``lang`` (number words) names the language in its signature.
        out = {"lang": profile.code}
        if word != "none":
            out["tokenize"] = word
        if profile.nee_unicode:
            out["unicode"] = profile.nee_unicode.lower()
        return out
    # chrF, chrF++ (character n-grams, sacrebleu has no language default) and
    # learned metrics: nothing to change; the signature still names the language.
    return {}


def metric_notice(metric: Metric) -> str | None:
    """A one-line notice the user should see about ``metric``'s language defaults."""
    notice = getattr(metric, "notice", None)
    return f"{metric.name}: {notice}" if isinstance(notice, str) and notice else None
