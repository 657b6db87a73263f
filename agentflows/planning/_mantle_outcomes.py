"""The behaviours of one Mantle skill that end the skill: its happy paths (one per routing
group), a declined confirmation, a failing tool and a tool result that takes the `else`
branch."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from evalcore.agents.reference import optional_fields
from evalcore.definitions import MemoryField, Project
from evalcore.definitions.conditions import condition_keys
from evalcore.definitions.skill_model import (
    branch_target,
    branch_values,
    code_facts,
    outside_effect,
    qualify,
    reported_fields,
)
from evalcore.testdata import (
    NEGATIVE_ACCOUNT,
    account_value,
    callers_in,
    load_records,
    names_an_id,
    recorded,
)

from ..drafting.offline import value_words
from ._behavior import CHAINED, NOT_WRITTEN, Behavior
from ._mantle_elements import skill_responses
from ._mantle_thresholds import ThresholdBehaviors
from ._mantle_tools import failure_outcome, outcome_words, tool_keys
from ._mantle_vocab import channel_fields, is_caller_phone, value_groups
from ._mantle_walk import Walk
from ._mantle_wrong_detail import wrong_detail_check


def _unwritten(branches: list[Behavior], reason: str) -> list[Behavior]:
    """The branch behaviours behind a plain happy path: planned, ranked after it, and
    reported as not written for `reason`."""
    return [
        b.model_copy(update={"priority": 31 + i, "facts": {**b.facts, NOT_WRITTEN: reason}})
        for i, b in enumerate(branches)
    ]


def numbers_decide(project: Project, skill_id: str, tool: str, keys: Iterable[str]) -> bool:
    """Whether every flag of `keys` is one `tool` writes from comparing the user's number
    arguments with a data file's rows (`CodeFacts.thresholds`: `below_par`): the numbers
    the case gives decide the branch (`_mantle_data_sides.numbers_on_side`)."""
    assert project.mantle is not None
    found = project.mantle.tools_for(skill_id).get(tool)
    limits = code_facts(project, found).thresholds if found is not None else ()
    decided = {qualify(t.key, skill_id, project.mantle) for t in limits}
    keys = set(keys)
    return bool(keys) and keys <= decided


def negative_unmade(project: Project, skill_id: str, tool: str, keys: Iterable[str]) -> str | None:
    """Why no case can make `tool` come back negative on `keys` (None: one can): not a
    wrong-detail check, nor a flag the user's own numbers decide (a threshold), the case
    seeds a caller phone, and the project's records hold callers of their own, none with
    the negative test account's phone."""
    assert project.mantle is not None
    keys = list(keys)
    if wrong_detail_check(project, skill_id, tool, keys) is not None:
        return None
    if numbers_decide(project, skill_id, tool, keys):
        return None  # the user's own numbers decide it (`_mantle_data_sides`)
    if not any(is_caller_phone(f) for f in channel_fields(project.mantle)):
        return None  # the account goes in a session id, not in an invented caller's phone
    callers = callers_in(load_records(project.root))
    if not callers or any(c.phone == NEGATIVE_ACCOUNT for c in callers):
        return None
    return (
        f"{tool} comes back negative only on what the project's data and the run give it: no "
        "detail of the case makes it, and a seeded test account no record holds would be "
        "turned away as an unknown caller before it"
    )


