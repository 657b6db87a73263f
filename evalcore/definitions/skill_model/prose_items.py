"""One sentence of a skill's prose classified as the step a model takes (lookup, identity,
block, ask_field, question, tool, delegate): the planner's walk and the reference agent both
classify with `classify`, so what a drafted case expects and what the reference agent does
come from one reading."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...lexicon.en.skill_procedure import ASKS_FOR_THE, DETAIL_SEPARATOR
from ...lexicon.en.skill_procedure import NEGATED_CALL as _NEGATED
from ...lexicon.notation.mantle_blocks import FENCE_ID as _FENCE
from . import prose_patterns as pp
from ._text import sentences

if TYPE_CHECKING:
    from .. import Skill
    from ._types import SkillModel


@dataclass(frozen=True)
class ProseItem:
    kind: str
    """lookup | identity | block | ask_field | question | tool | record | delegate"""
    condition: str | None
    """The `if:` condition of the paragraph, None when unconditional."""
    sentence: str
    name: str | None = None
    """Tool, block, skill or qualified memory name the item is about."""
    key: str | None = None
    """lookup: the memory key the tool fills; identity: the `unless` key."""
    details: tuple[str, ...] = field(default_factory=tuple)
    """identity: what the customer is asked for; question: the question text."""
    when: str | None = None
    """tool: the prose's own trigger as a condition ("When details_verified is true"); the
    call waits for it (and for the tool's `requires`) instead of being skipped."""
    line: int = 0
    """The sentence's line in the skill file (0 when the reader does not track it)."""
    cue: str | None = None
    """tool: what the user says for the prose to take this call (`cues.py`); the call runs
    only once they said it, and the skill stops after the last item waiting for it.
    record: the cue of a call in its sentence, which the record waits for too."""
    topic: bool = False
    """The cue is the request the item's paragraph is about (`cues.topic_cue`): a user who
    says it asks for that request only, so the prose's other plain calls wait."""


def _names_a_field(details: re.Match[str], skill: Skill) -> bool:
    """ "Ask for the <x>" where <x> is one of the skill's memory fields by its words: the
    field is asked and kept, not a detail passed only to the tool (a PIN)."""
    if not ASKS_FOR_THE.match(details.group(0)):
        return False
    said = " ".join(re.findall(r"[a-z0-9]+", details["details"].lower()))
    return any(f.name.replace("_", " ") in said for f in skill.memory.values())


def _detail_parts(details: str) -> tuple[str, ...]:
    """The things one ask names, split at commas, "and" and "or"."""
    parts = DETAIL_SEPARATOR.split(details)
    return tuple(p.strip() for p in parts if p.strip())


def _asked_before(
    sentence: str, line: int, skill: Skill, model: SkillModel | None
) -> tuple[str, ...]:
    """What the sentence just before a plain call asks the user for, where that is what the
    call takes: "Ask for the booking reference and their last name, in one message. Then
    call @tool.find_booking." A model passes the values the user gave as the call's
    arguments, so the two sentences are one identity step. Only a local tool's call (an
    outside service is not fed from here), one the sentence makes unconditionally, after a
    sentence that calls, enters and keeps nothing itself and asks for at least one thing
    the tool takes by its parameter's name. () where any of that does not hold."""
    tools = pp.TOOL.findall(sentence)
    use = model.tool(tools[-1]) if model is not None and tools else None
    if use is None or use.scope == "mcp" or not use.parameters:
        return ()
    calls = [c for c in use.calls if c.kind == "prose" and c.sentence == sentence]
    if not calls or any(c.optional or c.cue or c.when for c in calls):
        return ()
    read = sentences(skill.body)
    at = next((k for k, s in enumerate(read) if s.text == sentence and line in (0, s.line)), None)
    if not at:  # the first sentence (0), or not found (None)
        return ()
    before, this = read[at - 1], read[at]
    if before.paragraph != this.paragraph or "@" in before.text:
        return ()
    plain = re.sub(r"\s*\([^()]*\)", "", before.text)  # "(six characters, on the pass)"
    details = pp.ASK_DETAILS.search(plain)
    if details is None or _names_a_field(details, skill):
        return ()
    if any(before.text in (f.sentences or [f.question]) for f in model.fields if model):
        return ()  # a field the model reads as asked there: asked as one
    # "the passenger's last name": the thing asked, not whose it is
    found = tuple(re.sub(r"^(?:\w+\s+)?\w+'s\s+", "", d) for d in _detail_parts(details["details"]))
    words = [set(re.findall(r"[a-z0-9]+", d.lower())) for d in found]
    taken = [set(p.lower().split("_")) for p in use.parameters]
    return found if any(t <= w for t in taken for w in words) else ()


def _lookup_key(found: re.Match[str], skill: Skill) -> str:
    """The memory slot a lookup sentence tests: `@memory.<key>` as written; a bare name
    is the skill's own field when it declares one and the sentence names no other scope,
    else the project's ("If username is missing in project memory"), as Rasa resolves a
    bare name."""
    key, scope = found["key"], (found["scope"] or "").lower()
    if found["token"] or "." in key:
        return key
    if scope != "project" and key in skill.memory:
        return f"{skill.id}.{key}"
    return f"project.{key}"


def classify(
    sentence: str,
    condition: str | None,
    skill: Skill,
    model: SkillModel | None = None,
    line: int = 0,
) -> list[ProseItem]:
    """The items of one sentence, by the first rule that fits (see the module docstring of
    `agentflows.planning._mantle_prose` for the rules). With the skill model, tool calls are
    its prose call sites and fields it reads as asked in prose are `ask_field` items;
    without one, every tool named and not negated is a call."""
    lookup = pp.LOOKUP.search(sentence)
    if lookup:
        key = _lookup_key(lookup, skill)
        return [ProseItem("lookup", condition, sentence, lookup["tool"], key, line=line)]
    tools = pp.TOOL.findall(sentence)
    details = pp.ASK_DETAILS.search(sentence)
    if details and _names_a_field(details, skill):
        details = None  # "ask for the parcel code": a field the skill keeps, asked as one
    if tools and details:
        unless = pp.UNLESS.search(sentence)
        key = unless["key"] if unless else None
        found = _detail_parts(details["details"])
        return [ProseItem("identity", condition, sentence, tools[-1], key, found, line=line)]
    asked_first = _asked_before(sentence, line, skill, model) if tools and not details else ()
    if asked_first:
        return [ProseItem("identity", condition, sentence, tools[-1], None, asked_first, line=line)]
    items: list[ProseItem] = []
    for block in pp.RUN_BLOCK.findall(sentence):
        items.append(ProseItem("block", condition, sentence, block, line=line))
    asked = pp.ASK_FIELD.search(sentence)
    collected = {s.target for b in skill.blocks.values() for s in b.steps if s.kind == "collect"}
    prose_fields = [
        f.qualified
        for f in (model.fields if model else [])
        if f.asked_by == "prose" and sentence in (f.sentences or [f.question])
    ]
    if asked and asked["ns"] == skill.id and asked["key"] not in collected:
        name = f"{asked['ns']}.{asked['key']}"
        items.append(ProseItem("ask_field", condition, sentence, name, line=line))
    elif prose_fields:
        items += [ProseItem("ask_field", condition, sentence, q, line=line) for q in prose_fields]
    elif (
        (question := pp.QUESTION.search(sentence)) is not None
        and not pp.USER_ASKS.search(sentence[: question.start()])
        # "never ask whether they want to keep going": a prohibition, not a question
        and not _NEGATED.search(sentence[: question.start()])
    ):
        said = question["q"].strip().rstrip(",")
        items.append(ProseItem("question", condition, sentence, details=(said,), line=line))
    if model is not None:
        for use in model.tools:
            for call in use.calls:
                if call.kind == "prose" and call.sentence == sentence and not call.optional:
                    tool = ProseItem(
                        "tool", condition, sentence, use.name, when=call.when, line=line
                    )
                elif call.kind == "prose" and call.sentence == sentence and call.cue:
                    tool = ProseItem(
                        "tool",
                        condition,
                        sentence,
                        use.name,
                        line=line,
                        cue=call.cue,
                        topic=call.topic,
                    )
                else:
                    continue
                items.append(tool)
                break
    else:
        for match in pp.TOOL.finditer(sentence):
            if not _NEGATED.search(sentence[: match.start()]):
                items.append(ProseItem("tool", condition, sentence, match.group(1), line=line))
    # a record beside a call that waits for the user's cue waits for it too ("Check
    # @tool.x first and set board_access from it" in a paragraph about board packs)
    waiting = next((i for i in items if i.kind == "tool" and i.cue), None)
    waits, topic = (waiting.cue, waiting.topic) if waiting is not None else (None, False)
    for record in model.records if model is not None else []:
        if record.sentence == sentence:  # after the sentence's calls: "…, then set paged"
            items.append(
                ProseItem(
                    "record",
                    condition,
                    sentence,
                    record.qualified,
                    line=line,
                    cue=waits,
                    topic=topic,
                )
            )
    for target in pp.SKILL.findall(sentence):
        items.append(ProseItem("delegate", condition, sentence, target, line=line))
    return items


def hands_over(item: ProseItem) -> bool:
    """True for a `delegate` item the agent follows where it stands: an imperative
    hand-over ("Then invoke `@skill.run_diagnostics` so a real speed test runs"), not an
    offer or a hand-over the sentence makes conditional ("If yes, invoke …"). The
    paragraph's own `if:` is the item's condition, checked where items are played."""
    if item.kind != "delegate" or item.when is not None or not item.name:
        return False
    token = item.sentence.find(f"@skill.{item.name}")
    return bool(
        pp.HAND_OVER.search(item.sentence)
        and not pp.HAND_OVER_UNLESS.search(item.sentence)
        and not pp.HAND_OVER_MAY.search(item.sentence[: max(token, 0)])
    )


def with_entry_block(skill: Skill, items: list[ProseItem]) -> list[ProseItem]:
    """The plan with the block a skill runs when its prose enters none: its first block no
    other block calls, where it stands in the body (prose above it first, the prose after it
    once it ends: "When it ends, control returns to the prose"). `items` carry body lines
    (1 = the body's first line); a plan without lines gets the block at its end."""
    if any(i.kind == "block" and i.name in skill.blocks for i in items):
        return items
    called = {str(s.target) for b in skill.blocks.values() for s in b.steps if s.kind == "call"}
    first = next((b for b in skill.blocks if b not in called), None)
    if first is None:
        return items
    line = next(
        (
            n
            for n, text in enumerate(skill.body.splitlines(), 1)
            if (m := _FENCE.match(text)) and m["id"] == first
        ),
        None,
    )
    entry = ProseItem("block", None, "", first, line=line or 0)
    at = len(items)
    if line is not None and items and all(i.line for i in items):
        at = next((k for k, i in enumerate(items) if i.line > line), len(items))
    return [*items[:at], entry, *items[at:]]


__all__ = ["ProseItem", "classify", "with_entry_block"]
