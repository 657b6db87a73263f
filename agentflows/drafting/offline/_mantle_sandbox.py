"""Test-only targets for the tools a case runs that act on a real service.

Where a skill's tool changes something outside the agent (`evalcore.definitions.skill_model.
outside_effect`: it posts, sends, books) and the user says where it goes in free text (a
channel, a recipient's e-mail, a webhook), the case names a target that is clearly for
testing (`sandbox`, `sandbox@example.com`) instead of the project's real-looking example
(`C_GENERAL`): a run with the service's credentials set then acts on a target a team keeps
for tests, never on the channel everyone reads. The case file says the rest
(`# outside service: …`).
"""

from __future__ import annotations

import re
from typing import Any

from evalcore.definitions import Project
from evalcore.definitions.skill_model import outside_effect
from evalcore.lexicon.en.field_name_words import TARGET_WORDS as _TARGET_WORDS
from evalcore.lexicon.en.field_name_words import WORLD_PLACES as _PLACE_WORDS

#: An id of a prefix and words (`C_GENERAL`): the test one keeps the prefix.
_PREFIXED = re.compile(r"^(?P<prefix>[A-Z]{1,2})_[A-Z0-9_]+$")
SANDBOX = "sandbox"


def sandboxed(
    project: Project, skill_id: str, values: dict[str, Any], fixed: set[str]
) -> dict[str, Any]:
    """`values` with a test-only value for each free-text target field of a tool of
    `skill_id` that changes something outside; `fixed`: keys the behaviour chose itself
    (never replaced)."""
    targets = target_fields(project, skill_id)
    out = dict(values)
    for key in targets:
        value = out.get(key)
        if key in fixed or not isinstance(value, str) or not value.strip():
            continue
        out[key] = test_value(value)
    return out


def target_fields(project: Project, skill_id: str) -> list[str]:
    """The skill's free-text fields that say where a tool acting on a real service acts."""
    assert project.mantle is not None
    defs = project.mantle
    skill = defs.skills.get(skill_id)
    if skill is None:
        return []
    out: list[str] = []
    for tool in defs.tools_for(skill_id).values():
        effect = outside_effect(project, tool)
        if effect is None or not effect.changes:
            continue
        for name in effect.reads:
            field = skill.memory.get(name)
            if field is None or field.type != "text" or field.enum_values:
                continue
            words = set(name.lower().split("_"))
            if _TARGET_WORDS & words and not _PLACE_WORDS & words:
                out.append(field.qualified)
    return list(dict.fromkeys(out))


def test_value(value: str) -> str:
    """A target of `value`'s shape that is clearly for testing: an e-mail at the reserved
    `example.com`, a URL there, a `#name`, a prefixed id, else the word."""
    text = value.strip()
    if "@" in text and "." in text.rsplit("@", 1)[-1]:
        return f"{SANDBOX}@example.com"
    if text.lower().startswith(("http://", "https://")):
        return f"https://example.com/{SANDBOX}"
    if text.startswith("#"):
        return f"#{SANDBOX}"
    match = _PREFIXED.match(text)
    if match:
        return f"{match['prefix']}_{SANDBOX.upper()}"
    return SANDBOX


__all__ = ["SANDBOX", "sandboxed", "target_fields", "test_value"]
