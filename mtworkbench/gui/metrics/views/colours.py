"""The colours every metric view shares (Okabe-Ito: distinguishable with the
common colour-vision deficiencies), so one meaning keeps one colour."""

from __future__ import annotations

BLUE = "#0072B2"  # a hit / a matched n-gram / the selected pair
ORANGE = "#E69F00"  # an aligned (chosen) block
SKY = "#56B4E9"
GREEN = "#009E73"  # found (NEE)
VERMILLION = "#D55E00"  # missed (NEE), clipped n-grams
PURPLE = "#CC79A7"
YELLOW = "#F0E442"
GREY = "#8C8C8C"  # rejected runs, barriers
INK = "#202020"

# Light tints for text backgrounds (the strong colours are too dark behind text).
TINT = {
    BLUE: "#B8D6EE",
    ORANGE: "#FBE3B0",
    GREEN: "#A6E0CB",
    VERMILLION: "#F4B892",
    PURPLE: "#F1D5E5",
    SKY: "#D6ECF9",
    GREY: "#E4E4E4",
}

# METEOR modules: exact is the strongest kind of evidence, so the darkest colour.
MODULE_COLOURS = {
    "exact": BLUE,
    "stem": ORANGE,
    "synonym": PURPLE,
    "paraphrase": GREEN,
}


def module_colour(module: str) -> str:
    return MODULE_COLOURS.get(module, GREY)


def tint(colour: str) -> str:
    return TINT.get(colour, colour)
