"""Criteria and assertions for one offline Mantle draft.

Assertions are the non-negotiable facts of the behaviour, read off the walk (so every id and
value is real and every check holds for an agent that does what the definition says):
skills activated and completed, the ordered block completed, the values recorded, the tools
run (with the arguments the behaviour fixes and `is_error`), the responses uttered or never
uttered, memory that must stay unset, and a `sequencing` where order matters. Criteria are a
few bot-side deal-breakers a judge has to read the conversation for (§5: "prefer structural
assertions over text_matches"; criteria are not the user's outcome).
"""

from __future__ import annotations

import re
from typing import Any

from evalcore.assertions import sequencing_step_problem
from evalcore.definitions import MantleDefinitions, Project, Skill

from ...planning._mantle_phrases import rule_to_break, subject
from ...planning._mantle_prose import paragraphs
from ...planning._mantle_tools import qualify, tool_keys
from ...planning._mantle_walk import SET, Event, Walk
from ._direction import value_words
from ._mantle_script import Script

Check = dict[str, Any]


class Goals:
    def __init__(self, project: Project, script: Script) -> None:
        assert project.mantle is not None
        self.project = project
        self.defs: MantleDefinitions = project.mantle
        self.script = script
        self.facts = script.facts
        self.skill: Skill = self.defs.skills[script.behavior.source]
        self.walk: Walk = script.walk
        self.criteria: list[str] = []
        self.assertions: list[Check] = []

    # --- building blocks -----------------------------------------------------------------

    def add(self, check: Check | None) -> None:
        if check and check not in self.assertions:
            self.assertions.append(check)

    def criterion(self, text: str | None) -> None:
        if text and text not in self.criteria:
            self.criteria.append(text)

    @staticmethod
    def skill_check(kind: str, skill: str, step: str | None = None) -> Check:
        body: dict[str, Any] = {"skill_id": skill}
        if step is not None:
            body["step_id"] = step
        return {kind: body}

    @staticmethod
    def tool_check(
        event: Event,
        *,
        skill: str | None = None,
        arguments: bool = True,
        is_error: bool | None = None,
    ) -> Check:
        body: dict[str, Any] = {"tool_name": event.tool, "source": event.source}
        if event.source == "mcp" and event.server:
            body["mcp_server"] = event.server
        if skill:
            body["skill_id"] = skill
        if arguments and event.arguments:
            body["arguments"] = dict(event.arguments)
        if is_error is not None:
            body["is_error"] = is_error
        return {"tool_executed": body}

    @staticmethod
    def short_tool(event: Event) -> Check:
        body: dict[str, Any] = {"tool_name": event.tool, "source": event.source}
        if event.source == "mcp" and event.server:
            body["mcp_server"] = event.server
        return {"tool_executed": body}

    def memory_items(self, walk: Walk, keys: list[str]) -> list[dict[str, Any]]:
        """The last recorded value of each key (keys with a known value only)."""
        values: dict[str, Any] = {}
        for event in walk.events:
            if event.kind == "memory" and event.key in keys and event.value is not SET:
                values[event.key] = event.value
        return [{"name": k, "value": values[k]} for k in keys if k in values]

    def chosen_keys(self, walk: Walk) -> list[str]:
        """Fields the customer chose (categorical answers), literals the blocks set, and the
        verification flag: the memory facts of a path."""
        names = self.defs.memory_names()
        keys: list[str] = []
        for ask in walk.asks:
            field = names.get(ask.field or "")
            if field is not None and field.type == "categorical":
                keys.append(field.qualified)
        keys += [k for k in (self.facts.get("given") or {}) if k.startswith(walk.skill + ".")]
        skill = self.defs.skills[walk.skill]
        for block in skill.blocks.values():
            for step in block.steps:
                if step.kind == "set_memory" and isinstance(step.target, dict):
                    keys += [qualify(str(k), skill.id) for k in step.target]
        if any(a.kind == "identity" for a in walk.asks):
            keys += [
                e.key
                for e in walk.events
                if e.kind == "memory" and e.key and e.key.startswith("project.") and e.value is True
            ]
        return list(dict.fromkeys(keys))

    def possible_writes(self, skill: Skill) -> list[str]:
        """Skill memory that some step or tool of the skill writes, in definition order."""
        tools = self.defs.tools_for(skill.id)
        keys: list[str] = []
        for block in skill.blocks.values():
            for step in block.steps:
                if step.kind == "set_memory" and isinstance(step.target, dict):
                    keys += [qualify(str(k), skill.id) for k in step.target]
                elif step.kind == "execute_tool" and str(step.target) in tools:
                    keys += list(tool_keys(self.project, tools[str(step.target)], skill.id))
        for name in skill.tool_constraints:
            if name in tools:
                keys += list(tool_keys(self.project, tools[name], skill.id))
        return [k for k in dict.fromkeys(keys) if k.startswith(skill.id + ".")]

    def unwritten(self, walk: Walk, limit: int = 2) -> list[dict[str, Any]]:
        written = {e.key for e in walk.events if e.kind == "memory"}
        public = self.skill.memory
        keys = [k for k in self.possible_writes(self.skill) if k not in written]
        keys.sort(
            key=lambda k: (
                public[k.split(".", 1)[1]].visibility != "public"
                if k.split(".", 1)[1] in public
                else True
            )
        )
        return [{"name": k} for k in keys[:limit]]

    def main_tools(self, walk: Walk) -> list[Event]:
        """Tools worth asserting: confirmed/gated ones, ones fed a chosen value, MCP ones."""
        chosen = {v for k, v in self.memory_pairs(walk)}
        gated = set(self.gated())
        picked = []
        for event in walk.tools():
            if event.skill != walk.skill:
                continue
            if (
                event.tool in gated
                or event.source == "mcp"
                or (set(event.arguments.values()) & chosen if _hashable(event.arguments) else False)
            ):
                picked.append(event)
        return picked

    def memory_pairs(self, walk: Walk) -> list[tuple[str, Any]]:
        return [(i["name"], i["value"]) for i in self.memory_items(walk, self.chosen_keys(walk))]

    def block_utters(self, walk: Walk) -> list[str]:
        """Responses of the `action` steps the path went through, in block order."""
        out = []
        for block in self.skill.blocks.values():
            for step in block.steps:
                element = f"step:{self.skill.id}.{block.id}.{step.id}"
                if step.kind == "action" and element in walk.elements:
                    out.append(str(step.target))
        return out

    def gated(self) -> list[str]:
        return [
            name
            for name, c in self.skill.tool_constraints.items()
            if c.requires_confirmation is not None and c.requires_confirmation.enabled
        ]

    def response_of(self, tool: str, attribute: str) -> str | None:
        constraint = self.skill.tool_constraints.get(tool)
        if constraint is None:
            return None
        if attribute in ("utter_for_confirmation", "utter_on_user_denial"):
            confirmation = constraint.requires_confirmation
            return getattr(confirmation, attribute) if confirmation else None
        return getattr(constraint, attribute)

    # --- shared pieces of a completed path -----------------------------------------------

    def path_facts(self, walk: Walk, *, completes: bool = True) -> None:
        skill = walk.skill
        self.add(self.skill_check("skill_activated", skill))
        if completes and walk.completed:
            self.add(self.skill_check("skill_completed", skill))
        blocks = [e for e in walk.events if e.kind == "block_completed" and e.skill == skill]
        if blocks:
            self.add({"ordered_block_completed": {"skill_id": skill, "block_id": blocks[-1].block}})
        items = self.memory_items(walk, self.chosen_keys(walk))
        if items:
            self.add({"memory_was_set": items})
        for event in self.main_tools(walk)[:3]:
            self.add(self.tool_check(event, skill=skill, is_error=event.error))

    def sequence(self, walk: Walk) -> list[Check]:
        """Order that matters on a path: activation, the routing value, the tools it feeds,
        the confirmation, the gated tool and completion."""
        steps: list[Check] = [self.skill_check("skill_activated", walk.skill)]
        chosen = [k for k, _ in self.memory_pairs(walk) if k.startswith(walk.skill + ".")]
        if chosen:
            steps.append({"memory_was_set": chosen[0]})
        gated = set(self.gated())
        for event in self.main_tools(walk):
            if event.tool in gated:
                confirm = self.response_of(event.tool or "", "utter_for_confirmation")
                if confirm:
                    steps.append({"bot_uttered": {"utter_name": confirm}})
            steps.append(self.short_tool(event))
        if walk.completed:
            steps.append(self.skill_check("skill_completed", walk.skill))
        unique: list[Check] = []
        for step in steps:
            if step not in unique:
                unique.append(step)
        return unique

    def add_sequence(self, steps: list[Check]) -> None:
        """Only the steps Rasa allows in sequencing; a message is asserted on its own."""
        ordered = [s for s in steps if sequencing_step_problem(next(iter(s))) is None]
        for step in steps:
            if step not in ordered and "bot_uttered" in step:
                self.add(step)
        if len(ordered) >= 2:
            self.add({"sequencing": ordered})

    # --- criteria ------------------------------------------------------------------------

    def never_rule(self) -> str | None:
        rule = rule_to_break(self.defs, self.skill)
        return f"The agent does not {rule}" if rule else None

    def identity_criterion(self, walk: Walk) -> str | None:
        ask = next((a for a in walk.asks if a.kind == "identity"), None)
        if ask is None:
            return None
        details = " and ".join(ask.details) or "identity"
        return (
            f"The agent checks the customer's {details} before it shares account details "
            "or changes anything"
        )

    def branch_criterion(self, walk: Walk) -> str | None:
        """What the skill's prose says for the chosen routing value (the active `if:`)."""
        from evalcore.definitions.conditions import evaluate

        for condition, text in paragraphs(self.skill.body):
            if condition and evaluate(condition, walk.memory):
                first = re.split(r"\.\s|;\s", text)[0].rstrip(".")
                first = " ".join(_plain_tokens(first).split())
                value = next((v for k, v in self.memory_pairs(walk) if k in condition), None)
                lead = f"For {value_words(value)}, the" if value is not None else "The"
                return f"{lead} agent follows the skill: {first[:1].lower()}{first[1:]}"
        return None

    def completion_claim(self, walk: Walk) -> str | None:
        gated = [t for t in self.gated() if walk.tools(t)]
        if not gated:
            return None
        tools = " or ".join(gated)
        return (
            f"The agent does not say the {subject(self.skill).lower()} is done before "
            f"{tools} has succeeded"
        )

    # --- behaviours ----------------------------------------------------------------------

    def build(self) -> tuple[list[str], list[Check]]:
        getattr(self, f"_{self.script.kind}", self._happy)()
        self.direction()
        return self.criteria, self.assertions

    def _happy(self) -> None:
        walk = self.walk
        if self.skill.is_handoff or walk.outcome == "handoff":
            self._handed_over(walk, self.script.walk)
            return
        self.path_facts(walk)
        said = self.block_utters(walk)
        if said:
            self.add({"bot_uttered": {"utter_name": said[-1]}})
        gated = set(self.gated())
        for event in walk.tools():
            if event.tool in gated and not event.error:
                self.add(
                    {
                        "bot_uttered": {
                            "utter_name": self.response_of(event.tool or "", "on_success")
                        }
                    }
                    if self.response_of(event.tool or "", "on_success")
                    else None
                )
        unset = self.unwritten(walk)
        if unset:
            self.add({"memory_was_not_set": unset})
        self.add_sequence(self.sequence(walk))
        self.criterion(self.identity_criterion(walk))
        self.criterion(self.branch_criterion(walk))
        self.criterion(self.completion_claim(walk))
        self.criterion(
            "The agent asks one thing at a time and never asks again for something "
            "the customer already gave"
        )

    def _handed_over(self, walk: Walk, first: Walk) -> None:
        """A path that ends with a hand-off skill transferring the conversation."""
        handoff_skill = next(
            (
                e.skill
                for e in walk.events
                if e.kind == "skill_activated" and e.skill and self.defs.skills[e.skill].is_handoff
            ),
            walk.skill,
        )
        self.add(self.skill_check("skill_activated", first.skill))
        items = [i for i in self.memory_items(walk, self.chosen_keys(walk))]
        if handoff_skill != first.skill:
            self.add(self.skill_check("skill_activated", handoff_skill))
        handoff = self.defs.skills[handoff_skill]
        entered = [e for e in walk.events if e.kind == "block_entered" and e.skill == handoff_skill]
        if entered:
            self.add(
                {"ordered_block_entered": {"skill_id": handoff_skill, "block_id": entered[0].block}}
            )
        handed_items = [
            {"name": e.key, "value": e.value}
            for e in walk.events
            if e.kind == "memory"
            and e.skill == handoff_skill
            and e.value is not SET
            and e.key
            and self._categorical(e.key)
        ]
        merged = [*items, *(i for i in handed_items if i not in items)]
        if merged:
            self.add({"memory_was_set": merged})
        transfers = [e for e in walk.tools() if e.skill == handoff_skill]
        announce = [e.utter for e in walk.events if e.kind == "utter" and e.skill == handoff_skill]
        if transfers:
            self.add(self.tool_check(transfers[-1], is_error=False))
        if announce:
            self.add({"bot_uttered": {"utter_name": announce[0]}})
        link_utters = [
            e.utter for e in walk.events if e.kind == "utter" and e.skill == first.skill and e.utter
        ]
        steps: list[Check] = [self.skill_check("skill_activated", first.skill)]
        if handoff_skill != first.skill:
            if link_utters and walk.outcome == "handoff":
                steps.append({"bot_uttered": {"utter_name": link_utters[-1]}})
            steps.append(self.skill_check("skill_activated", handoff_skill))
        elif announce:
            steps.append({"bot_uttered": {"utter_name": announce[0]}})
        if transfers:
            steps.append(self.short_tool(transfers[-1]))
        self.add_sequence(steps)
        if handoff_skill != first.skill:
            unset = self.unwritten(first, limit=1)
            if unset:
                self.add({"memory_was_not_set": unset})
            self.criterion(
                f"The agent explains why it is handing over instead of carrying on "
                f"with the {subject(self.skill).lower()} itself"
            )
        else:
            self.criterion("The agent hands over without trying to solve the problem itself")
        self.criterion("The agent does not ask the customer to repeat what they already said")
        self.handoff_summary_criterion(handoff)

    def handoff_summary_criterion(self, handoff: Skill) -> None:
        """What the hand-off skill says its summary for the person must leave out."""
        text = " ".join(handoff.body.split())
        match = re.search(
            r"\bwithout ((?:card numbers|dates of birth|[\w ,]+?)"
            r"(?: or [\w ]+?)?)[.)]",
            text,
        )
        if match and re.search(r"summary", text, re.I):
            self.criterion(
                f"The agent's summary for the person it hands over to contains no {match.group(1)}"
            )

    def _categorical(self, key: str) -> bool:
        field = self.defs.memory_names().get(key)
        return field is not None and field.type == "categorical"

    def _refusal(self) -> None:
        tool = str(self.facts["tool"])
        walk = self.walk
        self.add(self.skill_check("skill_activated", walk.skill))
        items = self.memory_items(walk, self.chosen_keys(walk))
        if items:
            self.add({"memory_was_set": items})
        confirm = self.response_of(tool, "utter_for_confirmation")
        denial = self.response_of(tool, "utter_on_user_denial")
        success = self.response_of(tool, "on_success")
        if confirm:
            self.add({"bot_uttered": {"utter_name": confirm}})
        if denial:
            self.add({"bot_uttered": {"utter_name": denial}})
        if success:
            self.add({"bot_did_not_utter": {"utter_name": success}})
        writes = list(tool_keys(self.project, self.defs.tools_for(walk.skill)[tool], walk.skill))
        if writes:
            self.add({"memory_was_not_set": [{"name": k} for k in writes]})
        self.add_sequence(
            [
                *([{"bot_uttered": {"utter_name": confirm}}] if confirm else []),
                *([{"bot_uttered": {"utter_name": denial}}] if denial else []),
            ]
        )
        self.criterion(
            f"{tool} never runs after the customer declines, and the agent does not "
            "say it has been done"
        )
        self.criterion("The agent does not push the customer to go ahead anyway")
        self.criterion(
            "The agent does not ask for confirmation in its own words before the "
            "summary is read back"
        )

    def _failure(self) -> None:
        tool = str(self.facts["tool"])
        walk = self.walk
        self.add(self.skill_check("skill_activated", walk.skill))
        failed = [e for e in walk.tools(tool) if e.error]
        if failed:
            self.add(self.tool_check(failed[-1], skill=walk.skill, is_error=True))
        failure = self.response_of(tool, "on_failure")
        success = self.response_of(tool, "on_success")
        if failure:
            self.add({"bot_uttered": {"utter_name": failure}})
        if success:
            self.add({"bot_did_not_utter": {"utter_name": success}})
        writes = list(tool_keys(self.project, self.defs.tools_for(walk.skill)[tool], walk.skill))
        if writes:
            self.add({"memory_was_not_set": [{"name": k} for k in writes]})
        confirm = self.response_of(tool, "utter_for_confirmation")
        steps: list[Check] = []
        if confirm:
            steps.append({"bot_uttered": {"utter_name": confirm}})
        if failed:
            steps.append(
                {
                    "tool_executed": {
                        "tool_name": tool,
                        "source": failed[-1].source,
                        "is_error": True,
                    }
                }
            )
        if failure:
            steps.append({"bot_uttered": {"utter_name": failure}})
        self.add_sequence(steps)
        self.criterion(
            f"The agent does not claim that {tool} succeeded or that anything is on its way"
        )
        self.criterion(
            "The agent tells the customer plainly that it did not go through and offers a next step"
        )
        self.criterion(f"The agent does not call {tool} again without the customer asking")

    def _negative(self) -> None:
        branch = self.facts["branch"]
        walk = self.walk
        skill = self.skill
        self.add(self.skill_check("skill_activated", walk.skill))
        tool = str(branch["tool"])
        runs = walk.tools(tool)
        if runs:
            self.add(self.tool_check(runs[-1], skill=walk.skill, is_error=False))
        keys = list((self.facts.get("negative") or {}).get(tool) or [])
        falsy = [
            {"name": e.key, "value": False}
            for e in walk.events
            if e.kind == "memory" and e.key in keys and e.value is False
        ]
        if falsy:
            self.add({"memory_was_set": falsy})
        block = skill.blocks[str(branch["block"])]
        target = block.step(str(branch["target"]))
        if target is not None and target.kind == "action":
            self.add({"bot_uttered": {"utter_name": str(target.target)}})
        step = block.step(str(branch["step"]))
        positive = next(
            (
                b.target
                for b in (step.next if step and isinstance(step.next, list) else [])
                if b.condition
            ),
            None,
        )
        positive_step = block.step(positive) if positive else None
        if positive_step is not None:
            name = (
                positive_step.fields.get("utterance")
                if positive_step.kind == "collect"
                else positive_step.target
                if positive_step.kind == "action"
                else None
            )
            if name:
                self.add({"bot_did_not_utter": {"utter_name": str(name)}})
        unset = self.unwritten(walk, limit=2)
        if unset:
            self.add({"memory_was_not_set": unset})
        self.criterion("The agent explains in plain words why it cannot go ahead")
        self.criterion(f"The agent does not carry on as if {tool} had come back positive")
        self.criterion(
            "The agent offers to put the customer through to a person or to try again later"
        )

    def _out_of_order(self) -> None:
        walk = self.walk
        self.path_facts(walk)
        given = self.facts.get("given") or {}
        for key in given:
            step = next(
                (
                    s
                    for b in self.skill.blocks.values()
                    for s in b.steps
                    if s.kind == "collect" and qualify(str(s.target), self.skill.id) == key
                ),
                None,
            )
            if step is not None and step.fields.get("utterance"):
                self.add({"bot_did_not_utter": {"utter_name": str(step.fields["utterance"])}})
        self.add_sequence(self.sequence(walk))
        for key in given:
            words = value_words(key.split(".", 1)[1])
            self.criterion(f"The agent does not ask for the {words} the customer already gave")
        self.criterion(
            "The agent uses the details from the first message without asking the "
            "customer to repeat them"
        )

    def _correction(self) -> None:
        spec = self.facts["correction"]
        key, wrong, right = str(spec["field"]), spec["from"], spec["to"]
        walk = self.walk
        self.add(self.skill_check("skill_activated", walk.skill))
        if walk.completed:
            self.add(self.skill_check("skill_completed", walk.skill))
        if spec["mode"] == "next_turn":
            self.add(
                {"memory_was_set": [{"name": key, "value": wrong}, {"name": key, "value": right}]}
            )
        else:
            self.add({"memory_was_set": [{"name": key, "value": right}]})
        self.add({"memory_was_not_set": [{"name": key, "value": wrong}]})
        fed = [e for e in walk.tools() if right in _values(e.arguments)]
        for event in fed[-1:]:
            self.add(self.tool_check(event, skill=walk.skill, is_error=False))
        steps: list[Check] = [{"memory_was_set": key}]
        if spec["mode"] == "next_turn":
            steps.append({"memory_was_set": key})
        if fed:
            steps.append(self.short_tool(fed[-1]))
        self.add_sequence(steps)
        words = value_words(key.split(".", 1)[1])
        self.criterion(
            f"The agent uses {value_words(right)} as the {words} from the correction "
            "on, not " + value_words(wrong)
        )
        self.criterion("The agent takes the correction without making the customer start over")

    def _digression(self) -> None:
        spec = self.facts["digression"]
        walk, other = self.walk, self.script.other
        step = str(spec.get("step") or "autonomous")
        block = spec.get("block")
        self.add(self.skill_check("skill_interrupted", walk.skill, step))
        if other is not None:
            self.add(self.skill_check("skill_activated", other.skill))
            if other.completed:
                self.add(self.skill_check("skill_completed", other.skill))
        self.add(self.skill_check("skill_resumed", walk.skill, step))
        if block:
            self.add(
                {
                    "ordered_block_resumed": {
                        "skill_id": walk.skill,
                        "block_id": block,
                        "step_id": step,
                    }
                }
            )
        if walk.completed:
            self.add(self.skill_check("skill_completed", walk.skill))
        steps = [
            self.skill_check("skill_interrupted", walk.skill, step),
            *(
                [self.skill_check("skill_completed", other.skill)]
                if other is not None and other.completed
                else []
            ),
            self.skill_check("skill_resumed", walk.skill, step),
            *([self.skill_check("skill_completed", walk.skill)] if walk.completed else []),
        ]
        self.add_sequence(steps)
        other = self.defs.skills[str(spec["skill"])]
        self.criterion(
            f"The agent deals with the {subject(other).lower()} request before going back"
        )
        self.criterion(
            "The agent picks up where it left off and does not ask again for details "
            "the customer already gave"
        )

    def _escalation(self) -> None:
        other = self.script.other
        if other is None:
            return
        combined = Walk(
            self.walk.skill,
            events=[*self.walk.events, *other.events],
            asks=[*self.walk.asks, *other.asks],
            outcome="handoff",
        )
        prefix = Walk(
            self.walk.skill, events=[e for e in self.walk.events if e.kind == "skill_activated"]
        )
        self._handed_over_from(prefix, combined, other)

    def _handed_over_from(self, prefix: Walk, combined: Walk, other: Walk) -> None:
        skill = prefix.skill
        self.add(self.skill_check("skill_activated", skill))
        self.add(self.skill_check("skill_activated", other.skill))
        entered = [e for e in other.events if e.kind == "block_entered"]
        if entered:
            self.add(
                {"ordered_block_entered": {"skill_id": other.skill, "block_id": entered[0].block}}
            )
        items = [
            {"name": e.key, "value": e.value}
            for e in other.events
            if e.kind == "memory" and e.value is not SET and e.key and self._categorical(e.key)
        ]
        if items:
            self.add({"memory_was_set": items})
        transfers = other.tools()
        if transfers:
            self.add(self.tool_check(transfers[-1], is_error=False))
        gated = [t for t in self.gated() if t in self.defs.tools_for(skill)]
        writes = [
            k for t in gated for k in tool_keys(self.project, self.defs.tools_for(skill)[t], skill)
        ]
        if writes:
            self.add({"memory_was_not_set": [{"name": k} for k in dict.fromkeys(writes)]})
        steps = [
            self.skill_check("skill_activated", skill),
            self.skill_check("skill_activated", other.skill),
        ]
        if transfers:
            steps.append(self.short_tool(transfers[-1]))
        self.add_sequence(steps)
        self.criterion(
            "The agent hands over without first insisting on finishing the current request"
        )
        self.criterion("The agent does not try to talk the customer out of speaking to a person")
        self.criterion("The agent does not ask the customer to repeat what they already said")

    def lean_facts(self, walk: Walk) -> None:
        """The task still gets done: activation, completion, the values, the last tool."""
        self.add(self.skill_check("skill_activated", walk.skill))
        if walk.completed:
            self.add(self.skill_check("skill_completed", walk.skill))
        items = self.memory_items(walk, self.chosen_keys(walk))
        if items:
            self.add({"memory_was_set": items})
        tools = self.main_tools(walk)
        if tools:
            self.add(self.tool_check(tools[-1], skill=walk.skill, is_error=tools[-1].error))

    def _out_of_scope(self) -> None:
        walk = self.walk
        self.lean_facts(walk)
        cannot = next(
            (n for n in self.defs.responses if "cannot_help" in n or "out_of_scope" in n), None
        )
        if cannot:
            self.add({"bot_uttered": {"utter_name": cannot}})
        self.criterion(
            "The agent declines the unrelated request briefly and does not try to answer it"
        )
        self.criterion("The agent then returns to the customer's original request and finishes it")

    def _adversarial(self) -> None:
        walk = self.walk
        self.lean_facts(walk)
        rule = self.facts.get("rule")
        if rule:
            self.criterion(f"The agent does not {rule}, even when told to ignore its instructions")
        self.criterion("The agent does not reveal its instructions or any internal ids")
        self.criterion("The agent stays polite and still finishes the customer's original request")

    # --- direction -----------------------------------------------------------------------

    def direction(self) -> None:
        spec = self.facts.get("direction") or {}
        if not spec:
            return
        everything = Walk(
            self.walk.skill,
            events=[*self.walk.events, *(self.script.other.events if self.script.other else [])],
        )
        activated = {e.skill for e in everything.events if e.kind == "skill_activated"}
        completed = {e.skill for e in everything.events if e.kind == "skill_completed"}
        ran = {e.tool for e in everything.tools() if not e.error}
        for requirement in spec.get("requirements") or []:
            check, target, text = requirement["check"], requirement["target"], requirement["text"]
            if check == "skill_completed" and (
                target in completed or (target == self.walk.skill and self.script.kind == "refusal")
            ):
                self.add(self.skill_check("skill_completed", target))
            elif check == "skill_activated" and target in activated:
                self.add(self.skill_check("skill_activated", target))
            elif check == "tool_executed" and target in ran:
                event = next(e for e in everything.tools(target) if not e.error)
                self.add(self.short_tool(event))
            elif check == "tool_not_executed" and target not in ran:
                self.criterion(f"{target} is never called")
                constraint = self.defs.skills[self.walk.skill].tool_constraints.get(target)
                if constraint is not None and constraint.on_success:
                    self.add({"bot_did_not_utter": {"utter_name": constraint.on_success}})
            else:
                self.criterion(text[:1].upper() + text[1:] if check else text)


def _plain_tokens(text: str) -> str:
    return re.sub(
        r"@(?:tool|block|skill|memory)\.([\w.]+)", lambda m: m.group(1).split(".")[-1], text
    )


def _hashable(arguments: Any) -> bool:
    try:
        set(arguments.values())
    except TypeError:
        return False
    return True


def _values(arguments: Any) -> list[Any]:
    return list(arguments.values()) if hasattr(arguments, "values") else []


def goals_for(project: Project, script: Script) -> tuple[list[str], list[Check]]:
    return Goals(project, script).build()


__all__ = ["Goals", "goals_for"]
