"""What one walked path shows, as assertions: the values, tools and memory it writes or avoids.

The pieces every Mantle behaviour builds its goals from. Negative assertions are only ever
about what the path really avoids: memory a block step writes when the path skipped that
step on its way through the block, or a tool writes whose `requires` condition is false at
the end of the path; never a key the path writes, and never what the skill's success signal
writes (a happy path that asserts its own task did not happen is a contradiction).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from evalcore.agents.reference import optional_fields
from evalcore.definitions import MantleDefinitions, Project, Skill, memoized
from evalcore.definitions.conditions import condition_keys, evaluate
from evalcore.definitions.skill_model import (
    asks_for,
    code_facts,
    normalised_parameters,
    outside_effect,
    qualify,
    record_key,
    reported_fields,
    sentences,
    skill_model,
)
from evalcore.lexicon.en.instruction_words import CONDITIONAL_LEADS as _CONDITIONAL_LEADS

from ...planning.mantle_offers import SET, Ask, Event, Walk
from ._mantle_asked import framework_asks
from ._mantle_avoided import AvoidedGoals, model_sets
from ._mantle_branch_phrases import handed_values
from ._mantle_checks import (
    Check,
    Success,
    sequencing,
    short_tool,
    skill_check,
    success_of,
    terminal_tools,
)
from ._mantle_criteria import Rule
from ._mantle_exact import CODE as _CODE
from ._mantle_exact import exact as _exact
from ._mantle_exact import fits, holds
from ._mantle_flagged import covered_lookup
from ._mantle_needs import sentence_fields
from ._mantle_order import (
    block_tool_marks,
    merged,
    requires_marks,
    runs_before_ask,
    without_own_writes,
)
from ._mantle_picked import picked_from_offer
from ._mantle_pinned import (
    loose_parameters,
    reclassified,
    sentence_pinned,
    unpinned_parameters,
)
from ._mantle_script import Script
from ._mantle_unfixed import (
    fixed_by_tools,
    inferred_keys,
    ordered_tools,
    unfixed_keys,
    without_initial,
    without_unfixed,
    without_values,
)


def answered_keys(project: Project) -> frozenset[str]:
    """Memory a tool writes from what a service outside the agent answers
    (`OutsideEffect.answered`: `order["order_number"]`, a flag set only on a busy reply),
    qualified for each skill that can call it: whether and what it writes no case can fix,
    so a case asserts that the tool ran, never these. One set per project: it reads every
    skill, and each case's goals (and `casegen mutate`'s reading of a run) ask for it."""
    defs = project.mantle
    if defs is None:
        return frozenset()
    return memoized(defs, "outside_answered_keys", lambda: _answered_now(project, defs))


def _answered_now(project: Project, defs: MantleDefinitions) -> frozenset[str]:
    found: set[str] = set()
    other: set[str] = set()  # also written by the user, a step, the prose or code
    for skill_id, skill in defs.skills.items():
        for tool in defs.tools_for(skill_id).values():
            effect = outside_effect(project, tool)
            answered = set(effect.answered) if effect is not None else set()
            for write in code_facts(project, tool).writes:
                key = qualify(write.key, skill_id, defs)
                (found if write.key in answered else other).add(key)
        for block in skill.blocks.values():
            for step in block.steps:
                if step.kind == "collect":
                    other.add(qualify(str(step.target), skill_id, defs))
                elif step.kind == "set_memory" and isinstance(step.target, dict):
                    other |= {qualify(str(k), skill_id, defs) for k in step.target}
    found = {k for k in found - other if not model_sets(defs, k)}
    for skill_id in defs.skills:  # what a service reports, whoever writes it
        found |= reported_fields(project, skill_id)
    return frozenset(found)


def unanswered(check: Check | None, answered: frozenset[str]) -> Check | None:
    """`check` without the `memory_was_set` entries of `answered` (`answered_keys`; a
    sequencing left with fewer than two steps goes)."""
    if not check or not answered:
        return check
    items = check.get("memory_was_set")
    if isinstance(items, list):
        kept = [i for i in items if not (isinstance(i, dict) and i.get("name") in answered)]
        return {"memory_was_set": kept} if kept else None
    steps = check.get("sequencing")
    if isinstance(steps, list):
        kept = [c for c in steps if c.get("memory_was_set") not in answered]
        return {"sequencing": kept} if len(kept) > 1 else None
    return check


class PathGoals(AvoidedGoals):
    """Collects the criteria and assertions of one draft (see `Goals` for the behaviours)."""

    def __init__(self, project: Project, script: Script) -> None:
        assert project.mantle is not None
        self.project = project
        self.defs: MantleDefinitions = project.mantle
        self.script = script
        self.facts = script.facts
        self.skill: Skill = self.defs.skills[script.behavior.source]
        self.walk: Walk = script.walk
        self.success: Success = success_of(project, self.skill)
        self.criteria: list[str] = []
        self.assertions: list[Check] = []
        self._answered: frozenset[str] | None = None

    # --- collecting ----------------------------------------------------------------------

    def add(self, check: Check | None) -> None:
        check = self._unanswered(self._exact_arguments(check))
        check = without_initial(without_unfixed(check, self.unfixed()), self.defs)
        check = without_values(check, self.unsaid())
        new = check and check not in self.assertions and self._known(check)
        if new and check and not self._implied(check):
            self.assertions.append(check)

    def _implied(self, check: Check) -> bool:
        """Whether `check` is a `tool_executed` that another of the case's says more of
        (the same call with its arguments): the one without them is dropped, since a run
        that passes the other passes it too."""
        body = check.get("tool_executed")
        if not isinstance(body, dict):
            return False
        bare = {k: v for k, v in body.items() if k != "arguments"}
        for n, other in enumerate(self.assertions):
            known = other.get("tool_executed")
            if not isinstance(known, dict) or known == body:
                continue
            if {k: v for k, v in known.items() if k != "arguments"} != bare:
                continue
            if body.get("arguments") and not known.get("arguments"):
                self.assertions[n] = check  # the call said in full takes its place
                return True
            if known.get("arguments") and not body.get("arguments"):
                return True
        return False

    def unfixed(self) -> frozenset[str]:
        """Entries of the case's skills no definition has a correct agent write
        (`_mantle_unfixed`), less those a tool the case runs `requires`."""
        walks = [w for w in (self.script.prelude, self.walk, self.script.other) if w]
        out: set[str] = set()
        for walk in walks:
            skill = self.defs.skills.get(walk.skill)
            if skill is None:
                continue
            ran = {e.tool for e in walk.tools() if e.tool and not e.error}
            out |= unfixed_keys(self.project, skill.id) - fixed_by_tools(skill, ran)
        return frozenset(out)

    def answered_keys(self) -> frozenset[str]:
        """See `answered_keys` (the module function)."""
        kept = self._answered
        if kept is None:
            kept = self._answered = answered_keys(self.project)
        return kept

    def _unanswered(self, check: Check | None) -> Check | None:
        return unanswered(check, self.answered_keys())

    def _exact_arguments(self, check: Check | None) -> Check | None:
        """`check` without the tool arguments that hold free text the user said (a date,
        a description): an agent may word or normalize them its own way, so only choices,
        numbers, yes/no and ids are asserted (`_mantle_exact`). Nor one whose value is not
        of the type the tool's annotation or the source field takes (`items: true` for a
        `list[dict]`, the text of a JSON field): another type never matches. Nor one the tool's code
        normalises itself (`country.strip().lower()`, `_normalised`): "UK" is as correct as
        "uk" there; the value the user chose stands as a memory fact instead. Nor one the user
        picks among the options a tool's answer lists (`_mantle_picked`)."""
        body = check.get("tool_executed") if check else None
        if not isinstance(body, dict) or not body.get("arguments"):
            return check
        skill = str(body.get("skill_id") or self._tool_owner(str(body.get("tool_name"))))
        model = skill_model(self.project, skill)
        use = model.tool(str(body.get("tool_name"))) if model is not None else None
        sources = dict(use.arguments) if use is not None else {}
        names = self.defs.memory_names()
        tool = self.defs.tools_for(skill).get(str(body.get("tool_name")))
        folded = normalised_parameters(self.project, tool) if tool is not None else frozenset()
        if tool is not None:  # a default the model may leave out; a value nobody asked
            answered = frozenset(a.field for a in self._all_asks() if a.field)
            needed = self.script.needed
            passed = sentence_fields(self.project, skill, tool.name)
            folded |= unpinned_parameters(self.defs, skill, tool, sources, answered, needed, passed)
            folded |= loose_parameters(tool, body["arguments"], sources, skill, self.unsaid())
            folded |= reclassified(self.defs, skill, sources, self.script.walk.memory)
            folded -= sentence_pinned(self.project, skill, tool, body["arguments"])
        kept = {}
        for param, value in body["arguments"].items():
            if param in folded:
                continue
            field_def = names.get(sources.get(param) or f"{skill}.{param}")
            if field_def is not None and picked_from_offer(
                self.defs, field_def, self.script.walk.memory
            ):
                continue  # one of the options a tool's answer lists: no case fixes which
            said = field_def is not None and field_def.type == "text" and isinstance(value, str)
            declared = tool.parameter(param) if tool is not None else None
            field_holds = field_def is None or holds(field_def.type, value, field_def.enum_values)
            if not (field_holds and fits(declared.type if declared else None, value)):
                continue  # a value of another type never equals what the agent passes
            if not (said and not _exact("text", value)):
                kept[param] = value
        if kept == body["arguments"]:
            return check
        pruned = {k: v for k, v in body.items() if k != "arguments"}
        if kept:
            pruned = {**pruned, "arguments": kept}
        return {"tool_executed": {k: pruned[k] for k in body if k in pruned}}

    def _tool_owner(self, tool: str) -> str:
        """The skill of the case whose tools hold `tool` (a hand-off's tool runs under the
        skill it hands to), else the case's own."""
        walks = [w for w in (self.walk, self.script.other, self.script.prelude) if w]
        for skill in [w.skill for w in walks] + self.called(self.walk):
            if skill in self.defs.skills and tool in self.defs.tools_for(skill):
                return skill
        return self.skill.id

    def unsaid(self) -> frozenset[str]:
        """Entries of the case's skills the model infers from the user's words ("Set
        question_type from what they ask") where no fact, answer or request of the case
        gives them: the walk's value for such an entry is a guess the case cannot fix."""
        walks = [w for w in (self.script.prelude, self.walk, self.script.other) if w]
        told = {f.field for f in self.script.sheet.facts if f.field}
        told |= {*(self.facts.get("values") or {}), *(self.facts.get("given") or {})}
        told |= {*(self.facts.get("request_values") or {}), *self.script.stated}
        told |= {a.field for a in self._all_asks() if a.field}
        out: set[str] = set()
        for walk in walks:
            out |= inferred_keys(self.project, walk.skill)
            told |= set(self.looked_up(walk))  # copied from the one record a lookup returned
        return frozenset((out - told) | self.unhanded())

    def unhanded(self) -> frozenset[str]:
        """An escalation's hand-off choices the skill it leaves does not name (a `topic`
        with no value of the identity check's own kind) and the hand-off's prose does not
        ask for ("Set topic from what they need"): the model reads one into the user's
        words ("look up my reservation ... rather a person"), and which one it reads is no
        case's to fix, though the walk's hand-off drew one."""
        other = self.script.other
        if not self.facts.get("escalation") or other is None:
            return frozenset()
        handoff = self.defs.skills.get(other.skill)
        if handoff is None or not handoff.is_handoff:
            return frozenset()
        named = handed_values(handoff, self.skill)
        return frozenset(
            f.qualified
            for f in handoff.memory.values()
            if f.type == "categorical"
            and f.qualified not in named
            and f.qualified in inferred_keys(self.project, handoff.id)
            and not asks_for(handoff.body or "", f, lambda _: True)
        )

    def _all_asks(self) -> list[Any]:
        """The asks of every walk of the case (the sign-in's, the skill's, a detour's)."""
        walks = [self.script.prelude, self.walk, self.script.other]
        return [a for w in walks if w is not None for a in w.asks]

    def _known(self, check: Check) -> bool:
        """A message check names a response the project defines (an action step may not)."""
        for key in ("bot_uttered", "bot_did_not_utter"):
            body = check.get(key)
            if isinstance(body, dict) and body.get("utter_name"):
                return self.defs.response(str(body["utter_name"])) is not None
        return True

    def criterion(self, text: str | None) -> None:
        """Add a criterion; one that only begins another ("does not ask again" beside "does
        not ask again for something the customer already gave") says less and gives way."""
        if not text or text in self.criteria:
            return
        words = text.lower().split()
        for index, have in enumerate(self.criteria):
            known = have.lower().split()
            if known[: len(words)] == words:
                return
            if words[: len(known)] == known:
                self.criteria[index] = text
                return
        self.criteria.append(text)

    def unasserted(self, rules: list[Rule], skill: str) -> list[Rule]:
        """`rules` of `skill` less those that only say it ends (`Rule.completion`) where the
        case asserts its `skill_completed` already."""
        if {"skill_completed": {"skill_id": skill}} not in self.assertions:
            return rules
        return [r for r in rules if not r.completion]

    def add_sequence(self, steps: list[Check]) -> None:
        self.add(sequencing(without_own_writes(steps, self.own_writes)))

    def own_writes(self, tool: str) -> set[str]:
        """Every key the tool's code writes (any branch), qualified for each skill of the
        case that can call it: what Rasa records before the tool's own event."""
        skills = {self.walk.skill, *(s.skill for s in [self.script.other] if s is not None)}
        skills |= set(self.called(self.walk))
        keys: set[str] = set()
        for skill in skills:
            tool_def = self.defs.tools_for(skill).get(tool) if skill in self.defs.skills else None
            if tool_def is not None:
                writes = code_facts(self.project, tool_def).writes
                keys |= {qualify(w.key, skill, self.defs) for w in writes}
        return keys

    # --- reading the path ----------------------------------------------------------------

    def memory_items(self, walk: Walk, keys: list[str]) -> list[dict[str, Any]]:
        """The last recorded value of each key (keys with a known value only). A choice the
        user answers in words an instructions step reads is recorded as set; its value is
        still the enum value the user picked."""
        names = self.defs.memory_view()
        values: dict[str, Any] = {}
        for event in walk.events:
            if event.kind != "memory" or event.key not in keys:
                continue
            value = event.value
            field = names.get(event.key or "")
            if value is SET and field is not None and field.type == "categorical":
                picked = [a.value for a in walk.asks if a.field == event.key]
                value = picked[-1] if picked and picked[-1] in field.enum_values else SET
            kind, choices = (field.type, field.enum_values) if field else (None, None)
            if value is not SET and holds(kind, value, choices):
                values[str(event.key)] = value
        return [{"name": k, "value": values[k]} for k in keys if k in values]

    def chosen_keys(self, walk: Walk) -> list[str]:
        """Fields the customer chose (categorical answers), literals the blocks set, and the
        verification flag: the memory facts of a path."""
        names = self.defs.memory_view()
        keys: list[str] = []
        for ask in walk.asks:
            field = names.get(ask.field or "")
            if field is not None and field.type == "categorical":
                keys.append(field.qualified)
        keys += [k for k in (self.facts.get("given") or {}) if k.startswith(walk.skill + ".")]
        # the values the behaviour routes on (set from the request or from a record the user
        # picks): the branch the case is about, so a wrong value fails it
        routed = {**(self.facts.get("values") or {}), **(self.facts.get("request_values") or {})}
        looked_up = self.locally_written(walk)
        model = skill_model(self.project, walk.skill)
        for key in routed:
            field = names.get(key)
            categorical = field is not None and field.type == "categorical"
            # a field no line tells the agent to set is asserted only where a prose `if:`
            # scopes a paragraph on the value ("if: session.door_access.request ==
            # \"lockout\""): the runtime strips that paragraph from the prompt until it holds,
            # so an agent that does what it says has written the value
            spec = model.field(key)
            unset = (
                spec is not None
                and spec.asked_by in ("prose", "request")
                and not spec.sentences
                and not _scopes_prose(model.branches, key, routed[key])
            )
            # the flag an aside case is about (`aside`: its yes sets off the aside)
            point = key == self.facts.get("aside")
            mine = key.startswith(walk.skill + ".")
            if (categorical or key in looked_up or point) and mine and not unset:
                keys.append(key)
        skill = self.defs.skills[walk.skill]
        for block in skill.blocks.values():
            for step in block.steps:
                if step.kind == "set_memory" and isinstance(step.target, dict):
                    keys += [qualify(str(k), skill.id, self.defs) for k in step.target]
        # the flags the prose has the agent record itself ("…; set balance_told."), as
        # the walk set them: the prose's own `set_memory`
        records = skill_model(self.project, skill.id).records
        keys += [r.qualified for r in records if walk.memory.get(r.qualified) is True]
        if any(a.kind == "identity" for a in walk.asks):
            keys += [
                e.key
                for e in walk.events
                if e.kind == "memory" and e.key and e.key.startswith("project.") and e.value is True
            ]
        left = self.left_open()
        return [k for k in dict.fromkeys(keys) if k not in left]

    def locally_written(self, walk: Walk) -> set[str]:
        """Keys the path's successful runs of local tools write (ones that act on no outside
        service, `outside_effect`): a status such a tool reads from the project's own data
        for the record the case fixes is the same on every run, so the branch it picks is
        asserted by its value (else every branch case of a free argument asserts the same)."""
        tools = self.defs.tools_for(walk.skill)
        keys: set[str] = set()
        for event in walk.tools():
            tool = tools.get(event.tool or "")
            if event.error or tool is None or event.skill != walk.skill:
                continue
            if outside_effect(self.project, tool) is None:
                keys.update(self.tool_writes(tool.name, walk.skill))
        return keys

    def left_open(self) -> frozenset[str]:
        """Fields the prose sets only after an ask it leaves to the agent (`optional_fields`:
        the reference agent's `skip_optional` variants) that this case does not fix: a
        correct agent may never ask, so nothing the case checks rests on them."""
        fixed = {
            *(self.facts.get("values") or {}),
            *(self.facts.get("given") or {}),
            *(self.facts.get("request_values") or {}),
        }
        return optional_fields(self.project, self.skill.id) - fixed

    def recorded(self, walk: Walk, *, limit: int = 10) -> list[dict[str, Any]]:
        """`memory_was_set` items of a path: the chosen values (with their value), then, by
        name only, what the path's successful tool runs write (ids and flags a real backend
        chooses) and the fields its block steps wait for (the user's answer, which an agent
        may word its own way). A key a step or tool forgets fails one of these. The skill's
        own keys come before keys of other namespaces (a called skill's `project.` flags,
        which that skill's own cases assert), so a long path keeps its own within `limit`."""
        items = self.memory_items(walk, self.chosen_keys(walk))
        named = [i["name"] for i in items]
        declared = self.defs.memory_names()
        left = self.left_open()
        extra = [
            k
            for k in self.tool_written(walk) + self.step_fields(walk)
            if k in declared and k not in left
        ]
        extra.sort(key=lambda k: not k.startswith(walk.skill + "."))
        for key in dict.fromkeys(extra):
            if key not in named and len(items) < limit:
                items.append({"name": key})
                named.append(key)
        return items

    def asserted_writes(self, tool: str, skill_id: str) -> list[str]:
        """The keys `tool`'s code writes that a case may assert: not one written from an
        outside service's answer (`answered_keys`), so a call that writes only such keys
        stands for itself where an order is asserted."""
        answered = answered_keys(self.project)
        return [k for k in self.tool_writes(tool, skill_id) if k not in answered]

    def tool_written(self, walk: Walk) -> list[str]:
        """Keys the path's successful tool runs write (as the walk recorded them)."""
        written = self.written(walk)
        keys: list[str] = []
        for event in walk.tools():
            if event.error or not event.tool or not event.skill:
                continue
            keys += [k for k in self.tool_writes(event.tool, event.skill) if k in written]
        return list(dict.fromkeys(keys))

    def step_fields(self, walk: Walk) -> list[str]:
        """Fields the block steps on the path wait for (`collect`, `complete_when`) that the
        case's user has an answer for (a fact, or a value given up front)."""
        written = self.written(walk)
        answered = {f.field for f in self.script.sheet.facts if f.field}
        answered |= set(self.facts.get("given") or {})
        keys = [
            a.field
            for a in walk.asks
            if a.step
            and a.field
            and (a.kind == "collect" or (a.kind == "instructions" and self._waits_on(a)))
            and a.field in written
            and a.field in answered
        ]
        return list(dict.fromkeys(keys + self.looked_up(walk)))

    def _waits_on(self, ask: Ask) -> bool:
        """Whether the instructions step of `ask` waits for its field (`complete_when`): one
        it only sets on the way ("Ask whether the car can still be driven") may be left
        unset by a correct agent once the step's own condition holds."""
        skill = self.defs.skills.get(ask.skill)
        block = skill.blocks.get(ask.block or "") if skill is not None else None
        step = next((s for s in block.steps if s.id == ask.step), None) if block else None
        if step is None or not ask.field:
            return True
        ends = str(step.fields.get("complete_when") or "")
        keys = {k.removeprefix("session.") for k in condition_keys(ends)}
        return not ends or ask.field in keys or ask.field in {qualify(k, ask.skill) for k in keys}

    def looked_up(self, walk: Walk) -> list[str]:
        """Fields an instructions step on the path waits for and sets from the one record
        a lookup returned ("set coworker_id to its employee_id", `record_key`), which the
        walk wrote without asking: the step goes on only once it is set."""
        written = self.written(walk)
        skill = self.defs.skills[walk.skill]
        asked = {a.field for a in walk.asks if a.field}
        keys = []
        for block in skill.blocks.values():
            for step in block.steps:
                if f"step:{skill.id}.{block.id}.{step.id}" not in walk.elements:
                    continue
                waits = condition_keys(str(step.fields.get("complete_when") or ""))
                for key in waits:
                    own = record_key(key.split(".", 1)[-1], str(step.target or ""))
                    if own and key in written and key not in asked:
                        keys.append(key)
        return keys

    def with_arguments(self, event: Event, walk: Walk) -> Event:
        """`event` with the arguments the user's own answers fix added (the field a parameter
        is filled from, as the skill model maps it, else the skill's or the project's field of
        the parameter's name). Only values an agent passes as given are added: choices,
        numbers, yes/no, and ids or codes (`HM-AU-5520917`); never prose a model may reword."""
        tools = self.defs.tools_for(event.skill or walk.skill)
        tool = tools.get(event.tool or "")
        if tool is None:
            return event
        model = skill_model(self.project, event.skill or walk.skill)
        use = model.tool(tool.name) if model is not None else None
        sources = dict(use.arguments) if use is not None else {}
        told = self.told_values(walk)
        added: dict[str, Any] = {}
        for param in tool.parameters:
            if param.name in event.arguments or "ToolContext" in (param.type or ""):
                continue
            skill = event.skill or walk.skill
            for key in (sources.get(param.name), f"{skill}.{param.name}", f"project.{param.name}"):
                if key and key in told:
                    added[param.name] = told[key]
                    break
        if not added:
            return event
        return replace(event, arguments={**event.arguments, **added})

    def told_values(self, walk: Walk) -> dict[str, Any]:
        """Qualified field -> the value the user's facts fix, where an agent passes it as is."""
        names = self.defs.memory_view()
        out: dict[str, Any] = {}
        asked = {a.field for a in walk.asks if a.field} | set(self.facts.get("given") or {})
        asked |= set(self.script.stated) if walk is self.walk else set()
        for key in asked | set(self.looked_up(walk) if walk.skill in self.defs.skills else ()):
            value = walk.memory.get(key)
            if key in names and value is not None and _exact(names[key].type, value):
                out[key] = value
        for fact in self.script.sheet.facts:
            field_def = names.get(fact.field or "")
            text = field_def is not None and field_def.type == "text"
            if text and fact.field not in out and _CODE.fullmatch(fact.value):
                out[str(fact.field)] = fact.value
        return out

    def memory_pairs(self, walk: Walk) -> list[tuple[str, Any]]:
        return [(i["name"], i["value"]) for i in self.memory_items(walk, self.chosen_keys(walk))]

    def called(self, walk: Walk) -> list[str]:
        """Skills a block's `call:` step on the path runs (the runtime activates each one as
        the step runs, whatever the agent says): an agent that skips the step never does.
        Also a skill the prose hands the work to unconditionally ("Then invoke
        `@skill.run_diagnostics` so a real speed test runs"), which the path ran: every
        correct agent does, where one under an `if:` or an "If …" waits on its condition."""
        skill = self.defs.skills[walk.skill]
        active = {e.skill for e in walk.events if e.kind == "skill_activated"}
        out = []
        for block in skill.blocks.values():
            for step in block.steps:
                element = f"step:{skill.id}.{block.id}.{step.id}"
                target = str(step.target)
                if step.kind == "call" and element in walk.elements and target in active:
                    out.append(target)
        for sentence in sentences(skill.body or ""):
            if sentence.condition or _CONDITIONAL_LEADS & {
                sentence.text.split(" ", 1)[0].strip(",").lower()
            }:
                continue
            for name in active - {skill.id}:
                if f"@skill.{name}" not in sentence.text or self.defs.skills[name].is_handoff:
                    continue  # a hand-off is the escalation's to assert
                out.append(name)
        return [s for s in dict.fromkeys(out) if s != skill.id]

    def gated(self, skill: Skill | None = None) -> list[str]:
        skill = skill or self.skill
        return [
            name
            for name, c in skill.tool_constraints.items()
            if c.requires_confirmation is not None and c.requires_confirmation.enabled
        ]

    def main_tools(self, walk: Walk) -> list[Event]:
        """Tools worth asserting: terminal, gated and MCP ones, and ones fed a chosen value."""
        chosen = {v for _, v in self.memory_pairs(walk) if _hashable_value(v)}
        important = set(self.gated()) | set(terminal_tools(self.project, self.skill))
        picked = []
        own = self.own_skills(walk)
        for event in walk.tools():
            if event.skill not in own:
                continue
            values = [v for v in event.arguments.values() if _hashable_value(v)]
            if event.tool in important or event.source == "mcp" or set(values) & chosen:
                picked.append(event)
        return picked

    def path_tools(self, walk: Walk, limit: int = 7) -> list[Event]:
        """The skill's tool runs worth a `tool_executed` each: the main ones (gated, MCP, fed
        a chosen value), then every other tool the path runs (its last run), lookups
        included, since an agent can skip one, fail it silently or feed it a wrong value;
        the terminal run always comes last."""
        terminal = self.terminal_runs(walk)
        last: dict[str, Event] = {}
        own = self.own_skills(walk)
        for event in walk.tools():
            if event.skill in own and event.tool:
                last.pop(event.tool, None)
                last[event.tool] = event
        end = terminal[-1:]
        main = [e for e in self.main_tools(walk) if e not in terminal]
        main = [e for e in main if last.get(e.tool or "") is e]
        rest = [e for e in last.values() if e not in main and e not in terminal]
        rest = [e for e in rest if not end or e.tool != end[0].tool]
        # a reference lookup another run's answer already covers (`in_policy` in the flight
        # search's offers) a correct agent may skip (`_mantle_flagged`)
        ran = [self.defs.tools_for(e.skill or walk.skill).get(e.tool or "") for e in last.values()]
        others = [t for t in ran if t is not None]
        rest = [
            e
            for e in rest
            if (tool := self.defs.tools_for(e.skill or walk.skill).get(e.tool or "")) is None
            or not covered_lookup(self.project, tool, others)
        ]
        return (main + rest)[: limit - len(end)] + end

    def own_skills(self, walk: Walk) -> set[str | None]:
        """The case's skill and the skills its path `call:`s (they run inside it and
        return: their tools are part of its path, recorded under their own ids)."""
        return {walk.skill, *self.called(walk)}

    def gated_here(self, event: Event) -> bool:
        skill = self.defs.skills.get(event.skill or "")
        return skill is not None and event.tool in self.gated(skill)

    def success_runs(self, walk: Walk) -> list[Event]:
        """Runs without an error of the tools the walk's success signals name (`tool:x` in
        its expected and reached signals): the skill's goal where it has no terminal tool
        (no `complete_when`, no confirmation gate; the prose says to call it)."""
        wanted = {s.removeprefix("tool:") for s in walk.expected if s.startswith("tool:")}
        wanted &= {s.removeprefix("tool:") for s in walk.success if s.startswith("tool:")}
        own = self.own_skills(walk)
        return [e for e in walk.tools() if e.tool in wanted and not e.error and e.skill in own]

    def terminal_runs(self, walk: Walk) -> list[Event]:
        """Runs of the skill's terminal tool(s) on the path that ended without an error."""
        terminal = set(terminal_tools(self.project, self.skill))
        return [e for e in walk.tools() if e.tool in terminal and not e.error]

    def block_utters(self, walk: Walk) -> list[str]:
        """Responses of the `action` steps the path went through, in block order."""
        out = []
        for block in self.skill.blocks.values():
            for step in block.steps:
                element = f"step:{self.skill.id}.{block.id}.{step.id}"
                if step.kind == "action" and element in walk.elements:
                    out.append(str(step.target))
        return out

    def collect_utters(self, walk: Walk) -> list[str]:
        """The `utterance` of each `collect` step the path asks that every correct agent
        asks with it (`_mantle_asked`): the framework runs such a step without a model, so
        an agent that skips the step and asks later in its own words fails it; never one
        whose slot the model may fill before the step."""
        context = self.script.context
        first = " ".join(str(t or "") for t in (context.opening, context.after_first))
        path = (walk.elements, set(walk.utters()), walk.memory)
        return framework_asks(self.defs, self.skill, path, first, _looked_up(walk))

    def response_of(self, tool: str, attribute: str, skill: Skill | None = None) -> str | None:
        constraint = (skill or self.skill).tool_constraints.get(tool)
        if constraint is None:
            return None
        if attribute in ("utter_for_confirmation", "utter_on_user_denial"):
            confirmation = constraint.requires_confirmation
            return getattr(confirmation, attribute) if confirmation else None
        return getattr(constraint, attribute)

    def uttered(self, walk: Walk, name: str | None) -> bool:
        return bool(name) and name in walk.utters()

    # --- sequences -----------------------------------------------------------------------

    def sequence(self, walk: Walk) -> list[Check]:
        """Order that matters on a path: activation, the routing value, the tools it feeds,
        the gated or terminal tool and completion (messages are asserted on their own)."""
        steps: list[Check] = [skill_check("skill_activated", walk.skill)]
        chosen = [k for k, _ in self.memory_pairs(walk) if k.startswith(walk.skill + ".")]
        # in the walk's order: a tool the skill runs before the routing value is asked for
        # ("check the flight status before anything else") comes before it
        placed: list[tuple[int, Check]] = []
        if chosen:
            first = next(
                (i for i, e in enumerate(walk.events) if e.kind == "memory" and e.key == chosen[0]),
                len(walk.events),
            )
            placed.append((first, {"memory_was_set": chosen[0]}))
        # a tool only the prose calls keeps no walk order against another: only one whose
        # place the definitions fix (`ordered_tools`; a terminal one, a called skill's)
        skill = self.defs.skills[walk.skill]
        ends = ordered_tools(self.defs, skill) | set(terminal_tools(self.project, self.skill))
        called = set(self.called(walk))
        for event in self.main_tools(walk):
            if not event.error and (event.tool in ends or event.skill in called):
                at = next((i for i, e in enumerate(walk.events) if e is event), len(walk.events))
                placed.append((at, short_tool(event)))
        # orders the definitions fix for every agent (`_mantle_order`)
        placed += block_tool_marks(skill, walk)
        # a value the user gave before being asked is the model's to record at once or only
        # at the block step that waits for it: no order holds against the runtime's steps
        # before that one (a tool's `requires` still orders it before that tool)
        # nor against a tool run before it (the model may record it before or after), nor
        # against one the prose puts first
        early = {*(self.facts.get("given") or {}), *self.script.stated, *self.script.told.values()}
        placed = [
            (i, c)
            for i, c in placed
            if c.get("memory_was_set") not in early
            or not any(j > i for j, _ in runs_before_ask(skill, str(c["memory_was_set"]), placed))
        ]
        placed = [(i, c) for i, c in placed if not _around_tool(i, c, early, placed)]
        placed += requires_marks(skill, walk, lambda tool: self.asserted_writes(tool, skill.id))
        declared = self.defs.memory_names()
        placed = [
            (i, c)
            for i, c in placed
            if str(c.get("memory_was_set", "")) in declared or "memory_was_set" not in c
        ]
        if chosen:
            by_tools = {
                k for e in walk.events if e.kind == "tool" for k in self.own_writes(str(e.tool))
            }
            placed = _route_left_open(skill, chosen[0], walk, placed, by_tools)
        steps += merged(placed)
        if walk.completed:
            steps.append(skill_check("skill_completed", walk.skill))
        return steps


