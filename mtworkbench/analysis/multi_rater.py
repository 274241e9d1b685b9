"""Agreement of any number of raters with missing data: Krippendorff's alpha and Gwet's AC1/AC2.

Both coefficients are computed from per-item counts of each value (``counts[item, value]``), so a
bootstrap over items only re-weights those rows: the per-item coincidences are computed once and
every resample is a matrix product (chunked, so memory stays bounded however many resamples).

Krippendorff's alpha follows Krippendorff's "Computing Krippendorff's Alpha-Reliability" (2011):
coincidences within items of two or more values, the four difference functions (nominal, ordinal,
interval, ratio), and alpha = 1 - (n - 1) * sum(o * delta) / sum(n_c * n_k * delta). Its values equal
the ``krippendorff`` package's (a test compares them on random matrices); this module exists beside
the package because the package returns one number, while a bootstrap needs the per-item parts.

Gwet's AC1 (identity weights) and AC2 (weighted) follow Gwet's "Handbook of Inter-Rater Reliability"
(4th ed., the multiple-raters form with missing ratings): the agreement of items rated at least twice,
and chance agreement from the mean per-item category proportions over all rated items.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from mtworkbench.core.errors import DataError

ALPHA_LEVELS = ("nominal", "ordinal", "interval", "ratio")
AC2_WEIGHTS = ("quadratic", "linear", "ordinal", "ratio")
STATS = tuple(f"alpha:{level}" for level in ALPHA_LEVELS) + ("ac1",) + tuple(f"ac2:{w}" for w in AC2_WEIGHTS)
NUMERIC_STATS = frozenset(s for s in STATS if s not in ("alpha:nominal", "ac1"))
DEFAULT_BOOTSTRAP = 1000
_BOOTSTRAP_CHUNK = 64


@dataclass(frozen=True)
class RatingsTable:
    """Ratings of items by raters; ``values[r, i]`` is NaN where rater r did not rate item i.

    ``categories`` are the distinct values in ascending order (numbers) or in first-seen order (labels);
    ``values`` holds numbers, or for labels the index of the label in ``categories``.
    """

    raters: tuple[str, ...]
    items: tuple[str, ...]
    values: np.ndarray
    categories: tuple[float | str, ...]
    numeric: bool

    @property
    def n_values(self) -> int:
        return int(np.count_nonzero(~np.isnan(self.values)))

    def counts(self) -> np.ndarray:
        """counts[item, k]: how many raters gave item the k-th category."""
        n_items, q = len(self.items), len(self.categories)
        out = np.zeros((n_items, q))
        if self.numeric:
            codes = np.searchsorted(np.asarray(self.categories, dtype=float), self.values)
        else:
            codes = self.values
        mask = ~np.isnan(self.values)
        rater_idx, item_idx = np.nonzero(mask)
        np.add.at(out, (item_idx, codes[rater_idx, item_idx].astype(int)), 1.0)
        return out


def ratings_table(rows: Iterable[tuple[str, str, str | float | None]]) -> RatingsTable:
    """A table from (rater, item, value) triples; None or "" is a missing value.

    Values are numbers when every given value parses as a finite number, labels otherwise.
    """
    raters: dict[str, int] = {}
    items: dict[str, int] = {}
    triples: list[tuple[int, int, str | float]] = []
    for rater, item, value in rows:
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        r = raters.setdefault(rater, len(raters))
        i = items.setdefault(item, len(items))
        triples.append((r, i, value.strip() if isinstance(value, str) else value))
    numbers: list[float] = []
    numeric = True
    for _, _, v in triples:
        try:
            x = float(v)
        except ValueError:
            numeric = False
            break
        if not math.isfinite(x):
            numeric = False
            break
        numbers.append(x)
    values = np.full((len(raters), len(items)), np.nan)
    if numeric:
        for (r, i, _), x in zip(triples, numbers, strict=True):
            values[r, i] = x
        categories: tuple[float | str, ...] = tuple(sorted(set(numbers)))
    else:
        labels: dict[str, int] = {}
        for r, i, v in triples:
            values[r, i] = labels.setdefault(str(v), len(labels))
        categories = tuple(labels)
    return RatingsTable(tuple(raters), tuple(items), values, categories, numeric)


# ---------------------------------------------------------------- Krippendorff's alpha


def _alpha_deltas(categories: np.ndarray, level: str, marginals: np.ndarray) -> np.ndarray:
    """Squared differences delta^2[c, k] between categories (only ordinal reads the value marginals)."""
    if level == "nominal":
        return 1.0 - np.eye(len(categories))
    if level == "ordinal":
        # (sum of n_g for g from c to k) - (n_c + n_k) / 2, squared
        cum = np.concatenate([[0.0], np.cumsum(marginals)])
        idx = np.arange(len(categories))
        lo, hi = np.minimum.outer(idx, idx), np.maximum.outer(idx, idx)
        between = cum[hi + 1] - cum[lo]
        return (between - (marginals[:, None] + marginals[None, :]) / 2.0) ** 2
    if level == "interval":
        return np.subtract.outer(categories, categories) ** 2
    if level == "ratio":
        diff = np.subtract.outer(categories, categories)
        total = np.add.outer(categories, categories)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(total == 0, 0.0, (diff / np.where(total == 0, 1.0, total)) ** 2)
        return out
    raise ValueError(f"unknown level of measurement {level!r}; expected one of {', '.join(ALPHA_LEVELS)}")


def _alpha_from_coincidences(o: np.ndarray, categories: np.ndarray, level: str) -> float:
    marginals = o.sum(axis=1)
    n = marginals.sum()
    if n <= 1:
        return math.nan
    delta = _alpha_deltas(categories, level, marginals)
    expected = float(marginals @ delta @ marginals)
    if expected == 0.0:
        return math.nan  # one value only: agreement is undefined, not perfect
    return 1.0 - (n - 1.0) * float(np.sum(o * delta)) / expected


def _item_coincidences(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pairable item, its coincidence matrix flattened: (items x q*q), and the pairable mask."""
    m = counts.sum(axis=1)
    pairable = m >= 2
    c = counts[pairable]
    scale = 1.0 / (m[pairable] - 1.0)
    outer = np.einsum("ic,ik->ick", c, c)
    idx = np.arange(counts.shape[1])
    outer[:, idx, idx] -= c
    return (outer * scale[:, None, None]).reshape(len(c), -1), pairable


