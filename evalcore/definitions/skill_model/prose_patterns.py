"""The phrases of a prose procedure that name what the agent does: shared by the planner's
walk (which paths a skill has) and the reference agent (how it plays them), so both read
a skill's prose the same way."""

from __future__ import annotations

import re

#: "If @memory.x is empty, … @tool.y", "If username is missing in project memory, call
#: @tool.y": a lookup the agent runs when it lacks a value (a bare name counts only where it
#: is a memory field; `scope` says whose).
LOOKUP = re.compile(
    r"\bif\s+(?P<token>@memory\.)?(?P<key>[\w.]+)\s+is\s+"
    r"(?:empty|missing|not\s+set|unknown|not\s+known|blank)\b"
    r"(?:\s+(?:in|from)\s+(?:the\s+)?(?P<scope>project|skill)\s+memory)?.*?@tool\.(?P<tool>\w+)",
    re.I,
)
#: "Ask for their date of birth and postcode", "Ask for the four-digit PIN, then call
#: @tool.x with both": the details asked in one message (the sentence names the tool).
ASK_DETAILS = re.compile(
    r"\bask\s+(?:them\s+)?for\s+(?:their|the\s+customer's|your|his|her|the)\s+"
    r"(?P<details>.+?)"
    r"(?=\s+in\s+one\s+message|\s+and\s+(?:check|verify|confirm)|[,.;]|$)",
    re.I,
)
#: "… unless @memory.x is already true": a step skipped once a flag is set.
UNLESS = re.compile(r"\bunless\s+@memory\.(?P<key>[\w.]+)\s+is\s+(?:already\s+)?true\b", re.I)
#: "Run @block.x", "Start with @block.intake", "go through the @block.x": the prose enters it.
RUN_BLOCK = re.compile(
    r"\b(?:run|runs|start|starts|begin|begins|enter|enters|use|uses|go\s+through|follow|"
    r"follows|continue|proceed)\s+(?:(?:with|into|through|to|in)\s+)?(?:the\s+)?@block\.(\w+)",
    re.I,
)
ASK_FIELD = re.compile(r"\bask\b.*?@memory\.(?P<ns>\w+)\.(?P<key>\w+)", re.I)
#: "Ask whether …": a yes/no question of the agent's.
QUESTION = re.compile(r"\bask\s+(?:them\s+|the\s+customer\s+)?(?:whether|if)\s+(?P<q>[^.;]+)", re.I)
#: "If they ask whether …": the user asks, so it is a rule for the agent, not its question.
USER_ASKS = re.compile(
    r"\b(?:they|he|she|the\s+(?:customer|caller|user|patient|guest|member|tenant))\s+$", re.I
)
TOOL = re.compile(r"@tool\.(\w+)")
SKILL = re.compile(r"@skill\.(\w+)")
#: "Then invoke @skill.x", "hand over to @skill.x", "start @skill.x": the agent hands the
#: conversation to another skill where the sentence stands (the parent resumes after it).
HAND_OVER = re.compile(
    r"\b(?:invoke|start|launch|trigger|hands?\s+(?:it\s+|the\s+\w+\s+)?over\s+to|"
    r"(?:transfer|pass|hand)\s+(?:it\s+|them\s+|the\s+\w+\s+)?to)\s+`?@skill\.",
    re.I,
)
#: Words that make a hand-over depend on something or leave it to the agent: "If yes,
#: invoke …", "offer @skill.x", "run @skill.x first if …" (anywhere in the sentence).
HAND_OVER_UNLESS = re.compile(
    r"\b(?:if|when|whenever|unless|whether|offer|suggest|only|otherwise|once|after)\b", re.I
)
#: Permission before the hand-over: "you may invoke @skill.x".
HAND_OVER_MAY = re.compile(r"\b(?:may|might|can|could)\b", re.I)
