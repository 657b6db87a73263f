"""The lines of a simulation context the offline simulator reads.

Two grammars: the structured one casegen writes (`Open with: "…"`, `When the agent asks …,
say: "…"`, a facts list) and free prose a person writes in a hand-made case ("Ask to
replace the card. When the agent asks the reason, say it is damaged.").
"""

from __future__ import annotations

import re

from .. import phrase

#: A quoted line, straight or curly quotes; the group `line` is what is said.
QUOTE = r"[\"“](?P<line>[^\"”]+)[\"”]"

PERSONA = phrase(
    "en.context.persona",
    r"^You are (?P<who>[^.]+)\.\s*(?P<rest>.*)$",
    matches=("You are Ana Costa, a customer. Calm.", "You are Luis."),
    misses=('Open with: "You are here"', "You are Luis"),
)
INTENT = phrase(
    "en.context.intent",
    r"\bYou (?P<verb>want|need|would like|'d like)(?P<rest>[^.?!]*)[.?!]",
    re.I,
    matches=("You want to replace your card.", "Today you need a refund!"),
    misses=("You want to replace your card", "You are calm."),
)
FACT = phrase(
    "en.context.fact",
    r"^\s*[-*•]\s*(?P<label>[^:]+?)\s*:\s*(?P<value>.+?)\s*$",
    matches=("- date of birth: 11/02/1991", "  • card number: 4111"),
    misses=("date of birth: 11/02/1991", "- just a note"),
)
OPEN_WITH = phrase(
    "en.context.open_with",
    rf"^Open with:\s*{QUOTE}",
    re.I,
    matches=('Open with: "My card was stolen."', "open with: “Hi”"),
    misses=("Open with: My card was stolen.", 'Then open with: "Hi"'),
)
CUE = phrase(
    "en.context.cue",
    rf"^When the agent asks (?P<cue>.+?)(?P<first> the first time)?,\s*say(?: instead)?:\s*"
    rf"{QUOTE}(?P<then>,? then answer it)?",
    re.I,
    matches=(
        'When the agent asks for the reason, say: "It broke."',
        'When the agent asks for your ZIP the first time, say instead: "01851", then answer it',
    ),
    misses=(
        "When the agent asks for the reason, say it broke.",
        'When the agent offers to go back, say: "yes"',
    ),
)
FOLLOW_UP = phrase(
    "en.context.follow_up",
    rf"^When the agent next speaks after you say\s*[\"“](?P<after>[^\"”]+)[\"”],\s*say:\s*{QUOTE}",
    re.I,
    matches=('When the agent next speaks after you say "Hi", say: "Still there?"',),
    misses=('When the agent asks after you say "Hi", say: "Still there?"',),
)
AFTER_FIRST = phrase(
    "en.context.after_first",
    rf"^After the agent's first answer,\s*say:\s*{QUOTE}",
    re.I,
    matches=('After the agent\'s first answer, say: "Actually, a person please."',),
    misses=("After the agent's first answer, ask for a person.",),
)
BEFORE_END = phrase(
    "en.context.before_end",
    rf"^Before you finish,\s*say:\s*{QUOTE}",
    re.I,
    matches=('Before you finish, say: "Thanks a lot."',),
    misses=("Before you finish, thank the agent.",),
)
CONFIRM = phrase(
    "en.context.confirm",
    r"^When the agent (?P<back>reads .+? back and )?asks you to confirm,"
    r"\s*(?P<answer>agree|decline)",
    re.I,
    matches=(
        "When the agent asks you to confirm, agree.",
        "When the agent reads the address back and asks you to confirm, decline.",
    ),
    misses=("When the agent asks you to confirm, say maybe.",),
)
GATE = phrase(
    "en.context.gate",
    r"^When the agent asks whether to (?P<act>.+?),\s*(?P<answer>agree|decline)\b",
    re.I,
    matches=("When the agent asks whether to submit the claim, decline.",),
    misses=("When the agent asks whether there is anything else, say no.",),
)
DECLINE_ONLY = phrase(
    "en.context.decline_only",
    rf"^Decline only the last question before the agent acts, (?:worded like:\s*{QUOTE}"
    r"|the confirmation question before (?P<tool>[^.]+?) runs\.)",
    re.I,
    matches=(
        'Decline only the last question before the agent acts, worded like: "Move it?" Before'
        " it, say yes.",
        "Decline only the last question before the agent acts, the confirmation question"
        " before move_event runs. Before it, say yes.",
    ),
    misses=('Decline only the last question before the agent acts: "Move it?"',),
)
GREETING_WORD = phrase(
    "en.context.greeting_word",
    r"^(?:good\s+)?(?:morning|afternoon|evening|night|day)$|^(?:hi|hello|hey)$",
    re.I,
    matches=("Morning", "good evening", "hello"),
    misses=("tomorrow morning", "mornings only", "daytime"),
)
ANYTHING_ELSE_NO = phrase(
    "en.context.anything_else_no",
    r"^When the agent asks whether there is anything else,\s*say no",
    re.I,
    matches=("When the agent asks whether there is anything else, say no.",),
    misses=("When the agent asks whether there is anything else, say yes.",),
)
RESUME_YES = phrase(
    "en.context.resume_yes",
    r"^When the agent offers to go back to (?P<task>.+?),\s*say yes",
    re.I,
    matches=("When the agent offers to go back to your card replacement, say yes.",),
    misses=("When the agent offers to go back to it, say no.",),
)
STOP = phrase(
    "en.context.stop",
    r"^Stop (?:once|when|after) (?P<until>.+?)\.?$",
    re.I,
    matches=("Stop once the agent confirms the new card.", "stop after the hand-off"),
    misses=("Do not stop before the agent confirms.", "Stop."),
)

