"""What a walked path avoids: memory a skipped step or a blocked tool would write, the tools
the path's own values block, and their responses (`PathGoals` builds on it).

Negative assertions are only ever about what the path really avoids: memory a block step
writes when the path skipped that step on its way through the block, or a tool writes whose
`requires` condition is false at the end of the path; never a key the path writes, and never
what the skill's success signal writes.
"""

from __future__ import annotations

import re
from typing import Any

from evalcore.definitions import MantleDefinitions, Project, memoized
from evalcore.definitions.conditions import condition_keys, conjuncts, evaluate
from evalcore.definitions.skill_model import code_facts, qualify, skill_model, tool_keys
from evalcore.lexicon.en.prose_acts import sets_field

from ...planning.mantle_offers import SET, Event, Walk
from ._mantle_checks import Success, terminal_tools
from ._mantle_facts import declined_only

#: Where one sentence of a skill's text ends.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n")


def model_sets(defs: MantleDefinitions, key: str) -> bool:
    """True when the skill's text has the model set the entry itself ("Set
    selected_device_id to the full device id and selected_device_label to the model
    name."): a step before the gate may write it, so no case asserts it unset."""
    skill_id, _, name = key.partition(".")
    skill = defs.skills.get(skill_id)
    if skill is None or not name:
        return False
    sentences = memoized(skill, "sentences", lambda: _SENTENCE_END.split(skill.body))
    said = sets_field(name)
    return any(said.search(s) for s in sentences)


