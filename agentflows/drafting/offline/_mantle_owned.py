"""What the user owns, where the prose turns a request away for a thing they do not own.

A job's prose can hang on who owns the target: "Find the meeting with list_events, set
event_id, and call delete_event. For meetings the executive does not own, decline instead:
call respond_to_invite". The target lives in a service outside the agent (a calendar), so
no data file says whose it is, and a case that asserts the delete is only determined when
the user knows the meeting is their own. Such a sentence on the case's branch, whose other
way (`respond_to_invite`) the path does not take, gives the user that fact ("the meeting:
one you own"); a path that takes the other way gives the opposite.
"""

from __future__ import annotations

import re
from typing import Any

from evalcore.definitions import Skill
from evalcore.definitions.skill_model import sentences
from evalcore.lexicon.en.prose_acts import NOT_OWNED as _NOT_OWNED

from ._mantle_facts import holds


def owned_facts(skill: Skill, memory: dict[str, Any], made: set[str]) -> list[tuple[str, str]]:
    """(label, value) facts saying whether the target of the case's branch is the user's
    own (see the module), for each such sentence the case's path reaches."""
    out: list[tuple[str, str]] = []
    for sentence in sentences(skill.body or ""):
        if sentence.condition and not holds(sentence.condition, memory):
            continue
        found = _NOT_OWNED.search(sentence.text)
        if found is None or "instead" not in found["other"].lower():
            continue
        other = {t for t in made if re.search(rf"\b{re.escape(t)}\b", found["other"])}
        named = set(re.findall(r"[a-z_]+", found["other"].lower()))
        elsewhere = [t for t in _skill_tools(skill) if t in named]
        thing = _singular(found["things"].strip().lower())
        verb = found["verb"].lower()
        if other:  # the path takes the other way: not theirs
            out.append((f"the {thing}", f"one you do not {verb}"))
        elif made and elsewhere:
            out.append((f"the {thing}", f"one you {verb}"))
    return out


def _skill_tools(skill: Skill) -> list[str]:
    """Tool names the skill's frontmatter names (constraints and imports)."""
    names = [str(name).rsplit(":", 1)[-1] for name in skill.import_tools]
    return list(dict.fromkeys([*names, *skill.tool_constraints]))


def _singular(words: str) -> str:
    head, _, last = words.rpartition(" ")
    if last.endswith("ies"):
        last = last[:-3] + "y"
    elif last.endswith("s") and not last.endswith("ss"):
        last = last[:-1]
    return f"{head} {last}".strip()


__all__ = ["owned_facts"]