def _route_left_open(
    skill: Skill, key: str, walk: Walk, placed: list[tuple[int, Check]], by_tools: set[str]
) -> list[tuple[int, Check]]:
    """`placed` without the routing value's write where the prose routes on it (`if:
    session.baggage.mode == ...` paragraphs) and a later step writes a value the agent
    records itself (no block step asks for it, no tool writes it) that none of those
    paragraphs names (the bag tag, introduced before the mode is set): the prose leaves the
    order of the two open, so the agent may record either first."""
    scoped = [
        c.paragraph
        for c in skill.prose_conditions
        if key in {k.removeprefix("session.") for k in condition_keys(c.condition)}
    ]
    if not scoped:
        return placed
    at = next((i for i, c in placed if c.get("memory_was_set") == key), None)
    if at is None:
        return placed
    block_asked = {a.field for a in walk.asks if a.field and a.block is not None}

    def outside(name: str) -> bool:
        short = re.escape(name.split(".", 1)[-1])
        return not any(re.search(rf"(?<![\w.]){short}(?!\w)", p) for p in scoped)

    later = [
        str(c["memory_was_set"])
        for i, c in placed
        if i > at and isinstance(c.get("memory_was_set"), str) and c["memory_was_set"] != key
    ]
    if any(k not in block_asked and k not in by_tools and outside(k) for k in later):
        return [(i, c) for i, c in placed if c.get("memory_was_set") != key]
    return placed


