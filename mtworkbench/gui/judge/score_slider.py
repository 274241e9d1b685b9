"""The 0-100 score of DA and ESA: a slider with its number, typed or stepped by keys.

An unset score shows no handle (a greyed groove and "not set"): a handle at 50 would
read as a score of 50. The first arrow or page key sets the middle, 50, where the
handle then appears; later keys move it from there. Typed digits set the number.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QSlider, QVBoxLayout, QWidget

START = 50  # where the first step key puts an unset score

# An unset slider: a dashed grey groove and no handle, so no value is suggested.
UNSET_STYLE = (
    "QSlider::groove:horizontal { height: 6px; border: 1px dashed #a1a1aa; background: #f4f4f5; border-radius: 3px; }"
    "QSlider::handle:horizontal { width: 0px; margin: 0px; border: none; background: transparent; }"
    "QSlider::sub-page:horizontal { background: transparent; }"
)


class ScoreSlider(QWidget):
    """A 0-100 slider with its number; digits typed in a row set the number."""

    changed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("score-slider")
        self.slider.setRange(0, 100)
        self.slider.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys belong to the rating view
        self.slider.setMinimumHeight(28)
        self.label = QLabel()
        self.label.setObjectName("score-label")
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        font = QFont(self.label.font())
        font.setPointSize(15)
        self.label.setFont(font)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.slider)
        self._typed = ""
        self._set = False
        self.slider.valueChanged.connect(self._moved)
        self.slider.sliderPressed.connect(self._pressed)
        self.reset(None)

    @property
    def value(self) -> int | None:
        return self.slider.value() if self._set else None

    @property
    def is_set(self) -> bool:
        return self._set

    def reset(self, value: float | None) -> None:
        self._typed = ""
        self._set = value is not None
        self.slider.blockSignals(True)
        self.slider.setValue(START if value is None else round(value))
        self.slider.blockSignals(False)
        self._show()

    def _pressed(self) -> None:  # a click on the handle's place sets the score where it is
        if not self._set:
            self._set = True
            self._show()

    def _moved(self, _value: int) -> None:  # a mouse drag or click on the groove
        self._set = True
        self._typed = ""
        self._show()

    def type_digit(self, digit: int) -> None:
        typed = self._typed + str(digit)
        if int(typed) > 100:  # a fresh number starts
            typed = str(digit)
        self._typed = typed
        self._put(int(typed))

    def step(self, delta: int) -> None:
        """Move the score by ``delta``; an unset score is set to the middle first."""
        self._typed = ""
        if not self._set:
            self._put(START)
            return
        self._put(max(0, min(100, self.slider.value() + delta)))

    def _put(self, value: int) -> None:
        self._set = True
        self.slider.blockSignals(True)
        self.slider.setValue(value)
        self.slider.blockSignals(False)
        self._show()

    def _show(self) -> None:
        self.slider.setStyleSheet("" if self._set else UNSET_STYLE)
        self.slider.setToolTip("" if self._set else "Not set: type the score, or an arrow key to start at 50")
        self.label.setText(f"Score: {self.slider.value()} / 100" if self._set
                           else "Score: not set (type 0–100, or an arrow key to start at 50)")
        self.changed.emit(self.slider.value())
