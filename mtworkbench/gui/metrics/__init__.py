"""The Metrics workspace: the workspace tab, its corpus table, sentence browser and
settings, and the per-segment views in ``views``."""
