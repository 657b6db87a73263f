"""How a skill's asks and prose say what its user knows and says: a value the user cannot
know (an internal one, returned by a tool), a detail told in the user's own words, a read
back the user confirms, the clause an ask names, a yes/no answer and where it leads, an
offer. The drafter reads them to give a simulated user the facts a case needs."""

from __future__ import annotations

import re

from .. import phrase

#: A value no user knows: the system's own, or what a tool returned.
INTERNAL = phrase(
    "en.user_facts.internal",
    r"\binternal\b|\bas \w+ returned\b|\breturned by\b|\bexactly as\b",
    re.I,
    matches=("the internal ticket id", "the id as it returned", "the code returned by the lookup"),
    misses=("the ticket number",),
)
#: A detail the user tells in their own words, not a value with one right form.
NARRATIVE = phrase(
    "en.user_facts.narrative",
    r"descri|what happened|\bin (?:their|his|her|your|the [\w ]+'s)(?: own)? words|summary|"
    r"details|notes|"
    r"reason|issue|problem|symptom|message|comment|topic|subject|\bin a (?:sentence|few words)",
    re.I,
    matches=("Describe what happened", "in their own words", "a short summary"),
    misses=("the order number",),
)
#: A line in the user's own voice (case-sensitive: "I", not "i" inside a word).
FIRST_PERSON = phrase(
    "en.user_facts.first_person",
    r"\b(?:I|I'm|I've|my|we|we're|our|me)\b",
    matches=("I lost my card", "we moved last week"),
    misses=("the card was lost", "Imagine a Mystery"),
)
#: An ask the agent closes by reading the details back and hearing them confirmed.
CONFIRMS = phrase(
    "en.user_facts.confirms",
    r"read(?:s|ing)? (?:it |them |everything |the [\w ]{1,40}?)?back"
    r"|\b(?:all )?correct\b|\bwhen they confirm(?=\s*(?:[.,;]|$))",
    re.I,
    matches=("Read it back to them", "Is that all correct?", "Go on when they confirm."),
    misses=("Read the terms", "they confirm the order"),
)
#: "Ask which …", "ask in one question whether …": the clause the ask names.
ASK_CLAUSE = phrase(
    "en.user_facts.ask_clause",
    r"\bask(?:s)?\b(?:\s+(?:in|with)\s+one\s+(?:short\s+)?question)?\s+"
    r"(?P<clause>(?:which|what|whether|if|how|for|who|when|where)\b[^.;:]*)",
    re.IGNORECASE,
    matches=("Ask which day suits them.", "ask in one question whether they want a refund"),
    misses=("Ask them to wait.", "a task for later"),
)
#: A number the prose compares with ("Under 55°F is an emergency", "over 10 items").
COMPARED = phrase(
    "en.user_facts.compared",
    r"\b(?:(?P<low>under|below|less than|lower than|fewer than)"
    r"|(?P<high>over|above|more than|higher than|greater than))\s+(?P<n>\d+(?:\.\d+)?)",
    re.I,
    matches=("Under 55°F is an emergency", "more than 10 items"),
    misses=("over the limit", "more than once"),
)
#: What the agent does with an answer, after the asked clause: no part of what the user
#: knows ("… and set leak location", "…, then call x", "… if it is not clear").
AFTER_ASKED = phrase(
    "en.user_facts.after_asked",
    r",?\s+(?:and\s+(?:record|set|save|store|note)|then|if|unless)\b.*$",
    re.I,
    matches=("where the water is coming from and set leak location", "the ZIP code, then call x"),
    misses=("which service is affected", "the card and the date"),
)
#: "for the …" leading an asked clause ("ask for the order number").
FOR_LEAD = phrase(
    "en.user_facts.for_lead",
    r"^for\s+(?:the\s+)?",
    matches=("for the order number", "for their name"),
    misses=("the order number", "what it is for"),
)
#: A confirmation question that gates an action: the action in its words.
GATE_QUESTION = phrase(
    "en.user_facts.gate_question",
    r"^(?:shall|should|can|may) I (?P<act>[^?]+)\?$"
    r"|^(?:would|do) you (?:like|want) me to (?P<act2>[^?]+)\?$"
    r"|^are you sure you want (?:me )?to (?P<act3>[^?]+)\?$",
    re.I,
    matches=(
        "Shall I submit the claim?",
        "Would you like me to connect you to a person?",
        "Are you sure you want to cancel?",
    ),
    misses=("What is your name?", "Shall I submit the claim now"),
)
#: A label's parenthesis that tells the agent what to store ("the reason (set reason)").
SET_NOTE = phrase(
    "en.user_facts.set_note",
    r"\s*\((?:and\s+)?set\s[^)]*(?:\)|$)",
    re.I,
    matches=("the reason (set reason)", "the date (and set the slot"),
    misses=("the reason (settled)", "the reason"),
)
#: Words a question may open with before what it asks ("Thanks, what is your name").
QUESTION_LEAD = phrase(
    "en.user_facts.question_lead",
    r"^(?:and|so|thanks|great|ok|okay|now|also)\b[,\s]*",
    re.I,
    matches=("Thanks, what is your name", "and which day suits you"),
    misses=("Soon after", "what is your name"),
)
#: "the" leading a label ("the booking reference").
LEADING_THE = phrase(
    "en.user_facts.leading_the",
    r"^the\s+",
    re.I,
    matches=("the booking reference", "The date"),
    misses=("theirs", "booking the room"),
)
#: "If not, …" / "If yes, …" after a yes/no question: what the agent does on each answer.
IF_ANSWER = phrase(
    "en.user_facts.if_answer",
    r"^if\s+(?:(?P<no>not|no|they\s+(?:do\s+not|don't|did\s+not|didn't|say\s+no))"
    r"|(?P<yes>yes|so|they\s+(?:do|agree|want|need|accept|say\s+yes)))\b",
    re.I,
    matches=("If not, end the call", "if they agree, book it"),
    misses=("if the card is lost", "If nothing changed"),
)
#: Words of a branch that leaves the skill for a person or another skill.
LEAVES = phrase(
    "en.user_facts.leaves",
    r"@skill\.|\b(?:human|person|specialist|colleague|escalat\w*|transfer)\b"
    r"|\bhand(?:s|ing)?\s+(?:it\s+|them\s+)?(?:off|over)\b|\bconnect\s+them\b",
    re.I,
    matches=("hand it off to @skill.claims", "connect them with a specialist", "Escalate it"),
    misses=("book the table", "handle the order"),
)
#: "Offer to help schedule an inspection", "offer Wi-Fi tips or other help".
OFFER = phrase(
    "en.user_facts.offer",
    r"\b(?P<verb>offers?|suggests?)\s+(?P<to>to\s+)?(?P<what>[^.;:,`]+)",
    re.I,
    matches=("Offer to help schedule an inspection", "suggests a new date"),
    misses=("they offered nothing", "the suggestion"),
)
#: "if <what memory holds> and <what the user says of it>," before a call: the second part
#: names no field; it is the user's answer to how a step they tried went.
OPEN_PART = phrase(
    "en.user_facts.open_part",
    r"\bif\s+(?P<known>[^,]+?)\s+and\s+(?P<open>(?:it|they|the\s+\w+)\s[^,]+),",
    re.I,
    matches=("If the router is on and it still fails, call support",),
    misses=("If the router is on, call support",),
)
