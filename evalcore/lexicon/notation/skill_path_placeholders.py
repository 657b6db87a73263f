"""How a skill writes the variable part of a path it prescribes: `{kebab-case-name}` or
`{agent_name}` in braces, as `<name>` is written in angle brackets elsewhere."""

from __future__ import annotations

from .. import phrase

#: A braced placeholder segment of a path (`{kebab-case-name}`), the whole braces matched.
BRACED_PLACEHOLDER = phrase(
    "notation.skill_path_placeholders.braced",
    r"\{[A-Za-z][\w-]*\}",
    matches=("base44/entities/{kebab-case-name}.jsonc", "base44/agents/{agent_name}.jsonc"),
    misses=('{"name": "x"}', "src/{}.js", "a/{ name }.js"),
)
#: An identifier written in PascalCase (`TeamMember`), as a skill's example names a record.
PASCAL_IDENTIFIER = phrase(
    "notation.skill_path_placeholders.pascal_identifier",
    r"^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)*$",
    matches=("TeamMember", "Task", "Order2"),
    misses=("team-member.jsonc", "support_agent", "URL", "teamMember"),
)
