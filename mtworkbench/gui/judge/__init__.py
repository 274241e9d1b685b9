"""Pieces of the Judge workspace: rating view, queue setup, judgments table, agreement panel."""
