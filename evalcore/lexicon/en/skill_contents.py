"""Phrases of an Agent Skill's own text that say what it is for and what it tells an agent to
do or avoid: the clause of a description that lists the tasks a person uses the skill for
("Use when building ...", "Supports verifying ..., capturing ..."), where such a clause
stops, the gerund each task starts with, and the markers of do / don't lines and columns."""

from __future__ import annotations

import re

from .. import phrase

#: Where a description starts listing tasks (the tasks follow the match).
TASK_LEAD = phrase(
    "en.skill_contents.task_lead",
    r"\b(?:use (?:it |this skill |this )?(?:when|for)|supports?|helps? with|useful for)\s+",
    re.I,
    matches=(
        "Use when building servers that call an API.",
        "Supports verifying layouts, capturing screenshots.",
        "Helps with converting files.",
    ),
    misses=("Uses a headless browser.", "A toolkit for reports."),
)

#: Where a task clause stops: a qualifier that is not itself a task.
CLAUSE_END = phrase(
    "en.skill_contents.clause_end",
    r",?\s+(?:whether|before|after|so that|such as|including|e\.g\.|i\.e\.)\s|[.;:!?](?:\s|$)",
    re.I,
    matches=(
        "building servers, whether in one language or another",
        "implementing a feature, before writing code",
        "capturing screenshots. Then",
    ),
    misses=("building servers to integrate services", "reading v1.2 files"),
)

#: Separators between tasks of one clause: commas, or `and`/`or` before another gerund.
TASK_SPLIT = phrase(
    "en.skill_contents.task_split",
    r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+(?=[a-z]+ing\b)",
    re.I,
    matches=("verifying forms, capturing screenshots", "reading files and writing reports"),
    misses=("files and folders", "reading files"),
)

#: A task phrase starts with a gerund ("capturing ..."), not a noun that ends in -ing.
GERUND = phrase(
    "en.skill_contents.gerund",
    r"^(?!(?:some|no|any|every)?thing\b|string\b|spring\b|ring\b|king\b|ceiling\b)"
    r"[a-z]+ing\b",
    re.I,
    matches=("capturing screenshots", "building servers", "Debugging layouts"),
    misses=("string values", "browser logs", "everything else"),
)

#: A line marked as something to do ("**Do** wait for ...", "**Always** close ...").
DO_MARK = phrase(
    "en.skill_contents.do_mark",
    r"^\W*(?:do|always|prefer)\b(?!\s*not\b)(?!n)",
    re.I,
    matches=("**Do** wait for the page", "**Always** close the browser"),
    misses=("**Don't** inspect early", "**Do not** sleep", "Downloading files"),
)

#: A line marked as something to avoid ("**Don't** ...", "**Never** ...").
DONT_MARK = phrase(
    "en.skill_contents.dont_mark",
    r"^\W*(?:don[’']?t|do not|never|avoid)\b",
    re.I,
    matches=("**Don't** inspect early", "**Never** commit secrets", "Avoid global state"),
    misses=("**Do** wait for the page", "Neverland is a place"),
)

#: A table column of the right form ("Do", "Correct", "Good").
DO_COLUMN = phrase(
    "en.skill_contents.do_column",
    r"^\W*(?:do|correct|good|right|preferred|prefer)\W*$",
    re.I,
    matches=("Do", "✅ Correct", "**Good**"),
    misses=("Don't", "Wrong", "Description"),
)

#: A table column of the wrong form ("Don't", "Wrong", "Bad").
DONT_COLUMN = phrase(
    "en.skill_contents.dont_column",
    r"^\W*(?:don[’']?t|do not|wrong|bad|avoid|incorrect)\W*$",
    re.I,
    matches=("Don't", "❌ Wrong", "**Bad**"),
    misses=("Do", "Correct", "Badge"),
)

__all__ = [
    "ANY_DETERMINER",
    "CLAUSE_END",
    "DONT_COLUMN",
    "DONT_MARK",
    "DO_COLUMN",
    "DO_MARK",
    "GERUND",
    "IMPERATIVE_HEADING",
    "OBJECT_END",
    "SCOPED_LINE",
    "STEP_PREFIX",
    "SUBJECT_API",
    "TASK_LEAD",
    "TASK_SPLIT",
]

#: A heading that names a task in the imperative ("Create Evaluations", "Phase 2: Build the
#: Server"); a numbering or "Phase/Step N:" prefix is dropped before matching.
IMPERATIVE_HEADING = phrase(
    "en.skill_contents.imperative_heading",
    r"^(?:create|build|write|generate|make|add|design|produce|draft|convert|export)\s+\w",
    re.I,
    matches=("Create Evaluations", "Write the report", "Build a server"),
    misses=("Output Format", "Creating things", "Reference Files"),
)

#: A heading's step prefix ("Phase 4:", "Step 2 -", "4.1").
STEP_PREFIX = phrase(
    "en.skill_contents.step_prefix",
    r"^(?:(?:phase|step|part)\s+\d+\s*[:.—–-]\s*|\d+(?:\.\d+)*\.?\s+)",
    re.I,
    matches=("Phase 4: Create Evaluations", "Step 2 - Build", "4.2 Create Questions"),
    misses=("Create Evaluations", "Phases of work"),
)

#: "any" as a determiner in a task clause ("implementing any feature"): a person asking for one
#: piece of work says "a".
ANY_DETERMINER = phrase(
    "en.skill_contents.any_determiner",
    r"\bany\b(?=\s+[a-z])",
    re.I,
    matches=("implementing any feature", "fixing any bug"),
    misses=("fixing bugs in anything", "any"),
)

#: A do / don't line limited to one kind of situation ("... on dynamic apps", "only when the
#: server is remote"): what it prescribes holds there only, so not for every correct agent.
SCOPED_LINE = phrase(
    "en.skill_contents.scoped_line",
    r"\b(?:on|for|in|with)\s+(?:\w+[- ])?(?:apps?|applications?|pages?|sites?|servers?|"
    r"projects?|datasets?)\b|\bonly\s+(?:when|if|for|on|in)\b",
    re.I,
    matches=(
        "Don't inspect the DOM before waiting for `networkidle` on dynamic apps",
        "Especially important for large datasets",
        "Do this only when the page scrolls",
    ),
    misses=("Do wait for `page.settle()` before inspection", "Always close the browser"),
)

#: Where the object of a task phrase ends: a preposition that starts a qualifier
#: ("discovering buttons on a page" → "discovering buttons").
OBJECT_END = phrase(
    "en.skill_contents.object_end",
    r"\s(?:on|in|for|during|with|from|to|of|at|by|into)\s",
    re.I,
    matches=("discovering buttons on a page", "capturing logs during automation"),
    misses=("capturing browser screenshots",),
)

#: A task whose subject is any API or web service, named in the abstract ("integrate external
#: APIs or services"): a person asking names one.
SUBJECT_API = phrase(
    "en.skill_contents.subject_api",
    r"\b(?:external|third-party|any|other)\s+(?:web\s+)?(?:APIs?|services?)\b",
    re.I,
    matches=("building servers to integrate external APIs or services", "any web service"),
    misses=("using the Stripe API", "capturing screenshots"),
)
