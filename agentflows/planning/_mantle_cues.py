"""Calls the prose takes only on the user's cue: a case where the user says it.

"If they ask about an existing request, check @tool.list_unit_work_orders and give its
status; do not open a duplicate." Walks leave such a call out (most conversations never
say the cue), so without this no case runs the tool, and an agent that ignores the cue
(opens a duplicate, never checks) passes every case. A `cue` behaviour (edge_case: the
skill's own success is not what it ends with) opens
with the cue in the user's words (`_mantle_phrases.cue_line`); the walk takes the call and
stops there, as the reference agent does once it hears the cue (`skill_model.cues`).
An offered call ("Then offer a replacement with @tool.order_replacement_fob") has the
user's wish for it as its cue: its case keeps the branch the offer is made on and plays
the user who takes it.
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions.conditions import condition_keys, evaluate
from evalcore.definitions.skill_model import held_thing, lacked_in_cue
from evalcore.definitions.skill_model.cues import own_words
from evalcore.testdata import load_records

from ._behavior import NOT_WRITTEN, Behavior
from ._mantle_planner import PlannerBase


def _case(cue: str) -> str:
    """`they ask about an existing request` -> `existing_request`: the cue's own words;
    `they say they do not have an order number` -> `no_order_number`."""
    lacked = lacked_in_cue(cue)
    if lacked is not None:
        return "_".join(["no", *lacked.split()])
    return "_".join(own_words(cue)[:3]) or "cue"


def _title(cue: str) -> str:
    """What the case is about in its name: the cue, or `the caller has no order number`."""
    lacked = lacked_in_cue(cue)
    return f"the caller has no {lacked}" if lacked is not None else cue


def _article(thing: str) -> str:
    return "an" if thing[:1] in "aeiou" else "a"


class CueBehaviors(PlannerBase):
    """One `cue` behaviour per tool the skill's prose calls on the user's cue."""

    def cue_cases(self, elements: list[str]) -> list[Behavior]:
        out: list[Behavior] = []
        own = self.defs.tools_for(self.skill.id)
        for use in self.model.tools:
            call = next((c for c in use.calls if c.kind == "prose" and c.cue), None)
            if call is None or call.cue is None or use.name not in own:
                continue
            cue = call.cue
            check = lambda w, t=use.name: bool(w.tools(t))  # noqa: E731
            said = {"cue": {"tools": [use.name], "said": cue}}
            found = self._reaching(check, said) or self._first_reaching(
                check, said, self._making(call.when)
            )
            if found is None:
                continue
            walk, facts = found
            # only what the walk asks, and what the call's own `if:` reads (the branch it is
            # offered on: `request: lost_fob`): the alternative never reaches the rest
            asked = {a.field for a in walk.asks}
            asked |= {
                k for c in use.calls if c.kind == "prose" for k in condition_keys(c.condition)
            }
            values = {k: v for k, v in (facts.get("values") or {}).items() if k in asked}
            plain = self.walk({"values": facts.get("values") or {}})
            ran = {e.tool for e in walk.tools()}
            own_runs = [e.tool for e in plain.tools() if e.skill == self.skill.id]
            skips = list(dict.fromkeys(t for t in own_runs if t not in ran))
            facts = {"cue": {**facts["cue"], "skips": skips}, "values": values}
            walk = self.walk(facts)
            title = f"{self.name}: {_title(cue)}"
            description = (
                f"The customer says what the prose waits for ({cue}): the agent runs "
                f"{use.name} and stops there, doing nothing else the skill would."
            )
            out.append(
                self.behavior(
                    "cue",
                    "edge_case",
                    _case(cue),
                    title,
                    description,
                    facts,
                    walk,
                    elements,
                    35 + len(out),
                )
            )
        return out

    def unheld_happy(self, behaviors: list[Behavior]) -> list[Behavior]:
        """The happy paths that give a thing no data file holds ("If they have an order
        number … use @tool.get_order_status" where only an outside service knows orders)
        planned but not written, where a case plays the user who does not have it (the
        prose's "otherwise" call): that case's number would be invented, and a reviewer
        cannot merge a case whose lookup may find nothing."""
        lacking = [
            (b, thing)
            for b in behaviors
            if b.facts.get("kind") == "cue"
            and (thing := lacked_in_cue(str((b.facts.get("cue") or {}).get("said") or "")))
        ]
        if not lacking:
            return behaviors
        records = load_records(self.project.root)
        out = []
        standing_in: set[str] = set()
        for behavior in behaviors:
            for case, thing in lacking:
                name = thing.replace(" ", "_")
                held = any(name in r for c in records.collections for r in c.records)
                kind = behavior.facts.get("kind")
                if (
                    held
                    or not records.collections
                    or kind != "happy"
                    or NOT_WRITTEN in behavior.facts
                ):
                    continue
                waits = {
                    use.name
                    for use in self.model.tools
                    for call in use.calls
                    if call.kind == "prose"
                    and call.trigger != "otherwise"
                    and held_thing(call.sentence or "") == thing
                }
                ran = {e.tool for e in self.walk(behavior.facts).tools()}
                if waits & ran:
                    why = (
                        f"no data file of the project holds {_article(thing)} {thing}: one "
                        f"given here would be invented; {case.case} plays the user who has none"
                    )
                    behavior = behavior.model_copy(
                        update={"facts": {**behavior.facts, NOT_WRITTEN: why}}
                    )
                    standing_in.add(case.id)
            out.append(behavior)
        # the user who has none is how this project's callers reach the skill's goal: that
        # case is the skill's happy path now, not an edge of one no case can write
        return [
            b.model_copy(update={"type": "happy_path"}) if b.id in standing_in else b for b in out
        ]

    def _making(self, when: str | None) -> list[dict[str, Any]]:
        """Value sets where the user's answers make a call's condition hold ("If the car
        cannot be driven, offer a rental": `vehicle_drivable` false), beside each candidate;
        a condition on a field only a tool's answer fills is none of the user's to make."""
        out: list[dict[str, Any]] = []
        for key in condition_keys(when) if when else []:
            field = self.defs.memory_field(key)
            if field is None or not field.llm_settable:
                continue
            choices = [True, False] if field.type == "bool" else list(field.enum_values or [])
            for base in self.candidate_values():
                for value in choices:
                    values = {**base, key: value}
                    if values not in out and evaluate(when, values) is True:
                        out.append(values)
        return out


__all__ = ["CueBehaviors"]
