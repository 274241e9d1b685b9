"""The arithmetic a metric's score formula is written in, once for both paths.

A metric writes its score from summed statistics once, as ``score_formula(t, m)``:
``t[i]`` is statistic ``i`` - a float on the plain-Python path (``corpus_value``,
no numpy loaded), an array over the leading axes on the numpy path
(``aggregate``: bootstrap resamples, documents, segments) - and ``m`` is
``SCALAR`` or ``ARRAY``. Both namespaces offer the same few operations; ``+ - * /``
and comparisons are Python's own on floats and numpy's on arrays, which give the
same IEEE results, and ``exp``/``log`` are libm's on both paths (``ARRAY`` applies
``math.exp`` element by element rather than numpy's vector code, whose last bit
may differ), so the two paths give bit-identical numbers.

Every operation is total: ``div`` and ``log`` take the value to give where they
are undefined, because ``where`` evaluates both of its branches on either path.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any


class ScalarMath:
    """The operations on plain floats (and bools)."""

    @staticmethod
    def where(condition: Any, a: Any, b: Any) -> Any:
        return a if condition else b

    @staticmethod
    def div(a: Any, b: Any, undefined: float = 0.0) -> Any:
        """``a / b``, or ``undefined`` where ``b`` is 0."""
        return a / b if b != 0 else undefined

    @staticmethod
    def ieee_div(a: Any, b: Any) -> Any:
        """``a / b`` as IEEE 754 (and Java, and numpy) divide: x/0 is an infinity, 0/0
        NaN, where Python raises."""
        if b == 0:
            if a == 0 or a != a:
                return math.nan
            return math.copysign(math.inf, a) * math.copysign(1.0, b)
        return a / b

    @staticmethod
    def exp(x: Any) -> Any:
        return math.exp(x)

    @staticmethod
    def pow(x: Any, y: float) -> Any:
        return math.pow(x, y)

    @staticmethod
    def log(x: Any, undefined: float) -> Any:
        """``log(x)``, or ``undefined`` where ``x`` is not positive."""
        return math.log(x) if x > 0 else undefined

    @staticmethod
    def maximum(a: Any, b: Any) -> Any:
        return a if a >= b else b

    @staticmethod
    def minimum(a: Any, b: Any) -> Any:
        return a if a <= b else b

    @staticmethod
    def result(value: Any) -> float:
        return float(value)


class ArrayMath:
    """The same operations on numpy arrays, element by element (numpy imported on first use)."""

    def __init__(self) -> None:
        self._np: Any = None

    @property
    def np(self) -> Any:
        if self._np is None:
            import numpy as np

            self._np = np
            self._exp = np.frompyfunc(math.exp, 1, 1)
            self._log = np.frompyfunc(math.log, 1, 1)
            self._pow = np.frompyfunc(math.pow, 2, 1)
        return self._np

    def where(self, condition: Any, a: Any, b: Any) -> Any:
        return self.np.where(condition, a, b)

    def div(self, a: Any, b: Any, undefined: float = 0.0) -> Any:
        np = self.np
        defined = np.asarray(b) != 0
        return np.where(defined, a / np.where(defined, b, 1.0), undefined)

    def ieee_div(self, a: Any, b: Any) -> Any:
        np = self.np
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(a, dtype=float) / b

    def exp(self, x: Any) -> Any:
        np = self.np
        return np.asarray(self._exp(np.asarray(x, dtype=float)), dtype=float)

    def pow(self, x: Any, y: float) -> Any:
        np = self.np
        return np.asarray(self._pow(np.asarray(x, dtype=float), y), dtype=float)

    def log(self, x: Any, undefined: float) -> Any:
        np = self.np
        positive = np.asarray(x) > 0
        logs = np.asarray(self._log(np.where(positive, x, 1.0).astype(float)), dtype=float)
        return np.where(positive, logs, undefined)

    def maximum(self, a: Any, b: Any) -> Any:
        return self.np.maximum(a, b)

    def minimum(self, a: Any, b: Any) -> Any:
        return self.np.minimum(a, b)

    def result(self, value: Any) -> Any:
        """A float for a single row, else the array (``aggregate``'s contract)."""
        value = self.np.asarray(value, dtype=float)
        return float(value) if value.ndim == 0 else value


SCALAR = ScalarMath()
ARRAY = ArrayMath()


def columns(totals: Any) -> Sequence[Any]:
    """The statistics of an array of summed rows (last axis), one array per statistic."""
    import numpy as np

    totals = np.asarray(totals, dtype=float)
    return [totals[..., i] for i in range(totals.shape[-1])]


__all__ = ["ARRAY", "SCALAR", "ArrayMath", "ScalarMath", "columns"]