# The free prose grammar.
SENTENCE_BREAK = phrase(
    "en.prose.sentence_break",
    r"(?<=[.!?])\s+(?=[A-Z])",
    matches=("It broke. Ask again.",),
    misses=("It broke. and then", "e.g. this"),
)
PROSE_PERSONA = phrase(
    "en.prose.persona",
    r"^You are (?P<who>.+?)\.?$",
    matches=("You are Maria, a busy nurse.",),
    misses=("They are Maria.",),
)
PROSE_ASK = phrase(
    "en.prose.ask",
    r"^(?:Ask|Request) (?P<verb>to|for) (?P<rest>.+?)\.?$",
    re.I,
    matches=("Ask to replace the card.", "request for a refund"),
    misses=("Ask the agent.", "Then ask to replace the card."),
)
PROSE_WANT = phrase(
    "en.prose.want",
    r"^You (?P<verb>want|need|would like|'d like) (?P<rest>.+?)\.?$",
    re.I,
    matches=("You want a new card.", "You would like a refund"),
    misses=("You are tired.", "Now you want a new card."),
)
PROSE_CUE = phrase(
    "en.prose.cue",
    r"^When the agent asks (?:you )?(?P<cue>.+?),\s*(?:say|answer|tell (?:it|them))\s+"
    r"(?:that\s+)?(?P<value>.+?)\.?$",
    re.I,
    matches=(
        "When the agent asks the reason, say it is damaged.",
        "When the agent asks you why, tell it that the card broke.",
    ),
    misses=("When the agent asks the reason, agree.",),
)
PROSE_QUOTED = phrase(
    "en.prose.quoted",
    r"^[\"“](?P<line>[^\"”]+)[\"”]$",
    matches=('"It snapped in half"', "“It broke”"),
    misses=('"It snapped" in half', "It broke"),
)
PROSE_COPULA = phrase(
    "en.prose.copula",
    r"^(?:it is|it's|it was|they are|i am|i'm|my \w+ is)\s+",
    re.I,
    matches=("it is damaged", "My card is lost"),
    misses=("damaged, it is", "its colour"),
)
PROSE_AGREE = phrase(
    "en.prose.agree",
    r"^(?:Confirm|Agree|Accept|Say yes)\b",
    re.I,
    matches=("Confirm the replacement.", "say yes when asked"),
    misses=("Do not confirm.", "Agreeable as you are."),
)
PROSE_DECLINE = phrase(
    "en.prose.decline",
    r"^(?:Decline|Refuse|Reject|Say no (?:to|when) (?:the )?confirm)",
    re.I,
    matches=("Decline the replacement.", "Say no to the confirmation."),
    misses=("Say no to the upsell.", "Do not decline."),
)
PROSE_NOTHING_ELSE = phrase(
    "en.prose.nothing_else",
    r"\b(?:do not|don't|never) (?:bring up|mention|ask (?:for|about)) anything else\b|"
    r"\bnothing else\b",
    re.I,
    matches=("Do not bring up anything else.", "You want nothing else."),
    misses=("Ask about anything you like.", "Bring up anything else you need."),
)