def _item_disagreements(counts: np.ndarray, delta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pairable item, its observed disagreement sum_ck o_uck * delta_ck and its value counts, and
    the pairable mask. For a difference function that does not depend on the marginals (all but
    ordinal), these are all a bootstrap needs: memory items x values, not items x values^2, which
    matters for 0-100 scores with a hundred distinct values."""
    m = counts.sum(axis=1)
    pairable = m >= 2
    c = counts[pairable]
    # o_uck = (n_uc n_uk - [c == k] n_uc) / (m_u - 1), and delta_cc = 0
    observed = np.einsum("ic,ic->i", c @ delta, c) / (m[pairable] - 1.0)
    return observed, c, pairable


def _alpha_from_parts(observed: float, marginals: np.ndarray, delta: np.ndarray) -> float:
    n = marginals.sum()
    if n <= 1:
        return math.nan
    expected = float(marginals @ delta @ marginals)
    if expected == 0.0:
        return math.nan
    return 1.0 - (n - 1.0) * observed / expected


def krippendorff_alpha(table: RatingsTable, level: str = "nominal") -> float:
    """Krippendorff's alpha of the table at one level of measurement (NaN when undefined)."""
    _check_level(table, f"alpha:{level}")
    values = _category_values(table)
    if level != "ordinal":
        delta = _alpha_deltas(values, level, np.zeros(len(values)))
        observed, c, _ = _item_disagreements(table.counts(), delta)
        return _alpha_from_parts(float(observed.sum()), c.sum(axis=0), delta)
    per_item, _ = _item_coincidences(table.counts())
    q = len(table.categories)
    o = per_item.sum(axis=0).reshape(q, q)
    return _alpha_from_coincidences(o, values, level)


# ---------------------------------------------------------------- Gwet's AC1 / AC2


def gwet_weights(categories: np.ndarray, kind: str) -> np.ndarray:
    """Gwet's agreement weights (1 on the diagonal) for the given category values."""
    q = len(categories)
    if kind == "identity":
        return np.eye(q)
    lo, hi = float(categories.min()), float(categories.max())
    diff = np.subtract.outer(categories, categories)
    if hi == lo:
        return np.ones((q, q))
    if kind == "quadratic":
        return 1.0 - diff**2 / (hi - lo) ** 2
    if kind == "linear":
        return 1.0 - np.abs(diff) / (hi - lo)
    if kind == "ordinal":
        ranks = np.arange(q)
        steps = np.abs(np.subtract.outer(ranks, ranks)) + 1
        m = steps * (steps - 1) / 2.0
        return 1.0 - m / m.max()
    if kind == "ratio":
        total = np.add.outer(categories, categories)
        with np.errstate(divide="ignore", invalid="ignore"):
            w = np.where(total == 0, 0.0, (diff / np.where(total == 0, 1.0, total)) ** 2)
        return 1.0 - w / ((hi - lo) / (hi + lo)) ** 2
    raise ValueError(f"unknown weights {kind!r}; expected one of identity, {', '.join(AC2_WEIGHTS)}")


def _gwet_parts(counts: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per item: its agreement term (0 where rated once), whether it counts (rated twice), its proportions."""
    r = counts.sum(axis=1)
    weighted = counts @ weights.T
    paired = r >= 2
    agree = np.zeros(len(counts))
    denom = r * (r - 1.0)
    agree[paired] = (counts[paired] * (weighted[paired] - 1.0)).sum(axis=1) / denom[paired]
    proportions = counts / r[:, None]
    return agree, paired.astype(float), proportions


def _gwet_from_sums(agree: float, n_paired: float, proportions: np.ndarray, n_items: float,
                    weights: np.ndarray) -> float:
    q = weights.shape[0]
    if n_paired == 0 or q < 2:
        return math.nan
    pa = agree / n_paired
    pi = proportions / n_items
    pe = float(weights.sum()) * float(np.sum(pi * (1.0 - pi))) / (q * (q - 1))
    if pe == 1.0:
        return math.nan
    return (pa - pe) / (1.0 - pe)


def gwet_ac(table: RatingsTable, weights: str = "identity") -> float:
    """Gwet's AC1 (identity weights) or AC2 (quadratic, linear, ordinal or ratio weights)."""
    w = gwet_weights(_category_values(table), weights)
    agree, paired, proportions = _gwet_parts(table.counts(), w)
    return _gwet_from_sums(float(agree.sum()), float(paired.sum()), proportions.sum(axis=0), len(table.items), w)


# ---------------------------------------------------------------- one entry point, with intervals


@dataclass(frozen=True)
class AgreementStat:
    """One coefficient with its percentile bootstrap interval over items (None where not computed)."""

    stat: str
    value: float
    low: float | None
    high: float | None
    n_raters: int
    n_items: int
    n_pairable_items: int
    n_values: int
    bootstrap: int
    notes: tuple[str, ...] = field(default_factory=tuple)

    def to_json(self) -> dict:
        def num(x: float | None) -> float | None:
            return None if x is None or not math.isfinite(x) else x

        return {
            "stat": self.stat, "value": num(self.value), "ci_low": num(self.low), "ci_high": num(self.high),
            "raters": self.n_raters, "items": self.n_items, "pairable_items": self.n_pairable_items,
            "values": self.n_values, "bootstrap": self.bootstrap, "notes": list(self.notes),
        }


def parse_stat(stat: str) -> str:
    """The canonical name of a statistic ('ac2' is 'ac2:quadratic'), or a ValueError naming the choices."""
    name = stat.strip().lower()
    if name == "alpha":
        name = "alpha:nominal"
    if name == "ac2":
        name = "ac2:quadratic"
    if name not in STATS:
        choices = ", ".join(("alpha", *STATS[:5], "ac2", *STATS[5:]))
        raise ValueError(f"unknown agreement statistic {stat!r}; expected one of {choices}")
    return name


def agreement_stat(table: RatingsTable, stat: str, bootstrap: int = DEFAULT_BOOTSTRAP,
                   seed: int = 12345) -> AgreementStat:
    """The statistic's value on the table and its 95% percentile interval from ``bootstrap`` resamples
    of the items (0 resamples: no interval). The same seed gives the same interval."""
    name = parse_stat(stat)
    _check_level(table, name)
    counts = table.counts()
    values = _category_values(table)
    q = len(table.categories)
    pairable = counts.sum(axis=1) >= 2
    notes: list[str] = []
    if not pairable.any():
        notes.append("no item has two or more values: agreement is undefined")
    if name.startswith("alpha:") and name != "alpha:ordinal":
        delta = _alpha_deltas(values, name.split(":", 1)[1], np.zeros(q))
        observed, item_counts, mask = _item_disagreements(counts, delta)
        value = _alpha_from_parts(float(observed.sum()), item_counts.sum(axis=0), delta)

        def resampled(weights: np.ndarray) -> np.ndarray:
            d, n = weights[:, mask] @ observed, weights[:, mask] @ item_counts
            return np.array([_alpha_from_parts(float(d[b]), n[b], delta) for b in range(len(weights))])
    elif name.startswith("alpha:"):
        level = name.split(":", 1)[1]
        per_item, mask = _item_coincidences(counts)
        value = _alpha_from_coincidences(per_item.sum(axis=0).reshape(q, q), values, level)

        def resampled(weights: np.ndarray) -> np.ndarray:
            o = weights[:, mask] @ per_item
            return np.array([_alpha_from_coincidences(row.reshape(q, q), values, level) for row in o])
    else:
        kind = "identity" if name == "ac1" else name.split(":", 1)[1]
        w = gwet_weights(values, kind)
        agree, paired, proportions = _gwet_parts(counts, w)
        value = _gwet_from_sums(float(agree.sum()), float(paired.sum()), proportions.sum(axis=0),
                                len(table.items), w)

        def resampled(weights: np.ndarray) -> np.ndarray:
            a, p, pr = weights @ agree, weights @ paired, weights @ proportions
            return np.array([_gwet_from_sums(a[b], p[b], pr[b], float(len(table.items)), w)
                             for b in range(len(weights))])
    if math.isnan(value) and pairable.any():
        notes.append("every value is the same: agreement is undefined")
    low = high = None
    if bootstrap > 0 and pairable.any() and math.isfinite(value):
        draws = _bootstrap(len(table.items), bootstrap, seed, resampled)
        draws = draws[np.isfinite(draws)]
        if len(draws):
            low, high = (float(x) for x in np.percentile(draws, [2.5, 97.5]))
        if len(draws) < bootstrap:
            notes.append(f"{bootstrap - len(draws)} of {bootstrap} resamples were undefined (one value only)")
    return AgreementStat(name, float(value), low, high, len(table.raters), len(table.items), int(pairable.sum()),
                         table.n_values, bootstrap, tuple(notes))


def agreement_stats(table: RatingsTable, stats: Sequence[str], bootstrap: int = DEFAULT_BOOTSTRAP,
                    seed: int = 12345) -> list[AgreementStat]:
    return [agreement_stat(table, s, bootstrap, seed) for s in stats]


def default_stats(table: RatingsTable) -> list[str]:
    """Every statistic the table's values allow: all for numbers, the nominal ones for labels."""
    return [s for s in STATS if table.numeric or s not in NUMERIC_STATS]


def _bootstrap(n_items: int, resamples: int, seed: int, resampled) -> np.ndarray:
    """Each resample as item multiplicities; chunked so memory is bounded by chunk x items."""
    rng = np.random.default_rng(seed)
    out = []
    for start in range(0, resamples, _BOOTSTRAP_CHUNK):
        size = min(_BOOTSTRAP_CHUNK, resamples - start)
        picks = rng.integers(0, n_items, size=(size, n_items))
        weights = np.zeros((size, n_items))
        for b in range(size):
            weights[b] = np.bincount(picks[b], minlength=n_items)
        out.append(resampled(weights))
    return np.concatenate(out) if out else np.zeros(0)


def _category_values(table: RatingsTable) -> np.ndarray:
    if table.numeric:
        return np.asarray(table.categories, dtype=float)
    return np.arange(len(table.categories), dtype=float)


def _check_level(table: RatingsTable, stat: str) -> None:
    if stat in NUMERIC_STATS and not table.numeric:
        examples = ", ".join(repr(c) for c in table.categories[:3])
        raise DataError(f"{stat} needs numeric values; the ratings hold labels ({examples}…): "
                        "use alpha:nominal or ac1")