class OutcomeBehaviors(ThresholdBehaviors):
    def happy_paths(self, elements: list[str]) -> list[Behavior]:
        optional = optional_fields(self.project, self.skill.id)
        if self.routing and all(f.qualified in optional for f in self.routing):
            # every branch rests on a value the prose only permits ("you may ask for a
            # rating"): a correct agent may never ask, so the goal is the unconditional
            # prose, one plain happy path; the branches stay behind it, planned but never
            # written: their case would have to require a value a correct agent may never
            # ask for (the report says so)
            names = ", ".join(f"`{f.qualified}`" for f in self.routing)
            reason = (
                f"the branch rests on {names}, which the prose only lets the agent ask for: "
                "a correct agent may never ask, so no sound case can require its value"
            )
            branches = self._branch_paths(elements)
            return [self._plain_happy(elements), *_unwritten(branches, reason)]
        reported = reported_fields(self.project, self.skill.id)
        if self.routing and all(f.qualified in reported for f in self.routing):
            # every branch rests on a value a service outside the agent reports ("status
            # as fulfilment reports it"): no case can pick it, so one plain happy path
            # asserts the call, and the branches are planned only to be reported unwritten
            names = ", ".join(f"`{f.qualified}`" for f in self.routing)
            reason = (
                f"the branch rests on {names}, which a service outside the agent reports: "
                "nothing in a case decides that answer, so no sound case can require it"
            )
            branches = self._branch_paths(elements)
            # the plain case walks the base choice (the first branch that completes): the
            # service answers something, and the walk needs one answer to go on with
            values = dict(branches[0].facts.get("values") or {})
            walk = self.walk({"values": values})
            plain = self.behavior(
                "happy",
                "happy_path",
                "happy",
                f"{self.name}: happy path",
                self._happy_text(walk, None, None),
                {"values": values},
                walk,
                elements,
                10,
            )
            return [plain, *_unwritten(branches, reason)]
        if not self.routing:
            return [self._plain_happy(elements)]
        return self._branch_paths(elements)

    def _plain_happy(self, elements: list[str]) -> Behavior:
        pinned = self.pin_sides({})
        facts = {"values": pinned} if pinned else {}
        walk = self.walk(facts)
        if self.skill.is_handoff:
            case, type_ = "request", "escalation"
            title = f"{self.name}: the customer asks for one straight away"
        else:
            case, type_, title = "happy", "happy_path", f"{self.name}: happy path"
        description = self._happy_text(walk, None, None)
        return self.behavior("happy", type_, case, title, description, facts, walk, elements, 10)

    def _branch_paths(self, elements: list[str]) -> list[Behavior]:
        candidates: list[tuple[bool, int, Any, Walk, dict[str, Any]]] = []
        first_field = self.routing[0]
        for field in self.routing:
            chosen = self.direction_value(field.qualified)
            group = next((g for g in value_groups(self.skill, field) if chosen in g), None)
            self.base[field.qualified] = chosen if group else value_groups(self.skill, field)[0][0]
        for field in self.routing:
            for order, group in enumerate(value_groups(self.skill, field)):
                chosen = self.direction_value(field.qualified)
                value = chosen if chosen in group else group[0]
                values = self.pin_sides({**self.base, field.qualified: value})
                walk = self.walk({"values": values})
                key = (field.qualified, value)
                candidates.append((walk.outcome != "done", order, key, walk, values))
        candidates.sort(key=lambda c: (c[0], c[1]))
        # The base choice is the first branch that completes (the direction's, if any).
        done = [c for c in candidates if not c[0]]
        self.completed_values = [dict(c[4]) for c in done]
        if done and self.direction_value(first_field.qualified) is None:
            self.base.update(done[0][4])
        out = []
        failing = self._failure_values()
        planned: list[dict[str, Any]] = []
        for index, (_, _, (qualified, value), walk, values) in enumerate(candidates):
            self.used_values.add((qualified, value))
            if values in planned:
                # the same choices as a branch already planned (one field's base value is
                # the branch another field plays: "book" with the base instrument is the
                # "confocal" case): one case plays them, not two that differ in filler
                continue
            planned.append(values)
            multiple = len(self.routing) > 1
            case = (f"{qualified.split('.', 1)[1]}_" if multiple else "") + str(value)
            type_ = "escalation" if walk.outcome == "handoff" else "happy_path"
            field_words = value_words(qualified.split(".", 1)[1])
            title = f"{self.name} ({field_words}: {value_words(value)})"
            facts: dict[str, Any] = {"values": values}
            tool = failing.get((qualified, str(value)))
            if tool is not None:  # that branch is the failure case's: no record leads there
                facts[NOT_WRITTEN] = (
                    f"only {tool}'s error branch writes {qualified} = {value}: its failure "
                    "case is that branch (a found record never takes it)"
                )
            unheld = self._unheld_id(walk) if tool is None else None
            chain = self._chained(walk, done, qualified, value) if unheld is not None else None
            extra: list[str] = []
            description = self._happy_text(walk, qualified, value)
            if chain is not None:  # first the branch that writes the id, then this one
                first, facts = chain
                extra, walk = list(walk.elements), first
                after = value_words(str(facts[CHAINED]["after"]))
                title = f"{title}, after {after}"
                description = (
                    f"In one conversation the customer first takes the {after} branch of "
                    f"{self.skill.id}, which writes {facts[CHAINED]['id']}, then asks for "
                    f"{qualified} = {value}: the agent uses the reference it just got and "
                    f"runs {', '.join(facts[CHAINED]['tools'])}."
                )
            elif unheld is not None:  # the user would have to give an id nobody holds
                facts[NOT_WRITTEN] = unheld
            out.append(
                self.behavior(
                    "happy",
                    type_,
                    case,
                    title,
                    description,
                    facts,
                    walk,
                    elements,
                    10 if index == 0 else 30 + index,
                    extra,
                )
            )
        return out

    def _chained(
        self, walk: Walk, done: list[Any], qualified: str, value: Any
    ) -> tuple[Walk, dict[str, Any]] | None:
        """Where the branch of `walk` asks for an id no caller holds but another branch of
        the same skill writes it (a tool's answer: "report the bag missing" gives the report
        reference "change the delivery" asks for), the walk and facts of a case that plays
        that branch first and then asks for this one in the same conversation; else None."""
        asked = [
            a.field
            for a in walk.asks
            if a.field
            and (f := self.defs.memory_field(a.field)) is not None
            and f.type == "text"
            and names_an_id(f.name)
        ]
        tools = list(dict.fromkeys(e.tool for e in walk.tools() if e.tool))
        if not asked or not tools:
            return None
        for _, _, (other, first_value), first, values in done:
            if other != qualified or first_value == value or first.outcome != "done":
                continue
            written = [
                e.key
                for e in first.events
                if e.kind == "memory" and e.key in asked and any(first.tools())
            ]
            # the follow-up's own calls: those the first branch does not make (its sign-in)
            ran = {e.tool for e in first.tools()}
            own = [t for t in tools if t not in ran]
            if not written or not own:
                continue
            chain = {
                "field": qualified,
                "value": value,
                "after": first_value,
                "id": written[0],
                "tools": own,
                "asks": [a.field for a in walk.asks if a.field and a.field != written[0]],
            }
            return first, {"values": dict(values), CHAINED: chain}
        return None

    def _unheld_id(self, walk: Walk) -> str | None:
        """Why no sound case plays the branch of `walk` where it asks the user for an id
        that every caller of the project's data lacks (each one's bag row says `report:
        null`): the case would have to invent a report the data contradict, and a correct
        agent that looks it up finds none; else None. A case that first files the report
        in the same conversation is the way to play it (not planned here)."""
        records = load_records(self.project.root)
        callers = [c for c in callers_in(records) if c.record is not None]
        if not callers:
            return None
        for ask in walk.asks:
            field = self.defs.memory_field(ask.field) if ask.field else None
            if field is None or field.type != "text" or not names_an_id(field.name):
                continue
            said = [
                recorded(
                    records,
                    [c.within or c.record],
                    c.full_name,
                    field.name,
                    field.description or "",
                )
                for c in callers
                if c.record is not None
            ]
            # a caller none of whose rows has the thing (no bags at all) holds none either
            found = [a for a in said if a is not None]
            if found and not any(a.held for a in found):
                where = found[0].where
                return (
                    f"the branch asks the user for {field.qualified}, which no caller of the "
                    f"project's data holds ({where}): a case would invent it"
                )
        return None

    def _failure_values(self) -> dict[tuple[str, str], str]:
        """(key, value) -> the tool whose error branch alone writes it, where the skill's
        prose has a paragraph for that outcome (`failure_outcome`: its own failure case)."""
        out: dict[tuple[str, str], str] = {}
        for name in self.defs.tools_for(self.skill.id):
            outcome = failure_outcome(self.project, self.skill.id, name)
            for key, value in (outcome.writes if outcome is not None else {}).items():
                out.setdefault((key, str(value)), name)
        return out

    def _happy_text(self, walk: Walk, qualified: str | None, value: Any) -> str:
        what = f" with {qualified} = {value}" if qualified else ""
        if walk.outcome == "handoff":
            return (
                f"The customer starts {self.skill.id}{what}; the agent follows that branch "
                f"and hands the conversation to {walk.handoff}."
            )
        tools = [e.tool for e in walk.tools() if e.tool]
        done = " and completes the skill" if walk.completed else ""
        ran = f", runs {', '.join(dict.fromkeys(tools))}" if tools else ""
        return (
            f"The customer completes {self.skill.id}{what}: the agent asks only what it "
            f"needs{ran}{done}."
        )

    def gated_tools(self) -> list[str]:
        out = []
        for name, constraint in self.skill.tool_constraints.items():
            confirmation = constraint.requires_confirmation
            if confirmation is not None and confirmation.enabled:
                out.append(name)
        return [t for t in out if t in self.defs.tools_for(self.skill.id)]

    def refusals(self, elements: list[str]) -> list[Behavior]:
        out = []
        for index, tool in enumerate(self.gated_tools()):
            found = self._reaching(
                lambda w, t=tool: f"deny:{t}" in w.elements, {"confirm": {tool: False}}
            )
            if found is None:
                continue
            walk, facts = found
            confirmation = self.skill.tool_constraints[tool].requires_confirmation
            assert confirmation is not None
            facts.update(
                tool=tool,
                confirmation=confirmation.utter_for_confirmation,
                denial=confirmation.utter_on_user_denial,
            )
            title = f"{self.name}: the customer declines {value_words(tool)} at confirmation"
            description = (
                f"The customer refuses the confirmation of {tool} (asked in the agent's own "
                f"words or by the gate's {confirmation.utter_for_confirmation or 'read-back'}): "
                f"{tool} does not run, its success response and writes never come, and "
                "nothing is claimed to be done."
            )
            out.append(
                self.behavior(
                    "refusal",
                    "edge_case",
                    f"refused_{tool}",
                    title,
                    description,
                    facts,
                    walk,
                    elements,
                    20 + index,
                )
            )
        return out

    def failures(self, elements: list[str]) -> list[Behavior]:
        out = []
        tools = [t for t, c in self.skill.tool_constraints.items() if c.on_failure]
        tools += [u.name for u in self.model.tools if u.error_results and u.name not in tools]
        for index, tool in enumerate(t for t in tools if t in self.defs.tools_for(self.skill.id)):
            found = self._reaching(
                lambda w, t=tool: f"failure:{t}" in w.elements,
                {"failing": [tool], "account": "failing"},
            )
            if found is None:
                continue
            unbrought = None if self._outside(tool) else self._unbrought(tool)
            if unbrought is not None:  # no case can make it fail: reported, never planned
                self.untestable[f"failure:{tool}"] = unbrought
                continue
            walk, facts = found
            facts["tool"] = tool
            constraint = self.skill.tool_constraints.get(tool)
            failure = constraint.on_failure if constraint is not None else None
            facts["failure"] = failure
            use = self.model.tool(tool)
            if use is not None and use.error_results:
                facts["error_results"] = list(use.error_results)
            title = f"{self.name}: {value_words(tool)} fails"
            said = f"utters {failure}" if failure else "says it did not work"
            description = (
                f"{tool} returns an error: the agent {said}, does not claim success "
                "and the skill does not complete."
            )
            case = f"{tool}_fails"
            outside = self._outside(tool)
            if outside is not None:  # planned only to be reported dropped, with why
                facts[NOT_WRITTEN] = (
                    f"{tool} {outside}: it fails only on what that service answers, which "
                    "nothing in a case decides, so no real run of the case is sure to fail"
                )
            outcome = failure_outcome(self.project, self.skill.id, tool)
            if outcome is not None:  # a result the prose has a branch for: named as it is
                facts["outcome"] = outcome.code or "error_result"
                case = f"{tool}_{facts['outcome']}"
                title = f"{self.name}: {value_words(outcome_words(tool, outcome.code))}"
                description = (
                    f"{outcome_words(tool, outcome.code)}: the agent follows the skill's "
                    f'branch for it ("{outcome.text}") and claims nothing else.'
                )
            out.append(
                self.behavior(
                    "failure",
                    "sad_path",
                    case,
                    title,
                    description,
                    facts,
                    walk,
                    elements,
                    40 + index,
                )
            )
        self._unsaid_failures()
        return out

    def _unsaid_failures(self) -> None:
        """The `on_failure` responses only the untestable failures say: no scenario can
        bring them about either, for the same reason (`untestable`)."""
        tools = {e.removeprefix("failure:"): why for e, why in self.untestable.items()}
        if not tools:
            return
        said = set(skill_responses(self.defs, self.skill, frozenset(tools)))
        for tool, why in tools.items():
            response = self.skill.tool_constraints.get(tool)
            failure = response.on_failure if response is not None else None
            if failure and failure not in said and failure in self.defs.all_responses():
                self.untestable.setdefault(f"response:{failure}", why)

    def _unbrought(self, tool: str) -> str | None:
        """Why no scenario can make `tool` fail (None: one can). A Mantle scenario mocks no
        tool: a case brings a failure about only through what it gives the agent, the
        failing test account in a seeded channel or session field, or in the user's answer
        for an id the tool takes (`drafting.offline._mantle_seeds`). A project that seeds
        nothing, calling the tool with no id the user gives (a date, a description, a
        record picked from a list), leaves every correct agent's call succeeding."""
        if any(f.seed for f in self.defs.memory.values()):
            return None
        use = self.model.tool(tool)
        for key in use.arguments.values() if use is not None else ():
            field = self.defs.memory_field(key)
            if field is not None and field.type == "text" and _holds_an_id(field):
                return None
        return (
            f"{tool}'s failure case needs the failing test account, which no case can carry "
            "here: a scenario mocks no tool, the project seeds no channel or session field, "
            f"and the user gives {tool} no id of their own"
        )

    def _outside(self, tool: str) -> str | None:
        """How `tool` reaches a service outside the agent, in words (None: it does not): an
        MCP server's tool, or one whose code calls a service (`outside_effect`). Neither
        refuses any input of its own, so its failure is the service's answer alone."""
        found = self.defs.tools_for(self.skill.id)[tool]
        if found.scope == "mcp":
            return f"is a tool of the MCP server {found.mcp_server or ''}".rstrip()
        effect = outside_effect(self.project, found)
        return f"calls a service outside the agent ({effect.calls[0]})" if effect else None

    def _picked_outside(self, tool: str, keys: set[str]) -> str | None:
        """How `tool` reaches a service outside the agent (`_outside`) where that service's
        answer picks the branch on `keys`: any key of an MCP server's tool, a key the code
        reads off the answer (`OutsideEffect.valued`); not one the code works out from the
        case's own inputs and data before it calls (None then)."""
        found = self.defs.tools_for(self.skill.id)[tool]
        effect = outside_effect(self.project, found)
        if found.scope != "mcp":
            bare = {k.rsplit(".", 1)[-1] for k in keys}
            if effect is None or not bare & set(effect.valued):
                return None
        return self._outside(tool)

    def negatives(self, elements: list[str]) -> list[Behavior]:
        """A branch on what a tool wrote (`replacement_eligible`) taking its `else`."""
        out = []
        index = 0
        for block in self.skill.blocks.values():
            for step in block.steps:
                if step.kind != "execute_tool" or not isinstance(step.next, list):
                    continue
                tool_def = self.defs.tools_for(self.skill.id).get(str(step.target))
                if tool_def is None:
                    continue
                written = set(tool_keys(self.project, tool_def, self.skill.id))
                keys = {k for b in step.next for k in condition_keys(b.condition)}
                target = next((b.target for b in step.next if b.condition is None), None)
                flags = branch_values(self.project, self.skill.id)
                if keys <= set(flags):  # computed flags: the branch off the goal's path
                    target = branch_target(step, {k: not flags[k] for k in keys})
                if not keys or not keys <= written or target in (None, "END"):
                    continue
                tool = str(step.target)
                element = f"step:{self.skill.id}.{block.id}.{target}"
                found = self._reaching(
                    lambda w, e=element: e in w.elements,
                    {"negative": {tool: sorted(keys)}, "account": "negative"},
                )
                if found is None:
                    continue
                walk, facts = found
                outside = self._picked_outside(tool, keys)
                if outside is not None:  # planned only to be reported dropped, with why
                    facts[NOT_WRITTEN] = (
                        f"{tool} {outside}: it comes back negative only on what that service "
                        "answers, which nothing in a case decides"
                    )
                elif unmade := negative_unmade(self.project, self.skill.id, tool, keys):
                    facts[NOT_WRITTEN] = unmade
                facts["branch"] = {
                    "block": block.id,
                    "step": step.id,
                    "target": target,
                    "tool": tool,
                }
                title = f"{self.name}: {value_words(target)}"
                description = (
                    f"{tool} comes back negative, so {block.id} takes the else branch to "
                    f"{target}; the agent explains it and does not carry on as if it had worked."
                )
                kind = "sad_path"
                if numbers_decide(self.project, self.skill.id, tool, keys):
                    # the user's own numbers take the other branch (all stock at par):
                    # an outcome the skill goes on to, not a check that failed
                    facts["numbers_decide"] = True
                    kind = "happy_path"
                    description = (
                        f"The numbers the user gives leave {', '.join(sorted(keys))} false, so "
                        f"{block.id} goes on to {target} instead of {step.id}'s other branch."
                    )
                out.append(
                    self.behavior(
                        "negative",
                        kind,
                        target,
                        title,
                        description,
                        facts,
                        walk,
                        elements,
                        45 + index,
                    )
                )
                index += 1
        return out


__all__ = ["OutcomeBehaviors"]


def _holds_an_id(field: MemoryField) -> bool:
    """The user's answer for `field` is an id of their own: the field is named as one
    (`booking_ref`), or its description shows one the failing account can ride in
    (`SK482177`), by the drafter's own rule (`account_value`: a last run of four digits
    or more, never a date)."""
    if names_an_id(field.name):
        return True
    shown = (t.strip(".,;:()[]\"'") for t in (field.description or "").split())
    return any(account_value(t, "failing") != t for t in shown if t)
