"""Deterministic review rules, each registered under a stable code (see `RULES`).

for rule in RULES.values():
    comments += list(rule.check(case_view, env))
"""

from . import _context, _criteria, _decisive, _duplicates, _justified, _structure, _words  # noqa: F401
from ._criteria import split_compound
from ._duplicates import NEAR_DUPLICATE_THRESHOLD
from ._registry import RULES, Hit, ReviewRule, define_rule, review_rule

__all__ = [
    "NEAR_DUPLICATE_THRESHOLD",
    "RULES",
    "Hit",
    "ReviewRule",
    "define_rule",
    "review_rule",
    "split_compound",
]
