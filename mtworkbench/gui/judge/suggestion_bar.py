"""The row under an ESA/MQM translation whose spans a model pre-marked (ESA-AI): where the
suggestions came from, how many are still to decide, buttons for the keys (keep or delete the
current suggestion, all at once), and the judge's accept rate so far per severity."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from mtworkbench.core.model import Judgment
from mtworkbench.core.suggested_spans import span_accept_rates, total_rate

SUGGESTION_HINT = ("Dashed: the model's spans · A keep, R delete (Shift: all) · 1/2 in a span: its severity · "
                   "a selection over it: its extent")


class SuggestionBar(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("suggestion-bar")
        self.status = QLabel()
        self.status.setObjectName("suggestion-status")
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # names the model
        self.status.setWordWrap(True)
        self.rates = QLabel()
        self.rates.setObjectName("suggestion-rates")
        self.rates.setTextFormat(Qt.TextFormat.PlainText)
        self.rates.setWordWrap(True)
        self.rates.setStyleSheet("color:#3f3f46;")
        self.keep = self._button("&Keep  (A)", "suggestion-keep")
        self.delete = self._button("Delete  (R)", "suggestion-delete")
        self.keep_all = self._button("Keep all  (Shift+A)", "suggestion-keep-all")
        self.delete_all = self._button("Delete all pre-marked  (Shift+R)", "suggestion-delete-all")
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        for button in (self.keep, self.delete, self.keep_all, self.delete_all):
            buttons.addWidget(button)
        buttons.addSpacing(12)
        buttons.addWidget(self.rates, 1)  # beside the buttons: the rating view is tight at 800 pixels
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.status)
        layout.addLayout(buttons)

    @staticmethod
    def _button(text: str, name: str) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the rating view keeps the keys
        return button

    def wire(self, keep: Callable[[], None], delete: Callable[[], None], keep_all: Callable[[], None],
                delete_all: Callable[[], None]) -> None:
        self.keep.clicked.connect(lambda _checked=False: keep())
        self.delete.clicked.connect(lambda _checked=False: delete())
        self.keep_all.clicked.connect(lambda _checked=False: keep_all())
        self.delete_all.clicked.connect(lambda _checked=False: delete_all())

    def show_state(self, models: Sequence[str], offered: int, pending: int, judgments: Sequence[Judgment]) -> None:
        self.status.setText(f"{offered} error span{'s' if offered != 1 else ''} pre-marked by "
                            f"{', '.join(models) or 'the model'}; {pending} not decided yet (left as they are, "
                            "they count as kept).")
        for button in (self.keep, self.delete, self.keep_all, self.delete_all):
            button.setEnabled(pending > 0)
        rows = span_accept_rates(o for j in judgments for o in j.suggestions)
        if not rows:
            self.rates.setText("Accept rate: none decided yet.")
            return
        parts = [f"{r.severity}{'/' + r.category if r.category else ''} {r.rate:.0%} ({r.kept}/{r.decided})"
                 for r in [*rows, total_rate(rows)] if r.rate is not None]
        self.rates.setText("Kept as suggested so far: " + " · ".join(parts))
