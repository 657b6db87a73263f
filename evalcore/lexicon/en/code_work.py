"""Phrases that name a kind of work on a program's code: a bug fix, a new feature, a
refactoring. A skill whose description or "when to use" list names them is about how such
work is done (a practice), so it is tested by doing that work on a small starter project."""

from __future__ import annotations

import re

from .. import phrase

#: Fixing a bug ("Bug fixes", "bugfix", "fixing a bug").
BUG_FIX = phrase(
    "en.code_work.bug_fix",
    r"\bbug\s*-?\s*fix(?:es|ing)?\b|\bfix(?:es|ing)?\s+(?:a\s+|the\s+|any\s+)?bugs?\b",
    re.I,
    matches=("Bug fixes", "implementing any feature or bugfix", "fixing a bug in the parser"),
    misses=("a debugger for browsers", "fixed-width fonts"),
)

#: Adding a feature ("New features", "implementing any feature").
FEATURE = phrase(
    "en.code_work.feature",
    r"\bnew\s+features?\b|\b(?:implement|add|build)(?:s|ing)?\s+(?:a\s+|any\s+|the\s+)?"
    r"(?:new\s+)?features?\b",
    re.I,
    matches=("New features", "implementing any feature or bugfix", "adding a feature"),
    misses=("feature flags in the config", "the features of the viewer"),
)

#: Restructuring code without changing what it does.
REFACTOR = phrase(
    "en.code_work.refactor",
    r"\brefactor(?:s|ed|ing)?\b",
    re.I,
    matches=("Refactoring", "refactor the module"),
    misses=("a factor of two", "reformatting text"),
)
