"""Value equality for Mantle assertions: Python `==`, the way Rasa's engine compares.

Rasa's `evaluate_assertions` compares a memory value, a tool argument and `is_error` with
plain Python `==` (`rasa/e2e_test/mantle_assertions.py`), and a verdict must be the one Rasa
gives. So `1` equals `true` and `1.0`, `0` equals `false`, objects match in any key order,
lists only in the same order, and NaN equals nothing. A string never equals a number (`"5"`
is not `5`). Rasa's docs promise a type-strict comparison; its code does not, and the code
decides `evaluate_agent`'s verdict.
"""

from __future__ import annotations

import json
from typing import Any


def values_equal(expected: Any, actual: Any) -> bool:
    """True when `actual` (from the tracker) equals `expected` (from the scenario), as Rasa
    decides it (`actual == expected`)."""
    try:
        return bool(actual == expected)
    except Exception:  # pragma: no cover - JSON values always compare
        return False


def show(value: Any, *, limit: int = 80) -> str:
    """A short, type-revealing rendering for details: `"5"` and `5` must look different."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)
    except (TypeError, ValueError):  # pragma: no cover - events hold JSON data
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
