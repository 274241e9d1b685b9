"""Text from a bundle or a file is shown as text, never as markup: a bundle is
data, so nothing in it may format the window or make Qt load a file.

Qt guesses: a QLabel, a tooltip or a message box whose text looks like HTML
(``mightBeRichText``) is rendered as rich text, so an id ``<h1>REF2</h1>``
would be drawn as a heading and ``<img src="file:...">`` would load a local
file. Views that need no markup of their own set ``PlainText``; views that
put markup around data escape the data with ``esc``; tooltips go through
``tooltip``; message boxes are built by ``message_box``.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as QtGuiNamespace  # mightBeRichText lives in QtGui's Qt
from PySide6.QtWidgets import QLabel, QMessageBox, QWidget


def esc(value: object) -> str:
    """``value`` as text inside rich text (a pyqtgraph title, a rich QLabel)."""
    return html.escape(str(value), quote=True)


def tooltip(text: str) -> str:
    """A tooltip that shows ``text`` literally.

    Qt shows a tooltip as rich text when it looks like markup; such a text is
    handed over already converted (escaped, line breaks kept), any other as is.
    """
    if text and QtGuiNamespace.mightBeRichText(text):
        return QtGuiNamespace.convertFromPlainText(text, Qt.WhiteSpaceMode.WhiteSpacePre)
    return text


def plain_label(text: str = "", parent: QWidget | None = None) -> QLabel:
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    return label


def message_box(parent: QWidget | None, icon: QMessageBox.Icon, title: str, text: str,
                buttons: QMessageBox.StandardButton = QMessageBox.StandardButton.Ok,
                default: QMessageBox.StandardButton = QMessageBox.StandardButton.NoButton) -> QMessageBox:
    """A message box whose text is plain (a file name or an error may quote markup)."""
    box = QMessageBox(icon, title, "", buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(text)
    if default != QMessageBox.StandardButton.NoButton:
        box.setDefaultButton(default)
    return box


def show_message(parent: QWidget | None, icon: QMessageBox.Icon, title: str, text: str,
                 buttons: QMessageBox.StandardButton = QMessageBox.StandardButton.Ok,
                 default: QMessageBox.StandardButton = QMessageBox.StandardButton.NoButton
                 ) -> QMessageBox.StandardButton:
    """Show a plain-text message box modally; returns the button pressed."""
    return QMessageBox.StandardButton(message_box(parent, icon, title, text, buttons, default).exec())
