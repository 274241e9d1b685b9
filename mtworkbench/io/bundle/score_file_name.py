"""The name of the score file a bundle keeps its computed scores in (``score_file``).

A bundle may come from anyone, so the name it gives is checked here before
mtworkbench reads or writes anything by it: one plain ``*.scores.npz`` file
beside the bundle, nothing else.
"""

from __future__ import annotations

from pathlib import Path

from mtworkbench.core.text_display import file_name_text

# The score cache a bundle names (``score_file``): a plain file name beside the bundle.
SCORE_FILE_SUFFIX = ".scores.npz"
# Names Windows keeps for devices whatever their extension (``NUL.scores.npz`` is the device).
_DEVICE_NAMES = frozenset({"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)),
                           *(f"LPT{i}" for i in range(1, 10))})


def default_score_file(bundle_path: str | Path) -> str:
    """The score file a bundle without ``score_file`` uses: ``x.mtwb.json`` -> ``x.mtwb.scores.npz``."""
    name = file_name_text(Path(bundle_path).name)  # stored in the bundle: text, even for a name not in UTF-8
    return (name[: -len(".json")] if name.endswith(".json") else name) + SCORE_FILE_SUFFIX


def score_file_problem(name: str) -> str | None:
    """Why ``name`` is not a plain score file name beside the bundle; None when it is.

    A bundle may come from anyone: the name it gives must not make mtworkbench read
    or write anywhere but one ``*.scores.npz`` file in the bundle's own folder (no
    folders, no ``..``, no drive or stream, no device, not the bundle itself).
    """
    if not name.endswith(SCORE_FILE_SUFFIX) or name == SCORE_FILE_SUFFIX:
        return f"expected a file name ending in {SCORE_FILE_SUFFIX}"
    if "/" in name or "\\" in name or name in (".", ".."):
        return "expected a plain file name beside the bundle, not a path"
    if ":" in name:
        return "expected a plain file name beside the bundle, not a drive or stream (':')"
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        return "expected a file name without control characters"
    if len(name.encode("utf-8", "surrogatepass")) > 255:
        return "expected a file name of at most 255 bytes"
    if name.split(".")[0].upper().rstrip(" ") in _DEVICE_NAMES:
        return "expected a file name that is not a device name"
    return None


__all__ = ["SCORE_FILE_SUFFIX", "default_score_file", "score_file_problem"]
