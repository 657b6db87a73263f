"""Facts from a free-prose persona, so the offline simulator can play it.

Hand-written contexts often describe the user in plain instructions instead of the fact
sheet (docs/simulation-contexts.md):

    You are a calm customer whose card has a cracked chip. Ask to replace the card. When
    the agent asks what happened, say it is damaged. Confirm when the order summary is
    read back. Do not bring up anything else.

Each sentence is read by the first rule that fits; a sentence no rule reads is left to a
model-backed simulator, and a context with no request in it gives nothing:

- `You are …` → the persona; `Ask to …` / `Ask for …` / `You want …` → the intent;
- `When the agent asks <what>, say <value>` (unquoted) → a fact labelled `<what>`
  ("say it is damaged" → `damaged`); a quoted line stays the fact sheet's cue line;
- `Confirm …` / `Agree …` → agree to a read-back; `Decline …` / `Refuse …` / `Say no …`
  to the confirmation → decline;
- `Do not bring up anything else` / `… nothing else` → say no to "anything else?";
- `Stop once …` → the stopping point.
"""

from __future__ import annotations

import re

from ._context import ContextFact, CueLine, FactContext

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_PERSONA = re.compile(r"^You are (?P<who>.+?)\.?$")
_ASK = re.compile(r"^(?:Ask|Request) (?P<verb>to|for) (?P<rest>.+?)\.?$", re.I)
_WANT = re.compile(r"^You (?P<verb>want|need|would like|'d like) (?P<rest>.+?)\.?$", re.I)
_CUE = re.compile(
    r"^When the agent asks (?:you )?(?P<cue>.+?),\s*(?:say|answer|tell (?:it|them))\s+"
    r"(?:that\s+)?(?P<value>.+?)\.?$",
    re.I,
)
_QUOTED = re.compile(r"^[\"“](?P<line>[^\"”]+)[\"”]$")
_COPULA = re.compile(r"^(?:it is|it's|it was|they are|i am|i'm|my \w+ is)\s+", re.I)
_AGREE = re.compile(r"^(?:Confirm|Agree|Accept|Say yes)\b", re.I)
_DECLINE = re.compile(r"^(?:Decline|Refuse|Reject|Say no (?:to|when) (?:the )?confirm)", re.I)
_NOTHING_ELSE = re.compile(
    r"\b(?:do not|don't|never) (?:bring up|mention|ask (?:for|about)) anything else\b|"
    r"\bnothing else\b",
    re.I,
)
_STOP = re.compile(r"^Stop (?:once|when|after) (?P<until>.+?)\.?$", re.I)


def _value(said: str) -> str:
    """`it is damaged` → `damaged`: what the user says, without the lead-in."""
    return _COPULA.sub("", said.strip()).strip()


def prose_fact_context(context: str) -> FactContext | None:
    """The facts a free-prose persona gives (see module doc); None without a request."""
    out = FactContext()
    for sentence in _SENTENCE.split(" ".join(context.split())):
        _read(out, sentence.strip())
    return out if out.intent else None


def _read(out: FactContext, sentence: str) -> None:
    persona = _PERSONA.match(sentence)
    if persona and not out.persona and not sentence.lower().startswith("you are being"):
        out.persona = persona["who"].strip()
        return
    for pattern in (_ASK, _WANT):
        match = pattern.match(sentence)
        if match and not out.intent:
            verb = match["verb"].lower()
            rest = match["rest"].strip()
            out.intent = f"want to {rest}" if verb == "to" else f"{verb} {rest}"
            if verb == "for":
                out.intent = f"want {rest}"
            return
    cue = _CUE.match(sentence)
    if cue:
        quoted = _QUOTED.match(cue["value"].strip())
        if quoted:
            out.cues.append(CueLine(cue["cue"].strip(), quoted["line"].strip()))
        else:
            out.facts.append(ContextFact(cue["cue"].strip(), _value(cue["value"])))
        return
    if _DECLINE.match(sentence):
        out.confirm = "decline"
    elif _AGREE.match(sentence):
        out.confirm = "agree"
    elif _NOTHING_ELSE.search(sentence):
        out.closes_on_else = True
    else:
        stop = _STOP.match(sentence)
        if stop:
            out.until = stop["until"].strip()


__all__ = ["prose_fact_context"]
