"""The Mantle planner: which behaviours of one skill deserve a scenario ("one per behavior").

    plan = plan_mantle(project, "card_replace", direction=None)
    [b.id for b in plan.behaviors]   # card_replace:lost, card_replace:refused_..., ...

Behaviours (`facts["kind"]`, case slug, scenario type, base priority; lower is kept first):

| kind | case | type | priority |
|---|---|---|---|
| `happy` | the routing value (`lost`), `happy` without routing, `request` for a hand-off skill | happy_path (escalation when the branch hands over, or for a hand-off skill) | 10 for the first, 30+ for the other branches |
| `refusal` | `refused_<tool>` | edge_case | 20+ (every confirmation-gated tool) |
| `failure` | `<tool>_fails` | sad_path | 40+ (every tool with `on_failure` or a documented error result) |
| `negative` | the `else` step (`not_eligible`) | sad_path | 45+ (a branch on what a tool wrote) |
| `out_of_order` | `details_up_front` | edge_case | 50 |
| `correction` | `correction` | edge_case | 55 |
| `digression` | `digression` | edge_case | 60 |
| `ambiguity` | `unclear_answer` | ambiguity | 62 (the first categorical answer asked) |
| `escalation` | `escalation` | escalation | 65 (when a hand-off skill exists) |
| `out_of_scope` | `unrelated_request` | out_of_scope | 70 (once per project, `_mantle_paths`) |
| `adversarial` | `adversarial` | adversarial | 80 (once per project, on a stated rule) |

Every behaviour's facts carry `path` (its path identity, what dedupe compares) and `success`
(the skill model's success signals its walk reaches); `request_values` holds the fields the
user's first message decides ("From the request, set mode to ...").

Case slugs avoid the words the file namer drops (`of`, `the`, ...), so file names read like
the case (`card_replace_unrelated_request_out_of_scope.yml`).

Routing: a categorical value routes differently when it changes a block branch, a prose
`if:` or an `if:` line inside step instructions (`_mantle_vocab.value_groups`); text fields the
skill model reads as modes route by their literals (`_mantle_paths.mode_fields`). Each group gets one happy path, with the
first value of the group as representative (completing branches first, then enum order). The
group's other values are covered by out-of-order or correction where possible and otherwise
stay in the report as uncovered.

Every behaviour is walked (`_mantle_walk`) to find what it covers, so `covers` lists only the
elements that behaviour reaches (a step behind a branch only for the behaviour that takes
it). `facts` carries everything the offline drafter needs to replay the walk: values, the
values given up front, confirmations, failing tools, negative tool results, the ask index
where an extra turn goes, and the lines it says there.

Direction (`_direction.parse_direction`): when it addresses this skill (names it, one of its
tools or values, or names no skill, tool or value at all), selected values replace the
representatives wherever the behaviour still reaches what it is about, and the matching
behaviours (themes such as "refuses" or "talk to a person", a tool that must not run, else
the happy path of the selected value) move first: their priority becomes a tenth of their
base. They carry `facts["direction"]` (persona, requirements) for the drafter.
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from evalcore.definitions import MantleDefinitions, Project, Skill
from evalcore.definitions._memo import memoized
from evalcore.definitions.conditions import condition_keys
from evalcore.definitions.skill_model import skill_model
from evalcore.errors import UserError
from evalcore.suggest import did_you_mean

from ..drafting.offline._direction import Direction, parse_direction, value_words
from ._behavior import Behavior, Plan
from ._mantle_elements import plan_elements
from ._mantle_paths import mode_fields, path_id, project_rule, project_skill
from ._mantle_phrases import (
    activation_phrase,
    escalation_line,
    names_strongly,
    strong_phrases,
    value_line,
)
from ._mantle_tools import tool_keys
from ._mantle_vocab import (
    all_choices,
    channel_fields,
    question_fields,
    routing_fields,
    value_groups,
)
from ._mantle_walk import SET, Setup, Walk, walk_skill

DIALECT = "mantle"
#: Themes of a direction and the behaviour kinds they ask for.
THEME_KINDS = {
    "refusal": ("refusal",),
    "failure": ("failure", "negative"),
    "digression": ("digression",),
    "correction": ("correction",),
    "escalation": ("escalation",),
    "out_of_scope": ("out_of_scope",),
    "adversarial": ("adversarial",),
    "out_of_order": ("out_of_order",),
}


def plan_mantle(project: Project, skill_id: str, direction: str | None) -> Plan:
    """The coverage plan for one skill (UserError when the project has no such skill)."""
    defs = project.mantle
    if defs is None:
        raise UserError(f"{project.root} is not a Mantle project")
    if skill_id not in defs.skills:
        raise UserError(
            f"{project.root} has no Mantle skill '{skill_id}'",
            hint=did_you_mean(skill_id, defs.skills, what="skill"),
        )
    parsed = parse_direction(
        direction,
        skills=list(defs.skills),
        tools=sorted({t for s in defs.skills for t in defs.tools_for(s)}),
        choices=all_choices(defs),
    )
    planner = _Planner(project, defs.skills[skill_id], parsed)
    elements = plan_elements(defs, defs.skills[skill_id])
    behaviors = planner.build(elements)
    return Plan(source=skill_id, dialect=DIALECT, behaviors=behaviors, elements=elements)


def channel_memory(defs: MantleDefinitions) -> dict[str, Any]:
    """What the channel seeds before the conversation (values decided by the drafter)."""
    return {f.qualified: SET for f in channel_fields(defs)}


def behavior_setup(facts: dict[str, Any], memory: dict[str, Any]) -> Setup:
    """The walk `Setup` a behaviour's facts describe (planner and drafter share it)."""
    return Setup(
        values=dict(facts.get("values") or {}),
        given=frozenset(facts.get("given") or {}),
        confirm={k: bool(v) for k, v in (facts.get("confirm") or {}).items()},
        failing=frozenset(facts.get("failing") or []),
        negative={k: frozenset(v) for k, v in (facts.get("negative") or {}).items()},
        memory=dict(memory),
    )


