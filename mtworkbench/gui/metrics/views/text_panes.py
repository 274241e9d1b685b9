"""Text panes shown under a metric view: a titled row of tokens (or a text) with
coloured marks, and one strong highlight for the pair the user clicked.

The panes draw rich text in a read-only ``QTextBrowser``; each token carries an
anchor so a highlighted token can be scrolled into view.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QTextBrowser, QVBoxLayout, QWidget

from mtworkbench.gui.metrics.views.colours import BLUE

# The clicked pair: white bold text on the hit colour, unlike any mark (marks are tints).
HIGHLIGHT_COLOUR = BLUE
HIGHLIGHT_STYLE = f"background-color:{HIGHLIGHT_COLOUR}; color:white; font-weight:bold;"


@dataclass(frozen=True)
class Mark:
    """Tokens (or characters, in text mode) ``[start, end)`` drawn with a background
    colour; ``underline`` adds a second cue that does not depend on colour."""

    start: int
    end: int
    colour: str
    tooltip: str = ""
    underline: bool = False


class TokenPane(QWidget):
    """A title and a wrapped row of tokens; marks colour token ranges."""

    def __init__(self, title: str = "", parent: QWidget | None = None, max_height: int = 96) -> None:
        super().__init__(parent)
        self.title_label = QLabel()
        self.title_label.setTextFormat(Qt.TextFormat.PlainText)  # titles name systems and references
        self.title_label.setText(title)
        self.title_label.setStyleSheet("font-weight: bold;")
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        self.browser.setMaximumHeight(max_height)
        self.browser.setMinimumHeight(min(44, max_height))
        self.browser.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.title_label)
        layout.addWidget(self.browser)
        self.tokens: list[str] = []
        self.marks: list[Mark] = []
        self.highlighted: tuple[int, ...] = ()
        # token -> (text colour, tooltip): raters' error spans, drawn over the metric's marks
        self.error_marks: dict[int, tuple[str, str]] = {}

    def set_error_marks(self, marks: dict[int, tuple[str, str]]) -> None:
        if marks != self.error_marks:
            self.error_marks = dict(marks)
            self._render()

    def error_words(self) -> list[str]:
        """The tokens drawn as errors (underlined), read back from the rendered document."""
        words: list[str] = []
        current = ""  # Qt splits a span into several fragments: join the underlined ones
        block = self.browser.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                if fragment.charFormat().fontUnderline():
                    current += fragment.text()
                elif current:
                    words += current.split()
                    current = ""
                it += 1
            words += current.split()
            current = ""
            block = block.next()
        return words

    def set_title(self, title: str) -> None:
        self.title_label.setText(title)

    def set_tokens(self, tokens: Sequence[str], marks: Iterable[Mark] = ()) -> None:
        self.tokens = list(tokens)
        self.marks = list(marks)
        self.highlighted = ()
        self._render()

    def highlight_tokens(self, indices: Iterable[int]) -> None:
        """Show ``indices`` as the selected tokens (replacing any earlier selection)."""
        self.highlighted = tuple(sorted(i for i in set(indices) if 0 <= i < len(self.tokens)))
        self._render()
        if self.highlighted:
            self.browser.scrollToAnchor(f"t{self.highlighted[0]}")

    def highlighted_words(self) -> list[str]:
        """The highlighted tokens as drawn: read back from the rendered document."""
        return [w for run in self.runs_with_background(HIGHLIGHT_COLOUR) for w in run.split()]

    def runs_with_background(self, colour: str) -> list[str]:
        """The stretches of rendered text drawn on ``colour`` (what a reader sees marked)."""
        doc = self.browser.document()
        runs: list[str] = []
        current = ""  # Qt may split one span into several fragments: join them
        block = doc.begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                if fragment.charFormat().background().color().name().lower() == colour.lower():
                    current += fragment.text()
                elif current:
                    runs.append(current.strip())
                    current = ""
                it += 1
            if current:
                runs.append(current.strip())
                current = ""
            block = block.next()
        return [r for r in runs if r]

    def clear_highlight(self) -> None:
        self.highlight_tokens(())

    def plain_text(self) -> str:
        return self.browser.toPlainText()

    def _render(self) -> None:
        mark_of: dict[int, Mark] = {}
        for each in self.marks:  # later marks win where marks overlap
            for i in range(max(0, each.start), min(each.end, len(self.tokens))):
                mark_of[i] = each
        chosen = set(self.highlighted)
        parts = []
        for i, tok in enumerate(self.tokens):
            text = html.escape(tok) if tok else "&nbsp;"
            style = ""
            title = ""
            m = mark_of.get(i)
            if m is not None:
                style = f"background-color:{m.colour};"
                if m.underline:
                    style += " text-decoration: underline;"
                title = m.tooltip
            error = self.error_marks.get(i)
            if error is not None:
                style += f" color:{error[0]}; text-decoration: underline; font-weight:bold;"
                title = f"{title}\n{error[1]}" if title else error[1]
            if i in chosen:
                style = HIGHLIGHT_STYLE
            attrs = f' style="{style}"' if style else ""
            if title:
                attrs += f' title="{html.escape(title)}"'
            parts.append(f'<a name="t{i}"></a><span{attrs}>{text}</span>')
        self.browser.setHtml(" ".join(parts))


@dataclass(frozen=True)
class TextBlock:
    """One line of a text pane: a label (e.g. the segment id) and a text with char marks."""

    label: str
    text: str
    marks: tuple[Mark, ...] = ()
    emphasised: bool = False  # the current segment of a multi-segment unit


class MarkedTextPane(TokenPane):
    """A title and texts (one block per segment) with character-range marks."""

    def set_blocks(self, blocks: Sequence[TextBlock], footer_html: str = "") -> None:
        self.tokens = []
        self.marks = []
        self.highlighted = ()
        out = []
        for b in blocks:
            out.append(_marked_text_html(b))
        if footer_html:
            out.append(footer_html)
        self.browser.setHtml("".join(out))


def _marked_text_html(block: TextBlock) -> str:
    text = block.text
    marks = sorted((m for m in block.marks if 0 <= m.start < m.end <= len(text)), key=lambda m: m.start)
    pieces = []
    pos = 0
    for m in marks:
        if m.start < pos:  # overlapping marks: keep the first
            continue
        pieces.append(html.escape(text[pos : m.start]))
        style = f"background-color:{m.colour};"
        if m.underline:
            style += " text-decoration: underline;"
        title = f' title="{html.escape(m.tooltip)}"' if m.tooltip else ""
        pieces.append(f'<span style="{style}"{title}>{html.escape(text[m.start : m.end])}</span>')
        pos = m.end
    pieces.append(html.escape(text[pos:]))
    label = html.escape(block.label)
    weight = "font-weight:bold;" if block.emphasised else ""
    return f'<p style="margin:2px 0; {weight}"><span style="color:#707070">{label}</span> {"".join(pieces)}</p>'