class AvoidedGoals:
    """The negative half of a path's goals (mixed into `PathGoals`)."""

    project: Project
    defs: MantleDefinitions
    success: Success

    def written(self, walk: Walk) -> set[str]:
        return {e.key for e in walk.events if e.kind == "memory" and e.key}

    def model_sets(self, key: str) -> bool:
        """See `model_sets` (the module function)."""
        return model_sets(self.defs, key)

    def tool_writes(self, tool: str, skill_id: str) -> list[str]:
        tools = self.defs.tools_for(skill_id)
        return list(tool_keys(self.project, tools[tool], skill_id)) if tool in tools else []

    def failure_writes(self, tool: str, skill_id: str) -> set[str]:
        """Keys the tool's error branch writes (`claim_status` "5" on not-found): a failing
        run sets them, so a failure case never asserts them unset."""
        tools = self.defs.tools_for(skill_id)
        if tool not in tools:
            return set()
        writes = code_facts(self.project, tools[tool]).writes
        return {qualify(w.key, skill_id, self.defs) for w in writes if w.failure}

    def terminal_runs(self, walk: Walk) -> list[Event]:  # PathGoals: the skill's own
        raise NotImplementedError

    def avoided(self, walk: Walk, limit: int = 2) -> list[dict[str, Any]]:
        """Skill memory the path really avoids writing (see the module docstring)."""
        skill = self.defs.skills[walk.skill]
        tools = self.defs.tools_for(skill.id)
        entered = {
            e.block for e in walk.events if e.kind == "block_entered" and e.skill == skill.id
        }
        keys: list[str] = []
        for block in skill.blocks.values():
            if block.id not in entered:
                continue
            for step in block.steps:
                if f"step:{skill.id}.{block.id}.{step.id}" in walk.elements:
                    continue
                if step.kind == "set_memory" and isinstance(step.target, dict):
                    keys += [qualify(str(k), skill.id, self.defs) for k in step.target]
                elif step.kind == "execute_tool" and str(step.target) in tools:
                    keys += list(tool_keys(self.project, tools[str(step.target)], skill.id))
        for name in self.blocked(walk):
            if not self.callable_anyway(walk, name):
                keys += list(tool_keys(self.project, tools[name], skill.id))
        keep = self.written(walk) | set(self.success.keys)
        for name in terminal_tools(self.project, skill):
            keep |= set(self.tool_writes(name, skill.id))
        public = skill.memory
        declared = self.defs.memory_names()
        picked = [
            k
            for k in dict.fromkeys(keys)
            if k.startswith(skill.id + ".") and k not in keep and k in declared
        ]
        picked.sort(key=lambda k: _visibility(public, k) != "public")
        return [{"name": k} for k in picked[:limit]]

    def blocked(self, walk: Walk) -> list[str]:
        """Tools of the skill the path never runs: their `requires` is decided false, every
        place the skill calls them sits under an `if:` the path's values make false (another
        mode's tool, which the runtime strips from the prompt), or every call waits for a yes
        the case's user does not give (an offer declined, `declined_only`)."""
        skill = self.defs.skills[walk.skill]
        tools = self.defs.tools_for(skill.id)
        ran = {e.tool for e in walk.tools()}
        out = [
            name
            for name, constraint in skill.tool_constraints.items()
            if name not in ran
            and name in tools
            and constraint.requires
            and self.decided_against(str(constraint.requires), walk)
        ]
        model = skill_model(self.project, skill.id)
        for use in model.tools if model is not None else []:
            if use.name in ran or use.name in out or use.name not in tools or not use.calls:
                continue
            if all(
                c.kind in ("prose", "instructions")
                and c.condition
                and self.decided_against(c.condition, walk)
                for c in use.calls
            ) or declined_only(skill, use.calls, dict(walk.memory)):
                out.append(use.name)
        return out

    def off_branch(self, walk: Walk, name: str) -> bool:
        """Whether a blocked tool is blocked only because every call of it sits under an
        `if:` the path's values make false (another mode's tool): not by a `requires` the
        path decides false, nor by an offer the user declines."""
        skill = self.defs.skills[walk.skill]
        constraint = skill.tool_constraints.get(name)
        requires = constraint.requires if constraint is not None else None
        if requires and self.decided_against(str(requires), walk):
            return False
        model = skill_model(self.project, skill.id)
        use = next((u for u in model.tools if u.name == name), None) if model else None
        return use is not None and not declined_only(skill, use.calls, dict(walk.memory))

    def callable_anyway(self, walk: Walk, name: str) -> bool:
        """Whether a blocked tool stays one a correct agent may still call: it has no
        `tool_constraints` entry (no `requires`, no confirmation) and is blocked only by
        another branch's `if:` (`off_branch`). The runtime leaves that paragraph out of the
        prompt, not the tool: an agent in payment-plan mode may look the balance up to say
        what it splits, so what the lookup writes is no memory the path avoids."""
        skill = self.defs.skills[walk.skill]
        return name not in skill.tool_constraints and self.off_branch(walk, name)

    def blocked_responses(self, walk: Walk) -> list[str]:
        """`on_success` responses of blocked tools that nothing else on the path says, where
        the path's values or the user's no block the tool (not another mode's tool). A
        success tool's response only where the path asserts another success tool's run: a
        path short of success that says "this success never came" reads as a failure."""
        skill = self.defs.skills[walk.skill]
        model = skill_model(self.project, skill.id)
        successes = set(terminal_tools(self.project, skill))
        successes |= {u.name for u in (model.tools if model is not None else []) if u.terminal}
        reached = bool(self.terminal_runs(walk))
        said = set(walk.utters())
        others = {
            c.on_success
            for name, c in skill.tool_constraints.items()
            if name not in self.blocked(walk)
        }
        others |= {
            str(s.target) for b in skill.blocks.values() for s in b.steps if s.kind == "action"
        }
        others |= {r.response for r in skill.utter}
        out = []
        for name in self.blocked(walk):
            if name in successes and not reached:
                continue
            if self.off_branch(walk, name):
                # another mode's success reply: no agent on this path has a reason to say
                # it, so "never said" checks nothing (the reviewers' "true by construction")
                continue
            constraint = skill.tool_constraints.get(name)
            success = constraint.on_success if constraint is not None else None
            if success and success not in said and success not in others:
                out.append(success)
        return out

    def rival_confirmations(self, walk: Walk) -> list[str]:
        """The confirmation questions (`utter_for_confirmation`) of the skill's gated tools
        that only another branch's `if:` paragraph calls, the path's own values ruling each
        of those out, while every key of the tool's `requires` holds at the end of the path:
        the runtime lets such a tool run here, so an agent that takes the branch for its
        sibling (cancels the meeting it was asked to decline) reaches its question, and a
        correct one never does. Only where the path runs no gated tool of its own: its
        act then leaves no confirmation of its own that a sibling's act would lack
        (declining an invite runs respond_to_invite, which the cancel branch also runs for
        a meeting the executive does not own). Not a question the path asks itself."""
        model = skill_model(self.project, walk.skill)
        if model is None:
            return []
        ran = {e.tool for e in walk.tools()}
        gated = {u.name for u in model.tools if u.gate is not None and u.gate.confirmation}
        if ran & gated:
            return []
        said = set(walk.utters())
        out: list[str] = []
        for use in model.tools:
            gate = use.gate
            ask = gate.utter_for_confirmation if gate is not None else None
            if gate is None or not gate.confirmation or not ask or use.name in ran:
                continue
            conditions = [c.condition for c in use.calls]
            if not conditions or not all(c and self.decided_against(c, walk) for c in conditions):
                continue
            held = all(walk.memory.get(k) not in (None, False) for k in gate.requires_keys)
            if held and gate.requires_keys and ask not in said and ask not in out:
                out.append(ask)
        return out

    def rival_successes(self, walk: Walk) -> list[str]:
        """The `on_success` responses of the skill's ungated tools that only another
        branch's `if:` paragraph calls, the path's own values ruling each of those out, while
        every key of the tool's `requires` is one of the skill's own that the path itself
        filled (the runtime lets it run here because of what this request did: a bag report
        filed leaves the report id and the address a delivery change needs): an agent that
        takes the sibling branch's call as well says it, a correct one never does, and the
        runtime alone says it. Not one the path says itself, nor one a project entry alone
        opens (a lease holder may set autopay on any request: nothing here invites it)."""
        model = skill_model(self.project, walk.skill)
        if model is None:
            return []
        skill = self.defs.skills[walk.skill]
        ran = {e.tool for e in walk.tools()}
        said = set(walk.utters())
        out: list[str] = []
        for use in model.tools:
            gate = use.gate
            constraint = skill.tool_constraints.get(use.name)
            success = constraint.on_success if constraint is not None else None
            if gate is None or gate.confirmation or not success or use.name in ran:
                continue
            conditions = [c.condition for c in use.calls]
            if not conditions or not all(c and self.decided_against(c, walk) for c in conditions):
                continue
            own = all(k.startswith(f"{walk.skill}.") for k in gate.requires_keys)
            held = all(walk.memory.get(k) not in (None, False) for k in gate.requires_keys)
            if own and held and gate.requires_keys and success not in said | set(out):
                out.append(success)
        return out

    @staticmethod
    def decided_against(condition: str, walk: Walk) -> bool:
        """The path's own values make `condition` false (not merely values it never got): the
        whole condition, or one part of a plain `a and b and c` whose keys the path all knows
        (`claim_type == "auto"` on a home claim decides it, whatever the claim number)."""
        for part in [condition, *conjuncts(condition)]:
            keys = condition_keys(part)
            if not keys or any(walk.memory.get(k) is None or walk.memory[k] is SET for k in keys):
                continue
            try:
                if not evaluate(part, dict(walk.memory)):
                    return True
            except Exception:  # unreadable condition: the tool may still run
                continue
        return False


def _visibility(public: Any, key: str) -> str:
    field = public.get(key.split(".")[-1])
    return str(getattr(field, "visibility", ""))


__all__ = ["AvoidedGoals"]
