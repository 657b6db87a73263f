"""Mantle references as they sit inside a prose sentence the drafter rewrites for a judge:
any `@tool.`, `@block.`, `@skill.` or `@memory.` reference, its dotted name as group 1 (the
drafter keeps the last part, in words)."""

from __future__ import annotations

from .. import phrase

#: A tool, block, skill or memory reference with its whole dotted name.
ANY_REFERENCE = phrase(
    "notation.prose_references.any",
    r"@(?:tool|block|skill|memory)\.(\w+(?:\.\w+)*)",
    matches=("call @tool.find_order first", "save it in @memory.order.status"),
    misses=("call the find_order tool", "@form.find_order"),
)
