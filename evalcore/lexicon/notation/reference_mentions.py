"""Mantle references as a skill's sentences mention them: a tool by `@tool.<name>`, a memory
field by `@memory.<ns>.<key>` or its back-ticked key, a block by `@block.<id>`, and any
reference with the space before it, which an agent drops from what it says aloud."""

from __future__ import annotations

import re

from .. import phrase

#: Any reference and the space before it ("Ask for the date @memory.trip.day" → "Ask for
#: the date"): removed from prose the agent says.
SPOKEN_REFERENCE = phrase(
    "notation.reference_mentions.spoken",
    r"\s*@(?:memory|tool|skill|block)\.[\w.]*\w",
    matches=("Ask for the date @memory.trip.day.", "then call @tool.find_order"),
    misses=("then call find_order", "mail @form.x"),
)
#: A block reference, its id (dashes included) as group 1.
BLOCK_ID = phrase(
    "notation.reference_mentions.block_id",
    r"@block\.([\w-]+)",
    matches=("then run @block.verify-identity", "start with @block.opening."),
    misses=("then run the opening block", "@skill.opening"),
)


def _tool_source(name: str) -> str:
    return rf"@tool\.{re.escape(name)}\b"


phrase(
    "notation.reference_mentions.tool",
    _tool_source("find_order"),
    matches=("Call @tool.find_order.", "use @tool.find_order with the id"),
    misses=("Call @tool.find_order_items.", "call find_order", "@skill.find_order"),
)


def tool_mention(name: str) -> re.Pattern[str]:
    """`@tool.<name>` as a whole name (`notation.reference_mentions.tool`)."""
    return re.compile(_tool_source(name))


def _field_source(name: str, qualified: str) -> str:
    return rf"@memory\.{re.escape(qualified)}\b|(?<![\w.])`?{re.escape(name)}`?\b"


phrase(
    "notation.reference_mentions.field",
    _field_source("details_verified", "claim.details_verified"),
    matches=(
        "once @memory.claim.details_verified is true",
        "when `details_verified` is true",
        "when details_verified is true",
    ),
    misses=("when the details are verified", "x.details_verified", "details_verified_at"),
)


def field_mention(name: str, qualified: str) -> re.Pattern[str]:
    """A memory field by reference or by its key, back-ticked or not, case-sensitive
    (`notation.reference_mentions.field`; unlike `mantle_references.field_mention`, not by
    its key's words)."""
    return re.compile(_field_source(name, qualified))
