"""A user's message that does not answer the question asked: it asks for a person, turns
to something else first ("Before that, ..."), or asks the agent something back. The
reference agent hands over, takes the aside, or says it cannot help."""

from __future__ import annotations

import re

from .. import phrase

#: The user asks to talk to a person ("Can I speak to someone?", "a real human").
PERSON = phrase(
    "en.user_detours.person",
    r"\b(?:talk|speak|chat)\s+(?:to|with)\s+(?:a\s+|an\s+|the\s+|my\s+|someone|somebody)?"
    r"(?:person|human|someone|somebody|agent|representative|specialist|adjuster|staff|team)|"
    r"\b(?:real|live)\s+(?:person|human|agent)\b|\btransfer me\b",
    re.I,
    matches=("Can I speak to someone?", "I want a real human", "Please transfer me."),
    misses=("I spoke to my bank yesterday.", "It is a personal account."),
)
#: A message that turns to something else before answering ("Before that, ...").
ASIDE = phrase(
    "en.user_detours.aside",
    r"^\s*(?:before that|by the way|one more thing|actually|wait|also|first|"
    r"quick question|unrelated|random question|off topic)\b",
    re.I,
    matches=("Before that, what are your hours?", "By the way, is it open?"),
    misses=("It is 42, by the way.", "Firstly fine."),
)
#: A question back to the agent that states no value ("Do you know a good recipe for
#: lasagne?"): not an answer to the question asked, so the agent says it cannot help.
QUESTION_BACK = phrase(
    "en.user_detours.question_back",
    r"^\s*(?:do|does|can|could|would|will|what|how|why|who|where|is|are)\b[^?\d]*\?\s*$",
    re.I,
    matches=("Do you know a good recipe for lasagne?", "What time is it?"),
    misses=("Is it order 4417?", "My order is late.", "Can you hold on. I need a minute"),
)
