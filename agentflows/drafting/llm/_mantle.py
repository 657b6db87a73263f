"""LLM drafting for Mantle on the offline plan: the model writes words, the plan keeps the ids.

The offline drafter already knows the path (the agent's questions in order and the answers),
the facts of the case and the assertions that decide it; a model is good at the words around
them and bad at ids. So the prompt carries that plan, compactly (small local models have 8k
contexts), and asks for `MantleWords` only: a name, the simulated user's context and the
criteria. `merge_words` puts the model's words into the planned document:

- assertions, type and `setup` always come from the plan (never from the model);
- a blank or missing name / context keeps the planned one;
- the model's context is kept unless it loses a value the plan fixes (`fixed_values`: ids,
  codes, enum values, asserted values, quoted injection lines), compared with the plan after
  normalising case and punctuation; a repair compares with the plan too, never with the
  model's previous draft, so the model can fix its own slip;
- criteria are kept when they are plain sentences of a sensible length; if none is left,
  the planned criteria stay (review before writing drops what its rules flag and keeps a
  model's compound criterion whole, with its warning).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from evalcore.lexicon.en.written_contexts import PERSONA as _PERSONA
from evalcore.simulator import FactContext, is_fact_context, parse_fact_context

from ...planning import mantle_subject
from .._engine import DraftContext
from ._edits import PlanEdit
from ._mantle_edits import apply_edit

#: Characters per token of the documented estimate (no tokenizer offline: BPE tokenizers
#: give about four characters per token on English prose and compact JSON).
CHARS_PER_TOKEN = 4
log = logging.getLogger("casegen.llm")
_MAX_CRITERION = 240
_MAX_NAME = 120


class MantleWords(BaseModel):
    """The words of one Mantle scenario; every id and assertion comes from the plan."""

    model_config = ConfigDict(extra="ignore")

    name: str = Field(default="", description="A short human title of the case.")
    simulation_context: str = Field(
        description="Second person, to the simulated user, in the planned fact-sheet shape: "
        "'You are <who, manner>.', 'You want <what>.', the facts list as planned "
        "('- label: value'), the quoted lines and the 'Stop once' line."
    )
    criteria: list[str] = Field(
        default_factory=list,
        description="Two to four single-issue, bot-side deal-breakers a judge reads the "
        "conversation for; none may restate an assertion.",
    )

    edits: list[PlanEdit] = Field(
        default_factory=list,
        description="Corrections to the planned facts, assertions or criteria, each quoting "
        "its line of <File>; none if the plan is right.",
    )

    @field_validator("criteria", mode="before")
    @classmethod
    def _texts_only(cls, value: Any) -> Any:
        """One odd item (a number, an object) is dropped, not a reason to redraft the case."""
        return [v for v in value if isinstance(v, str)] if isinstance(value, list) else value


WORDS = MantleWords


def planned_case(ctx: DraftContext) -> tuple[dict[str, Any], Any]:
    """The offline draft of the behaviour (the plan's document) and its script."""
    # start-up: httpx, rich, pygments and 249 casegen modules
    from ..offline import draft_mantle_scripted

    return draft_mantle_scripted(ctx)


def definition_file(project: Any, source: str) -> str:
    """The project-relative file the plan prompt's definition is (a plan edit quotes it)."""
    skill = project.mantle.skills[source]
    return f"{skill.path}/skill.md".removeprefix("./")


def prompt_values(ctx: DraftContext, planned: dict[str, Any], script: Any) -> dict[str, str]:
    """The compact prompt's values: skill, rules, behaviour, path, facts, assertions."""
    # start-up: httpx, rich, pygments and 185 casegen modules
    from ..offline import pick, prose_rules

    assert ctx.project.mantle is not None
    defs = ctx.project.mantle
    skill = defs.skills[ctx.behavior.source]
    scenario = planned["scenario"]
    goals = scenario.get("goals") or {}
    rules = pick(prose_rules(defs, skill, script.walk.memory), script.kind, limit=6)
    agent = defs.agent.get("name") or "the agent"
    behavior = {
        "id": ctx.behavior.id,
        "type": ctx.behavior.type,
        "title": ctx.behavior.title,
        "description": ctx.behavior.description,
    }
    named = skill.name or mantle_subject(skill)
    return {
        "skill": f"{agent}, skill '{named}': {_first(skill.description)}",
        "rules": "\n".join(f"- {r}" for r in rules) or "none",
        "behavior": _json(behavior),
        "path": _path(script.walk),
        "facts": _facts(scenario["simulation_context"]),
        "assertions": _json(goals.get("assertions") or []),
        "criteria": "\n".join(f"- {c}" for c in goals.get("criteria") or []) or "none",
        "direction": ctx.direction.strip() if ctx.direction and ctx.direction.strip() else "none",
        "file": definition_file(ctx.project, ctx.behavior.source),
        "siblings": "; ".join(ctx.siblings[:8]) if ctx.siblings else "none",
    }


def repair_values(
    ctx: DraftContext, planned: dict[str, Any], data: dict[str, Any], findings: str
) -> dict[str, str]:
    """The words-repair prompt's values: the current words and what is wrong with them."""
    values = prompt_values(ctx, planned, planned_case(ctx)[1])
    scenario = data.get("scenario") if isinstance(data.get("scenario"), dict) else {}
    words = {
        "name": scenario.get("name", ""),
        "simulation_context": scenario.get("simulation_context", ""),
        "criteria": (scenario.get("goals") or {}).get("criteria") or [],
    }
    return {
        "skill": values["skill"],
        "behavior": values["behavior"],
        "facts": values["facts"],
        "words": _json(words),
        "findings": findings,
    }


def merge_words(
    planned: dict[str, Any],
    words: MantleWords,
    *,
    plan: dict[str, Any] | None = None,
    ctx: DraftContext | None = None,
) -> dict[str, Any]:
    """The planned document with the model's words where they are usable.

    `plan` is the offline plan when `planned` is not it (a repair: `planned` holds the
    model's previous words); the model's context is checked against the plan's fixed
    values, and one that loses any falls back to the plan's context, not the previous
    draft's. `ctx` names the skill whose memory's enum values are fixed too."""
    merged = json.loads(json.dumps(planned))
    scenario = merged["scenario"]
    source = (plan or planned)["scenario"]
    name = " ".join(words.name.split())
    if name and len(name) <= _MAX_NAME:
        scenario["name"] = name
    context = words.simulation_context.strip()
    if context:
        scenario["simulation_context"] = merge_context(
            source["simulation_context"],
            context,
            asserted=_strings((source.get("goals") or {}).get("assertions")),
            enums=enum_values(ctx) if ctx is not None else (),
            opening_fixed=source.get("type") == "adversarial",
        )
    criteria = [c for c in (_criterion(text) for text in words.criteria) if c]
    if criteria:
        scenario.setdefault("goals", {})["criteria"] = list(dict.fromkeys(criteria))
    return merged


def merge_context(
    planned: str,
    written: str,
    *,
    asserted: Iterable[str] = (),
    enums: Iterable[str] = (),
    opening_fixed: bool = False,
) -> str:
    """The model's context when it keeps every value the plan fixes (`fixed_values`), else
    the planned one with the model's persona: the assertions and the simulator depend on
    those values, so a context may reword anything but them."""
    if not is_fact_context(planned):
        return written + "\n"
    plan = parse_fact_context(planned)
    if is_fact_context(written):
        lost = lost_values(
            plan, written, asserted=asserted, enums=enums, opening_fixed=opening_fixed
        )
        if not lost:
            return written + "\n"
        log.info("the model's context loses fixed values %s: the planned one is kept", lost)
    persona = _PERSONA.match(written)
    if persona:
        plan.persona = persona.group(1).strip()
    return plan.render()


def fixed_values(
    plan: FactContext,
    *,
    asserted: Iterable[str] = (),
    enums: Iterable[str] = (),
    opening_fixed: bool = False,
) -> list[str]:
    """What a written context must keep of the plan's: each fact value that is an id, a
    code, a number or one word, one of the skill's enum values (`enums`) or one an
    assertion checks, and every
    quoted line the user injects (a cue's, a follow-up's, the second turn's, the last one's;
    the opening only where it is the injection: `opening_fixed`, an adversarial case, and
    no other line to carry it). A described fact (what
    happened, in a sentence) and a request line are the model's to reword."""
    asserted = [v for v in asserted if len(_normal(v)) >= 2]
    checked = {_normal(v) for v in [*asserted, *enums]} - {""}
    values = [f.value for f in plan.facts if _fixed_shape(f.value) or _normal(f.value) in checked]
    lines = [c.line for c in plan.cues] + [f.line for f in plan.follow_ups]
    lines += [line for line in (plan.after_first, plan.before_end) if line]
    if opening_fixed and plan.opening and not lines:
        lines.append(plan.opening)  # no other line carries the attack: the opening does
    # an asserted value the plan's user says in a line of its own (the opening) is fixed too
    said = f" {_normal(plan.render())} "
    values += [v for v in asserted if _normal(v) and f" {_normal(v)} " in said]
    return list(dict.fromkeys(v for v in values + lines if _normal(v)))


def lost_values(
    plan: FactContext,
    written: str,
    *,
    asserted: Iterable[str] = (),
    enums: Iterable[str] = (),
    opening_fixed: bool = False,
) -> list[str]:
    """The plan's fixed values `written` does not hold, compared after normalising case,
    punctuation and spacing (`"PL-20931"` is kept by `pl 20931`, a quoted line by the same
    words without its comma)."""
    flat = f" {_normal(written)} "
    fixed = fixed_values(plan, asserted=asserted, enums=enums, opening_fixed=opening_fixed)
    return [v for v in fixed if f" {_normal(v)} " not in flat]


def enum_values(ctx: DraftContext) -> list[str]:
    """The enum values of the memory the case's skill reads and writes (its own and the
    project's): a fact holding one is a value the agent must record as it stands."""
    defs = ctx.project.mantle
    skill = defs.skills.get(ctx.behavior.source) if defs is not None else None
    if defs is None or skill is None:
        return []
    fields = [*skill.memory.values(), *defs.memory.values()]
    return [str(v) for field in fields for v in (field.enum_values or [])]


def _fixed_shape(value: str) -> bool:
    """An id, code, amount or date (it holds a digit) or a single word (an enum value)."""
    text = value.strip()
    return any(c.isdigit() for c in text) or len(text.split()) == 1


def _normal(text: Any) -> str:
    return " ".join(_NOT_WORD.sub(" ", str(text).casefold()).split())


_NOT_WORD = re.compile(r"[\W_]+")


def _strings(value: Any) -> list[str]:
    """Every string and number inside `value` (the values an assertion checks)."""
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    if isinstance(value, bool) or value is None:
        return []
    return [str(value)] if isinstance(value, str | int | float) else []


def _path(walk: Any) -> str:
    """The agent's questions in order, with the planned answer (field and value)."""
    lines = []
    for number, ask in enumerate(walk.asks, start=1):
        asked = " ".join((ask.prompt or ask.field or ask.kind).split())[:160]
        answer = "yes" if ask.confirm else "no" if ask.confirm is False else ask.value
        lines.append(
            f"{number}. agent asks: {asked} -> user gives {ask.field or ask.kind}"
            + (f" = {answer}" if answer not in (None, "") else "")
        )
    return "\n".join(lines) or "no questions: the user states the request and the agent acts"


def keep_planned(planned: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """A model-repaired document with the plan's assertions, type and setup put back."""
    out = json.loads(json.dumps(data))
    scenario = out.setdefault("scenario", {})
    source = planned["scenario"]
    scenario["type"] = source["type"]
    for key in ("setup",):
        if key in source:
            scenario[key] = source[key]
        else:
            scenario.pop(key, None)
    assertions = (source.get("goals") or {}).get("assertions")
    if assertions:
        scenario.setdefault("goals", {})["assertions"] = assertions
    return out


def estimate_tokens(text: str) -> int:
    """Input tokens of `text` by the documented estimate (`CHARS_PER_TOKEN`)."""
    return -(-len(text) // CHARS_PER_TOKEN)


def _criterion(text: Any) -> str | None:
    if not isinstance(text, str):
        return None
    flat = " ".join(text.split()).strip(" -•")
    if len(flat.split()) < 4 or len(flat) > _MAX_CRITERION:
        return None
    return flat


def _facts(context: str) -> str:
    """The planned context as it stands (persona, intent, facts, lines, stopping point)."""
    return context.strip()


def _first(text: str | None) -> str:
    flat = " ".join((text or "").split())
    match = re.search(r"(?<=[.!?])\s", flat)
    return flat[: match.start()] if match else flat


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str, separators=(",", ":"))


__all__ = [
    "CHARS_PER_TOKEN",
    "WORDS",
    "MantleWords",
    "apply_edit",
    "definition_file",
    "enum_values",
    "estimate_tokens",
    "fixed_values",
    "keep_planned",
    "lost_values",
    "merge_context",
    "merge_words",
    "planned_case",
    "prompt_values",
    "repair_values",
]
