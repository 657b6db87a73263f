"""A skill's first step that looks for a file before it acts ("Check if `base44/config.jsonc`
exists"): the file whose presence decides whether the project is already set up."""

from __future__ import annotations

import re

from .. import phrase

#: A step checking that a file exists, the file's path (a code span) as group 1.
CHECK_EXISTS = phrase(
    "en.skill_presumed_files.check_exists",
    r"\bcheck (?:if|whether|that) `([^`\s]+)` (?:exists|is present)\b",
    re.IGNORECASE,
    matches=(
        "1. Check if `base44/config.jsonc` exists in the current directory",
        "First check whether `app.yaml` is present.",
    ),
    misses=("Check the `base44/` folder.", "if `x.json` exists, skip", "check if it exists"),
)