def _around_tool(at: int, check: Check, early: set[str], placed: list[tuple[int, Check]]) -> bool:
    """Whether `check` writes a value the user gave up front and is placed against a tool,
    before or after it: an llm-settable value may be recorded from the opening or only at
    the step that waits for it (a tool's `requires` orders it again, `requires_marks`)."""
    if check.get("memory_was_set") not in early:
        return False
    return any(j != at and "tool_executed" in c for j, c in placed)


def _looked_up(walk: Walk) -> set[str]:
    """The skill's blocks the path enters after running a tool of an outside service (an
    MCP tool) for the skill: its answer may fill a slot before the block's step asks."""
    out: set[str] = set()
    outside = False
    for event in walk.events:
        if event.skill != walk.skill:
            continue
        if event.kind == "tool" and event.source == "mcp":
            outside = True
        elif event.kind == "block_entered" and outside and event.block:
            out.add(event.block)
    return out


def _hashable_value(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return value is not SET


__all__ = ["PathGoals", "answered_keys", "unanswered"]


def _scopes_prose(branches: list[Any], key: str, value: Any) -> bool:
    """Whether a prose `if:` paragraph holds once `key` is `value` and not before."""
    return any(
        branch.kind == "prose_if"
        and key in branch.keys
        and any(
            o.condition and evaluate(o.condition, {key: value}) and not evaluate(o.condition, {})
            for o in branch.options
        )
        for branch in branches
    )
