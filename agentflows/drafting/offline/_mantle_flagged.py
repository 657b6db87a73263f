"""A lookup another tool's answer makes unnecessary.

"Keep to the travel policy from @tool.get_travel_policy" names the policy lookup as a
source, but where the flight search the path runs answers with `in_policy` already, an
agent can keep to the policy from that answer and never run the lookup: a case that
asserts the lookup fails that agent. The lookup is one that takes no argument and writes
nothing (a reference table read whole); another tool's answer covers it where a key of its
`llm_response` ends in the word the lookup's name ends in (`get_travel_policy` →
`policy`, `in_policy`).
"""

from __future__ import annotations

from collections.abc import Iterable

from evalcore.definitions import Project, ToolDef
from evalcore.definitions.skill_model import answer_keys, code_facts


def covered_lookup(project: Project, lookup: ToolDef, others: Iterable[ToolDef]) -> bool:
    """Whether `lookup` reads a reference whole (no parameter, no write) and one of
    `others` answers with a key that ends in the last word of its name."""
    if lookup.parameters or code_facts(project, lookup).writes:
        return False
    word = lookup.name.rsplit("_", 1)[-1].lower()
    return any(
        key.lower().rsplit("_", 1)[-1] == word and key.lower() != word
        for other in others
        if other.name != lookup.name
        for key in answer_keys(project, other)
    )


__all__ = ["covered_lookup"]
