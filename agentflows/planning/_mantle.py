"""The Mantle planner: which behaviours of one skill deserve a scenario ("one per behavior").

    plan = plan_mantle(project, "card_replace", direction=None)
    [b.id for b in plan.behaviors]   # card_replace:lost, card_replace:refused_..., ...

Behaviours (`facts["kind"]`, case slug, scenario type, base priority; lower is kept first):

| kind | case | type | priority |
|---|---|---|---|
| `happy` | the routing value (`lost`), `happy` without routing (or when every routing field is one the prose only lets the agent ask, the reference agent's `optional_fields`: then the branches follow at 31+, planned but reported dropped, never written: `NOT_WRITTEN`), `request` for a hand-off skill | happy_path (escalation when the branch hands over, or for a hand-off skill) | 10 for the first, 30+ for the other branches |
| `cue` | the cue's words (`existing_request`) | edge_case | 35+ (a tool the prose calls only on what the user says; `_mantle_cues`) |
| `refusal` | `refused_<tool>` | edge_case | 20+ (every confirmation-gated tool) |
| `failure` | `<tool>_fails` | sad_path | 40+ (every tool with `on_failure` or a documented error result that a case can make fail: else `Plan.untestable`) |
| `negative` | the `else` step (`not_eligible`) | sad_path | 45+ (a branch on what a tool wrote) |
| `threshold` | `<field>_under_<n>` / `_over_` / `_at_` | edge_case (escalation when that side hands over) | 47+ (each side of a number a condition compares, but the happy path's; `_mantle_thresholds`) |
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

from evalcore.definitions import Project
from evalcore.errors import UserError
from evalcore.suggest import did_you_mean

from ..drafting.offline import parse_direction
from ._behavior import Behavior, Plan
from ._mantle_answers import AnswerBehaviors
from ._mantle_asides import AsideBehaviors
from ._mantle_cues import CueBehaviors
from ._mantle_detours import DetourBehaviors, _detour_walk
from ._mantle_elements import plan_elements
from ._mantle_outcomes import OutcomeBehaviors
from ._mantle_paths import project_skill
from ._mantle_planner import DIALECT, after_identity, behavior_setup, channel_memory
from ._mantle_vocab import all_choices

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
    # the project's ids and values only for a direction to read: listing them for each
    # skill's plan grew with the skills
    parsed = (
        parse_direction(
            direction,
            skills=list(defs.skills),
            tools=sorted({t for s in defs.skills for t in defs.tools_for(s)}),
            choices=all_choices(defs),
        )
        if direction and direction.strip()
        else parse_direction(None)
    )
    planner = _Planner(project, defs.skills[skill_id], parsed)
    elements = plan_elements(defs, defs.skills[skill_id])
    behaviors = planner.build(elements)
    return Plan(
        source=skill_id,
        dialect=DIALECT,
        behaviors=behaviors,
        elements=elements,
        untestable=planner.untestable,
    )


class _Planner(OutcomeBehaviors, AnswerBehaviors, DetourBehaviors, CueBehaviors, AsideBehaviors):
    """Every behaviour kind of one skill, in plan order, ranked by the direction."""

    # --- behaviours ----------------------------------------------------------------------

    def build(self, elements: list[str]) -> list[Behavior]:
        behaviors = self.happy_paths(elements)
        behaviors += self.cue_cases(elements)
        behaviors = self.unheld_happy(behaviors)
        behaviors += self.refusals(elements)
        behaviors += self.failures(elements)
        behaviors += self.negatives(elements)
        behaviors += self.thresholds_cases(elements)
        behaviors += self.aside_cases(elements)
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


__all__ = [
    "DIALECT",
    "_detour_walk",
    "after_identity",
    "behavior_setup",
    "channel_memory",
    "plan_mantle",
]
