"""Goals of paths that end with a hand-off skill taking the conversation (link or escalation)."""

from __future__ import annotations

from evalcore.definitions import Skill
from evalcore.definitions.conditions import condition_keys
from evalcore.definitions.skill_model import prose_reads, skill_model
from evalcore.lexicon.en.prose_acts import SUMMARY as _SUMMARY
from evalcore.lexicon.en.prose_acts import SUMMARY_WITHOUT as _SUMMARY_WITHOUT

from ...planning.mantle_offers import SET, Event, Walk, defers_handoff, request_phrase
from ._mantle_checks import Check, short_tool, skill_check, tool_check
from ._mantle_criteria import asks_something, pick, prose_rules
from ._mantle_order import merged, requires_marks
from ._mantle_path import PathGoals


class HandoffGoals(PathGoals):
    def _categorical(self, key: str) -> bool:
        field = self.defs.memory_field(key)
        return field is not None and field.type == "categorical"

    def others_wait_for(self, skill: str) -> bool:
        """Whether another skill sends the user through `skill` and waits for what its
        tools write to project memory ("If @memory.project.authenticated is not true yet,
        run @skill.verify_policyholder first", or a tool's `requires` on it): `skill` is a
        check others run first, and finishing it before handing over to a person is as
        correct as handing over at once. A skill that only uses the same identity tool is
        none: a skill naming it whose own tools write the key does not wait for it."""
        written = {k for t in self.defs.tools_for(skill) for k in self.tool_writes(t, skill)}
        written = {k for k in written if k.startswith("project.")}
        for other in self.defs.skills.values():
            if other.id == skill:
                continue
            read = set(prose_reads(other))
            for constraint in other.tool_constraints.values():
                if constraint.requires:
                    read |= {
                        k.removeprefix("session.") for k in condition_keys(constraint.requires)
                    }
            # what its own tools write it does not need `skill` for
            read -= {
                k for t in self.defs.tools_for(other.id) for k in self.tool_writes(t, other.id)
            }
            if written & read and f"@skill.{skill}" in other.tokens:
                return True
        return False

    def transfer_steps(self, walk: Walk, handoff_skill: str, transfers: list[Event]) -> list[Check]:
        """The transfer in order: the hand-off tool, after the memory its `requires` reads
        where the path writes it (then the tool's first write stands for the call: a tool
        is never ordered against its own writes, `_mantle_order`)."""
        skill = self.defs.skills[handoff_skill]
        marks = requires_marks(skill, walk, lambda tool: self.asserted_writes(tool, skill.id))
        declared = self.defs.memory_names()
        placed = [
            (i, c)
            for i, c in marks
            if str(c.get("memory_was_set", "")) in declared or "memory_was_set" not in c
        ]
        if transfers:
            last = transfers[-1]
            own = {str(k) for k in self.asserted_writes(last.tool or "", skill.id)}
            stands = any(
                c == short_tool(last) or str(c.get("memory_was_set", "")) in own for _, c in placed
            )
            if not stands:
                at = next((i for i, e in enumerate(walk.events) if e is last), len(walk.events))
                placed.append((at, short_tool(last)))
        return merged(placed)

    def handed_over(self, walk: Walk, first: Walk) -> None:
        """A path that ends with a hand-off skill transferring the conversation."""
        handoff_skill = next(
            (
                e.skill
                for e in walk.events
                if e.kind == "skill_activated" and e.skill and self.defs.skills[e.skill].is_handoff
            ),
            walk.skill,
        )
        self.add(skill_check("skill_activated", first.skill))
        items = self.memory_items(walk, self.chosen_keys(walk))
        if handoff_skill != first.skill:
            self.add(skill_check("skill_activated", handoff_skill))
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
        merged += self.written_names(walk, handoff_skill, merged)
        if merged:
            self.add({"memory_was_set": merged})
        transfers = [e for e in walk.tools() if e.skill == handoff_skill]
        announce = [e.utter for e in walk.events if e.kind == "utter" and e.skill == handoff_skill]
        if transfers:
            self.add(tool_check(transfers[-1], is_error=False))
        if announce:
            self.add({"bot_uttered": {"utter_name": announce[0]}})
        steps: list[Check] = [skill_check("skill_activated", first.skill)]
        if handoff_skill != first.skill:
            steps.append(skill_check("skill_activated", handoff_skill))
        steps += self.transfer_steps(walk, handoff_skill, transfers)
        self.add_sequence(steps)
        if handoff_skill != first.skill:
            unset = self.avoided(first, limit=1)
            if unset:
                self.add({"memory_was_not_set": unset})
            # a `link:` step hands over at the runtime's word, silently: no line tells the
            # agent to explain it, so a terse correct agent would fail the criterion
            linked = any(e.kind == "link" and e.key == handoff_skill for e in walk.events)
            if not linked:
                self.criterion(
                    f"The agent explains why it is handing over instead of carrying on "
                    f"with {request_phrase(self.skill)} itself"
                )
        if not self.asks_before_handing_over(handoff, walk):
            # a hand-off skill that asks why they want a person asks on purpose
            self.criterion("The agent does not ask the customer to repeat what they already said")
        self.handoff_rule(handoff, walk)
        self.handoff_summary_criterion(handoff)

    def asks_before_handing_over(self, handoff: Skill, walk: Walk) -> bool:
        """Whether the hand-off skill asks the customer something before it hands over (its
        walk waits for an answer other than the gate's yes, or its prose says "Ask ..."): a
        correct agent asks then, so "does not make them repeat" would fail it."""
        if any(a.skill == handoff.id and a.kind != "confirm" for a in walk.asks):
            return True
        return asks_something(handoff)

    def handoff_rule(self, handoff: Skill, walk: Walk) -> None:
        """One thing the hand-off skill's own prose tells the agent to say or never do on
        the way out ("share the ticket id"), after what the paragraph of the branch the path
        takes tells it to do in a circumstance of its own ("if: topic == medical / If someone
        needs medical help at the airport right now, tell them to ask any staff member or
        call emergency services first"): that branch is what the case is about, so an agent
        that transfers a medical need like any other fails something. The criterion says
        the circumstance; a judge holds the agent to it where the conversation has it."""
        rules = self.unasserted(prose_rules(self.defs, handoff, walk.memory), handoff.id)
        own = [r.text for r in rules if r.conditional and r.inner and not r.prohibition]
        for text in own[:1]:
            self.criterion(text)
        for text in pick([r for r in rules if r.text not in own[:1]], limit=1):
            self.criterion(text)

    def written_names(self, walk: Walk, skill: str, have: list[dict]) -> list[dict]:
        """By name, what the hand-off skill's tools write (a ticket, a callback id)."""
        known = {i["name"] for i in have}
        declared = self.defs.memory_names()
        keys = [k for k in self.tool_written(walk) if k.startswith(skill + ".")]
        return [{"name": k} for k in keys if k not in known and k in declared]

    def handoff_summary_criterion(self, handoff: Skill) -> None:
        """What the hand-off skill says its summary for the person must leave out."""
        text = " ".join(handoff.body.split())
        match = _SUMMARY_WITHOUT.search(text)
        if match and _SUMMARY.search(text):
            self.criterion(
                f"The agent's summary for the person it hands over to contains no {match.group(1)}"
            )

    def escalated(self) -> None:
        """The customer asks for a person partway: the hand-off skill takes over."""
        other = self.script.other
        if other is None:
            return
        skill = self.walk.skill
        self.add(skill_check("skill_activated", skill))
        self.add(skill_check("skill_activated", other.skill))
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
        items += self.written_names(other, other.skill, items)
        if items:
            self.add({"memory_was_set": items})
        transfers = other.tools()
        if transfers:
            self.add(tool_check(transfers[-1], is_error=False))
        writes = [k for t in self.gated() for k in self.tool_writes(t, skill)]
        writes += [k for k in self.success.keys if k not in writes]
        written = self.written(self.walk) | self.written(other)
        declared = self.defs.memory_names()
        # an entry the agent also takes from the user (a report reference asked in another
        # mode) is the model's to write, not the runtime's alone: no case can say it stays
        # unwritten
        asked = {f.qualified for f in skill_model(self.project, skill).fields}
        unset = [
            {"name": k}
            for k in dict.fromkeys(writes)
            if k not in written and k in declared and k not in asked
        ]
        if unset:
            self.add({"memory_was_not_set": unset})
        steps = [skill_check("skill_activated", skill), skill_check("skill_activated", other.skill)]
        steps += self.transfer_steps(other, other.skill, transfers)
        self.add_sequence(steps)
        defers = defers_handoff(self.defs.skills[skill], other.skill)
        if not defers and not self.others_wait_for(skill):
            self.criterion(
                "The agent hands over without first insisting on finishing the current request"
            )
        if defers:
            # the skill says to offer the hand-off once its own work is done: one suggestion
            # to finish first is what it says; a customer who asks again is handed over
            self.criterion(
                "The agent does not keep the customer from a person: it may suggest once "
                "finishing the current request first, but when the customer asks again it "
                "hands over"
            )
            note = (
                "If the agent suggests finishing the request first, say no and ask for a "
                "person again."
            )
            if note not in self.script.context.notes:
                self.script.context.notes.append(note)
        else:
            # the agent's persona may have it say what it can do first: one line of that is
            # not talking the customer out of it
            self.criterion(
                "The agent does not try to talk the customer out of speaking to a person "
                "(one line on what it could do instead is fine)"
            )
        handoff = self.defs.skills[other.skill]
        if not self.asks_before_handing_over(handoff, other):
            self.criterion("The agent does not ask the customer to repeat what they already said")
        self.handoff_rule(handoff, other)


__all__ = ["HandoffGoals"]
