"""How a skill's prose instructs the agent, read to turn a sentence into a criterion: the
prohibitions and the things to say, where one sentence holds several, the condition that
leads a rule, the second person that becomes the agent's third, and the skills whose job is
to decline."""

from __future__ import annotations

import re

from .. import phrase

#: "…, so never …", "Do not …": what the agent must not do, with the lead before it.
PROHIBITION = phrase(
    "en.prose_instructions.prohibition",
    r"(?P<lead>^|^.*?(?:,|;)\s+|^.*?\bso\s+)(?P<neg>never|do\s+not|don't|must\s+not|must\s+never)"
    r"\s+(?P<rest>.+)$",
    re.IGNORECASE,
    matches=("Never give out the code.", "If they ask, do not answer."),
    misses=("Give them the code.",),
)
#: "Tell …", "If the order shipped, offer …": a thing to say, with its condition.
INSTRUCTION = phrase(
    "en.prose_instructions.instruction",
    r"(?P<lead>^|^(?:when|if|once|after|before)\b[^,]*,\s+)"
    r"(?P<verb>tell|say|explain|mention|name|offer|suggest|read back|warn|thank|apologi[sz]e"
    r"|share|give|list|wish|point|direct|refer|send|speak)\s+(?P<rest>.+)$",
    re.IGNORECASE,
    matches=("Tell them the new date.", "If the order shipped, offer a refund."),
    misses=("Check the order status.", "The courier will tell them."),
)
#: Where one prose sentence holds several instructions: "…, and never say …", "…; tell …",
#: and a list of them ("apologise once, give the new date").
CLAUSES = phrase(
    "en.prose_instructions.clauses",
    r",?\s+(?:and|but|then)\s+(?=(?:never|do\s+not|don't|tell|say|explain|ask|offer|mention"
    r"|name|suggest|thank|apologi[sz]e|share|give|list|wish|point|direct|refer|send|speak"
    r"|invite|invoke|call|end|set)\b)|;\s+|\s+[—–-]\s+"
    r"|,\s+(?=(?:tell|say|give|explain|mention|offer|suggest|share|list|apologi[sz]e|thank"
    r"|warn|send|direct|refer|point)\s)",
    re.IGNORECASE,
    matches=(
        "Apologise, and never blame the courier.",
        "Confirm the date; tell them the time.",
        "Apologise once, give the new date.",
    ),
    misses=("Check the order and the date.",),
)
#: The second person of an instruction, each form as the agent's third person reads it.
YOURSELF = phrase(
    "en.prose_instructions.yourself",
    r"\byourself\b",
    re.I,
    matches=("Introduce yourself.",),
    misses=("Introduce yourselves.",),
)
YOUR = phrase(
    "en.prose_instructions.your",
    r"\byour\b",
    re.I,
    matches=("in your own words",),
    misses=("the words are yours", "you're welcome"),
)
#: "you (only/also/still/never/always) do/have/are/were/don't": the verb turns third person.
YOU_VERB = phrase(
    "en.prose_instructions.you_verb",
    r"\byou ((?:only|also|still|never|always) )?(do|have|are|were|don't)\b",
    re.I,
    matches=("if you don't know", "you also have to check"),
    misses=("you can check", "if you know"),
)
YOU = phrase(
    "en.prose_instructions.you",
    r"\byou\b",
    re.I,
    matches=("thank you",),
    misses=("your order", "the youth plan"),
)
#: A lead that says when or where a rule holds ("If …", "In public channels", "Before ordering").
SCOPE = phrase(
    "en.prose_instructions.scope",
    r"^(?:if|when|whenever|once|unless|after|before|while|until|in|on|at|for|during|with"
    r"|without|where)\b",
    re.IGNORECASE,
    matches=("If the card is lost", "In public channels", "Before ordering"),
    misses=("Tell them the date", "Interest rates"),
)
#: What follows "never" when it is no action the agent takes whole: a preposition, a
#: passive ("refilled early") or a bare pronoun ("summarise it").
NOT_A_VERB = phrase(
    "en.prose_instructions.not_a_verb",
    r"^(?:in|on|at|to|for|with|by|from|of|as|about|again|ever|any|the|a|an)\b"
    r"|^\w+ed\b(?<!need)(?<!proceed)(?<!exceed)|^\w+\s+(?:it|them|this|that)\b",
    re.IGNORECASE,
    matches=("in the meantime", "refilled early", "summarise it"),
    misses=("give out the code", "exceed the limit"),
)
#: A condition leading a sentence, up to its comma ("If they ask, ").
CONDITION = phrase(
    "en.prose_instructions.condition",
    r"^(?:if|when|whenever|once|unless|after|before)\b[^,]*,\s+",
    re.IGNORECASE,
    matches=("If they ask, say so", "Once it is paid, thank them"),
    misses=("Ask them, then wait", "If they ask"),
)
#: A condition that points back at the clause before it ("after that", "if so"): out of its
#: sentence it says nothing about when the rule holds.
ANAPHORIC = phrase(
    "en.prose_instructions.anaphoric",
    r"^(?:(?:after|before)\s+(?:that|this)|if\s+(?:so|not)|otherwise|then)\b"
    r"|^if\s+(?:yes|no)\s*(?:,|$)"
    r"|^if\s+\w+\s+(?:have|has|do|does|did|are|is|was|were|can|will)\s*,?\s*$",
    re.IGNORECASE,
    matches=("after that", "if so", "If yes,", "if they do,"),
    misses=("if the card is lost", "after the call"),
)
#: A further prohibited act inside one prohibition (", do not …", ", never …").
MORE_NOT = phrase(
    "en.prose_instructions.more_not",
    r",\s*(?:and\s+|or\s+)?(?:do\s+not|don't|never)\s+",
    re.I,
    matches=("never share it, and do not read it out", "never guess, never promise"),
    misses=("never share it and read it out",),
)
#: How a clause ends when what it is about follows a colon ("it can assist with: …").
DANGLING = phrase(
    "en.prose_instructions.dangling",
    r"\b(?:with|about|for|to|of|from|by|as|the|a|an|and|or|such as|including)\s*$",
    re.IGNORECASE,
    matches=("it can assist with", "topics such as "),
    misses=("it can assist customers",),
)
#: A description of requests a skill is there to turn down ("Off-topic requests to write
#: poems ..."): its whole job is the decline.
DECLINES = phrase(
    "en.prose_instructions.declines",
    r"\b(?:off[- ]topic|out[- ]of[- ]scope|unrelated\s+to|declin\w*|refus\w*|not\s+supported)\b",
    re.IGNORECASE,
    matches=("Off-topic requests to write poems", "Declines requests for legal advice"),
    misses=("Handles refund requests",),
)
#: An agent-wide rule for a question outside what the agent is for.
OFF_TOPIC = phrase(
    "en.prose_instructions.off_topic",
    r"\b(?:asks?|requests?|questions?)\b[^.]*\b(?:outside|off[- ]topic|unrelated)\b",
    re.IGNORECASE,
    matches=("If a customer asks about anything outside banking",),
    misses=("If a customer asks about a refund", "Outside office hours, ask later"),
)
#: A prose paragraph or sentence that tells the agent to ask the customer something (not
#: to ask for confirmation).
ASKS = phrase(
    "en.prose_instructions.asks",
    r"(?:^|.*[.!?]\s+)ask\b(?!\s+for\s+confirmation)",
    re.IGNORECASE | re.DOTALL,
    matches=("Ask for the order number.", "Look it up. Ask which day suits them."),
    misses=("Ask for confirmation before ordering.", "Tell them the date."),
)
