"""A small project with MQM error spans from two raters, for the error-view tests."""

from __future__ import annotations

from mtworkbench.core.model import (
    Document,
    ErrorSpan,
    Judgment,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)

SOURCES = ["Das Haus ist klein.", "Der Hund bellt laut.", "Wir gehen morgen."]
REFS = ["The house is small.", "The dog barks loudly.", "We are going tomorrow."]
OUT_A = ["The house is tiny.", "The dog barks <b>loud</b>.", "We go tomorrow."]
OUT_B = ["House small is.", "Dog is barking loud.", "We are going tomorrow."]


def span(text: str, word: str, severity: str, category: str) -> ErrorSpan:
    start = text.index(word)
    return ErrorSpan(start, start + len(word), severity, category)


def span_project(with_spans: bool = True) -> Project:
    segments = [Segment(str(i + 1), s) for i, s in enumerate(SOURCES)]
    project = Project([Document("d1", [Paragraph("d1p1", segments)])],
                      [Reference("ref", texts={str(i + 1): r for i, r in enumerate(REFS)})],
                      [System("sysA", texts={str(i + 1): t for i, t in enumerate(OUT_A)}),
                       System("sysB", texts={str(i + 1): t for i, t in enumerate(OUT_B)})],
                      "de", "en", name="spans")
    for judge in ("ann", "r1", "r2"):
        project.add_judge(judge)
    if not with_spans:
        project.add_judgment(Judgment("j0", "ann", "sysA", "1", "ref", adequacy=4, fluency=5))
        return project
    errors = {
        # (rater, system, segment): spans over that system's output
        ("r1", "sysA", "1"): (span(OUT_A[0], "tiny", "Minor", "Accuracy/Mistranslation"),),
        ("r2", "sysA", "1"): (span(OUT_A[0], "tiny", "Minor", "Accuracy/Mistranslation"),),
        ("r1", "sysA", "2"): (span(OUT_A[1], "<b>loud</b>", "Major", "Fluency/Grammar"),),
        ("r2", "sysA", "2"): (span(OUT_A[1], "loud", "Minor", "Fluency/Grammar"),),
        ("r1", "sysB", "1"): (span(OUT_B[0], "House small is", "Major", "Fluency/Grammar"),
                              span(OUT_B[0], "small", "Minor", "Accuracy/Mistranslation")),
        ("r2", "sysB", "1"): (span(OUT_B[0], "House small is", "Major", "Fluency/Grammar"),),
        ("r1", "sysB", "2"): (span(OUT_B[1], "is barking", "Minor", "Fluency/Grammar"),),
        ("r2", "sysB", "2"): (),
    }
    n = 0
    for (rater, system, segment), spans in errors.items():
        n += 1
        project.add_judgment(Judgment(f"j{n}", rater, system, segment, None, protocol="mqm", errors=spans))
    return project