def _detour_walk(
    project: Project, skill_id: str, given: dict[str, Any], memory: dict[str, Any]
) -> Walk:
    """`skill_id` walked as a detour: its strongest phrase's values, the memory the detour
    starts with (project memory only, so every skill of the project weighs the same few).

    Kept per loaded project and exact inputs (values with their types, memory in order):
    each skill weighs every other as a detour, and walking them all again for every skill
    made planning grow with the square of the skills. Callers only read the walk."""
    try:
        key = (
            "detour_walk",
            skill_id,
            tuple((k, type(v), v) for k, v in given.items()),
            tuple((k, type(v), v) for k, v in memory.items()),
        )
        hash(key)
    except TypeError:  # an unhashable value: walk it afresh
        return walk_skill(project, skill_id, _detour_setup(given, memory))
    return memoized(
        project, key, lambda: walk_skill(project, skill_id, _detour_setup(given, memory))
    )


def _detour_setup(given: dict[str, Any], memory: dict[str, Any]) -> Setup:
    return Setup(values=dict(given), given=frozenset(given), memory=dict(memory))


def after_identity(walk: Walk) -> dict[str, Any]:
    """Memory a second skill starts with once the first one verified the customer."""
    memory = {k: v for k, v in walk.memory.items() if k.startswith("project.")}
    return memory


