"""Google's MQM error typology (Freitag et al. 2021), as the category names its
TSV data spells them; the Judge workspace offers these in its category picker."""

from __future__ import annotations

NON_TRANSLATION_CATEGORY = "Non-translation"

GOOGLE_MQM_CATEGORIES: tuple[str, ...] = (
    "Accuracy/Addition",
    "Accuracy/Omission",
    "Accuracy/Mistranslation",
    "Accuracy/Untranslated text",
    "Fluency/Punctuation",
    "Fluency/Spelling",
    "Fluency/Grammar",
    "Fluency/Register",
    "Fluency/Inconsistency",
    "Fluency/Character encoding",
    "Terminology/Inappropriate for context",
    "Terminology/Inconsistent use of terminology",
    "Style/Awkward",
    "Locale convention/Address format",
    "Locale convention/Currency format",
    "Locale convention/Date format",
    "Locale convention/Name format",
    "Locale convention/Telephone format",
    "Locale convention/Time format",
    "Source issue",
    "Other",
    NON_TRANSLATION_CATEGORY,
)
