"""Value equality for Mantle assertions: type-strict, the way the docs promise.

Rasa's docs say comparison is type-strict (`true` != `"true"`, `5` != `"5"`), objects match in
any key order and lists only in the same order. Plain Python `==` gets most of that right but
not all of it: `True == 1` and `1 == 1.0` are both true in Python. The choices made here:

- A bool equals only a bool. YAML `true` never matches a recorded `1`, and `0` never matches
  `false`, because a memory field typed `bool` and one typed `int` are different facts.
- An int equals a float of the same value (`5` == `5.0`). JSON has one number type, and a
  tracker serialises a float memory field written as `5` as either `5` or `5.0` depending on
  who wrote it; a scenario author cannot be expected to know which. NaN equals nothing.
- A string equals only the identical string (no trimming, no case folding).
- Objects (dicts) are equal when they have the same keys and equal values, in any order.
- Lists are equal when they have the same length and equal items at each position.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def values_equal(expected: Any, actual: Any) -> bool:
    """True when `actual` (from the tracker) equals `expected` (from the scenario)."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool) and expected is actual
    if _is_number(expected) or _is_number(actual):
        if not (_is_number(expected) and _is_number(actual)):
            return False
        if isinstance(expected, float) and math.isnan(expected):
            return False
        return bool(expected == actual)
    if isinstance(expected, Mapping) or isinstance(actual, Mapping):
        if not (isinstance(expected, Mapping) and isinstance(actual, Mapping)):
            return False
        if set(expected) != set(actual):
            return False
        return all(values_equal(expected[key], actual[key]) for key in expected)
    if isinstance(expected, list | tuple) or isinstance(actual, list | tuple):
        if not (isinstance(expected, list | tuple) and isinstance(actual, list | tuple)):
            return False
        if len(expected) != len(actual):
            return False
        return all(values_equal(e, a) for e, a in zip(expected, actual, strict=True))
    if expected is None or actual is None:
        return expected is None and actual is None
    return type(expected) is type(actual) and bool(expected == actual)


def show(value: Any, *, limit: int = 80) -> str:
    """A short, type-revealing rendering for details: `"5"` and `5` must look different."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)
    except (TypeError, ValueError):  # pragma: no cover - events hold JSON data
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
