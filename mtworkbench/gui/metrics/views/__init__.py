"""The Metrics workspace's views (GTM grid, METEOR alignment, BLEU n-grams, NEE
entities, xCOMET's spans beside the raters', the corpus table), each listed once: name, label and the widget that draws it.

The workspace's detail tabs, ``gui.render`` and the ``mtworkbench render``
choices are all built from ``VIEWS``. The widget class is named as
``"module:Class"`` and imported on first use, so this package imports no Qt
(the CLI reads the names without loading PySide6).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

IMAGE_SUFFIXES: tuple[str, ...] = (".png", ".svg")  # what a view can be rendered to


@dataclass(frozen=True)
class ViewEntry:
    name: str  # what --view takes
    label: str  # the tab title
    draw: str  # "module:Class" of the widget
    detail: bool = True  # one segment of one system (False: the whole corpus)

    def widget_class(self) -> Any:
        module, _, attr = self.draw.partition(":")
        return getattr(importlib.import_module(module), attr)


VIEWS: tuple[ViewEntry, ...] = (
    ViewEntry("gtm-grid", "GTM grid", "mtworkbench.gui.metrics.views.gtm_grid:GTMGridView"),
    ViewEntry("meteor-alignment", "METEOR alignment", "mtworkbench.gui.metrics.views.meteor_alignment:MeteorAlignmentView"),
    ViewEntry("bleu-ngrams", "BLEU n-grams", "mtworkbench.gui.metrics.views.bleu_ngrams:BLEUNgramView"),
    ViewEntry("nee", "NEE entities", "mtworkbench.gui.metrics.views.nee_view:NEEView"),
    ViewEntry("metric-spans", "xCOMET spans vs raters", "mtworkbench.gui.metrics.views.metric_spans:MetricSpansView"),
    ViewEntry("corpus-table", "Corpus table", "mtworkbench.gui.metrics.corpus_table:CorpusTable", detail=False),
)
VIEW_NAMES: tuple[str, ...] = tuple(v.name for v in VIEWS)
DETAIL_VIEW_NAMES: tuple[str, ...] = tuple(v.name for v in VIEWS if v.detail)
CORPUS_TABLE = next(v.name for v in VIEWS if not v.detail)


def view(name: str) -> ViewEntry:
    for entry in VIEWS:
        if entry.name == name:
            return entry
    raise KeyError(name)


def detail_views() -> dict[str, Any]:
    """Name -> widget class of the per-segment views, in the registry's order (imports Qt)."""
    return {entry.name: entry.widget_class() for entry in VIEWS if entry.detail}
