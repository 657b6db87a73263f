"""What an agent's message does, as the simulated user hears it: asks to confirm, asks for
something, asks whether there is anything else, hands the user over; and the lines a
model playing the user writes when it slips out of the role."""

from __future__ import annotations

import re

from .. import phrase

CONFIRMATION = phrase(
    "en.agent.confirmation",
    r"\b(?:shall i|should i|do you want me to|would you like me to|can i go ahead|"
    r"(?:ok|okay) to (?:proceed|go ahead)|is (?:that|this|everything)(?: all)? (?:correct|right)|"
    r"does (?:that|this|everything) (?:look|sound) (?:right|correct|good)|are you sure|"
    r"do you confirm|please confirm(?! your)|to confirm:|confirm (?:that|this|the order|"
    r"the details)|go ahead\?)",
    re.I,
    matches=(
        "Shall I order the replacement card?",
        "A new card to 12 Elm St. Is that correct?",
        "To confirm: one card, standard delivery.",
    ),
    misses=("Please confirm your date of birth.", "Your card has been ordered."),
)
ANYTHING_ELSE = phrase(
    "en.agent.anything_else",
    r"\b(?:anything else|is there something else|any other (?:question|thing)s?|"
    r"else (?:i|we) can (?:help|do))",
    re.I,
    matches=("Is there anything else I can help with?", "Any other questions?"),
    misses=("Anything to add to the claim?", "What else happened?"),
)
ASKING = phrase(
    "en.agent.asking",
    r"\?|\b(?:(?:please )?tell me|please (?:give|share|provide|confirm|send|choose|pick|select|"
    r"read|say|spell|enter|type|describe)|let me know|"
    r"could you|can you|what is your|which one)\b"
    r"|^(?:describe|enter|type|give|share|provide|spell|choose|pick|select|read me|say)\b",
    re.I,
    matches=("What is your ZIP code?", "Please share the card's last four digits.", "Describe it."),
    misses=("Your card is on its way.", "I have described the steps."),
)
HANDOFF = phrase(
    "en.agent.handoff",
    r"\b(?:pass(?:ing)? you|transfer(?:ring)? you|connect(?:ing)? you|hand(?:ing)? you over|"
    r"a colleague|member of (?:our|the) team will|an agent will|someone will)\b",
    re.I,
    matches=("I'm passing you to a colleague now.", "An agent will call you back."),
    misses=("I have transferred the funds.", "Your agent id is 12."),
)
#: What a stop line that waits for a hand-off names ("Stop once you are passed to a person").
PERSON_STOP = phrase(
    "en.agent.person_stop",
    r"\b(?:person|human|colleague|someone|passing|transfer)",
    re.I,
    matches=("the agent puts you through to a person", "you are transferred"),
    misses=("the agent confirms the new card",),
)
#: A model's user turn that names its role ("User: …") instead of speaking it.
ROLE_LABEL = phrase(
    "en.agent.role_label",
    r"^\s*\**\s*(user|customer|agent|assistant|bot|system|you)\s*\**\s*:",
    re.I,
    matches=("User: my card broke", "**Customer**: hi"),
    misses=("My user name is ana", "Hi: it broke"),
)
#: A model's user turn that speaks as the assistant it was told to test.
OUT_OF_ROLE = phrase(
    "en.agent.out_of_role",
    r"\b(as an ai\b|an ai language model|i am an ai\b|i'm an ai\b|as the simulated|"
    r"simulated (user|customer)|how (can|may) i (help|assist) you)",
    re.I,
    matches=("As an AI, I cannot say.", "Hello! How can I help you today?"),
    misses=("Can you help me with my card?", "I said it was blue."),
)
