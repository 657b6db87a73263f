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

from ..lexicon.en import simulation_context as en
from ._context import ContextFact, CueLine, FactContext


def _value(said: str) -> str:
    """`it is damaged` → `damaged`: what the user says, without the lead-in."""
    return en.PROSE_COPULA.sub("", said.strip()).strip()


def prose_fact_context(context: str) -> FactContext | None:
    """The facts a free-prose persona gives (see module doc); None without a request."""
    out = FactContext()
    for sentence in en.SENTENCE_BREAK.split(" ".join(context.split())):
        _read(out, sentence.strip())
    return out if out.intent else None


def _read(out: FactContext, sentence: str) -> None:
    persona = en.PROSE_PERSONA.match(sentence)
    if persona and not out.persona and not sentence.lower().startswith("you are being"):
        out.persona = persona["who"].strip()
        return
    for pattern in (en.PROSE_ASK, en.PROSE_WANT):
        match = pattern.match(sentence)
        if match and not out.intent:
            verb = match["verb"].lower()
            rest = match["rest"].strip()
            out.intent = f"want to {rest}" if verb == "to" else f"{verb} {rest}"
            if verb == "for":
                out.intent = f"want {rest}"
            return
    cue = en.PROSE_CUE.match(sentence)
    if cue:
        quoted = en.PROSE_QUOTED.match(cue["value"].strip())
        if quoted:
            out.cues.append(CueLine(cue["cue"].strip(), quoted["line"].strip()))
        else:
            out.facts.append(ContextFact(cue["cue"].strip(), _value(cue["value"])))
        return
    if en.PROSE_DECLINE.match(sentence):
        out.confirm = "decline"
    elif en.PROSE_AGREE.match(sentence):
        out.confirm = "agree"
    elif en.PROSE_NOTHING_ELSE.search(sentence):
        out.closes_on_else = True
    else:
        stop = en.STOP.match(sentence)
        if stop:
            out.until = stop["until"].strip()


__all__ = ["prose_fact_context"]
