"""Words of a Mantle guard clause as the justification check reads it ("if they answer",
"once the customer confirms"): dialogue that says nothing a case must fix, and the verbs of
what the agent is told to share, which a criterion restates."""

from __future__ import annotations

from .. import words

#: Words of a guard clause that say nothing the case must fix ("if they answer").
GUARD_DIALOG = words(
    "en.guard_clause_words.guard_dialog",
    frozenset({
        "agree", "agreed", "agrees", "already", "answer", "answered", "answers", "ask", "asked",
        "asks", "available", "blank", "caller", "choose", "chooses", "chose", "chosen",
        "collected", "completed", "completes", "confirm", "confirmed", "confirms", "customer",
        "did", "does", "done", "empty", "ended", "ends", "false", "finished", "finishes", "give",
        "given", "gives", "had", "has", "have", "known", "mean", "means", "meant", "missing",
        "needed", "none", "not", "person", "pick", "picked", "picks", "provide", "provided",
        "provides", "ready", "replies", "reply", "respond", "responds", "return", "returned",
        "returns", "said", "say", "says", "select", "selected", "selects", "share", "shares",
        "succeeded", "succeeds", "success", "successful", "successfully", "tell", "tells", "that",
        "the", "their", "them", "then", "there", "they", "this", "too", "true", "user", "valid",
        "what", "which", "with", "worked", "works", "yes",
    }),
    members=("answers", "successfully"),
    non_members=("refund", "card"),
)  # fmt: skip

#: What the agent is told to share, say or give: a criterion restates it.
SPEECH_VERBS = words(
    "en.guard_clause_words.speech_verbs",
    ("share", "shares", "say", "says", "tell", "tells", "give", "gives"),
    members=("shares", "gives"),
    non_members=("answer", "ask"),
)
