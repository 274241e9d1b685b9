"""Does this system have a font for the project's script? Qt draws boxes for
characters no installed font has, so a Chinese project on a machine without CJK
fonts looks broken; the main window says once which script lacks a font and
how to install one.

A script counts as present in a project when its characters make up part of
the first few hundred texts (sources, references, systems). A script lacks a
font when Qt's font database lists no family for its writing system, or none
of the listed families has a glyph for the project's own characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics

WS = QFontDatabase.WritingSystem


@dataclass(frozen=True)
class Script:
    name: str
    ranges: tuple[tuple[int, int], ...]
    writing_systems: tuple[QFontDatabase.WritingSystem, ...]
    install: str  # how to get a font (package names of common systems)


_NOTO_CJK = "install a CJK font such as Noto Sans CJK (Debian/Ubuntu: apt install fonts-noto-cjk; Fedora: dnf install google-noto-sans-cjk-fonts)"
_NOTO = "install a font such as Noto Sans {0} (Debian/Ubuntu: apt install fonts-noto-core)"

SCRIPTS: tuple[Script, ...] = (
    Script("Chinese (Han)", ((0x4E00, 0x9FFF), (0x3400, 0x4DBF)), (WS.SimplifiedChinese, WS.TraditionalChinese), _NOTO_CJK),
    Script("Japanese (kana)", ((0x3040, 0x30FF),), (WS.Japanese,), _NOTO_CJK),
    Script("Korean (Hangul)", ((0xAC00, 0xD7AF), (0x1100, 0x11FF)), (WS.Korean,), _NOTO_CJK),
    Script("Arabic", ((0x0600, 0x06FF), (0x0750, 0x077F)), (WS.Arabic,), _NOTO.format("Arabic")),
    Script("Hebrew", ((0x0590, 0x05FF),), (WS.Hebrew,), _NOTO.format("Hebrew")),
    Script("Cyrillic", ((0x0400, 0x04FF),), (WS.Cyrillic,), "install a font such as DejaVu Sans (Debian/Ubuntu: apt install fonts-dejavu)"),
    Script("Greek", ((0x0370, 0x03FF),), (WS.Greek,), "install a font such as DejaVu Sans (Debian/Ubuntu: apt install fonts-dejavu)"),
    Script("Devanagari", ((0x0900, 0x097F),), (WS.Devanagari,), _NOTO.format("Devanagari")),
    Script("Thai", ((0x0E00, 0x0E7F),), (WS.Thai,), _NOTO.format("Thai")),
)


def _script_of(ch: str) -> Script | None:
    code = ord(ch)
    if code < 0x0370:
        return None
    for script in SCRIPTS:
        if any(a <= code <= b for a, b in script.ranges):
            return script
    return None


# Characters no script above starts below; found by the regex engine, not a Python loop over
# every character (opening the 500,000 characters of the TED MQM import took 60-250 ms).
_BEYOND_LATIN = re.compile("[\u0370-\U0010FFFF]")


def scripts_in(texts: Iterable[str]) -> dict[str, tuple[Script, str]]:
    """Script name -> (script, up to 8 of its characters seen in ``texts``)."""
    found: dict[str, tuple[Script, str]] = {}
    for text in texts:
        for ch in dict.fromkeys(_BEYOND_LATIN.findall(text)):  # in order of appearance
            script = _script_of(ch)
            if script is None:
                continue
            _, sample = found.get(script.name, (script, ""))
            if len(sample) < 8 and ch not in sample:
                found[script.name] = (script, sample + ch)
    return found


def has_font(script: Script, sample: str) -> bool:
    """True when some installed family supports the script and has the sample's glyphs."""
    families: list[str] = []
    for ws in script.writing_systems:
        families.extend(QFontDatabase.families(ws))
    for family in dict.fromkeys(families):
        metrics = QFontMetrics(QFont(family))
        # inFontUcs4: PySide6 passes a str to inFont() badly outside Latin-1
        if all(metrics.inFontUcs4(ord(ch)) for ch in sample):
            return True
    return False


def missing_font_notice(
    texts: Iterable[str], font_check: Callable[[Script, str], bool] | None = None
) -> str | None:
    """One sentence naming each script of ``texts`` that no installed font draws, or None."""
    font_check = font_check or has_font
    missing = [
        script for script, sample in scripts_in(texts).values() if not font_check(script, sample)
    ]
    if not missing:
        return None
    by_hint: dict[str, list[str]] = {}
    for script in missing:  # CJK scripts share one font: one sentence
        by_hint.setdefault(script.install, []).append(script.name)
    return " ".join(
        f"No installed font has {' or '.join(names)} characters (they show as boxes): {hint}."
        for hint, names in by_hint.items()
    )


def project_texts(project, limit: int = 300) -> list[str]:
    """Sources, references and system outputs of the first ``limit`` segments."""
    texts: list[str] = []
    for seg in project.segments[:limit]:
        texts.append(seg.source or "")
        for ref in project.references:
            texts.append(ref.texts.get(seg.id) or "")
        for system in project.systems:
            texts.append(system.texts.get(seg.id) or "")
    return texts
