"""Mantle's references inside skill text: `@tool.x`, `@skill.x`, `@block.x`,
`@memory.<ns>.<key>`, `session.<ns>.<key>`, `project.<key>`, and a button payload that sets
a session value. Format syntax, not words: a tool named `lookup` is matched by the `@tool.`
before it, whatever the name means."""

from __future__ import annotations

import re

from .. import phrase

#: A memory value by its session name (`session.order.status`), not a longer dotted name.
SESSION_REFERENCE = phrase(
    "notation.mantle_references.session",
    r"(?<![\w.])session\.([\w-]+)\.([\w-]+)",
    matches=("if: session.order.status == 'open'", "read session.card-replace.reason"),
    misses=("my.session.order.status", "session.order without a key"),
)
#: `@skill.x`, `@tool.x` and `@memory.<ns>.<key>` as Rasa's check reads them: the whole
#: reference, not a prefix of a longer dotted one.
SKILL_REFERENCE_EXACT = phrase(
    "notation.mantle_references.skill_exact",
    r"(?<![\w])@skill\.([\w-]+)(?![\w-])(?!\.[\w-])",
    matches=("then hand over to @skill.card_replace.", "see @skill.faq"),
    misses=("then hand over to @skill.card.replace", "mail@skill.faq", "@tool.faq"),
)
TOOL_REFERENCE_EXACT = phrase(
    "notation.mantle_references.tool_exact",
    r"(?<![\w])@tool\.([\w-]+)(?![\w-])(?!\.[\w-])",
    matches=("call @tool.find_order.", "call @tool.find-order now"),
    misses=("call @tool.orders.find", "mail@tool.find_order", "@skill.find_order"),
)
MEMORY_REFERENCE_EXACT = phrase(
    "notation.mantle_references.memory_exact",
    r"(?<![\w])@memory\.([\w-]+)\.([\w-]+)(?![\w-])(?!\.[\w-])",
    matches=("store it in @memory.order.status.", "@memory.card-replace.reason"),
    misses=("store it in @memory.order", "@memory.order.status.code", "a@memory.order.status"),
)
#: Anything that starts like a memory reference, well formed or not (`@memory`, `@memory.x`).
MEMORY_LOOKALIKE = phrase(
    "notation.mantle_references.memory_lookalike",
    r"(?<![\w])@memory(?:\.[\w-]+)*",
    matches=("keep it in @memory", "keep it in @memory.order"),
    misses=("keep it in memory", "mail@memory.order"),
)
#: A skill file's references as its reader collects them: the kind and name of a tool,
#: block or skill, or the dotted key of a memory value.
SKILL_FILE_TOKEN = phrase(
    "notation.mantle_references.skill_file_token",
    r"(?<![\w@.])@(?:(?P<kind>tool|block|skill)\.(?P<name>[A-Za-z0-9_-]+)"
    r"|memory\.(?P<memory>[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*))",
    matches=("call @tool.find_order", "run @block.verify", "save @memory.order.status"),
    misses=("write to me@tool.find_order", "call @form.find_order", "a memory.order value"),
)
#: A memory reference whose value is read live (`@memory.<ns>.<key>`): the prefix only.
LIVE_MEMORY_VALUE = phrase(
    "notation.mantle_references.live_memory_value",
    r"(?<![\w.])@memory\.(?=[\w-]+\.[\w-]+)",
    matches=("the status is @memory.order.status",),
    misses=("the status is @memory.order", "x.@memory.order.status"),
)
#: A tool or skill a sentence names, by its word-character name.
TOOL_NAME = phrase(
    "notation.mantle_references.tool_name",
    r"@tool\.(\w+)",
    matches=("call @tool.find_order first",),
    misses=("call the find_order tool", "@skill.find_order"),
)
SKILL_NAME = phrase(
    "notation.mantle_references.skill_name",
    r"@skill\.(\w+)",
    matches=("hand over to @skill.card_replace",),
    misses=("hand over to the card skill", "@tool.card_replace"),
)
#: A skill a sentence delegates to, hyphens included.
SKILL_TARGET = phrase(
    "notation.mantle_references.skill_target",
    r"@skill\.([\w-]+)",
    matches=("hand over to @skill.card-replace",),
    misses=("hand over to skill card-replace", "@block.card-replace"),
)
#: A memory value named any of the ways a justification quotes it: `session.<ns>.<key>`,
#: `@memory.<ns>.<key>`, or a project value `project.<key>`.
FIELD_REFERENCE = phrase(
    "notation.mantle_references.field",
    r"(?:session|@memory)\.([\w-]+)\.([\w-]+)|(?<![\w.])project\.([\w-]+)",
    matches=("session.order.status", "@memory.order.status", "the project.currency"),
    misses=("session.order", "my.project.currency", "the order status"),
)
#: A button payload that sets a session value (`set:session.order.size=large`).
SET_PAYLOAD = phrase(
    "notation.mantle_references.set_payload",
    r"^set:session\.(?P<key>[\w.]+)=(?P<value>.+)$",
    matches=("set:session.order.size=large",),
    misses=("/choose_size", "set:session.order.size=", "ok set:session.order.size=large"),
)


def _block_source(block_id: str) -> str:
    return rf"@block\.{re.escape(block_id)}\b"


phrase(
    "notation.mantle_references.block",
    _block_source("verify_identity"),
    matches=("then run @block.verify_identity.",),
    misses=("then run @block.verify_identity_again", "@tool.verify_identity"),
)


def block_reference(block_id: str) -> re.Pattern[str]:
    """`@block.<block_id>` as a whole name (`notation.mantle_references.block`)."""
    return re.compile(_block_source(block_id))


def _field_mention_source(name: str, qualified: str) -> str:
    spaced = re.escape(name.replace("_", " "))
    return (
        rf"@memory\.{re.escape(qualified)}\b|(?<![\w.])`?{re.escape(name)}`?\b"
        rf"|\b{spaced}\b"
    )


phrase(
    "notation.mantle_references.field_mention",
    _field_mention_source("renewal_day", "plan.renewal_day"),
    re.I,
    matches=(
        "see @memory.plan.renewal_day",
        "ask for `renewal_day`",
        "ask for the Renewal Day",
    ),
    misses=("ask for the day it renews", "x.renewal_day", "the renewal_days"),
)


def field_mention(name: str, qualified: str) -> re.Pattern[str]:
    """A memory field named by reference, by its key (`renewal_day`, back-ticked or not)
    or by its key's words (`renewal day`), case-insensitively
    (`notation.mantle_references.field_mention`)."""
    return re.compile(_field_mention_source(name, qualified), re.I)


#: Any reference a reader of a case should not see in a user's line: `@tool.x`,
#: `@memory.<ns>.<key>`, `@skill.x`, `@block.x` or `session.<ns>.<key>`.
INTERNAL_TOKEN = phrase(
    "notation.mantle_references.internal_token",
    r"@(?:tool|memory|skill|block)\.[\w.]+|\bsession\.\w+\.\w+",
    matches=("call @tool.find_order", "it is in session.order.status", "run @block.verify"),
    misses=("call the order tool", "a session.order value", "mail @form.x"),
)
#: A memory reference with its whole dotted key (`@memory.order.status` → `order.status`).
MEMORY_PATH = phrase(
    "notation.mantle_references.memory_path",
    r"@memory\.(\w+(?:\.\w+)*)",
    matches=("store it in @memory.order.status", "keep @memory.total"),
    misses=("store it in memory.order.status", "keep @memory"),
)
