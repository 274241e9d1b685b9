"""Per-segment detail views of the metrics (GTM grid, METEOR alignment, BLEU
n-grams, NEE entities), hosted by the Metrics workspace and rendered headless
by ``mtworkbench render``."""

from __future__ import annotations

from mtworkbench.gui import view_registry
from mtworkbench.gui.metric_views.base import MetricDetailView
from mtworkbench.gui.metric_views.bleu_ngrams import BLEUNgramView
from mtworkbench.gui.metric_views.gtm_grid import GTMGridView
from mtworkbench.gui.metric_views.meteor_alignment import MeteorAlignmentView
from mtworkbench.gui.metric_views.nee_view import NEEView

# Name -> widget class, in the registry's order (gui.view_registry lists them once).
VIEWS: dict[str, type[MetricDetailView]] = {
    entry.name: entry.widget_class() for entry in view_registry.VIEWS if entry.detail
}

__all__ = ["VIEWS", "BLEUNgramView", "GTMGridView", "MeteorAlignmentView", "MetricDetailView", "NEEView"]
