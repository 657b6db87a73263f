"""How a sentence of a skill's prose speaks of calling a tool: the verbs that call it by its
bare name ("call post_invoice", "the lookup tool"), the words that forbid the call before the
name, a leading circumstance that triggers it ("When the form is sent, …"), a wish of the
user's asked about rather than acted on, and the clause of the user's that cues an
alternative call ("If they ask about an earlier booking, …")."""

from __future__ import annotations

import re

from .. import phrase

#: Words before a tool's name that forbid or replace the call (read on the sentence up to
#: the name).
NEGATED = phrase(
    "en.skill_tool_calls.negated",
    r"\b(?:do\s+not|don't|never|without|must\s+not|avoid|instead\s+of)\b[^.;@]*$",
    re.I,
    matches=("Avoid calling ", "Use the paper form instead of "),
    misses=("Call ", "Never guess. Then call "),
)
#: A leading circumstance and its clause, up to the comma: "When the form is sent, …".
TRIGGER = phrase(
    "en.skill_tool_calls.trigger",
    r"^(?P<word>when|once|after|if|unless|for|during|in\s+case|as\s+soon\s+as)\s+(?P<clause>.+),",
    re.I,
    matches=(
        "When the form is sent, call @tool.post_invoice.",
        "During business hours, transfer the call.",
    ),
    misses=("Call @tool.post_invoice when the form is sent.", "If they agree"),
)
#: A calling word right before a tool's bare name (`name`): "call post_invoice",
#: "via `find_order`".
CALL_WORD = phrase(
    "en.skill_tool_calls.call_word",
    r"\b(?:call|calls|calling|use|uses|using|run|runs|invoke|invokes|execute|executes|trigger|"
    r"submit|via|with)\s+(?:the\s+)?`?(?P<name>[a-z][a-z0-9]*(?:_[a-z0-9]+)+)`?",
    re.I,
    matches=("Call post_invoice with the details.", "Look it up via `find_order`."),
    misses=("Call @tool.post_invoice.", "Use the paper form."),
)
#: A calling word at the end of the text before a bare name ("then call ", "with the `",
#: "use the tool ").
VERB_BEFORE = phrase(
    "en.skill_tool_calls.verb_before",
    r"\b(?:call|calls|calling|use|uses|using|run|runs|invoke|invokes|execute|executes|trigger|"
    r"triggers|submit|submits|with|via|through|tool)\b(?:\s+(?:the|a|it|them|tool))*\s*`?$",
    re.I,
    matches=("Then call ", "Look it up with the `", "Use the tool "),
    misses=("The order ", "Call it later and "),
)
#: "tool" right after a bare name ("the find_order tool").
TOOL_AFTER = phrase(
    "en.skill_tool_calls.tool_after",
    r"`?\s+tool\b",
    matches=(" tool to look it up.", "` tool."),
    misses=(" to look it up.", " tools list"),
)
#: A clause that turns a flag around ("the card is not active", "once x is false").
NEGATIVE_STATE = phrase(
    "en.skill_tool_calls.negative_state",
    r"\b(false|not|no longer|empty|missing)\b",
    matches=("the card is not active", "the address is missing"),
    misses=("the card is active", "the address is known"),
)
#: "Ask whether they want to book one": the user's wish, asked about, not the call (read on
#: the text before the verb).
WISH = phrase(
    "en.skill_tool_calls.wish",
    r"\b(?:whether|if)\b[^,;.]*\b(?:want|wants|like|need|needs)\s+to\b[^,;.]*$",
    re.I,
    matches=("Ask whether they want to ", "Check if they need to "),
    misses=("Ask for their name and ", "If they want to, "),
)
#: A verb that takes "a"/"an"/"one" ("Open a permit application"): the kind of thing a skill
#: is for, not the one a step acts on (read at the verb).
INDEFINITE = phrase(
    "en.skill_tool_calls.indefinite",
    r"[A-Za-z]+\s+(?:a|an|one)\b",
    re.I,
    matches=("Open a permit application for the work.", "Book one for them."),
    misses=("Open the application.", "Book it for them."),
)
#: The people a skill's prose calls its user, as alternatives of a pattern.
PEOPLE = (
    "customer|caller|user|patient|guest|member|tenant|resident|client|passenger|engineer|employee"
)
_SUBJECT = rf"(?:they|he|she|the\s+(?:{PEOPLE}))"
#: A clause whose subject is the user and whose verb is one of saying or wanting ("they ask
#: about an earlier booking"): the user's cue (read at the clause's start).
USER_CLAUSE = phrase(
    "en.skill_tool_calls.user_clause",
    rf"^{_SUBJECT}\s+(?:only\s+|just\s+)?"
    r"(?:ask|asks|want|wants|need|needs|say|says|mention|mentions|request|requests|call|calls"
    r"|write|writes)\b",
    re.I,
    matches=("they ask about an earlier booking", "the caller only wants a price"),
    misses=("the order is late", "ask them about it"),
)
