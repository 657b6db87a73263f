"""A chained case: a branch that needs an id only another branch of its skill writes.

"Change where my bag is delivered" asks for the report reference, which no record of the
project holds: "report the bag missing" writes it. A careful author does not invent the
reference; the case plays the branch that writes it first, and then, in the same
conversation, the user asks for the follow-up ("Can you deliver my bag to my hotel
instead? The new delivery address is …"). The script is the first branch's; this module
adds the second request and what every correct agent does for it: the choice recorded, the
follow-up's tools run, each only once the id is in memory (the planner's `CHAINED` fact).
"""

from __future__ import annotations

import random
import zlib
from typing import Any

from evalcore.agents.reference import field_examples
from evalcore.definitions import MantleDefinitions
from evalcore.definitions.conditions import condition_keys
from evalcore.definitions.skill_model import qualify
from evalcore.lexicon.en.user_line_words import REQUEST_QUESTION_OPENERS as _ASKING
from evalcore.simulator import ContextFact
from evalcore.testdata import FieldSpec, typed_value

from ...planning import CHAINED
from ._direction import value_words
from ._mantle_script import Script


def chain_of(facts: dict[str, Any]) -> dict[str, Any] | None:
    """The behaviour's chained branch (see `CHAINED`), else None."""
    chain = facts.get(CHAINED)
    return chain if isinstance(chain, dict) else None


def request_line(defs: MantleDefinitions, chain: dict[str, Any], memory: dict[str, Any]) -> str:
    """The user's second request: the description's own example for the branch, else the
    branch in words, with the new value of each field the follow-up redoes (the address the
    first branch took, now another one), so no correct agent has to guess it."""
    field, value = str(chain["field"]), chain["value"]
    example = next((e for e, v in field_examples(defs, field).items() if v == value), None)
    if example:
        ask = example[0].upper() + example[1:]
        ask += "?" if example.lower().startswith(_ASKING) else "."
    else:
        ask = f"I'd also like to {value_words(str(value))}."
    told = [f"The {words} is {new}." for words, new, _ in redone(defs, chain, memory)]
    return " ".join([ask, *told])


def redone(
    defs: MantleDefinitions, chain: dict[str, Any], memory: dict[str, Any]
) -> list[tuple[str, str, bool]]:
    """(field in words, value, whether it is new) for each text field the follow-up's tools
    require that no tool wrote (the id is the first branch's): the user's answer for it,
    "new …" where the first branch recorded another one (the address the report took)."""
    skill_id = str(chain["field"]).split(".", 1)[0]
    skill = defs.skills.get(skill_id)
    out: list[tuple[str, str, bool]] = []
    keys = list(chain.get("asks") or [])
    for tool in chain.get("tools") or []:
        constraint = skill.tool_constraints.get(tool) if skill is not None else None
        requires = str(getattr(constraint, "requires", "") or "")
        keys += [
            qualify(k.removeprefix("session."), skill_id, defs) for k in condition_keys(requires)
        ]
    for qualified in dict.fromkeys(keys):
        declared = defs.memory_field(qualified)
        if declared is None or declared.type != "text" or qualified == chain["id"]:
            continue
        before = memory.get(qualified)
        spec = FieldSpec(declared.name, "text", declared.description or "")
        rng = random.Random(zlib.crc32(f"{qualified}:{chain['value']}".encode()))
        new = next(
            (v for v in (typed_value(spec, rng) for _ in range(5)) if v != before),
            None,
        )
        if new is not None:
            again = before not in (None, "")
            words = value_words(declared.name)
            out.append((f"new {words}" if again else words, str(new), again))
    return out


def chained(
    defs: MantleDefinitions,
    script: Script,
    chain: dict[str, Any],
    criteria: list[str],
    assertions: list[dict[str, Any]],
) -> tuple[list[str], list[dict[str, Any]]]:
    """The first branch's goals with the follow-up's: its choice recorded, its tools run
    (each after the id the first branch wrote: `sequencing`), and, for a tool that reports
    its outcome, a criterion (its answer comes from outside the case)."""
    skill_id = str(chain["field"]).split(".", 1)[0]
    skill = defs.skills.get(skill_id)
    added: list[dict[str, Any]] = [
        {"memory_was_set": [{"name": chain["field"], "value": chain["value"]}]}
    ]
    told: list[str] = []
    for tool in chain.get("tools") or []:
        ran = {"tool_name": tool, "source": "local", "skill_id": skill_id}
        added.append({"tool_executed": ran})
        added.append(
            {
                "sequencing": [
                    {"memory_was_set": chain["id"]},
                    {"tool_executed": {"tool_name": tool, "source": "local"}},
                ]
            }
        )
        constraint = skill.tool_constraints.get(tool) if skill is not None else None
        if getattr(constraint, "on_success", None):
            told.append(f"If {tool} succeeds, the agent tells the customer it went through")
    memory = script.walk.memory
    script.context.before_end = request_line(defs, chain, memory)
    # a field only the follow-up asks for: a fact too, for an agent that asks for it anyway
    script.context.facts += [
        ContextFact(words, value)
        for words, value, again in redone(defs, chain, memory)
        if not again
    ]
    script.context.until = "the agent has told you the outcome of your second request"
    return [*criteria, *told], [*assertions, *added]


__all__ = ["chain_of", "chained", "request_line"]
