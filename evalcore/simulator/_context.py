"""The fact-sheet simulation context: who the user is, what they want, what they know, when
they stop. One grammar, rendered by drafters and parsed by the offline simulator (the exact
rules are in docs/simulation-contexts.md):

    You are Dana Okafor, a fleet manager at a courier firm, brisk and precise.
    You want to file a claim for hail damage to one of your vans.
    What you know (share each only when the agent asks):
    - policy number: PL-20931
    - when it happened: 03/14/2026
    When the agent asks what was damaged, say instead: "The basement."
    When the agent next speaks after you say "The basement.", say: "Sorry, I meant the roof."
    When the agent reads the details back and asks you to confirm, agree.
    When the agent offers to go back to your request to file a claim, say yes; if it asks
    whether there is anything else before that, or stops without a word about it, say no
    and ask to go back to it.
    When the agent asks whether there is anything else, say no.
    Stop once the agent tells you the claim is filed.

Lines are read one by one; a line that matches no rule is description for a model-backed
simulator only. Quoted lines (`Open with`, `When the agent asks …, say instead`, `After the
agent's first answer, say`, `When the agent next speaks after you say …`, `Before you finish,
say`) are played word for word, once each.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..lexicon.en import simulation_context as en

FACTS_HEADER = "What you know (share each only when the agent asks):"
#: How the opening line starts; the line goes on with the quoted words.
OPENING_LEAD = "Open with: "
#: The start of the line that names the one question a refusal declines (`gate_question`).
DECLINE_ONLY = "Decline only the last question before the agent acts"
#: The words of a note line that says a tool's result is up to chance (`FactContext.notes`).
CHANCE_NOTE = "is up to chance"


@dataclass(frozen=True)
class ContextFact:
    label: str
    value: str


@dataclass(frozen=True)
class CueLine:
    """A line said word for word when the agent asks about `cue` (once)."""

    cue: str
    line: str
    first: bool = False
    """Written `… the first time` (every cue line plays once either way)."""
    then_answer: bool = False
    """Written `…", then answer it`: the line comes before the answer, not instead of it
    (an unrelated question), so the user gives the answer next even if the agent does not
    ask again."""


@dataclass(frozen=True)
class FollowUp:
    """A line said word for word on the agent's next turn after the user said `after`,
    whatever the agent says then: a correction that comes once the wrong answer has been
    taken (stored, and the agent gone on), not in the same breath."""

    after: str
    line: str


@dataclass
class FactContext:
    """A parsed fact-sheet context (see module doc)."""

    persona: str = ""
    """`Dana Okafor, a fleet manager at a courier firm, brisk and precise`."""
    intent: str = ""
    """`want to file a claim for hail damage` (the sentence after `You`)."""
    facts: list[ContextFact] = field(default_factory=list)
    opening: str | None = None
    cues: list[CueLine] = field(default_factory=list)
    follow_ups: list[FollowUp] = field(default_factory=list)
    after_first: str | None = None
    before_end: str | None = None
    confirm: str = "agree"
    """agree | decline: the answer to the confirmation before the action (the gate's where
    `gate` names one, else the read-back's)."""
    read_back: bool = True
    """Whether the agent reads details back for a yes: the read-back line is written only
    then (a skill with none gets no line about one)."""
    gate: str | None = None
    """The gated action in words (`connect you to a human specialist now`): its own line
    (`When the agent asks whether to …, decline.`); a read-back before it is agreed to."""
    agreed: list[str] = field(default_factory=list)
    """Further gated actions the case meets and the user takes (a detour's own `submit the
    samples` beside the task's gate): each its own line, so the user is never left without
    an answer to a confirmation the conversation reaches."""
    closes_on_else: bool = False
    resume: str | None = None
    """The task in words (`your request to file a claim`) the user goes back to when the
    agent offers to after a digression: a case that asserts the return says it is taken."""
    until: str | None = None
    notes: list[str] = field(default_factory=list)
    """Plain lines for a reader and a model-backed simulator (no rule reads them): that a
    tool's result is up to chance, so the facts cover every branch."""
    gate_question: str | None = None
    """Where the user declines a gate: the runtime's own confirmation question, its slots
    as `…` (`Move '…' to …?`). A model-backed simulator told only "when the agent asks
    whether to move the event, decline" may decline the agent's own proposal or read-back
    before it, and the gated call, its question and its denial response never happen: the
    line this renders has it decline that question alone and take what comes before."""
    gate_tool: str | None = None
    """Where the declined question's wording turns on a value the case leaves open (a
    response variant by a condition): the gated tool, named instead of a quote
    (`the confirmation question before submit_work_order runs`)."""

    def render(self) -> str:
        """The context text (the inverse of `parse_fact_context`)."""
        lines = [f"You are {self.persona}.", f"You {self.intent}."]
        if self.opening:
            lines.append(f'{OPENING_LEAD}"{_clean(self.opening)}"')
        lines += [_clean(n) for n in self.notes]
        if self.facts:
            lines.append(FACTS_HEADER)
            lines += [f"- {f.label}: {f.value}" for f in self.facts]
        if self.after_first:
            lines.append(f'After the agent\'s first answer, say: "{_clean(self.after_first)}"')
        for cue in self.cues:
            when = f"{cue.cue} the first time" if cue.first else cue.cue
            then = ", then answer it." if cue.then_answer else ""
            lines.append(f'When the agent asks {when}, say instead: "{_clean(cue.line)}"{then}')
        for follow in self.follow_ups:
            lines.append(
                f'When the agent next speaks after you say "{_clean(follow.after)}", '
                f'say: "{_clean(follow.line)}"'
            )
        if self.before_end:
            lines.append(f'Before you finish, say: "{_clean(self.before_end)}"')
        if self.read_back:
            answer = "agree" if self.gate else self.confirm
            lines.append(
                f"When the agent reads the details back and asks you to confirm, {answer}."
            )
        if self.gate:
            lines.append(f"When the agent asks whether to {_clean(self.gate)}, {self.confirm}.")
        if self.gate and self.confirm == "decline" and (self.gate_question or self.gate_tool):
            which = (
                f'worded like: "{_clean(self.gate_question)}"'
                if self.gate_question
                else f"the confirmation question before {_clean(self.gate_tool or '')} runs."
            )
            lines.append(
                f"{DECLINE_ONLY}, {which} Before it, say yes to what the agent proposes or "
                "reads back, even when it asks in its own words whether to go ahead."
            )
        lines += [f"When the agent asks whether to {_clean(act)}, agree." for act in self.agreed]
        if self.resume:
            task = _clean(self.resume)
            lines.append(
                f"When the agent offers to go back to {task}, say yes; if it asks whether "
                "there is anything else before that, or stops without a word about it, say "
                "no and ask to go back to it."
            )
        if self.closes_on_else:
            lines.append("When the agent asks whether there is anything else, say no.")
        if self.until:
            lines.append(f"Stop once {self.until.rstrip('.')}.")
        return "\n".join(lines) + "\n"


def _clean(line: str) -> str:
    return " ".join(line.replace('"', "'").split())


def is_fact_context(context: str) -> bool:
    """True for a context in this grammar (a persona line and an intent or facts)."""
    text = context.lstrip()
    return text.startswith("You are ") and (
        FACTS_HEADER in context or en.INTENT.search(context) is not None
    )


def parse_fact_context(context: str) -> FactContext:
    """Read a fact-sheet context; unknown lines are ignored (they are for a model)."""
    out = FactContext(read_back=False)
    in_facts = False
    for raw in context.splitlines():
        line = raw.strip()
        if not line:
            in_facts = False
            continue
        if line.startswith(FACTS_HEADER[:13]):
            in_facts = True
            continue
        fact = en.FACT.match(line) if in_facts else None
        if fact:
            out.facts.append(ContextFact(fact["label"].strip(), fact["value"].strip()))
            continue
        in_facts = False
        _read_line(out, line)
    return out


def _read_line(out: FactContext, line: str) -> None:
    persona = en.PERSONA.match(line)
    if persona and not out.persona:
        out.persona = persona["who"].strip()
        line = persona["rest"]
    intent = en.INTENT.search(line)
    if intent and not out.intent:
        out.intent = f"{intent['verb']}{intent['rest']}".strip()
        return
    for pattern, attr in ((en.OPEN_WITH, "opening"), (en.AFTER_FIRST, "after_first")):
        match = pattern.match(line)
        if match:
            setattr(out, attr, match["line"].strip())
            return
    match = en.BEFORE_END.match(line)
    if match:
        out.before_end = match["line"].strip()
        return
    match = en.FOLLOW_UP.match(line)
    if match:
        out.follow_ups.append(FollowUp(match["after"].strip(), match["line"].strip()))
        return
    match = en.CUE.match(line)
    if match:
        first, then = bool(match["first"]), bool(match["then"])
        out.cues.append(CueLine(match["cue"].strip(), match["line"].strip(), first, then))
        return
    match = en.GATE.match(line)
    if match and out.gate is not None and match["answer"].lower() == "agree":
        out.agreed.append(match["act"].strip())  # a further gate's line (see `agreed`)
        return
    if match:
        out.gate = match["act"].strip()
        out.confirm = match["answer"].lower()
        return
    match = en.DECLINE_ONLY.match(line)
    if match:
        if match["line"]:
            out.gate_question = match["line"].strip()
        else:
            out.gate_tool = match["tool"]
        return
    match = en.CONFIRM.match(line)
    if match:
        out.read_back = out.read_back or bool(match["back"])
        if out.gate is None:  # a gate's own line says the answer before the action
            out.confirm = match["answer"].lower()
        return
    if en.ANYTHING_ELSE_NO.match(line):
        out.closes_on_else = True
        return
    match = en.RESUME_YES.match(line)
    if match:
        out.resume = match["task"].strip()
        return
    match = en.STOP.match(line)
    if match:
        out.until = match["until"].strip()
        return
    if CHANCE_NOTE in line:  # kept for a model and a reader when a context is rewritten
        out.notes.append(line)


__all__ = [
    "CHANCE_NOTE",
    "DECLINE_ONLY",
    "FACTS_HEADER",
    "ContextFact",
    "CueLine",
    "FactContext",
    "FollowUp",
    "is_fact_context",
    "parse_fact_context",
]
