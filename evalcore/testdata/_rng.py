"""Seeded randomness keyed by a case: the same case id always draws the same test data.

Never the global `random` state and never Python's salted `hash()`: a plan drafted twice (or
on another machine) must give byte-identical files, and two cases of one suite must draw
independently so their names, dates and ids differ.
"""

from __future__ import annotations

import random

from .._sha256 import sha256


def case_rng(key: str, salt: str = "") -> random.Random:
    """A `random.Random` seeded from sha256(`salt:key`) (e.g. the behaviour id)."""
    digest = sha256(f"{salt}:{key}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


__all__ = ["case_rng"]
