"""The Anychat planner: which behaviours of one Playbook deserve a case.

    plan = plan_anychat(project, "book", direction=None)

Behaviours (`facts["kind"]`, the case slug, the type):

- `happy` (`inbound`, happy_path): the person writes in and the Playbook does its job;
- `outreach` (`outreach_<id>`, happy_path): each Outreach whose Playbook this is, answered with
  the reply the opener offers for this Playbook's job; `outreach_reply`
  (`outreach_<id>_reply_<word>`, edge_case): the opener's other reply, which changes nothing;
- `reminder` (`reminder_reply`, happy_path): an appointment reminder fires first (Playbooks
  whose activation or body mentions reminders);
- `resume` (`resume`, edge_case): the conversation continues `history` with this Playbook
  active (not the Default Playbook);
- `opt_out` (`opt_out` / `opt_out_after_<outreach>`, edge_case): the person opts out; the
  agent records the opt-out outcome and stays silent (the Playbook that records the outcome,
  and each Outreach's Playbook);
- `simulate` (`simulated`, happy_path, 3 samples): a simulated person pursues the job's
  outcome (Playbooks with a job);
- `off_topic` (`off_topic`, out_of_scope): a request no Playbook covers (Default Playbook);
- `handoff` (`handoff_to_<id>`): the Default Playbook routes after a question (happy_path);
  any other Playbook hands over when the person asks for the other job instead or as a
  second request (edge_case: nothing goes wrong);
- `guardrail` (`guardrail`, adversarial): the person pushes the agent to break a guardrail;
- `example` (`example_<i>`, happy_path or edge_case): one per Playbook example, replayed.

Element grammar: `anychat_elements`. A direction (`drafting.offline.parse_direction`) moves the
behaviours it asks for ahead of the rest, so `--count` keeps them, and picks the values of
People fields it names (a patient "with Cigna" gives `insuranceProvider: Cigna`); the drafter
uses it for the simulated person and for extra checks and judge criteria.
"""

from __future__ import annotations

from evalcore.definitions import Project
from evalcore.errors import UserError

from ..drafting.offline import Direction
from ._anychat_builder import DIALECT
from ._anychat_inbound import InboundBehaviors
from ._anychat_replies import ReplyBehaviors
from ._behavior import Behavior, Plan
from .anychat_elements import parse_anychat_direction, plan_elements, playbook_facts, words

#: How far a behaviour that shares words with the direction moves up the ranking.
DIRECTION_BOOST = 100


def plan_anychat(project: Project, playbook_id: str, direction: str | None) -> Plan:
    """The coverage plan for one Playbook (UserError when the project has no such Playbook)."""
    defs = project.anychat
    if defs is None or playbook_id not in defs.playbooks:
        raise UserError(f"{project.root} has no Anychat playbook '{playbook_id}'")
    facts = playbook_facts(defs.playbooks[playbook_id], defs)
    parsed = parse_anychat_direction(direction, defs)
    behaviors = _Builder(defs, facts, parsed.values).build()
    return Plan(
        source=playbook_id,
        dialect=DIALECT,
        behaviors=_rank(behaviors, parsed),
        elements=plan_elements(facts, defs),
    )


#: Which behaviours a direction theme asks for (`_direction.THEMES`).
THEME_KINDS: dict[str, tuple[str, ...]] = {
    "refusal": ("handoff", "outreach_reply"),
    "digression": ("off_topic", "resume"),
    "escalation": ("handoff",),
    "out_of_scope": ("off_topic",),
    "adversarial": ("guardrail",),
    "out_of_order": ("simulate",),
    "ambiguity": ("simulate",),
}


def _rank(behaviors: list[Behavior], direction: Direction) -> list[Behavior]:
    """Move behaviours the direction asks for ahead (their order in the plan is unchanged).

    A behaviour scores one point when its kind matches a theme of the direction and one per
    content word its title, description or case slug shares with the direction's persona and
    criteria, leaving out words every behaviour has (the Playbook's name says nothing about
    which case is wanted). Structural requirements ("book_appointment is called") do not
    rank: they become checks on every case. Each point moves it `DIRECTION_BOOST` ahead.
    """
    if direction.empty:
        return behaviors
    texts = [words(" ".join([b.title, b.description, b.case.replace("_", " ")])) for b in behaviors]
    common = set.intersection(*texts) if texts else set()
    wanted = words(" ".join([*direction.persona_clauses, *direction.criteria])) - common
    kinds = {k for theme in direction.themes for k in THEME_KINDS.get(theme, ())}
    out = []
    for behavior, text in zip(behaviors, texts, strict=True):
        score = len(text & wanted) + (behavior.facts.get("kind") in kinds)
        if score:
            behavior = behavior.model_copy(
                update={"priority": behavior.priority - DIRECTION_BOOST * score}
            )
        out.append(behavior)
    return out


class _Builder(InboundBehaviors, ReplyBehaviors):
    """Builds the behaviours of one Playbook; each method adds zero or more."""

    def build(self) -> list[Behavior]:
        self.happy()
        self.outreach()
        self.reminder()
        self.resume()
        self.opt_out()
        self.simulate()
        self.off_topic()
        self.handoff()
        self.guardrail()
        self.examples()
        return self.out


__all__ = ["plan_anychat"]
