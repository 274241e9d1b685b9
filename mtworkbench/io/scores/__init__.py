"""Metric scores computed elsewhere: external score files and score tables."""
