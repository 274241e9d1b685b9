"""mtworkbench: an offline workbench for evaluating machine translation.

The core (``core``, ``metrics``, ``io``, ``analysis``) is plain Python and never
imports Qt; ``gui`` is a thin layer over it and the only package that does.
"""

__version__ = "0.1.0"
