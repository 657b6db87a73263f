"""The tags of casegen's own project warnings: a warning that repeats an error of Rasa's
project check reads `…: rasa error [code] …`."""

from __future__ import annotations

from .. import phrase

RASA_ERROR = phrase(
    "notation.project_warnings.rasa_error",
    r": rasa error \[[\w.]+\] ",
    matches=("skills/a.md:3: rasa error [skill.unknown_tool] no tool x",),
    misses=("skills/a.md:3: rasa warning [skill.style] long", "rasa error [x] at start"),
)
