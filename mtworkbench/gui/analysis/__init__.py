"""Pieces of the Analysis workspace: the background job, its worker, the
correlation table, the scatter and reliability plots, and their exports."""
