"""What a skill's prose asks the agent to do, in order, as far as a planner can tell.

The prose is read by an LLM at run time; planning only needs its skeleton: which tool finds
the customer, which details verify them, which block runs, which memory entry the agent asks
for itself, which yes/no questions it asks, and which tools it calls. Each sentence of each
paragraph (ordered blocks and code are skipped; a paragraph after an `if:` line carries that
condition) is classified by the first rule that fits:

- `lookup`: "If @memory.<key> is empty, ... @tool.<t>" (the tool fills the key);
- `identity`: "@tool.<t>" with "ask for their <details>" (details split at commas and
  "and"), optionally "Unless @memory.<key> is already true";
- `block`: "run / start / enter / use @block.<id>";
- `ask_field`: "ask" before "@memory.<skill>.<key>" of the skill's own memory, when no
  block step collects that key;
- `question`: "ask whether/if <something>" (a yes/no question);
- `tool`: any other "@tool.<t>" not negated ("do not", "never" before it);
- `delegate`: "@skill.<id>" (offered or handed over to; never walked on the happy path).
"""

from __future__ import annotations

import re

from evalcore.definitions import Skill, memoized
from evalcore.definitions.skill_model import SkillModel
from evalcore.definitions.skill_model import sentences as model_sentences
from evalcore.definitions.skill_model.prose_items import ProseItem, classify
from evalcore.lexicon.notation.mantle_blocks import FENCE_OPEN

_FENCE_CLOSE = re.compile(r"^\s*:::\s*$")
_CODE = re.compile(r"^\s*(```|~~~)")
_IF = re.compile(r"^\s*if:(?P<cond>.*)$")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z@])")


def paragraphs(body: str) -> list[tuple[str | None, str]]:
    """(condition, text) for every prose paragraph, blocks and code skipped."""
    out: list[tuple[str | None, str]] = []
    current: list[str] = []
    condition: str | None = None
    pending: str | None = None
    skipping: str | None = None

    def flush() -> None:
        nonlocal current, condition
        text = " ".join(line.strip() for line in current).strip()
        if text:
            out.append((condition, text))
        current, condition = [], None

    for line in body.splitlines():
        if skipping == "block":
            if _FENCE_CLOSE.match(line):
                skipping = None
            continue
        if skipping == "code":
            if _CODE.match(line):
                skipping = None
            continue
        if FENCE_OPEN.match(line) or _CODE.match(line):
            flush()
            skipping = "block" if FENCE_OPEN.match(line) else "code"
            continue
        matched = _IF.match(line)
        if matched:
            flush()
            pending = matched["cond"].strip() or None
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            flush()
            continue
        if not current:
            condition, pending = pending, None
        current.append(line)
    flush()
    return out


def prose_items(skill: Skill, model: SkillModel | None = None) -> list[ProseItem]:
    """The classified sentences of a skill's prose, in reading order.

    With the skill's model, tool calls are the model's prose call sites (bare names after a
    calling word too, with their trigger) and fields the model reads as asked in prose are
    `ask_field` items. Read once per (skill, model): every walk of the skill asks."""
    key = ("prose_items", id(model) if model is not None else None)
    return list(memoized(skill, key, lambda: _prose_items(skill, model)))


def _prose_items(skill: Skill, model: SkillModel | None) -> list[ProseItem]:
    items: list[ProseItem] = []
    if model is not None:
        for sentence in model_sentences(skill.body):
            items += classify(sentence.text, sentence.condition, skill, model, sentence.line)
        return items
    for condition, text in paragraphs(skill.body):
        for sentence in _SENTENCE.split(text):
            items += classify(sentence.strip(), condition, skill)
    return items


__all__ = ["ProseItem", "paragraphs", "prose_items"]