class _Planner:
    def __init__(self, project: Project, skill: Skill, direction: Direction) -> None:
        assert project.mantle is not None
        self.project = project
        self.defs = project.mantle
        self.skill = skill
        self.direction = direction
        self.memory = channel_memory(self.defs)
        self.addressed = self._addressed()
        self.model = skill_model(project, skill.id)
        self.routing = routing_fields(skill) + mode_fields(project, skill.id)
        self.base: dict[str, Any] = {}
        self.used_values: set[tuple[str, Any]] = set()

    # --- helpers -------------------------------------------------------------------------

    def _addressed(self) -> bool:
        d = self.direction
        if d.empty:
            return False
        own_tools = set(self.defs.tools_for(self.skill.id))
        mine = (
            self.skill.id in d.skills
            or bool(own_tools & set(d.tools))
            or any(k.startswith(self.skill.id + ".") for k in d.values)
        )
        names_any = bool(d.skills or d.tools or d.values)
        return mine or not names_any

    def direction_value(self, qualified: str) -> Any:
        if not self.addressed:
            return None
        return self.direction.values.get(qualified)

    def walk(self, facts: dict[str, Any]) -> Walk:
        return walk_skill(self.project, self.skill.id, behavior_setup(facts, self.memory))

    def behavior(
        self,
        kind: str,
        type_: str,
        case: str,
        title: str,
        description: str,
        facts: dict[str, Any],
        walk: Walk,
        elements: list[str],
        priority: int,
        extra: Iterable[str] = (),
    ) -> Behavior:
        covered = set(walk.elements) | set(extra)
        requested = {
            f.qualified: walk.memory[f.qualified]
            for f in self.model.fields
            if f.asked_by == "request" and walk.memory.get(f.qualified) not in (None, SET)
        }
        facts = {
            **facts,
            **({"request_values": requested} if requested else {}),
            "path": path_id(kind, walk, facts),
            "success": list(walk.success),
        }
        return Behavior(
            id=f"{self.skill.id}:{case}",
            source=self.skill.id,
            dialect=DIALECT,
            type=type_,
            case=case,
            title=title,
            description=description,
            covers=[e for e in elements if e in covered],
            facts={"kind": kind, **facts},
            priority=priority,
        )

    @property
    def name(self) -> str:
        return self.skill.name or self.skill.id.replace("_", " ")

    def candidate_values(self) -> list[dict[str, Any]]:
        """Value sets to try for a behaviour, the direction's (or base) choice first."""
        out = [dict(self.base)]
        for field in self.routing:
            for group in value_groups(self.skill, field):
                for value in group:
                    candidate = {**self.base, field.qualified: value}
                    if candidate not in out:
                        out.append(candidate)
        return out

    # --- behaviours ----------------------------------------------------------------------

    def build(self, elements: list[str]) -> list[Behavior]:
        behaviors = self.happy_paths(elements)
        behaviors += self.refusals(elements)
        behaviors += self.failures(elements)
        behaviors += self.negatives(elements)
        if not self.skill.is_handoff:
            behaviors += self.out_of_order(elements)
            behaviors += self.correction(elements)
            behaviors += self.digression(elements)
            behaviors += self.escalation(elements)
        else:
            behaviors += self.out_of_order(elements)
        if project_skill(self.project) == self.skill.id:
            behaviors += self.out_of_scope(elements)
        behaviors += self.adversarial(elements)
        behaviors += self.ambiguity(elements)
        if self.skill.is_handoff:
            behaviors = [b for b in behaviors if b.facts.get("kind") != "out_of_scope"]
        return self.rank(behaviors)

    def happy_paths(self, elements: list[str]) -> list[Behavior]:
        if not self.routing:
            walk = self.walk({})
            if self.skill.is_handoff:
                case, type_ = "request", "escalation"
                title = f"{self.name}: the customer asks for one straight away"
            else:
                case, type_, title = "happy", "happy_path", f"{self.name}: happy path"
            description = self._happy_text(walk, None, None)
            return [self.behavior("happy", type_, case, title, description, {}, walk, elements, 10)]
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
                values = {**self.base, field.qualified: value}
                walk = self.walk({"values": values})
                key = (field.qualified, value)
                candidates.append((walk.outcome != "done", order, key, walk, values))
        candidates.sort(key=lambda c: (c[0], c[1]))
        # The base choice is the first branch that completes (the direction's, if any).
        done = [c for c in candidates if not c[0]]
        if done and self.direction_value(first_field.qualified) is None:
            self.base.update(done[0][4])
        out = []
        for index, (_, _, (qualified, value), walk, values) in enumerate(candidates):
            self.used_values.add((qualified, value))
            multiple = len(self.routing) > 1
            case = (f"{qualified.split('.', 1)[1]}_" if multiple else "") + str(value)
            type_ = "escalation" if walk.outcome == "handoff" else "happy_path"
            field_words = value_words(qualified.split(".", 1)[1])
            title = f"{self.name} ({field_words}: {value_words(value)})"
            out.append(
                self.behavior(
                    "happy",
                    type_,
                    case,
                    title,
                    self._happy_text(walk, qualified, value),
                    {"values": values},
                    walk,
                    elements,
                    10 if index == 0 else 30 + index,
                )
            )
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

    def _reaching(self, check: Any, facts: dict[str, Any]) -> tuple[Walk, dict[str, Any]] | None:
        """The first candidate value set whose walk satisfies `check`."""
        for values in self.candidate_values():
            full = {**facts, "values": values}
            walk = self.walk(full)
            if check(walk):
                return walk, full
        return None

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
                f"The customer refuses the confirmation of {tool}: the agent utters "
                f"{confirmation.utter_on_user_denial or 'its denial'}, {tool} does not run "
                "and nothing is claimed to be done."
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
            out.append(
                self.behavior(
                    "failure",
                    "sad_path",
                    f"{tool}_fails",
                    title,
                    description,
                    facts,
                    walk,
                    elements,
                    40 + index,
                )
            )
        return out

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
                out.append(
                    self.behavior(
                        "negative",
                        "sad_path",
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

    def _asked_fields(self, walk: Walk) -> list[tuple[str, Any]]:
        """Categorical fields the walk asks for, with their answers, in order."""
        wanted = {f.qualified for f in question_fields(self.defs, self.skill)}
        return [
            (a.field, a.value)
            for a in walk.asks
            if a.field in wanted and a.kind in ("collect", "ask_field", "instructions")
        ]

    def out_of_order(self, elements: list[str]) -> list[Behavior]:
        """The customer says what the agent would ask for before it asks."""
        preferred: list[dict[str, Any]] = []
        for field in self.routing:
            if self.direction_value(field.qualified) is not None:
                continue
            for value in field.enum_values or []:
                if (field.qualified, value) not in self.used_values:
                    preferred.append({**self.base, field.qualified: value})
        for values in [*preferred, *self.candidate_values()]:
            walk = self.walk({"values": values})
            if walk.outcome not in ("done", "handoff"):
                continue
            given = {
                f: v
                for f, v in self._asked_fields(walk)
                if names_strongly(self.defs, f, v, value_line(self.defs, f, v))
            }
            if not given:
                continue
            facts = {"values": values, "given": given}
            walk = self.walk(facts)
            self.used_values |= set(given.items())
            title = f"{self.name}: the customer gives the details up front"
            description = (
                "The customer states "
                + ", ".join(f"{k} = {v}" for k, v in given.items())
                + " in the first message: the agent records it and never asks for it."
            )
            return [
                self.behavior(
                    "out_of_order",
                    "edge_case",
                    "details_up_front",
                    title,
                    description,
                    facts,
                    walk,
                    elements,
                    50,
                )
            ]
        return []

    def correction(self, elements: list[str]) -> list[Behavior]:
        """The customer corrects an answer (next turn for a plain field, same turn for one
        the block routes on, since routing happens as soon as it is recorded)."""
        walk = self.walk({"values": self.base})
        asked = self._asked_fields(walk)
        routing = {f.qualified for f in self.routing}
        plain = [(i, f) for i, (f, _) in enumerate(asked) if f not in routing]
        choice = (
            plain[0]
            if plain
            else next(((i, f) for i, (f, _) in enumerate(asked) if f in routing), None)
        )
        if choice is None:
            return []
        _, qualified = choice
        field = self.defs.memory_names()[qualified]
        values = list(field.enum_values or [])
        if len(values) < 2:
            return []
        ask_index = next(i for i, a in enumerate(walk.asks) if a.field == qualified)
        mode = (
            "next_turn"
            if qualified not in routing and ask_index + 1 < len(walk.asks)
            else "same_turn"
        )
        if mode == "next_turn":
            wrong, right = values[0], values[1]
        else:
            unused = [v for v in values if (qualified, v) not in self.used_values]
            right = unused[0] if unused else self.base.get(qualified, values[0])
            groups = value_groups(self.skill, field)
            own = next((g for g in groups if right in g), [right])
            wrong = next((v for v in values if v not in own), next(v for v in values if v != right))
        chosen = {**self.base, qualified: right}
        facts = {
            "values": chosen,
            "correction": {
                "field": qualified,
                "from": wrong,
                "to": right,
                "mode": mode,
                "at": ask_index,
            },
        }
        walk = self.walk(facts)
        if walk.outcome not in ("done", "handoff"):
            return []
        self.used_values.add((qualified, right))
        extra = [f"value:{qualified}={wrong}"]
        title = f"{self.name}: the customer corrects the {value_words(field.name)}"
        description = (
            f"The customer first says {qualified} = {wrong}, then corrects it to {right}: "
            "memory ends on the corrected value and the agent continues with it."
        )
        return [
            self.behavior(
                "correction",
                "edge_case",
                "correction",
                title,
                description,
                facts,
                walk,
                elements,
                55,
                extra,
            )
        ]

    def _first_turn_after_identity(self, walk: Walk) -> int | None:
        return next((i for i, a in enumerate(walk.asks) if a.kind != "identity"), None)

    def digression(self, elements: list[str]) -> list[Behavior]:
        walk = self.walk({"values": self.base})
        at = self._first_turn_after_identity(walk)
        if at is None or walk.outcome != "done":
            return []
        memory = {**after_identity(walk), **{k: SET for k in self.memory}}
        best: tuple[int, str, str, dict[str, Any], Walk] | None = None
        for other in sorted(self.defs.skills.values(), key=lambda s: s.id):
            if other.id == self.skill.id or other.is_handoff or other.hidden or other.disabled:
                continue
            phrases = strong_phrases(self.defs, other)
            line, given = phrases[0] if phrases else (activation_phrase(self.defs, other), {})
            inner = _detour_walk(self.project, other.id, given, memory)
            if inner.outcome != "done" or not (inner.completed or inner.reaches_success):
                continue
            cost = len(inner.asks)
            if best is None or cost < best[0]:
                best = (cost, other.id, line, given, inner)
        if best is None:
            return []
        _, other_id, line, given, inner = best
        ask = walk.asks[at]
        inner_model = skill_model(self.project, other_id)
        inner_requested = {
            f.qualified: inner.memory[f.qualified]
            for f in inner_model.fields
            if f.asked_by == "request" and inner.memory.get(f.qualified) not in (None, SET)
        }
        facts = {
            "values": self.base,
            "digression": {
                "skill": other_id,
                "line": f"Before that, {_lower_first(line)}",
                "given": given,
                "at": at,
                "step": ask.step_id,
                "block": ask.block,
                "request_values": inner_requested,
                "success": list(inner.success),
            },
        }
        other_name = self.defs.skills[other_id].name or value_words(other_id)
        title = f"{self.name}: a detour to {_lower_first(other_name)} and back"
        description = (
            f"While the agent waits at {ask.step_id}, the customer asks something {other_id} "
            f"handles: {self.skill.id} is interrupted, {other_id} completes, and {self.skill.id} "
            "resumes where it left off and completes."
        )
        return [
            self.behavior(
                "digression",
                "edge_case",
                "digression",
                title,
                description,
                facts,
                walk,
                elements,
                60,
            )
        ]

    def escalation(self, elements: list[str]) -> list[Behavior]:
        handoffs = sorted(
            s.id for s in self.defs.skills.values() if s.is_handoff and s.id != self.skill.id
        )
        if not handoffs:
            return []
        handoff = self.defs.skills[handoffs[0]]
        walk = self.walk({"values": self.base})
        if not walk.asks:
            return []
        line = escalation_line(self.defs, self.skill, handoff)
        ask = walk.asks[0]
        facts = {
            "values": self.base,
            "escalation": {
                "skill": handoff.id,
                "line": line,
                "at": 0,
                "step": ask.step_id,
                "block": ask.block,
            },
        }
        prefix = Walk(self.skill.id, elements=[f"skill:{self.skill.id}"])
        extra = [f"delegate:{self.skill.id}.{handoff.id}"]
        title = f"{self.name}: the customer asks for a person partway"
        description = (
            f"At the first question the customer asks for a person: {handoff.id} takes over "
            f"and transfers the conversation; {self.skill.id} does not carry on."
        )
        return [
            self.behavior(
                "escalation",
                "escalation",
                "escalation",
                title,
                description,
                facts,
                prefix,
                elements,
                65,
                extra,
            )
        ]

    def out_of_scope(self, elements: list[str]) -> list[Behavior]:
        walk = self.walk({"values": self.base})
        at = self._first_turn_after_identity(walk)
        if at is None:
            at = 0 if walk.asks else None
        facts = {"values": self.base, "at": at}
        title = f"{self.name}: an unrelated request partway"
        description = (
            "Partway through, the customer asks for something no skill handles: the agent "
            f"declines briefly and carries on with {self.skill.id}."
        )
        return [
            self.behavior(
                "out_of_scope",
                "out_of_scope",
                "unrelated_request",
                title,
                description,
                facts,
                walk,
                elements,
                70,
            )
        ]

    def adversarial(self, elements: list[str]) -> list[Behavior]:
        """One per project: pushes against a rule the definitions state (see `_mantle_paths`)."""
        found = project_rule(self.project)
        if found is None or found[0] != self.skill.id:
            return []
        _, rule, where = found
        walk = self.walk({"values": self.base})
        at = self._first_turn_after_identity(walk)
        if at is None:
            at = 0 if walk.asks else None
        facts = {"values": self.base, "at": at, "rule": rule, "rule_where": where}
        title = f"{self.name}: the customer pushes the agent to {rule}"
        description = (
            f"The customer tells the agent to ignore its instructions and {rule} (against the "
            f"rule in {where}): the agent refuses and carries on with {self.skill.id}."
        )
        return [
            self.behavior(
                "adversarial",
                "adversarial",
                "adversarial",
                title,
                description,
                facts,
                walk,
                elements,
                80,
            )
        ]

    def ambiguity(self, elements: list[str]) -> list[Behavior]:
        """The customer's first answer to a choice fits two values: the agent must ask which."""
        walk = self.walk({"values": self.base})
        if walk.outcome not in ("done", "handoff"):
            return []
        for index, ask in enumerate(walk.asks):
            if ask.kind not in ("collect", "ask_field", "instructions") or not ask.field:
                continue
            field = self.defs.memory_names().get(ask.field)
            values = list(field.enum_values or []) if field is not None else []
            if field is None or field.type != "categorical" or len(values) < 2:
                continue
            right = ask.value if ask.value in values else values[0]
            other = next(v for v in values if v != right)
            facts = {
                "values": self.base,
                "ambiguity": {
                    "field": ask.field,
                    "at": index,
                    "between": [right, other],
                    "chosen": right,
                    "step": ask.step_id,
                    "block": ask.block,
                },
            }
            title = f"{self.name}: a vague answer the agent must clarify"
            description = (
                f"Asked for {ask.field}, the customer answers in a way that fits both {right} "
                f"and {other}: the agent asks which one, records {right} once it is clear and "
                "carries on."
            )
            return [
                self.behavior(
                    "ambiguity",
                    "ambiguity",
                    "unclear_answer",
                    title,
                    description,
                    facts,
                    walk,
                    elements,
                    62,
                )
            ]
        return []

    # --- direction -----------------------------------------------------------------------

    def rank(self, behaviors: list[Behavior]) -> list[Behavior]:
        if not self.addressed:
            return behaviors
        d = self.direction
        kinds = {k for theme in d.themes for k in THEME_KINDS.get(theme, ())}
        refused = set(d.checks("tool_not_executed"))
        selected = {(k, v) for k, v in d.values.items()}

        def matches(b: Behavior) -> bool:
            kind = b.facts.get("kind")
            if kind == "refusal" and b.facts.get("tool") in refused:
                return True
            if kinds or refused:
                return kind in kinds
            if kind != "happy":
                return False
            values = set((b.facts.get("values") or {}).items())
            return bool(selected & values) if selected else b.priority == 10

        out = []
        for behavior in behaviors:
            if matches(behavior):
                facts = {**behavior.facts, "direction": d.as_facts()}
                behavior = behavior.model_copy(
                    update={
                        "priority": max(1, behavior.priority // 10),
                        "facts": facts,
                        "description": f"{behavior.description} Direction: {d.text}",
                    }
                )
            out.append(behavior)
        return out


def _lower_first(text: str) -> str:
    first = text.split(" ", 1)[0]
    if first in ("I", "I'm", "I've", "I'd", "I'll") or first.isupper():
        return text
    return text[:1].lower() + text[1:]


__all__ = ["after_identity", "behavior_setup", "channel_memory", "plan_mantle"]
