"""What a SKILL.md guide says in words: when to use it ("Use when ..."), which other skill
to use for what ("use the `entities` skill"), and the naming style a rule asks for
("`"name"` in kebab-case")."""

from __future__ import annotations

import re

from .. import phrase

#: Where a description says when the skill applies; quoted triggers follow it.
USE_WHEN = phrase(
    "en.skill_guides.use_when",
    r"\buse (?:it |this skill )?when\b",
    re.IGNORECASE,
    matches=('Use when the user says "add a login page".', "Use this skill when deploying."),
    misses=("Used when deploying.", "Use it for deploys."),
)
#: A route to another skill ("use the **`entities`** skill"): its name.
ROUTE = phrase(
    "en.skill_guides.route",
    r"use (?:the )?\*{0,2}`?([a-z0-9][a-z0-9-]*)`?\*{0,2}(?: skill)?",
    re.I,
    matches=("For data models use the `entities` skill.", "then use **deploy**"),
    misses=("Deploy with the CLI.", "usage notes"),
)
#: A case style a rule names for the `"name"` field ("`"name"` in kebab-case").
NAME_CASE = phrase(
    "en.skill_guides.name_case",
    r'"name"`?\s*([a-z_-]+case)|([a-z_-]+case)\s*`?"name"',
    matches=('"name"` kebab-case', 'pascalcase "name"'),
    misses=('"name" is required', "kebab-case file names"),
)
#: A case style a rule names ("kebab-case", "snake_case", "PascalCase" lowered).
CASE_STYLE = phrase(
    "en.skill_guides.case_style",
    r"([a-z]+[_-]?case)",
    matches=("file names in kebab-case", "pascalcase components"),
    misses=("lower case only", "a case study"),
)
